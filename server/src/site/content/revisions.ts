import { z } from 'zod';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { ContentRow, UserRow } from '../../store/types';
import { canDelete, canEdit, denied } from './capabilities';
import { DIGITS, contextParam, idList, searchParam, wpBool, wpInt } from './params';
import { checkOrderby, collectionOrder, pagingHeaders, pathId, searchSql, Where } from './query';
import type { PostType } from './types';
import { itemUrl, revisionView, viewEnv } from './views';
import { revisionAnswer, revisionItemSchema } from './post-schema';
import { contentEnv } from './write';

/** The post or page a revision route names; WordPress's 404 `rest_post_invalid_parent` otherwise. */
function getParent(services: Services, def: PostType, id: number): ContentRow {
	const row = id > 0 ? services.store.content.get(id) : undefined;
	if (!row || row.type !== def.type) throw notFound('Invalid post parent ID.', 'rest_post_invalid_parent');
	return row;
}

/** Revisions (and autosaves) are read by whoever may edit their post. */
function checkReadRevisions(user: UserRow | null, def: PostType, parent: ContentRow, what = 'revisions') {
	if (!canEdit(user, def, parent)) throw denied(user, 'rest_cannot_read', `Sorry, you are not allowed to view ${what} of this post.`);
}

/** The post a revision (or autosave) route reads from, once the caller may read its `what`. */
export function readableParent(services: Services, user: UserRow | null, def: PostType, parentId: number, what?: string): ContentRow {
	contentEnv(services, user, def);
	const parent = getParent(services, def, parentId);
	checkReadRevisions(user, def, parent, what);
	return parent;
}

/** A revision of `parent` by id: 404 `rest_post_invalid_id` for no revision, `rest_revision_parent_id_mismatch` for another post's. */
function getRevision(services: Services, parent: ContentRow, id: number): ContentRow {
	const row = id > 0 ? services.store.content.get(id) : undefined;
	if (!row || row.type !== 'revision') throw notFound('Invalid revision ID.', 'rest_post_invalid_id');
	if (row.parent !== parent.id) {
		throw new ApiError(404, `The revision does not belong to the specified parent with id of "${parent.id}"`, 'rest_revision_parent_id_mismatch');
	}
	return row;
}

const REVISION_ORDERBY = ['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'] as const;

/**
 * `/cms/v2/{posts|pages}/{parent}/revisions[/{id}]`: the copies an update keeps (autosaves among
 * them), listed (all at once unless `per_page` is given), read, and deleted for good (`force=true`).
 */
