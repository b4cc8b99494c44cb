import { z } from 'zod';
import type { Route } from '../../http/route';
import type { Store } from '../../store';
import { invalidParam } from '../content/write';
import { sitePostTypes, siteTaxonomies } from '../registry';
import { addedAnswer, engineRoute, findDoc, KEY, nextId, okAnswer, storedId } from './common';
import { answerOf } from './query-common';
import { engineDocs, ENGINE, KINDS, type MetaBoxDoc } from './documents';
import { fieldAnswer, fieldList } from './fields';

/**
 * `engine/v2` meta boxes: named groups of fields attached to post types (or taxonomies). A post of an
 * attached type accepts, validates and shows the box's fields in its `meta` at `cms/v2`
 * (`metaFieldsOf` merges them with the type's own fields).
 */

const slugList = z.array(z.string().min(1).max(64));
const args = z.looseObject({
	name: z.string().trim().min(1).max(100),
	object_type: z.enum(['post', 'taxonomy']).default('post'),
	allowed_post_type: slugList.default([]),
	allowed_tax: slugList.default([]),
});

const addBody = z.object({ args, meta_fields: fieldList.default([]) });
const editBody = z.object({
	args: z.looseObject({ name: args.shape.name.optional(), object_type: z.enum(['post', 'taxonomy']).optional(), allowed_post_type: slugList.optional(), allowed_tax: slugList.optional() }).optional(),
	meta_fields: fieldList.optional(),
});

const idParams = z.object({ id: z.string() });
const WHAT = 'Meta box';
const CODE = 'meta_box';

const find = (store: Store, id: string) => findDoc<MetaBoxDoc>(store, KINDS.metaBox, storedId(id, WHAT, CODE), WHAT, CODE);

/** A meta box as the engine answers it (args the client added beyond the known ones kept as given). */
export const metaBoxAnswer = z.object({
	id: z.number().int(),
	args: z.looseObject({ name: z.string(), object_type: z.enum(['post', 'taxonomy']), allowed_post_type: z.array(z.string()), allowed_tax: z.array(z.string()) }),
	meta_fields: z.array(fieldAnswer),
});

const view = (id: string, doc: MetaBoxDoc): z.output<typeof metaBoxAnswer> => ({ id: Number(id), ...doc });

/** The box is attached to things that exist: post types (not media) or taxonomies of the registry. */
function checkTargets(store: Store, doc: MetaBoxDoc) {
	const types = sitePostTypes(store).filter((t) => t.slug !== 'attachment').map((t) => t.slug);
	const unknownTypes = doc.args.allowed_post_type.filter((slug) => !types.includes(slug));
	if (unknownTypes.length) throw invalidParam('args', `args.allowed_post_type names no post type of the site: ${unknownTypes.join(', ')}`);
	const taxonomies = siteTaxonomies(store).map((t) => t.slug);
	const unknownTax = doc.args.allowed_tax.filter((slug) => !taxonomies.includes(slug));
	if (unknownTax.length) throw invalidParam('args', `args.allowed_tax names no taxonomy of the site: ${unknownTax.join(', ')}`);
}

/** Lists without repeats, as the plugin's multi-select keeps them. */
const distinct = (doc: MetaBoxDoc): MetaBoxDoc => ({
	...doc,
	args: { ...doc.args, allowed_post_type: [...new Set(doc.args.allowed_post_type)], allowed_tax: [...new Set(doc.args.allowed_tax)] },
});

export const metaBoxRoutes: Route[] = [
	engineRoute({
		method: 'POST',
		path: 'add-meta-box',
		summary: 'Add a meta box: fields that the posts of the post types in args.allowed_post_type carry in their meta',
		body: addBody,
		answer: addedAnswer(metaBoxAnswer),
		handler: ({ services: { store }, body }) =>
			store.tx(() => {
				const doc = distinct(body as MetaBoxDoc);
				checkTargets(store, doc);
				const id = nextId(store, KINDS.metaBox);
				store.objects.put(ENGINE, KINDS.metaBox, id, doc);
				return { success: true as const, item_id: Number(id), data: view(id, doc) };
			}),
	}),
	engineRoute({
		method: 'POST',
		path: 'edit-meta-box/{id}',
		summary: 'Edit a meta box: the args given are merged over the stored ones; meta_fields, when given, replace them',
		params: idParams,
		patterns: { id: KEY },
		body: editBody,
		answer: answerOf(metaBoxAnswer),
		handler: ({ services: { store }, params, body }) =>
			store.tx(() => {
				const { key, data: before } = find(store, params.id);
				const doc = distinct({ args: { ...before.args, ...(body.args as Partial<MetaBoxDoc['args']>) }, meta_fields: body.meta_fields ?? before.meta_fields });
				checkTargets(store, doc);
				store.objects.put(ENGINE, KINDS.metaBox, key, doc);
				return { success: true as const, data: view(key, doc) };
			}),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-meta-box/{id}',
		summary: 'Get a meta box with its args and fields',
		params: idParams,
		patterns: { id: KEY },
		answer: answerOf(metaBoxAnswer),
		handler: ({ services: { store }, params }) => {
			const { key, data } = find(store, params.id);
			return { success: true as const, data: view(key, data) };
		},
	}),
	engineRoute({
		method: 'GET',
		path: 'get-meta-boxes',
		summary: 'List the meta boxes',
		answer: answerOf(z.array(metaBoxAnswer)),
		handler: ({ services: { store } }) => ({ success: true as const, data: engineDocs<MetaBoxDoc>(store, KINDS.metaBox).map((d) => view(d.key, d.data)) }),
	}),
	engineRoute({
		method: 'DELETE',
		path: 'delete-meta-box/{id}',
		summary: "Delete a meta box: its fields leave the posts' meta (stored values stay, unshown, as WordPress keeps unregistered meta)",
		params: idParams,
		patterns: { id: KEY },
		answer: okAnswer,
		handler: ({ services: { store }, params }) => {
			const { key } = find(store, params.id);
			store.objects.delete(ENGINE, KINDS.metaBox, key);
			return { success: true as const };
		},
	}),
];
