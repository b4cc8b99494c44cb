import { z } from 'zod';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type AllowContext, type Method, type Route, requestContext, route, setAnswerContext } from '../../http/route';
import type { Services } from '../../services';
import type { TermRow, UserRow } from '../../store/types';
import { can } from '../roles';
import { canManageTerms, canRead, denied } from './capabilities';
import { DIGITS, contextParam, idList, list, searchParam, wpBool, wpInt } from './params';
import { ALL, type Context, type ContextTable, VIEW_EDIT } from '../contexts';
import { pagingHeaders, pathId, searchTerms, Where } from './query';
import { filterDescription } from './kses';
import { sanitizeTitle } from './render';
import { CATEGORY, DEFAULT_CATEGORY, POST, type PostType, TAG, type Taxonomy } from './types';
import { contentBase, inContext } from './views';
import { contextTable, deletedAnswer, itemAnswer, wpItemSchema } from '../item-schema';
import { contentEnv, invalidParam } from './write';

/**
 * `/cms/v2/categories`, `/cms/v2/tags` (and an engine taxonomy's collection), WordPress's terms
 * controller: GET lists and reads, POST creates, POST/PUT/PATCH update, DELETE (force=true: terms have
 * no trash) deletes; all may run inside `POST /batch/v1` (WordPress's terms controller allows batching).
 * Beyond the spec's cut index, they make the term ids of posts something a client manages.
 */

const termUrl = (services: Services, tax: Taxonomy, id: number) => `${contentBase(services)}/${tax.base}/${id}`;

/** A term as WordPress's terms controller answers it (its item schema: `category`, `tag`, or the taxonomy's name). */
const makeTermItem = (tax: Taxonomy) =>
	z.object({
		id: z.int().meta({ description: 'Unique identifier for the term.', context: ALL, readonly: true }),
		count: z.int().meta({ description: 'Number of published posts for the term.', context: VIEW_EDIT, readonly: true }),
		description: z.string().meta({ description: 'HTML description of the term.', context: VIEW_EDIT }),
		link: z.string().meta({ description: 'URL of the term.', format: 'uri', context: ALL, readonly: true }),
		name: z.string().meta({ description: 'HTML title for the term.', context: ALL, required: true }),
		slug: z.string().meta({ description: 'An alphanumeric identifier for the term unique to its type.', context: ALL }),
		taxonomy: z.enum([tax.name]).meta({ description: 'Type attribution for the term.', context: ALL, readonly: true }),
		...(tax.hierarchical ? { parent: z.int().meta({ description: 'The parent term ID.', context: VIEW_EDIT }) } : {}),
		// No term meta is registered: PHP's empty map, `[]`.
		meta: z.custom<[]>((value) => Array.isArray(value) && value.length === 0).meta({ description: 'Meta fields.', type: 'object', context: VIEW_EDIT, properties: {} }),
	});
const termItems = new Map<string, ReturnType<typeof makeTermItem>>();
export function termItem(tax: Taxonomy) {
	let item = termItems.get(tax.name);
	if (!item) termItems.set(tax.name, (item = makeTermItem(tax)));
	return item;
}
const termSchema = (tax: Taxonomy) => () => wpItemSchema(schemaTitle(tax), termItem(tax));
const termContexts = new Map<string, ContextTable>();

const forceParam = wpBool.prefault(false).meta({ description: 'Required to be true, as terms do not support trashing.' });
const schemaTitle = (tax: Taxonomy) => (tax.name === TAG.name ? 'tag' : tax.name);

/** What a create or update takes (WordPress's arguments from the item schema). */
const termFields = (tax: Taxonomy) => ({
	name: z.string().max(200).meta({ description: 'HTML title for the term.' }),
	description: z.string().optional().meta({ description: 'HTML description of the term.' }),
	slug: z.string().max(200).optional().meta({ description: 'An alphanumeric identifier for the term unique to its type.' }),
	...(tax.hierarchical ? { parent: wpInt(0).optional().meta({ description: 'The parent term ID.' }) } : {}),
	// No term meta is registered: accepted and ignored, as WordPress ignores unregistered meta.
	meta: z.record(z.string(), z.unknown()).optional().meta({ properties: {} }),
});

