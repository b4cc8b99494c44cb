import { z } from 'zod';
import { badRequest, notFound } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { TermRow, UserRow } from '../../store/types';
import { can } from '../roles';
import { canManageTerms, canRead, denied } from './capabilities';
import { type Context, contextParam, idList, list, searchParam, wpBool, wpInt } from './params';
import { pagingHeaders, pathId, searchTerms, Where } from './query';
import { sanitizeTitle } from './render';
import { CATEGORY, POST, type PostType, TAG, type Taxonomy } from './types';
import { contentBase } from './views';
import { contentEnv, invalidParam } from './write';

/**
 * `GET/POST /cms/v2/categories`, `/cms/v2/tags` and `GET …/{id}` (WordPress's terms controller, reading and creating):
 * beyond the spec's cut index, they make the term ids of posts something a client can create and read.
 */

const termUrl = (services: Services, tax: Taxonomy, id: number) => `${contentBase(services)}/${tax.base}/${id}`;

/** Which contexts show each field, as WordPress's term schema says. */
const FIELDS: Record<string, readonly Context[]> = {
	id: ['view', 'embed', 'edit'],
	count: ['view', 'edit'],
	description: ['view', 'edit'],
	link: ['view', 'embed', 'edit'],
	name: ['view', 'embed', 'edit'],
	slug: ['view', 'embed', 'edit'],
	taxonomy: ['view', 'embed', 'edit'],
	parent: ['view', 'edit'],
	meta: ['view', 'edit'],
};

/** A term's page with plain permalinks: `?cat=3`, `?tag=news`, and an engine taxonomy's query var `?genre=drama`. */
function termQuery(tax: Taxonomy, row: TermRow): string {
	if (tax.name === CATEGORY.name) return `cat=${row.id}`;
	return `${tax.name === TAG.name ? 'tag' : tax.name}=${encodeURIComponent(row.slug)}`;
}

function termView(services: Services, tax: Taxonomy, row: TermRow, count: number, context: Context, objectDef: PostType = POST) {
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
	const out = Object.fromEntries(Object.entries(full).filter(([key]) => FIELDS[key].includes(context)));
	const links: Record<string, object[]> = {
		self: [{ href: termUrl(services, tax, row.id) }],
		collection: [{ href: `${rest}/${tax.base}` }],
		...(tax.hierarchical && row.parent ? { up: [{ embeddable: true, href: termUrl(services, tax, row.parent) }] } : {}),
		'wp:post_type': [{ href: `${rest}/${objectDef.base}?${tax.base}=${row.id}` }],
		curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
	};
	return { ...out, _links: links };
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
	return [
		route({
			method: 'GET',
			path,
			auth: 'site',
			summary: `List ${tax.base}, searched and paged (X-WP-Total, X-WP-TotalPages, Link)`,
			query: phpQuery({
				context: contextParam,
				page: wpInt(1).prefault(1),
				per_page: wpInt(1, 100).prefault(10),
				search: searchParam.optional(),
				exclude: idList().prefault([]),
				include: idList().prefault([]),
				offset: wpInt().optional(),
				order: z.enum(['asc', 'desc']).default('asc'),
				orderby: z.enum(TERM_ORDERBY).default('name'),
				hide_empty: wpBool.prefault(false),
				...(tax.hierarchical ? { parent: wpInt(0).optional() } : {}),
				post: wpInt(0).optional(),
				slug: list(z.string()).optional(),
			}),
			handler: ({ services, siteUser: user, query, request, reply }) => {
				contentEnv(services, user, objectDef);
				const q = query as typeof query & { parent?: number };
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
				const order =
					q.orderby === 'include' && q.include.length
						? { sql: '(SELECT key FROM json_each(?) WHERE value = t.id), t.id', params: [ids(q.include)] }
						: q.orderby === 'include_slugs' && q.slug?.length
							? { sql: '(SELECT key FROM json_each(?) WHERE value = t.slug), t.id', params: [JSON.stringify(q.slug.map(sanitizeTitle))] }
							: { sql: `${ORDER_SQL[q.orderby] ?? ORDER_SQL.name} ${dir}, t.id ${dir}`, params: [] };
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
			summary: `Get a ${tax.noun}`,
			params: z.object({ id: z.string() }),
			query: phpQuery({ context: contextParam }),
			handler: ({ services, siteUser: user, params, query, request }) => {
				const id = pathId(request, params.id);
				const row = id > 0 ? services.store.terms.get(id, tax.name) : undefined;
				if (!row) throw notFound('Term does not exist.', 'rest_term_invalid');
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
			summary: `Create a ${tax.noun} (201, Location)`,
			allowed: ({ siteUser }) => mayCreate(siteUser),
			body: z.object({
				name: z.string().max(200),
				description: z.string().optional(),
				slug: z.string().max(200).optional(),
				...(tax.hierarchical ? { parent: wpInt(0).optional() } : {}),
				meta: z.record(z.string(), z.unknown()).optional(),
			}),
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
					if (parent && !services.store.terms.get(parent, tax.name)) throw badRequest('Parent term does not exist.', 'rest_term_invalid');
					const same = services.store.terms.byName(tax.name, name, parent);
					if (same) {
						throw badRequest('A term with the name provided already exists in this taxonomy.', 'term_exists', { term_id: same.id });
					}
					let slug = sanitizeTitle(body.slug ?? '');
					if (body.slug !== undefined && slug && services.store.terms.bySlug(tax.name, slug)) {
						throw badRequest(`The slug “${slug}” is already in use by another term.`, 'duplicate_term_slug');
					}
					if (!slug) {
						const base = sanitizeTitle(name) || 'term';
						slug = base;
						for (let n = 2; services.store.terms.bySlug(tax.name, slug); n++) slug = `${base}-${n}`;
					}
					return services.store.terms.insert({ taxonomy: tax.name, name, slug, description: body.description ?? '', parent });
				});
				reply.code(201).header('Location', termUrl(services, tax, row.id));
				return termView(services, tax, row, 0, 'edit', objectDef);
			},
		}),
	];
}

export const categoryRoutes = termRoutes(CATEGORY);
export const tagRoutes = termRoutes(TAG);
