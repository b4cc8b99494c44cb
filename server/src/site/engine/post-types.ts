import { z } from 'zod';
import type { Route } from '../../http/route';
import type { Store } from '../../store';
import { invalidParam } from '../content/write';
import { BUILTIN_POST_TYPES, sitePostTypes } from '../registry';
import { addedAnswer, advancedSettings, copySlug, DIGITS, engineRoute, findDoc, KEY, labelsSchema, merged, nextId, okAnswer, restBaseFree, slugFromName, storedId, taken } from './common';
import { answerOf } from './query-common';
import { builtInRoutes } from './built-ins';
import { engineDocs, ENGINE, KINDS, type MetaBoxDoc, type PostTypeDoc, type RelationDoc, type TaxonomyDoc } from './documents';
import { fieldAnswer, fieldList } from './fields';

/**
 * `engine/v2` post types: added ones (add, edit, get, list, copy, delete with what becomes of their
 * posts) and the built-in ones (relabelled, given fields, reset). Added types are real for the whole
 * site through the registry: `cms/v2/<rest_base>` serves their items.
 */

/** WordPress's limit for a post type key. */
const SLUG_MAX = 20;
const slugSchema = z.string().regex(/^[a-z0-9_-]{1,20}$/, { error: 'must be 1 to 20 lowercase letters, digits, hyphens or underscores' });

/** Post type keys WordPress keeps for itself (its own types and query variables). */
const RESERVED = [
	'post', 'page', 'attachment', 'revision', 'nav_menu_item', 'custom_css', 'customize_changeset', 'oembed_cache', 'user_request',
	'wp_block', 'wp_template', 'wp_template_part', 'wp_global_styles', 'wp_navigation', 'wp_font_family', 'wp_font_face',
	'action', 'author', 'order', 'theme', 'type', 'name', 'term', 'taxonomy', 'search', 'category', 'tag', 'feed', 'year', 'day',
];

const general = z.looseObject({ name: z.string().trim().min(1).max(100), slug: slugSchema.optional() });
const advanced = advancedSettings({ supports: z.array(z.string().max(50)).optional() });

const addBody = z.object({
	general_settings: general,
	labels: labelsSchema.optional(),
	advanced_settings: advanced.optional(),
	meta_fields: fieldList.optional(),
});
const editBody = z.object({
	general_settings: general.partial().optional(),
	labels: labelsSchema.optional(),
	advanced_settings: advanced.optional(),
	meta_fields: fieldList.optional(),
});
type Body = z.output<typeof editBody>;

const idParams = z.object({ id: z.string() });
const WHAT = 'Post type';
const CODE = 'post_type';

const find = (store: Store, id: string) => findDoc<PostTypeDoc>(store, KINDS.postType, id, WHAT, CODE);

/** An added post type as the engine answers it (settings the client added beyond the known ones kept as given). */
export const postTypeAnswer = z.object({
	id: z.number().int(),
	general_settings: z.looseObject({ name: z.string(), slug: z.string() }),
	labels: z.record(z.string(), z.string()),
	advanced_settings: z.looseObject({ public: z.boolean(), hierarchical: z.boolean(), rest_base: z.string(), supports: z.array(z.string()) }),
	meta_fields: z.array(fieldAnswer),
});

const view = (id: string, doc: PostTypeDoc): z.output<typeof postTypeAnswer> => ({ id: Number(id), ...doc });

/** The stored document after a body (an edit merges each section over the stored one; fields are replaced). */
function buildDoc(body: Body, before?: PostTypeDoc): PostTypeDoc {
	const settings = merged(before?.general_settings ?? { name: '', slug: '' }, body.general_settings as PostTypeDoc['general_settings']);
	const slug = body.general_settings?.slug ?? (before?.general_settings.slug || slugFromName(settings.name, SLUG_MAX));
	if (!slug) throw invalidParam('general_settings', 'general_settings.slug is required: the name gives none');
	const adv = merged(before?.advanced_settings ?? { public: true, hierarchical: false, rest_base: slug, supports: ['title', 'editor'] }, body.advanced_settings as PostTypeDoc['advanced_settings']);
	const labels = merged(before?.labels ?? {}, body.labels);
	return {
		general_settings: { ...settings, slug },
		labels: { ...labels, name: labels.name || settings.name, singular_name: labels.singular_name || labels.name || settings.name },
		// A new type's collection is its slug unless it names another.
		advanced_settings: { ...adv, rest_base: body.advanced_settings?.rest_base ?? (before ? adv.rest_base : slug) },
		meta_fields: body.meta_fields ?? before?.meta_fields ?? [],
	};
}