export function revisionRoutes(def: PostType): Route[] {
	const base = `/cms/v2/${def.base}/{parent}/revisions`;
	const answer = revisionAnswer(def, false);
	const itemParams = z.object({ parent: z.string(), id: z.string() });

	return [
		route({
			method: 'GET',
			path: base,
			auth: 'site',
			schema: () => revisionItemSchema(def, false),
			summary: `List the revisions of a ${def.type}, newest first`,
			allowed: ({ services, siteUser, params, request }) => readableParent(services, siteUser, def, pathId(request, params.parent)) !== undefined,
			params: z.object({ parent: z.string() }),
			patterns: { parent: DIGITS },
			query: phpQuery({
				parent: wpInt().optional(),
				context: contextParam,
				page: wpInt(1).prefault(1),
				// No default: without it, every revision.
				per_page: wpInt(1, 100).optional(),
				search: searchParam.optional(),
				exclude: idList().prefault([]),
				include: idList().prefault([]),
				offset: wpInt().optional(),
				order: z.enum(['asc', 'desc']).default('desc'),
				orderby: z.enum(REVISION_ORDERBY).default('date'),
			}),
			answer: z.array(answer),
			errors: [403],
			handler: ({ services, siteUser: user, params, query, request, reply }) => {
				const parent = readableParent(services, user, def, pathId(request, params.parent));
				checkOrderby(query);
				const where = new Where().add("c.type = 'revision'").add('c.parent = ?', parent.id);
				const search = query.search?.trim() ? searchSql(query.search, [], false) : undefined;
				if (search) where.addSql(search);
				if (query.include.length) where.add('c.id IN (SELECT value FROM json_each(?))', JSON.stringify(query.include));
				if (query.exclude.length) where.add('c.id NOT IN (SELECT value FROM json_each(?))', JSON.stringify(query.exclude));
				const perPage = query.per_page;
				const offset = query.offset !== undefined ? Math.abs(query.offset) : perPage ? (query.page - 1) * perPage : 0;
				// WordPress orders revisions by `date ID` (ties by id, in the same direction); other orders by the one column.
				const dir = query.order === 'asc' ? 'ASC' : 'DESC';
				const order = query.orderby === 'date' ? { sql: `c.date_gmt ${dir}, c.id ${dir}`, params: [] } : collectionOrder(query);
				const { rows, total } = services.store.content.find(where.sql(), order, perPage ?? null, perPage ? offset : 0);
				const totalPages = perPage ? Math.ceil(total / perPage) : total > 0 ? 1 : 0;
				if (total > 0) {
					if (offset >= total && query.offset !== undefined) {
						throw badRequest(
							'The offset number requested is larger than or equal to the number of available revisions.',
							'rest_revision_invalid_offset_number',
						);
					}
					if (!query.offset && query.page > totalPages) {
						throw badRequest('The page number requested is larger than the number of pages available.', 'rest_revision_invalid_page_number');
					}
				}
				pagingHeaders(reply, request, `${itemUrl(services, def, parent.id)}/revisions`, query.page, total, totalPages);
				const view = viewEnv(services, user, def, query.context);
				return rows.map((row) => revisionView(view, row));
			},
		}),

		route({
			method: 'GET',
			path: `${base}/{id}`,
			auth: 'site',
			schema: () => revisionItemSchema(def, false),
			summary: `Get a revision of a ${def.type}`,
			// WordPress's `get_item_permissions_check` looks at the parent only.
			allowed: ({ services, siteUser, params, request }) => readableParent(services, siteUser, def, pathId(request, params.parent)) !== undefined,
			params: itemParams,
			patterns: { parent: DIGITS, id: DIGITS },
			query: phpQuery({ context: contextParam }),
			answer,
			errors: [403],
			handler: ({ services, siteUser: user, params, query, request }) => {
				const parentId = pathId(request, params.parent);
				const id = pathId(request, params.id);
				const parent = readableParent(services, user, def, parentId);
				return revisionView(viewEnv(services, user, def, query.context), getRevision(services, parent, id));
			},
		}),

		route({
			method: 'DELETE',
			path: `${base}/{id}`,
			auth: 'site',
			summary: `Delete a revision of a ${def.type}: refused to everyone (403), as in WordPress, whose \`delete_post\` on a revision is \`do_not_allow\``,
			allowed: () => false,
			params: itemParams,
			patterns: { parent: DIGITS, id: DIGITS },
			query: phpQuery({ force: wpBool.prefault(false) }),
			body: z.object({ force: wpBool.optional() }),
			// No success: WordPress refuses everyone.
			status: [],
			errors: [403],
			handler: ({ services, siteUser: user, params, request }) => {
				const parentId = pathId(request, params.parent);
				const id = pathId(request, params.id);
				contentEnv(services, user, def);
				// WordPress's `delete_item_permissions_check`: the right to delete the post, the revision, the
				// right to read revisions, then `delete_post` on the revision itself, which `map_meta_cap` makes
				// `do_not_allow` for everyone: no one deletes a revision (nor reaches `force`, whose 501 follows).
				const parent = getParent(services, def, parentId);
				if (!canDelete(user, def, parent)) throw denied(user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete revisions of this post.');
				getRevision(services, parent, id);
				checkReadRevisions(user, def, parent);
				throw denied(user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this revision.');
			},
		}),
	];
}