/** A term's page with plain permalinks: `?cat=3`, `?tag=news`, and an engine taxonomy's query var `?genre=drama`. */
export function termQuery(tax: Taxonomy, row: TermRow): string {
	if (tax.name === CATEGORY.name) return `cat=${row.id}`;
	return `${tax.name === TAG.name ? 'tag' : tax.name}=${encodeURIComponent(row.slug)}`;
}

function termView(services: Services, tax: Taxonomy, row: TermRow, count: number, context: Context, objectDef: PostType = POST): Record<string, unknown> {
	const rest = contentBase(services);
	const query = termQuery(tax, row);
	const full: Record<string, unknown> = {
		id: row.id,
		count,
		description: row.description,
		link: `${services.baseUrl}/?${query}`,
		name: row.name,
		slug: row.slug,
		taxonomy: tax.name,
		...(tax.hierarchical ? { parent: row.parent } : {}),
		meta: [],
	};
	if (!termContexts.has(tax.name)) termContexts.set(tax.name, contextTable(termItem(tax)));
	const out = inContext(full, termContexts.get(tax.name)!, context);
	const links: Record<string, object[]> = {
		self: [{ href: termUrl(services, tax, row.id) }],
		collection: [{ href: `${rest}/${tax.base}` }],
		about: [{ href: `${rest}/taxonomies/${tax.name}` }],
		...(tax.hierarchical && row.parent ? { up: [{ embeddable: true, href: termUrl(services, tax, row.parent) }] } : {}),
		'wp:post_type': [{ href: `${rest}/${objectDef.base}?${tax.base}=${row.id}` }],
		curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
	};
	return { ...out, _links: links };
}

/**
 * WordPress's `wp_unique_term_slug`: a slug no other term of the taxonomy has; under a parent, first
 * with the parents' slugs appended (`apple-fruit`), then numbered (`apple-2`).
 */
function uniqueTermSlug(services: Services, tax: Taxonomy, slug: string, parent: number, id: number): string {
	const terms = services.store.terms;
	const taken = (candidate: string) => {
		const other = terms.bySlug(tax.name, candidate);
		return !!other && other.id !== id;
	};
	if (!taken(slug)) return slug;
	let base = slug;
	if (tax.hierarchical) {
		let suffix = '';
		for (let up = parent ? terms.get(parent, tax.name) : undefined; up; up = up.parent ? terms.get(up.parent, tax.name) : undefined) {
			suffix += `-${up.slug}`;
			if (!taken(slug + suffix) || !up.parent) break;
		}
		base = slug + suffix;
		if (!taken(base)) return base;
	}
	let n = 2;
	while (taken(`${base}-${n}`)) n++;
	return `${base}-${n}`;
}

/** Whether `root` is the term `id` or one of its ancestors. */
function inSubtree(services: Services, tax: Taxonomy, id: number, root: number): boolean {
	const seen = new Set<number>();
	for (let at = services.store.terms.get(id, tax.name); at && !seen.has(at.id); at = at.parent ? services.store.terms.get(at.parent, tax.name) : undefined) {
		if (at.id === root) return true;
		seen.add(at.id);
	}
	return false;
}

/** The term of the taxonomy with this id, or WordPress's 404. */
function findTerm(services: Services, tax: Taxonomy, id: number): TermRow {
	const row = id > 0 ? services.store.terms.get(id, tax.name) : undefined;
	if (!row) throw notFound('Term does not exist.', 'rest_term_invalid');
	return row;
}

const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'] as const;

const ORDER_SQL: Record<string, string> = {
	id: 't.id',
	name: 't.name COLLATE NOCASE',
	slug: 't.slug',
	term_group: 't.id',
	description: 't.description COLLATE NOCASE',
	count: `(SELECT count(*) FROM content_terms ct JOIN content c ON c.id = ct.content_id WHERE ct.term_id = t.id AND c.status = 'publish')`,
};

/**
 * The term routes of a taxonomy; `objectDef` is the post type its terms are listed for (`?post=`) and
 * linked to: posts for categories and tags, the first post type an engine taxonomy is assigned to.
 */