/** The slug and REST base must be free (a 409 names the one that is not). */
function checkFree(store: Store, doc: PostTypeDoc, id?: number) {
	const slug = doc.general_settings.slug;
	if (RESERVED.includes(slug)) throw invalidParam('general_settings', `general_settings.slug ${slug} is reserved by WordPress`);
	if (sitePostTypes(store).some((t) => t.slug === slug && t.id !== id)) throw taken('general_settings', `A post type with the slug ${slug} already exists.`);
	const base = doc.advanced_settings.rest_base;
	if (!restBaseFree(store, base, id === undefined ? undefined : { kind: 'post_type', id })) {
		throw taken('advanced_settings', `The REST base ${base} is already used under cms/v2.`);
	}
}

/** The site's data follows a renamed type: its posts, and the taxonomies and meta boxes that name it. */
function renameType(store: Store, from: string, to: string) {
	store.db.prepare('UPDATE content SET type = ? WHERE type = ?').run(to, from);
	for (const { key, data } of engineDocs<TaxonomyDoc>(store, KINDS.taxonomy)) {
		const types = data.general_settings.object_type;
		if (types.includes(from)) store.objects.put(ENGINE, KINDS.taxonomy, key, { ...data, general_settings: { ...data.general_settings, object_type: types.map((t) => (t === from ? to : t)) } });
	}
	for (const { key, data } of engineDocs<MetaBoxDoc>(store, KINDS.metaBox)) {
		const types = data.args.allowed_post_type;
		if (types.includes(from)) store.objects.put(ENGINE, KINDS.metaBox, key, { ...data, args: { ...data.args, allowed_post_type: types.map((t) => (t === from ? to : t)) } });
	}
	for (const { key, data } of engineDocs<RelationDoc>(store, KINDS.relation)) {
		const renamed = (side: string) => (side === from ? to : side);
		if (data.parent_object === from || data.child_object === from) {
			store.objects.put(ENGINE, KINDS.relation, key, { ...data, parent_object: renamed(data.parent_object), child_object: renamed(data.child_object) });
		}
	}
}

/** Deletes the items of a type for good (their media stay, detached). */
function deleteItemsOf(store: Store, type: string) {
	const ids = store.db.prepare('SELECT id FROM content WHERE type = ?').all(type) as { id: number }[];
	for (const { id } of ids) {
		store.content.reparent('attachment', id, 0);
		store.content.delete(id);
	}
}

const DELETE_ACTIONS = ['none', 'delete', 'move'] as const;

/** WordPress's post, page and attachment as the engine shows them. */
const builtIns = builtInRoutes({
	noun: 'post type',
	paths: { get: 'get-built-in-post-type', edit: 'edit-built-in-post-type', reset: 'reset-built-in-post-type' },
	param: 'post_type',
	kind: KINDS.builtInPostType,
	exists: (slug) => BUILTIN_POST_TYPES.some((t) => t.slug === slug),
	view: (store, slug, override) => {
		const type = BUILTIN_POST_TYPES.find((t) => t.slug === slug)!;
		const current = sitePostTypes(store).find((t) => t.slug === slug)!;
		return {
			general_settings: { name: current.name, slug },
			labels: { ...override?.labels, name: current.name, singular_name: current.singular_name },
			advanced_settings: { ...override?.advanced_settings, public: current.public, hierarchical: type.hierarchical, rest_base: type.rest_base },
			meta_fields: override?.meta_fields ?? [],
		};
	},
});

