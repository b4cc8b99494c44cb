import { z } from 'zod';
import type { Route } from '../../http/route';
import type { Store } from '../../store';
import { invalidParam } from '../content/write';
import { addedAnswer, DIGITS, engineRoute, findDoc, KEY, merged, nextId, okAnswer, slugFromName, storedId, taken } from './common';
import { answerOf } from './query-common';
import { engineDoc, engineDocs, ENGINE, KINDS, type OptionsPageDoc } from './documents';
import { applyChanges, checkValues, type Field, fieldAnswer, fieldList, shownValues } from './fields';

/**
 * `engine/v2` options pages: a settings page with fields, and its values. The values are kept apart,
 * keyed by the page's slug (as the plugin keeps them in an option named by the slug): add and edit
 * take them in `values`, checked against the page's fields; get shows them.
 */

const SLUG_MAX = 64;
const slugSchema = z.string().regex(/^[a-z0-9_-]{1,64}$/, { error: 'must be 1 to 64 lowercase letters, digits, hyphens or underscores' });
const general = z.looseObject({ name: z.string().trim().min(1).max(100), slug: slugSchema.optional(), menu_name: z.string().max(100).optional() });
const values = z.record(z.string(), z.unknown());

const addBody = z.object({ general_settings: general, meta_fields: fieldList.default([]), values: values.optional() });
const editBody = z.object({ general_settings: general.partial().optional(), meta_fields: fieldList.optional(), values: values.optional() });

const idParams = z.object({ id: z.string() });
const WHAT = 'Options page';
const CODE = 'options_page';
const DELETE_ACTIONS = ['none', 'delete'] as const;

const find = (store: Store, id: string) => findDoc<OptionsPageDoc>(store, KINDS.optionsPage, id, WHAT, CODE);

const storedValues = (store: Store, slug: string) => engineDoc<Record<string, unknown>>(store, KINDS.optionsValues, slug)?.data ?? {};

/** An options page as the engine answers it, with its values (settings the client added beyond the known ones kept as given). */
export const optionsPageAnswer = z.object({
	id: z.number().int(),
	general_settings: z.looseObject({ name: z.string(), slug: z.string(), menu_name: z.string() }),
	meta_fields: z.array(fieldAnswer),
	values: z.record(z.string(), z.unknown()).meta({ description: "Each field's value (its default, or its type's empty value, when none is stored)" }),
});

const view = (store: Store, id: string, doc: OptionsPageDoc): z.output<typeof optionsPageAnswer> => ({ id: Number(id), ...doc, values: shownValues(doc.meta_fields, storedValues(store, doc.general_settings.slug)) });

/**
 * The values after `given`, checked against the page's fields (keys that are no field are ignored); a
 * required field without a default must have a value once values are written.
 */
function nextValues(store: Store, fields: Field[], before: Record<string, unknown>, given: Record<string, unknown>) {
	const checked = checkValues(fields, given, { creating: false, store, prefix: 'values.' });
	if ('sentence' in checked) throw invalidParam('values', checked.sentence);
	const after = applyChanges(before, checked.changes);
	const missing = fields.find((f) => f.is_required && after[f.name] === undefined && (f.default_val === undefined || f.default_val === null));
	if (missing) throw invalidParam('values', `values.${missing.name} is required`);
	return after;
}

/** A slug no other options page has (409 otherwise). */
function checkFree(store: Store, slug: string, id?: string) {
	if (engineDocs<OptionsPageDoc>(store, KINDS.optionsPage).some((d) => d.data.general_settings.slug === slug && d.key !== id)) {
		throw taken('general_settings', `An options page with the slug ${slug} already exists.`);
	}
}

