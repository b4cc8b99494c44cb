import { z } from 'zod';
import type { Route } from '../../http/route';
import type { Store } from '../../store';
import { invalidParam } from '../content/write';
import { BUILTIN_TAXONOMIES, sitePostTypes, siteTaxonomies } from '../registry';
import { addedAnswer, advancedSettings, copySlug, DIGITS, engineRoute, findDoc, KEY, labelsSchema, merged, nextId, okAnswer, restBaseFree, slugFromName, storedId, taken } from './common';
import { answerOf } from './query-common';
import { engineDocs, ENGINE, KINDS, type MetaBoxDoc, type TaxonomyDoc } from './documents';
import { builtInRoutes } from './built-ins';
import { fieldAnswer, fieldList } from './fields';

/**
 * `engine/v2` taxonomies: added ones (a cms/v2 term collection each, assignable to the added post
 * types they name) and the built-in categories and tags (relabelled, given fields, reset).
 */

/** WordPress's limit for a taxonomy key. */
const SLUG_MAX = 32;
const slugSchema = z.string().regex(/^[a-z0-9_-]{1,32}$/, { error: 'must be 1 to 32 lowercase letters, digits, hyphens or underscores' });

/** Taxonomy keys WordPress keeps for itself (its taxonomies and query variables). */
const RESERVED = [
	'category', 'post_tag', 'nav_menu', 'link_category', 'post_format', 'wp_theme', 'wp_template_part_area', 'wp_pattern_category',
	'attachment', 'author', 'cat', 'day', 'feed', 'name', 'order', 'orderby', 'p', 'page', 'paged', 'post', 'post_type', 's', 'search',
	'tag', 'taxonomy', 'term', 'type', 'year',
];

const general = z.looseObject({
	name: z.string().trim().min(1).max(100),
	slug: slugSchema.optional(),
	/** The added post types whose items carry its terms. */
	object_type: z.array(z.string()).optional(),
});
const addBody = z.object({ general_settings: general, labels: labelsSchema.optional(), advanced_settings: advancedSettings().optional(), meta_fields: fieldList.optional() });
const editBody = z.object({
	general_settings: general.partial().optional(),
	labels: labelsSchema.optional(),
	advanced_settings: advancedSettings().optional(),
	meta_fields: fieldList.optional(),
});
type Body = z.output<typeof editBody>;

const idParams = z.object({ id: z.string() });
const WHAT = 'Taxonomy';
const CODE = 'taxonomy';

const find = (store: Store, id: string) => findDoc<TaxonomyDoc>(store, KINDS.taxonomy, id, WHAT, CODE);

/** An added taxonomy as the engine answers it (settings the client added beyond the known ones kept as given). */
export const taxonomyAnswer = z.object({
	id: z.number().int(),
	general_settings: z.looseObject({ name: z.string(), slug: z.string(), object_type: z.array(z.string()) }),
	labels: z.record(z.string(), z.string()),
	advanced_settings: z.looseObject({ public: z.boolean(), hierarchical: z.boolean(), rest_base: z.string() }),
	meta_fields: z.array(fieldAnswer),
});

const view = (id: string, doc: TaxonomyDoc): z.output<typeof taxonomyAnswer> => ({ id: Number(id), ...doc });