export const postTypeRoutes: Route[] = [
	engineRoute({
		method: 'POST',
		path: 'add-post-type',
		summary: 'Add a post type; its items are served at cms/v2/<rest_base>',
		body: addBody,
		answer: addedAnswer(postTypeAnswer),
		errors: [409],
		handler: ({ services: { store }, body }) =>
			store.tx(() => {
				const doc = buildDoc(body);
				checkFree(store, doc);
				const id = nextId(store, KINDS.postType);
				store.objects.put(ENGINE, KINDS.postType, id, doc);
				return { success: true as const, item_id: Number(id), data: view(id, doc) };
			}),
	}),
	engineRoute({
		method: 'POST',
		path: 'edit-post-type/{id}',
		summary: 'Edit a post type: the sections given are merged over the stored ones; a new slug moves its posts along',
		params: idParams,
		patterns: { id: DIGITS },
		body: editBody,
		answer: answerOf(postTypeAnswer),
		errors: [409],
		handler: ({ services: { store }, params, body }) =>
			store.tx(() => {
				const before = find(store, params.id).data;
				const doc = buildDoc(body, before);
				checkFree(store, doc, Number(params.id));
				if (doc.general_settings.slug !== before.general_settings.slug) renameType(store, before.general_settings.slug, doc.general_settings.slug);
				store.objects.put(ENGINE, KINDS.postType, params.id, doc);
				return { success: true as const, data: view(params.id, doc) };
			}),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-post-type/{id}',
		summary: 'Get a post type with its settings, labels and fields',
		params: idParams,
		patterns: { id: DIGITS },
		answer: answerOf(postTypeAnswer),
		handler: ({ services: { store }, params }) => ({ success: true as const, data: view(params.id, find(store, params.id).data) }),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-post-types',
		summary: 'List the added post types',
		answer: answerOf(z.array(postTypeAnswer)),
		handler: ({ services: { store } }) => ({ success: true as const, data: engineDocs<PostTypeDoc>(store, KINDS.postType).map((d) => view(d.key, d.data)) }),
	}),
	engineRoute({
		method: 'DELETE',
		path: 'delete-post-type/{id}',
		summary: 'Delete a post type: its posts stay unreachable (none), are deleted (delete) or move to to_post_type (move)',
		params: idParams,
		patterns: { id: KEY },
		query: z.object({ action: z.enum(DELETE_ACTIONS).default('none'), to_post_type: z.string().optional() }),
		// WordPress reads parameters from the body too.
		body: z.object({ action: z.enum(DELETE_ACTIONS).optional(), to_post_type: z.string().optional() }),
		answer: okAnswer,
		handler: ({ services: { store }, params, query, body }) =>
			store.tx(() => {
				const id = storedId(params.id, WHAT, CODE);
				const doc = find(store, id).data;
				const slug = doc.general_settings.slug;
				const action = body.action ?? query.action;
				const target = body.to_post_type ?? query.to_post_type;
				if (action === 'move') {
					if (!target) throw invalidParam('to_post_type', 'to_post_type is required to move the posts');
					const known = sitePostTypes(store).some((t) => t.slug === target && t.slug !== slug && t.slug !== 'attachment');
					if (!known) throw invalidParam('to_post_type', `to_post_type must be another existing post type (not ${target})`);
					store.db.prepare('UPDATE content SET type = ? WHERE type = ?').run(target, slug);
				}
				if (action === 'delete') deleteItemsOf(store, slug);
				store.objects.delete(ENGINE, KINDS.postType, id);
				return { success: true as const };
			}),
	}),
	engineRoute({
		method: 'POST',
		path: 'copy-post-type/{id}',
		summary: 'Copy a post type (name "(Copy)", slug and REST base "-copy"), without its posts',
		params: idParams,
		patterns: { id: DIGITS },
		answer: addedAnswer(postTypeAnswer),
		handler: ({ services: { store }, params }) =>
			store.tx(() => {
				const source = find(store, params.id).data;
				const types = sitePostTypes(store);
				const slug = copySlug(source.general_settings.slug, SLUG_MAX, (s) => !types.some((t) => t.slug === s));
				const base = copySlug(source.advanced_settings.rest_base, 64, (b) => restBaseFree(store, b));
				const name = `${source.general_settings.name} (Copy)`;
				const doc: PostTypeDoc = {
					...structuredClone(source),
					general_settings: { ...source.general_settings, name, slug },
					labels: { ...source.labels, name: `${source.labels.name} (Copy)` },
					advanced_settings: { ...source.advanced_settings, rest_base: base },
				};
				const id = nextId(store, KINDS.postType);
				store.objects.put(ENGINE, KINDS.postType, id, doc);
				return { success: true as const, item_id: Number(id), data: view(id, doc) };
			}),
	}),
	...builtIns,
];
