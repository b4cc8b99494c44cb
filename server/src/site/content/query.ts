import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../../http/errors';
import type { Sql } from '../../store/content';
import type { ContentRow, UserRow } from '../../store/types';
import type { Services } from '../../services';
import { can } from '../roles';
import { denied, editableSql, readableSql } from './capabilities';
import { parseDateTime } from './dates';
import type { CollectionParams, TermFilter } from './params';
import { sanitizeTitle } from './render';
import { ANY_STATUSES, customPostType, PAGE, type PostType } from './types';

/** Conditions joined with AND, each with its bound values. */
export class Where {
	private parts: string[] = [];
	private params: unknown[] = [];

	add(sql: string, ...params: unknown[]) {
		this.parts.push(sql);
		this.params.push(...params);
		return this;
	}

	addSql(part: Sql) {
		return this.add(part.sql, ...part.params);
	}

	sql(): Sql {
		return { sql: this.parts.length ? this.parts.join(' AND ') : '1', params: this.params };
	}
}

/** `IN`/`NOT IN` over a list bound as one JSON value (any length, one parameter). */
export const inList = (column: string, values: unknown[], not = false) =>
	({ sql: `${column} ${not ? 'NOT ' : ''}IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(values)] }) satisfies Sql;

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (text: string) => `%${likeEscape(text)}%`;

const COLUMN_OF = { post_title: 'c.title', post_content: 'c.content', post_excerpt: 'c.excerpt' } as const;

/** More terms than this and the search is one phrase, as in WP_Query (which keeps the SQL bounded). */
const MAX_SEARCH_TERMS = 9;

/**
 * WordPress's search terms: words and "quoted phrases"; a leading `-` excludes a word. A search of
 * more than `MAX_SEARCH_TERMS` terms is searched as the whole phrase.
 */
export function searchTerms(search: string): { term: string; exclude: boolean }[] {
	const out: { term: string; exclude: boolean }[] = [];
	for (const match of search.matchAll(/"([^"]*)"?|[^\t ",+]+/g)) {
		const raw = match[1] ?? match[0];
		const exclude = match[1] === undefined && raw.length > 1 && raw.startsWith('-');
		const term = (exclude ? raw.slice(1) : raw).trim();
		if (term) out.push({ term, exclude });
	}
	return out.length > MAX_SEARCH_TERMS ? [{ term: search.trim(), exclude: false }] : out;
}

/**
 * The search condition over the given columns: every term in one of them, no excluded term in any;
 * `exact`: the whole search text is one of the columns (ignoring case).
 */
export function searchSql(search: string, columns: readonly (keyof typeof COLUMN_OF)[], exact: boolean): Sql | undefined {
	const cols = (columns.length ? columns : (['post_title', 'post_excerpt', 'post_content'] as const)).map((c) => COLUMN_OF[c]);
	if (exact) {
		return { sql: `(${cols.map((c) => `${c} = ? COLLATE NOCASE`).join(' OR ')})`, params: cols.map(() => search.trim()) };
	}
	const terms = searchTerms(search);
	if (!terms.length) return undefined;
	const parts: string[] = [];
	const params: unknown[] = [];
	for (const { term, exclude } of terms) {
		const like = contains(term);
		parts.push(
			exclude
				? `(${cols.map((c) => `${c} NOT LIKE ? ESCAPE '\\'`).join(' AND ')})`
				: `(${cols.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`,
		);
		params.push(...cols.map(() => like));
	}
	return { sql: `(${parts.join(' AND ')})`, params };
}

/** WordPress's relevance: the whole search in the title first, then all words in it, any word, the excerpt, the content. */
function relevanceSql(search: string): Sql {
	const TITLE = "c.title LIKE ? ESCAPE '\\'";
	const words = searchTerms(search)
		.filter((t) => !t.exclude)
		.map((t) => contains(t.term));
	const sentence = contains(search.trim());
	const whens: Sql[] = [{ sql: `WHEN ${TITLE} THEN 1`, params: [sentence] }];
	if (words.length > 1 && words.length < 7) {
		whens.push({ sql: `WHEN ${words.map(() => TITLE).join(' AND ')} THEN 2`, params: words });
		whens.push({ sql: `WHEN ${words.map(() => TITLE).join(' OR ')} THEN 3`, params: words });
	}
	whens.push({ sql: "WHEN c.excerpt LIKE ? ESCAPE '\\' THEN 4", params: [sentence] });
	whens.push({ sql: "WHEN c.content LIKE ? ESCAPE '\\' THEN 5", params: [sentence] });
	return { sql: `(CASE ${whens.map((w) => w.sql).join(' ')} ELSE 6 END)`, params: whens.flatMap((w) => w.params) };
}

/** A site post type by its slug, as queries need it: its capabilities (pages have their own, the others the posts'). */
export const queryType = (slug: string): PostType => (slug === 'page' ? PAGE : customPostType(slug, slug));

/** A condition that depends on the post type, over items of several types: `(c.type = ? AND …) OR …` (`alias`: the table's). */
export function perTypeSql(types: PostType[], condition: (def: PostType) => Sql, alias = 'c'): Sql {
	const parts = types.map((def) => {
		const part = condition(def);
		return { sql: `(${alias}.type = ? AND ${part.sql})`, params: [def.type, ...part.params] };
	});
	return parts.length ? { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) } : { sql: '0', params: [] };
}

/**
 * Items whose protected parts a query may look into for the caller: those without a password, and those
 * the caller may edit (who reads them in the edit context). Searches and meta clauses match only these,
 * so no count or order tells what a password keeps (WordPress leaves protected posts out of anonymous
 * searches; here out of the searches of anyone who may not edit them).
 */
export function openSql(user: UserRow | null, def: PostType): Sql {
	const editable = editableSql(user, def);
	return { sql: `(c.password = '' OR ${editable.sql})`, params: editable.params };
}

/** The terms a filter names, with their descendants when asked (categories' `include_children`). */
function filterTerms(services: Services, filter: TermFilter, term: number): number[] {
	return filter.include_children ? services.store.terms.withDescendants([term]) : [term];
}

const hasTerm = (ids: number[]) => ({
	sql: 'EXISTS (SELECT 1 FROM content_terms ct WHERE ct.content_id = c.id AND ct.term_id IN (SELECT value FROM json_each(?)))',
	params: [JSON.stringify(ids)],
});

/** The taxonomy filters (`categories`, `tags` and their `_exclude`), joined by `tax_relation` (AND by default). */
function taxonomySql(services: Services, def: PostType, params: CollectionParams): Sql | undefined {
	const clauses: Sql[] = [];
	const filters = params as unknown as Record<string, TermFilter | undefined>;
	for (const tax of def.taxonomies) {
		const include = filters[tax.base];
		if (include?.terms.length) {
			if (include.operator === 'AND') {
				// Every term (or one of its descendants) must be on the item.
				const each = include.terms.map((term) => hasTerm(filterTerms(services, include, term)));
				clauses.push({ sql: `(${each.map((s) => s.sql).join(' AND ')})`, params: each.flatMap((s) => s.params) });
			} else {
				clauses.push(hasTerm(include.terms.flatMap((term) => filterTerms(services, include, term))));
			}
		}
		const exclude = filters[`${tax.base}_exclude`];
		if (exclude?.terms.length) {
			const ids = exclude.terms.flatMap((term) => filterTerms(services, exclude, term));
			const sql = hasTerm(ids);
			clauses.push({ sql: `NOT ${sql.sql}`, params: sql.params });
		}
	}
	if (!clauses.length) return undefined;
	const relation = params.tax_relation === 'OR' ? ' OR ' : ' AND ';
	return { sql: `(${clauses.map((s) => s.sql).join(relation)})`, params: clauses.flatMap((s) => s.params) };
}

/**
 * WordPress lets only those who can edit items of the type (or read private ones, for `private`) ask
 * for statuses other than the default one.
 */
export function checkStatuses(user: UserRow | null, def: PostType, statuses: string[], defaultStatus = 'publish') {
	for (const status of statuses) {
		if (status === defaultStatus) continue;
		if (can(user, def.caps.edit_posts) || (status === 'private' && can(user, def.caps.read_private_posts))) continue;
		// WordPress's `sanitize_post_statuses` fails, and a failed sanitizer is a 400 `rest_invalid_param`
		// (`WP_REST_Request::sanitize_params`) with the sanitizer's own error in `data.details`.
		const forbidden = denied(user, 'rest_forbidden_status', 'Status is forbidden.');
		throw badRequest('Invalid parameter(s): status', 'rest_invalid_param', {
			params: { status: forbidden.message },
			details: { status: { code: forbidden.code, message: forbidden.message, data: { status: forbidden.status } } },
		});
	}
}

/**
 * The filters of a content collection as SQL over `content c` (type, statuses and every parameter),
 * with what the caller may read (`readable`, by default `canRead`'s SQL): the list, its total and its
 * paging see nothing else, so no count tells of another user's draft (WordPress's `found_posts` counts
 * the items `get_items` then hides; issue 37).
 */
export function collectionWhere(
	services: Services,
	user: UserRow | null,
	def: PostType,
	params: CollectionParams,
	zone: string,
	readable: Sql = readableSql(user, def),
): Where {
	const where = new Where().add('c.type = ?', def.type).addSql(readable);
	// `status=` (nothing) is the default, as in WordPress.
	const statuses = params.status.includes('any') ? ANY_STATUSES : params.status.length ? params.status : ['publish'];
	where.addSql(inList('c.status', statuses));
	if (params.search !== undefined && params.search.trim() !== '') {
		const search = searchSql(params.search, params.search_columns, params.search_semantics === 'exact');
		if (search) where.addSql(search).addSql(openSql(user, def));
	}
	if (params.after) where.add('c.date_gmt > ?', parseDateTime(params.after, zone));
	if (params.before) where.add('c.date_gmt < ?', parseDateTime(params.before, zone));
	if (params.modified_after) where.add('c.modified_gmt > ?', parseDateTime(params.modified_after, zone));
	if (params.modified_before) where.add('c.modified_gmt < ?', parseDateTime(params.modified_before, zone));
	if (params.author.length) where.addSql(inList('c.author', params.author));
	if (params.author_exclude.length) where.addSql(inList('c.author', params.author_exclude, true));
	if (params.include.length) where.addSql(inList('c.id', params.include));
	if (params.exclude.length) where.addSql(inList('c.id', params.exclude, true));
	if (params.slug?.length) where.addSql(inList('c.slug', params.slug.map(sanitizeTitle)));
	if (def.hierarchical) {
		if (params.parent?.length) where.addSql(inList('c.parent', params.parent));
		if (params.parent_exclude?.length) where.addSql(inList('c.parent', params.parent_exclude, true));
		if (params.menu_order !== undefined) where.add('c.menu_order = ?', params.menu_order);
	}
	const taxonomies = taxonomySql(services, def, params);
	if (taxonomies) where.addSql(taxonomies);
	if (def.sticky && params.sticky !== undefined) where.add(`c.sticky = ${params.sticky ? 1 : 0}`);
	if (def.formats && params.format?.length) where.addSql(inList('c.format', params.format));
	return where;
}

/** WordPress's pre-checks of `orderby`. */
export function checkOrderby(params: { orderby: string; search?: string; include: number[] }) {
	if (params.orderby === 'relevance' && !params.search) {
		throw badRequest('You need to define a search term to order by relevance.', 'rest_no_search_term_defined');
	}
	if (params.orderby === 'include' && !params.include.length) {
		throw badRequest('You need to define an include parameter to order by include.', 'rest_orderby_include_missing_include');
	}
}

/** The order MariaDB reads WordPress's posts in through its `type_status_date` index. */
const READ_ORDER = 'c.type ASC, c.status ASC, c.date_gmt ASC, c.id ASC';

const ORDER_COLUMNS: Record<string, string> = {
	author: 'c.author',
	date: 'c.date_gmt',
	id: 'c.id',
	modified: 'c.modified_gmt',
	parent: 'c.parent',
	slug: 'c.slug',
	title: 'c.title COLLATE NOCASE',
	menu_order: 'c.menu_order',
};

/**
 * The ORDER BY of a collection. WP_Query orders by the one column alone, so ties come as MariaDB reads
 * the rows, through WordPress's `type_status_date` index (type, status, date, id): by date for one type
 * in one status it walks the index in the order's direction, so ties by id in that direction
 * (`indexed`); otherwise it sorts the rows it read in the index's order, which ties keep.
 */
export function collectionOrder(
	params: { orderby: string; order: 'asc' | 'desc'; search?: string; include: number[]; slug?: string[] },
	indexed = false,
): Sql {
	const dir = params.order === 'asc' ? 'ASC' : 'DESC';
	const position = (column: string, values: unknown[]) => ({
		sql: `(SELECT key FROM json_each(?) WHERE value = ${column}), c.id ASC`,
		params: [JSON.stringify(values)],
	});
	switch (params.orderby) {
		case 'include':
			return position('c.id', params.include);
		case 'include_slugs':
			if (params.slug?.length) return position('c.slug', params.slug.map(sanitizeTitle));
			break;
		case 'relevance': {
			const relevance = relevanceSql(params.search ?? '');
			return { sql: `${relevance.sql}, c.date_gmt DESC, ${READ_ORDER}`, params: relevance.params };
		}
	}
	const column = ORDER_COLUMNS[params.orderby] ?? ORDER_COLUMNS.date;
	if (indexed && column === ORDER_COLUMNS.date) return { sql: `${column} ${dir}, c.id ${dir}`, params: [] };
	return { sql: `${column} ${dir}, ${READ_ORDER}`, params: [] };
}

export interface Page<T> {
	items: T[];
	total: number;
	totalPages: number;
	page: number;
}

/** WordPress's answer to a page beyond the last one (only when there is something to page through). */
export function checkPage(page: number, totalPages: number, total: number, code = 'rest_post_invalid_page_number') {
	if (page > totalPages && total > 0) {
		throw badRequest('The page number requested is larger than the number of pages available.', code);
	}
}

/**
 * Runs a content collection query: one page (`offset` replaces paging, as in WordPress), the total,
 * and with `ignore_sticky=false` the sticky posts first on the first page. The total and the paging
 * count what the caller may read (`collectionWhere`); as WordPress's `get_items`, the page then keeps
 * only those `visible` to the caller (`check_read_permission`, or `check_update_permission` for
 * `context=edit`), so a `context=edit` page may hold fewer items than `per_page`.
 */
export function runCollection(
	services: Services,
	def: PostType,
	where: Where,
	params: CollectionParams,
	visible: (row: ContentRow) => boolean,
): Page<ContentRow> {
	const statuses = params.status.length ? params.status : ['publish'];
	const order = collectionOrder(params, statuses.length === 1 && statuses[0] !== 'any');
	const offset = params.offset !== undefined ? Math.abs(params.offset) : (params.page - 1) * params.per_page;
	const { rows, total } = services.store.content.find(where.sql(), order, params.per_page, offset);
	const totalPages = Math.ceil(total / params.per_page);
	checkPage(params.page, totalPages, total);
	return { items: stickyFirst(services, def, where, params, rows, order).filter(visible), total, totalPages, page: params.page };
}

/**
 * WordPress's home-page behaviour when `ignore_sticky` is false: on the first page of a plain
 * listing (no include, search, author or term filter), the sticky posts that match come first, also
 * those that would be on a later page.
 */
function stickyFirst(services: Services, def: PostType, where: Where, params: CollectionParams, rows: ContentRow[], order: Sql): ContentRow[] {
	if (!def.sticky || params.ignore_sticky !== false || params.sticky !== undefined || params.page > 1) return rows;
	const filters = params as unknown as Record<string, TermFilter | undefined>;
	const filtered =
		params.include.length ||
		(params.search ?? '').trim() !== '' ||
		params.author.length ||
		params.author_exclude.length ||
		def.taxonomies.some((tax) => filters[tax.base]?.terms.length || filters[`${tax.base}_exclude`]?.terms.length);
	if (filtered) return rows;
	const sticky = services.store.content.find(new Where().addSql(where.sql()).add('c.sticky = 1').sql(), order, null, 0).rows;
	if (!sticky.length) return rows;
	const ids = new Set(sticky.map((r) => r.id));
	return [...sticky, ...rows.filter((r) => !ids.has(r.id))];
}

/**
 * `X-WP-Total`, `X-WP-TotalPages` and `Link` (prev/next, the request's own query with another
 * `page`), as WordPress's collections answer them.
 */
export function pagingHeaders(reply: FastifyReply, request: FastifyRequest, url: string, page: number, total: number, totalPages: number) {
	reply.header('X-WP-Total', String(total));
	reply.header('X-WP-TotalPages', String(totalPages));
	const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
	const at = (n: number) => {
		const params = new URLSearchParams(query);
		params.set('page', String(n));
		return `<${url}?${params.toString()}>`;
	};
	const links: string[] = [];
	if (page > 1) links.push(`${at(Math.min(page - 1, Math.max(totalPages, 1)))}; rel="prev"`);
	if (totalPages > page) links.push(`${at(page + 1)}; rel="next"`);
	if (links.length) reply.header('Link', links);
}

/** The route's numeric path segment; anything else is no route, as WordPress's `(?P<id>[\d]+)` patterns say. */
export function pathId(request: FastifyRequest, value: string): number {
	if (!/^\d{1,15}$/.test(value)) {
		const path = request.url.split('?')[0].replace(/^\/wp-json/, '');
		throw new ApiError(404, `no route matches ${request.method} ${path}`, 'rest_no_route');
	}
	return Number(value);
}