export function termRoutes(tax: Taxonomy, objectDef: PostType = POST): Route[] {
	const path = `/cms/v2/${tax.base}`;
	// WordPress: categories are managed by editors; a tag may be made by anyone who can tag posts.
	const mayCreate = (user: UserRow | null) => (tax.hierarchical ? canManageTerms(user) : can(user, objectDef.caps.edit_posts));

	// The item routes' permission callbacks, for `Allow`: the term must exist (a throw is a no).
	const onTerm = (may: (user: UserRow | null, row: TermRow, ctx: AllowContext) => boolean) => (ctx: AllowContext) =>
		may(ctx.siteUser, findTerm(ctx.services, tax, pathId(ctx.request, ctx.params.id)), ctx);
	const answer = itemAnswer(termItem(tax));
	// One body for POST, PUT and PATCH: WordPress's one EDITABLE endpoint.
	const updateBody = z.object({ ...termFields(tax), name: termFields(tax).name.optional() });
	const update = (method: Method) =>
		route({
			method,
			path: `${path}/{id}`,
			auth: 'site',
			batch: true,
			allowed: onTerm((user) => canManageTerms(user)),
			summary: `Update a ${tax.noun}: name, description, slug${tax.hierarchical ? ', parent' : ''}`,
			params: z.object({ id: z.string() }),
			patterns: { id: DIGITS },
			body: updateBody,
			answer,
			errors: [403],
			handler: ({ services, siteUser: user, params, body, request }) => {
				const id = pathId(request, params.id);
				const raw = request.body as { parent?: unknown } | undefined;
				const row = services.store.tx(() => {
					const store = services.store;
					const before = findTerm(services, tax, id);
					if (!canManageTerms(user)) throw denied(user, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
					if (!tax.hierarchical && raw?.parent !== undefined) {
						throw badRequest('Cannot set parent term, taxonomy is not hierarchical.', 'rest_taxonomy_not_hierarchical');
					}
					const parent = (body as { parent?: number }).parent ?? before.parent;
					if (parent !== before.parent && parent) {
						if (!store.terms.get(parent, tax.name)) throw badRequest('Parent term does not exist.', 'rest_term_invalid');
						if (inSubtree(services, tax, parent, before.id)) {
							throw badRequest(`Parent term ${parent} is this ${tax.noun} or one below it.`, 'rest_term_invalid');
						}
					}
					const name = body.name === undefined ? before.name : body.name.trim();
					if (name === '') throw badRequest('A name is required for this term.', 'empty_term_name');
					let slug = before.slug;
					if (body.slug !== undefined) {
						// As `wp_update_term`: an empty slug comes from the name; a taken one is refused unless the parent changes.
						const given = sanitizeTitle(body.slug);
						const wanted = given || sanitizeTitle(name) || 'term';
						const other = store.terms.bySlug(tax.name, wanted);
						if (other && other.id !== before.id && given && parent === before.parent) {
							throw badRequest(`The slug “${wanted}” is already in use by another term.`, 'duplicate_term_slug');
						}
						slug = uniqueTermSlug(services, tax, wanted, parent, before.id);
					}
					return store.terms.save({ ...before, name, slug, description: body.description === undefined ? before.description : filterDescription('term', body.description), parent });
				});
				return termView(services, tax, row, services.store.terms.counts([row.id]).get(row.id) ?? 0, 'edit', objectDef);
			},
		});

	return [
		route({
			method: 'GET',
			path,
			auth: 'site',
			batch: true,
			summary: `List ${tax.base}, searched and paged (X-WP-Total, X-WP-TotalPages, Link)`,
			allowed: ({ siteUser, request }) => requestContext(request) !== 'edit' || canManageTerms(siteUser),
			schema: termSchema(tax),
			query: phpQuery({
				context: contextParam,
				page: wpInt(1).prefault(1),
				per_page: wpInt(1, 100).prefault(10),
				search: searchParam.optional(),
				exclude: idList().prefault([]),
				include: idList().prefault([]),
				// As WordPress: a hierarchical taxonomy's collection has no offset.
				...(tax.hierarchical ? {} : { offset: wpInt().optional() }),
				order: z.enum(['asc', 'desc']).default('asc'),
				orderby: z.enum(TERM_ORDERBY).default('name'),
				hide_empty: wpBool.prefault(false),
				...(tax.hierarchical ? { parent: wpInt(0).optional() } : {}),
				post: wpInt(0).optional().meta({ description: 'Limit result set to terms assigned to a specific post.', default: null }),
				slug: list(z.string()).optional(),
			}),
			answer: z.array(answer),
			errors: [403],
			handler: ({ services, siteUser: user, query, request, reply }) => {
				contentEnv(services, user, objectDef);
				const q = query as typeof query & { parent?: number; offset?: number };
				if (q.post) {
					const post = services.store.content.get(q.post);
					if (!post || post.type !== objectDef.type) throw badRequest('Invalid post ID.', 'rest_post_invalid_id');
					if (!canRead(user, objectDef, post)) throw denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to view terms for this post.');
				}
				if (q.context === 'edit' && !canManageTerms(user)) {
					throw denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit terms in this taxonomy.');
				}
				const where = new Where().add('t.taxonomy = ?', tax.name);
				if (q.search?.trim()) {
					for (const { term } of searchTerms(q.search).filter((t) => !t.exclude)) {
						const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
						where.add("(t.name LIKE ? ESCAPE '\\' OR t.slug LIKE ? ESCAPE '\\')", like, like);
					}
				}
				const ids = (values: number[]) => JSON.stringify(values);
				if (q.include.length) where.add('t.id IN (SELECT value FROM json_each(?))', ids(q.include));
				if (q.exclude.length) where.add('t.id NOT IN (SELECT value FROM json_each(?))', ids(q.exclude));
				if (q.parent !== undefined) where.add('t.parent = ?', q.parent);
				if (q.post) where.add('t.id IN (SELECT term_id FROM content_terms WHERE content_id = ?)', q.post);
				if (q.slug?.length) where.add('t.slug IN (SELECT value FROM json_each(?))', JSON.stringify(q.slug.map(sanitizeTitle)));
				if (q.hide_empty) where.add(`${ORDER_SQL.count} > 0`);
				const dir = q.order === 'desc' ? 'DESC' : 'ASC';
				// WP_Term_Query orders by the one column: ties come in MariaDB's storage order, by id ascending.
				const order =
					q.orderby === 'include' && q.include.length
						? { sql: '(SELECT key FROM json_each(?) WHERE value = t.id), t.id', params: [ids(q.include)] }
						: q.orderby === 'include_slugs' && q.slug?.length
							? { sql: '(SELECT key FROM json_each(?) WHERE value = t.slug), t.id', params: [JSON.stringify(q.slug.map(sanitizeTitle))] }
							: { sql: `${ORDER_SQL[q.orderby] ?? ORDER_SQL.name} ${dir}, t.id ASC`, params: [] };
				const offset = q.offset !== undefined ? Math.abs(q.offset) : (q.page - 1) * q.per_page;
				const { rows, total } = services.store.terms.find(where.sql(), order, q.per_page, offset);
				const totalPages = Math.ceil(total / q.per_page);
				pagingHeaders(reply, request, `${contentBase(services)}/${tax.base}`, q.page, total, totalPages);
				const counts = services.store.terms.counts(rows.map((r) => r.id));
				return rows.map((row) => termView(services, tax, row, counts.get(row.id) ?? 0, q.context, objectDef));
			},
		}),

		route({
			method: 'GET',
			path: `${path}/{id}`,
			auth: 'site',
			batch: true,
			summary: `Get a ${tax.noun}`,
			allowed: onTerm((user, _row, ctx) => requestContext(ctx.request) !== 'edit' || canManageTerms(user)),
			params: z.object({ id: z.string() }),
			patterns: { id: DIGITS },
			query: phpQuery({ context: contextParam }),
			schema: termSchema(tax),
			answer,
			errors: [403],
			handler: ({ services, siteUser: user, params, query, request }) => {
				const row = findTerm(services, tax, pathId(request, params.id));
				if (query.context === 'edit' && !canManageTerms(user)) {
					throw denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this term.');
				}
				return termView(services, tax, row, services.store.terms.counts([row.id]).get(row.id) ?? 0, query.context, objectDef);
			},
		}),

		route({
			method: 'POST',
			path,
			auth: 'site',
			batch: true,
			summary: `Create a ${tax.noun} (201, Location)`,
			allowed: ({ siteUser }) => mayCreate(siteUser),
			body: z.object(termFields(tax)),
			answer,
			status: 201,
			errors: [403],
			handler: ({ services, siteUser: user, body, request, reply }) => {
				if (!mayCreate(user)) {
					throw denied(user, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
				}
				const raw = request.body as { parent?: unknown } | undefined;
				if (!tax.hierarchical && raw?.parent !== undefined) {
					throw badRequest('Cannot set parent term, taxonomy is not hierarchical.', 'rest_taxonomy_not_hierarchical');
				}
				const parent = (body as { parent?: number }).parent ?? 0;
				const name = body.name.trim();
				if (name === '') throw invalidParam('name', 'name must not be empty');
				const row = services.store.tx(() => {
					const store = services.store;
					if (parent && !store.terms.get(parent, tax.name)) throw badRequest('Parent term does not exist.', 'rest_term_invalid');
					const same = store.terms.byName(tax.name, name, parent);
					if (same) {
						const message = tax.hierarchical ? 'A term with the name provided already exists with this parent.' : 'A term with the name provided already exists in this taxonomy.';
						// As WordPress's `create_item`, which adds the term's id to `wp_insert_term`'s error twice over.
						const exists = badRequest(message, 'term_exists', { term_id: same.id });
						exists.additionalData = [same.id, same.id];
						throw exists;
					}
					// A taken slug is made unique, as `wp_insert_term` does.
					const slug = uniqueTermSlug(services, tax, sanitizeTitle(body.slug ?? '') || sanitizeTitle(name) || 'term', parent, 0);
					return store.terms.insert({ taxonomy: tax.name, name, slug, description: filterDescription('term', body.description ?? ''), parent });
				});
				reply.header('Location', termUrl(services, tax, row.id));
				return termView(services, tax, row, 0, 'edit', objectDef);
			},
		}),

		update('POST'),
		update('PUT'),
		update('PATCH'),

		route({
			method: 'DELETE',
			path: `${path}/{id}`,
			auth: 'site',
			batch: true,
			summary: `Delete a ${tax.noun} (force=true is required: terms have no trash)${tax.name === CATEGORY.name ? "; its posts left without a category get the default one, which cannot be deleted" : ''}`,
			allowed: onTerm((user, row) => canManageTerms(user) && !(tax.name === CATEGORY.name && row.id === DEFAULT_CATEGORY)),
			params: z.object({ id: z.string() }),
			patterns: { id: DIGITS },
			query: phpQuery({ force: forceParam }),
			// WordPress reads parameters from the body too.
			body: z.object({ force: forceParam }),
			answer: deletedAnswer(answer),
			// 501: terms have no trash (force=true is required).
			errors: [403],
			handler: ({ services, siteUser: user, params, query, body, request }) => {
				const id = pathId(request, params.id);
				return services.store.tx(() => {
					const row = findTerm(services, tax, id);
					// WordPress denies `delete_term` on the default category to everyone.
					if (!canManageTerms(user) || (tax.name === CATEGORY.name && row.id === DEFAULT_CATEGORY)) {
						throw denied(user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
					}
					if (!(query.force || body.force === true)) {
						throw new ApiError(501, "Terms do not support trashing. Set 'force=true' to delete.", 'rest_trash_not_supported');
					}
					const previous = termView(services, tax, row, services.store.terms.counts([row.id]).get(row.id) ?? 0, 'view', objectDef);
					services.store.terms.delete(row, tax.name === CATEGORY.name ? DEFAULT_CATEGORY : undefined);
					setAnswerContext(request, 'view');
					return { deleted: true as const, previous };
				});
			},
		}),
	];
}

export const categoryRoutes = termRoutes(CATEGORY);
export const tagRoutes = termRoutes(TAG);