export const optionsPageRoutes: Route[] = [
	engineRoute({
		method: 'POST',
		path: 'add-options-page',
		summary: 'Add an options page with its fields (and, in values, their first values)',
		body: addBody,
		answer: addedAnswer(optionsPageAnswer),
		errors: [409],
		handler: ({ services: { store }, body }) =>
			store.tx(() => {
				const slug = body.general_settings.slug ?? slugFromName(body.general_settings.name, SLUG_MAX);
				if (!slug) throw invalidParam('general_settings', 'general_settings.slug is required: the name gives none');
				checkFree(store, slug);
				const doc: OptionsPageDoc = {
					general_settings: { ...body.general_settings, slug, menu_name: body.general_settings.menu_name || body.general_settings.name },
					meta_fields: body.meta_fields,
				};
				// Values a page of the same slug left behind are found again (delete with action none keeps them).
				if (body.values) store.objects.put(ENGINE, KINDS.optionsValues, slug, nextValues(store, doc.meta_fields, storedValues(store, slug), body.values));
				const id = nextId(store, KINDS.optionsPage);
				store.objects.put(ENGINE, KINDS.optionsPage, id, doc);
				return { success: true as const, item_id: Number(id), data: view(store, id, doc) };
			}),
	}),
	engineRoute({
		method: 'POST',
		path: 'edit-options-page/{id}',
		summary: 'Edit an options page: settings merged, fields replaced when given, values checked against the fields and stored',
		params: idParams,
		patterns: { id: DIGITS },
		body: editBody,
		answer: answerOf(optionsPageAnswer),
		errors: [409],
		handler: ({ services: { store }, params, body }) =>
			store.tx(() => {
				const before = find(store, params.id).data;
				const doc: OptionsPageDoc = {
					general_settings: merged(before.general_settings, body.general_settings as OptionsPageDoc['general_settings']),
					meta_fields: body.meta_fields ?? before.meta_fields,
				};
				const from = before.general_settings.slug;
				const slug = doc.general_settings.slug;
				if (slug !== from) {
					checkFree(store, slug, params.id);
					// The values follow the page.
					store.objects.put(ENGINE, KINDS.optionsValues, slug, storedValues(store, from));
					store.objects.delete(ENGINE, KINDS.optionsValues, from);
				}
				if (body.values) store.objects.put(ENGINE, KINDS.optionsValues, slug, nextValues(store, doc.meta_fields, storedValues(store, slug), body.values));
				store.objects.put(ENGINE, KINDS.optionsPage, params.id, doc);
				return { success: true as const, data: view(store, params.id, doc) };
			}),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-options-page/{id}',
		summary: 'Get an options page with its settings, fields and values',
		params: idParams,
		patterns: { id: DIGITS },
		answer: answerOf(optionsPageAnswer),
		handler: ({ services: { store }, params }) => ({ success: true as const, data: view(store, params.id, find(store, params.id).data) }),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-options-pages',
		summary: 'List the options pages with their values',
		answer: answerOf(z.array(optionsPageAnswer)),
		handler: ({ services: { store } }) => ({ success: true as const, data: engineDocs<OptionsPageDoc>(store, KINDS.optionsPage).map((d) => view(store, d.key, d.data)) }),
	}),
	engineRoute({
		method: 'DELETE',
		path: 'delete-options-page/{id}',
		summary: 'Delete an options page: its values stay for a page of the same slug (none) or are deleted (delete)',
		params: idParams,
		patterns: { id: KEY },
		query: z.object({ action: z.enum(DELETE_ACTIONS).default('none') }),
		// WordPress reads parameters from the body too.
		body: z.object({ action: z.enum(DELETE_ACTIONS).optional() }),
		answer: okAnswer,
		handler: ({ services: { store }, params, query, body }) =>
			store.tx(() => {
				const id = storedId(params.id, WHAT, CODE);
				const doc = find(store, id).data;
				if ((body.action ?? query.action) === 'delete') store.objects.delete(ENGINE, KINDS.optionsValues, doc.general_settings.slug);
				store.objects.delete(ENGINE, KINDS.optionsPage, id);
				return { success: true as const };
			}),
	}),
];