function buildDoc(store: Store, body: Body, before?: TaxonomyDoc): TaxonomyDoc {
	const settings = merged(before?.general_settings ?? { name: '', slug: '', object_type: [] }, body.general_settings as TaxonomyDoc['general_settings']);
	const slug = body.general_settings?.slug ?? (before?.general_settings.slug || slugFromName(settings.name, SLUG_MAX));
	if (!slug) throw invalidParam('general_settings', 'general_settings.slug is required: the name gives none');
	const given = body.general_settings?.object_type;
	if (given) {
		// The built-in collections are fixed: an added taxonomy is for the added post types.
		const added = sitePostTypes(store).filter((t) => !t.builtin).map((t) => t.slug);
		const unknown = given.filter((type) => !added.includes(type));
		if (unknown.length) throw invalidParam('general_settings', `general_settings.object_type names no added post type: ${unknown.join(', ')}`);
	}
	const adv = merged(before?.advanced_settings ?? { public: true, hierarchical: false, rest_base: slug }, body.advanced_settings as TaxonomyDoc['advanced_settings']);
	const labels = merged(before?.labels ?? {}, body.labels);
	return {
		general_settings: { ...settings, slug, object_type: [...new Set(given ?? settings.object_type ?? [])] },
		labels: { ...labels, name: labels.name || settings.name, singular_name: labels.singular_name || labels.name || settings.name },
		advanced_settings: { ...adv, rest_base: body.advanced_settings?.rest_base ?? (before ? adv.rest_base : slug) },
		meta_fields: body.meta_fields ?? before?.meta_fields ?? [],
	};
}

function checkFree(store: Store, doc: TaxonomyDoc, id?: number) {
	const slug = doc.general_settings.slug;
	if (RESERVED.includes(slug)) throw invalidParam('general_settings', `general_settings.slug ${slug} is reserved by WordPress`);
	if (siteTaxonomies(store).some((t) => t.slug === slug && t.id !== id)) throw taken('general_settings', `A taxonomy with the slug ${slug} already exists.`);
	const base = doc.advanced_settings.rest_base;
	if (!restBaseFree(store, base, id === undefined ? undefined : { kind: 'taxonomy', id })) {
		throw taken('advanced_settings', `The REST base ${base} is already used under cms/v2.`);
	}
}

/** The terms follow a renamed taxonomy, and so do the meta boxes that name it. */
function renameTaxonomy(store: Store, from: string, to: string) {
	store.db.prepare('UPDATE terms SET taxonomy = ? WHERE taxonomy = ?').run(to, from);
	for (const { key, data } of engineDocs<MetaBoxDoc>(store, KINDS.metaBox)) {
		const taxes = data.args.allowed_tax;
		if (taxes.includes(from)) store.objects.put(ENGINE, KINDS.metaBox, key, { ...data, args: { ...data.args, allowed_tax: taxes.map((t) => (t === from ? to : t)) } });
	}
}

/** Deletes the terms of a taxonomy and their place on items. */
function deleteTermsOf(store: Store, taxonomy: string) {
	store.db.prepare('DELETE FROM content_terms WHERE term_id IN (SELECT id FROM terms WHERE taxonomy = ?)').run(taxonomy);
	store.db.prepare('DELETE FROM terms WHERE taxonomy = ?').run(taxonomy);
}

const DELETE_ACTIONS = ['none', 'delete'] as const;

/** WordPress's categories and tags as the engine shows them. */
const builtIns = builtInRoutes({
	noun: 'taxonomy',
	paths: { get: 'get-built-in-tax', edit: 'edit-built-in-tax', reset: 'reset-built-in-tax' },
	param: 'tax',
	kind: KINDS.builtInTax,
	exists: (slug) => BUILTIN_TAXONOMIES.some((t) => t.slug === slug),
	view: (store, slug, override) => {
		const tax = BUILTIN_TAXONOMIES.find((t) => t.slug === slug)!;
		const current = siteTaxonomies(store).find((t) => t.slug === slug)!;
		return {
			general_settings: { name: current.name, slug, object_type: tax.object_types },
			labels: { ...override?.labels, name: current.name, singular_name: current.singular_name },
			advanced_settings: { ...override?.advanced_settings, public: current.public, hierarchical: tax.hierarchical, rest_base: tax.rest_base },
			meta_fields: override?.meta_fields ?? [],
		};
	},
});

export const taxonomyRoutes: Route[] = [
	engineRoute({
		method: 'POST',
		path: 'add-taxonomy',
		summary: 'Add a taxonomy; its terms are served at cms/v2/<rest_base> and items of the post types it names carry them',
		body: addBody,
		answer: addedAnswer(taxonomyAnswer),
		errors: [409],
		handler: ({ services: { store }, body }) =>
			store.tx(() => {
				const doc = buildDoc(store, body);
				checkFree(store, doc);
				const id = nextId(store, KINDS.taxonomy);
				store.objects.put(ENGINE, KINDS.taxonomy, id, doc);
				return { success: true as const, item_id: Number(id), data: view(id, doc) };
			}),
	}),
	engineRoute({
		method: 'POST',
		path: 'edit-taxonomy/{id}',
		summary: 'Edit a taxonomy: the sections given are merged over the stored ones; a new slug moves its terms along',
		params: idParams,
		patterns: { id: DIGITS },
		body: editBody,
		answer: answerOf(taxonomyAnswer),
		errors: [409],
		handler: ({ services: { store }, params, body }) =>
			store.tx(() => {
				const before = find(store, params.id).data;
				const doc = buildDoc(store, body, before);
				checkFree(store, doc, Number(params.id));
				if (doc.general_settings.slug !== before.general_settings.slug) renameTaxonomy(store, before.general_settings.slug, doc.general_settings.slug);
				store.objects.put(ENGINE, KINDS.taxonomy, params.id, doc);
				return { success: true as const, data: view(params.id, doc) };
			}),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-taxonomy/{id}',
		summary: 'Get a taxonomy with its settings, labels and fields',
		params: idParams,
		patterns: { id: DIGITS },
		answer: answerOf(taxonomyAnswer),
		handler: ({ services: { store }, params }) => ({ success: true as const, data: view(params.id, find(store, params.id).data) }),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-taxonomies',
		summary: 'List the added taxonomies',
		answer: answerOf(z.array(taxonomyAnswer)),
		handler: ({ services: { store } }) => ({ success: true as const, data: engineDocs<TaxonomyDoc>(store, KINDS.taxonomy).map((d) => view(d.key, d.data)) }),
	}),
	engineRoute({
		method: 'DELETE',
		path: 'delete-taxonomy/{id}',
		summary: 'Delete a taxonomy: its terms stay unreachable (none) or are deleted (delete)',
		params: idParams,
		patterns: { id: KEY },
		query: z.object({ action: z.enum(DELETE_ACTIONS).default('none') }),
		body: z.object({ action: z.enum(DELETE_ACTIONS).optional() }),
		answer: okAnswer,
		handler: ({ services: { store }, params, query, body }) =>
			store.tx(() => {
				const id = storedId(params.id, WHAT, CODE);
				const doc = find(store, id).data;
				if ((body.action ?? query.action) === 'delete') deleteTermsOf(store, doc.general_settings.slug);
				store.objects.delete(ENGINE, KINDS.taxonomy, id);
				return { success: true as const };
			}),
	}),
	engineRoute({
		method: 'POST',
		path: 'copy-taxonomy/{id}',
		summary: 'Copy a taxonomy (name "(Copy)", slug and REST base "-copy"), without its terms',
		params: idParams,
		patterns: { id: DIGITS },
		answer: addedAnswer(taxonomyAnswer),
		handler: ({ services: { store }, params }) =>
			store.tx(() => {
				const source = find(store, params.id).data;
				const taxonomies = siteTaxonomies(store);
				const slug = copySlug(source.general_settings.slug, SLUG_MAX, (s) => !taxonomies.some((t) => t.slug === s));
				const base = copySlug(source.advanced_settings.rest_base, 64, (b) => restBaseFree(store, b));
				const doc: TaxonomyDoc = {
					...structuredClone(source),
					general_settings: { ...source.general_settings, name: `${source.general_settings.name} (Copy)`, slug },
					labels: { ...source.labels, name: `${source.labels.name} (Copy)` },
					advanced_settings: { ...source.advanced_settings, rest_base: base },
				};
				const id = nextId(store, KINDS.taxonomy);
				store.objects.put(ENGINE, KINDS.taxonomy, id, doc);
				return { success: true as const, item_id: Number(id), data: view(id, doc) };
			}),
	}),
	...builtIns,
];
