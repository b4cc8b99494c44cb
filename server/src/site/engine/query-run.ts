import Database from 'better-sqlite3';
import { z } from 'zod';
import { ApiError } from '../../http/errors';
import type { Services } from '../../services';
import type { Sql } from '../../store/content';
import type { ContentRow, TermRow, UserRow } from '../../store/types';
import { canEdit, denied, editableSql, readableSql } from '../content/capabilities';
import { formatGmt, formatLocal } from '../content/dates';
import { readableMediaSql } from '../content/media';
import { collectionOrder, inList, openSql, perTypeSql, queryType, searchSql, Where } from '../content/query';
import { ANY_STATUSES } from '../content/types';
import { can } from '../roles';
import { sitePostTypes } from '../registry';
import { siteSettings } from '../settings';
import type { PostsArgs, QueryDefinition, TermsArgs, UsersArgs } from './query-defs';

/**
 * Runs a query definition against the site's data, as the caller: posts are those the caller may
 * read (status and role, as `cms/v2` lists them), terms are public, users need `list_users`.
 * Rows have the fields of WordPress's objects (WP_Post, WP_Term, WP_User), as the public plugin's
 * query results do. What a password keeps and `_` meta are the business of those who may edit the
 * post: the rows hide them from others (`postRow`), and searches and meta clauses do not look into
 * them for others (`postsSql`), so no count or order tells of them either.
 */

export type Row = Record<string, unknown>;

/** A row of a posts query, with WP_Post's field names. */
export const postRowAnswer = z.object({
	ID: z.number().int(),
	post_title: z.string(),
	post_name: z.string(),
	post_type: z.string(),
	post_status: z.string(),
	post_author: z.number().int(),
	post_parent: z.number().int(),
	post_date: z.string(),
	post_date_gmt: z.string(),
	post_modified: z.string(),
	post_modified_gmt: z.string(),
	post_excerpt: z.string(),
	post_content: z.string(),
	menu_order: z.number().int(),
	meta: z.record(z.string(), z.unknown()),
});
/** A row of a terms query, with WP_Term's field names. */
export const termRowAnswer = z.object({
	term_id: z.number().int(),
	name: z.string(),
	slug: z.string(),
	taxonomy: z.string(),
	description: z.string(),
	parent: z.number().int(),
	count: z.number().int(),
});
/** A row of a users query, with WP_User's field names. */
export const userRowAnswer = z.object({
	ID: z.number().int(),
	user_login: z.string(),
	display_name: z.string(),
	user_email: z.string(),
	roles: z.array(z.string()),
	user_registered: z.string(),
});
/** A row of a query of any type. */
export const queryRowAnswer = z.union([postRowAnswer, termRowAnswer, userRowAnswer]);
export type QueryRow = z.output<typeof queryRowAnswer>;

export interface QueryPage {
	rows: QueryRow[];
	/** Every match, whatever the page. */
	total: number;
}

/** Which rows: the definition's own paging (`per_page`, `offset`), or a page of it; `limit` null for all. */
export interface Slice {
	page?: number;
	limit?: number | null;
}

/** The fields of each type's rows: what field options and tables may pick. */
export const ROW_FIELDS = {
	posts: ['ID', 'post_title', 'post_name', 'post_type', 'post_status', 'post_author', 'post_parent', 'post_date', 'post_date_gmt', 'post_modified', 'post_modified_gmt', 'post_excerpt', 'post_content', 'menu_order', 'meta'],
	terms: ['term_id', 'name', 'slug', 'taxonomy', 'description', 'parent', 'count'],
	users: ['ID', 'user_login', 'display_name', 'user_email', 'roles', 'user_registered'],
} as const;

/** The default value and label fields of each type (the public plugin's `ID` and `post_title`). */
export const DEFAULT_FIELDS = {
	posts: { value: 'ID', label: 'post_title' },
	terms: { value: 'term_id', label: 'name' },
	users: { value: 'ID', label: 'display_name' },
} as const;

const limitOffset = (args: { per_page: number; offset: number }, slice: Slice) => ({
	limit: slice.limit === undefined ? args.per_page : slice.limit,
	offset: args.offset + ((slice.page ?? 1) - 1) * (slice.limit ?? args.per_page),
});

export function runQuery(services: Services, user: UserRow | null, def: QueryDefinition, slice: Slice = {}): QueryPage {
	switch (def.query_type) {
		case 'posts':
			return runPosts(services, user, def.args, slice);
		case 'terms':
			return runTerms(services, def.args, slice);
		case 'users':
			return runUsers(services, user, def.args, slice);
	}
}

/** The SQL a definition runs for the caller (convert-query-advanced shows it). */
export function querySql(services: Services, user: UserRow | null, def: QueryDefinition): { sql: string; params: unknown[] } {
	const { where, order, table } =
		def.query_type === 'posts'
			? { ...postsSql(services, user, def.args), table: 'content c' }
			: def.query_type === 'terms'
				? { ...termsSql(def.args), table: 'terms t' }
				: { ...usersSql(def.args), table: 'users u' };
	const alias = table.slice(-1);
	return {
		sql: `SELECT ${alias}.* FROM ${table} WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
		params: [...where.params, ...order.params, def.args.per_page, def.args.offset],
	};
}

// ---- posts ----

/** A meta key WordPress protects (`is_protected_meta`): shown to, and queried for, those who may edit the post. */
const isProtectedMeta = (key: string) => key.startsWith('_');

function postsSql(services: Services, user: UserRow | null, args: PostsArgs): { where: Sql; order: Sql } {
	const site = sitePostTypes(services.store).map((type) => type.slug);
	const slugs = args.post_type.includes('any') ? site.filter((slug) => slug !== 'attachment') : args.post_type.filter((slug) => site.includes(slug));
	const types = slugs.map(queryType);
	const statuses = args.post_status.includes('any') ? ANY_STATUSES : args.post_status;
	const where = new Where();
	// Per type: its items in the asked statuses that the caller may read (media: as the media routes).
	where.addSql(perTypeSql(types, (def) => (def.type === 'attachment' ? readableMediaSql(user) : readableSql(user, def))));
	where.addSql(inList('c.status', statuses));
	const seen = { open: perTypeSql(types, (def) => openSql(user, def)), editable: perTypeSql(types, (def) => editableSql(user, def)) };
	if (args.search?.trim()) {
		const search = searchSql(args.search, [], false);
		if (search) where.addSql(search).addSql(seen.open);
	}
	if (args.author.length) where.addSql(inList('c.author', args.author));
	if (args.include.length) where.addSql(inList('c.id', args.include));
	if (args.exclude.length) where.addSql(inList('c.id', args.exclude, true));
	if (args.parent.length) where.addSql(inList('c.parent', args.parent));
	const tax = taxSql(services, args);
	if (tax) where.addSql(tax);
	const meta = metaSql(args, seen);
	if (meta) where.addSql(meta);
	const order = collectionOrder({ orderby: args.orderby, order: args.order === 'ASC' ? 'asc' : 'desc', search: args.search, include: args.include });
	return { where: where.sql(), order };
}

const joinSql = (parts: Sql[], relation: 'AND' | 'OR'): Sql => ({ sql: `(${parts.map((p) => p.sql).join(` ${relation} `)})`, params: parts.flatMap((p) => p.params) });

const hasTerms = (ids: number[]): Sql => ({
	sql: 'EXISTS (SELECT 1 FROM content_terms ct WHERE ct.content_id = c.id AND ct.term_id IN (SELECT value FROM json_each(?)))',
	params: [JSON.stringify(ids)],
});

/** `tax_query`: each clause's terms (of its taxonomy, with descendants when asked), joined by `tax_relation`. */
function taxSql(services: Services, args: PostsArgs): Sql | undefined {
	const clauses = args.tax_query.map((clause) => {
		const ofTerm = (id: number) => {
			const ids = clause.include_children ? services.store.terms.withDescendants([id]) : [id];
			return ids.filter((termId) => services.store.terms.get(termId, clause.taxonomy));
		};
		if (clause.operator === 'AND') return joinSql(clause.terms.map((id) => hasTerms(ofTerm(id))), 'AND');
		const any = hasTerms(clause.terms.flatMap(ofTerm));
		return clause.operator === 'NOT IN' ? { sql: `NOT ${any.sql}`, params: any.params } : any;
	});
	return clauses.length ? joinSql(clauses, args.tax_relation) : undefined;
}

/**
 * `meta_query` over the item's meta fields (JSON), joined by `meta_relation`. A clause matches only
 * items whose meta the caller sees in the rows: `seen.open` ones, `seen.editable` ones for `_` keys.
 */
function metaSql(args: PostsArgs, seen: { open: Sql; editable: Sql }): Sql | undefined {
	const clauses = args.meta_query.map((clause): Sql => {
		const condition = metaClauseSql(clause);
		const visible = isProtectedMeta(clause.key) ? seen.editable : seen.open;
		return { sql: `(${visible.sql} AND ${condition.sql})`, params: [...visible.params, ...condition.params] };
	});
	return clauses.length ? joinSql(clauses, args.meta_relation) : undefined;
}

function metaClauseSql(clause: PostsArgs['meta_query'][number]): Sql {
	const field = { sql: 'json_extract(c.meta, ?)', params: [`$."${clause.key}"`] };
	if (clause.compare === 'EXISTS' || clause.compare === 'NOT EXISTS') {
		return { sql: `${field.sql} IS ${clause.compare === 'EXISTS' ? 'NOT ' : ''}NULL`, params: field.params };
	}
	// SQLite has no booleans: JSON's true and false are stored, and compared, as 1 and 0.
	const value = typeof clause.value === 'boolean' ? Number(clause.value) : (clause.value ?? '');
	if (clause.compare === 'LIKE' || clause.compare === 'NOT LIKE') {
		const like = `%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
		return { sql: `coalesce(${field.sql}, '') ${clause.compare} ? ESCAPE '\\'`, params: [...field.params, like] };
	}
	// Numbers compare as numbers, anything else as text (WordPress's CHAR meta type).
	return { sql: `${field.sql} ${clause.compare === '!=' ? '<>' : clause.compare} ?`, params: [...field.params, value] };
}

/**
 * A post as a row, for the caller. Those who may edit the post read all of it (as in the content
 * routes' edit context); others read no `_` meta, and nothing of a protected post's body: its content,
 * excerpt and meta (the builder's data is the page itself, fields hold its parts).
 */
function postRow(row: ContentRow, zone: string, user: UserRow | null): z.output<typeof postRowAnswer> {
	const editable = canEdit(user, queryType(row.type), row);
	const hidden = !editable && row.password !== '';
	const meta = JSON.parse(row.meta) as Row;
	return {
		ID: row.id,
		post_title: row.title,
		post_name: row.slug,
		post_type: row.type,
		post_status: row.status,
		post_author: row.author,
		post_parent: row.parent,
		post_date: formatLocal(row.date_gmt, zone),
		post_date_gmt: formatGmt(row.date_gmt),
		post_modified: formatLocal(row.modified_gmt, zone),
		post_modified_gmt: formatGmt(row.modified_gmt),
		post_excerpt: hidden ? '' : row.excerpt,
		post_content: hidden ? '' : row.content,
		menu_order: row.menu_order,
		meta: hidden ? {} : editable ? meta : Object.fromEntries(Object.entries(meta).filter(([key]) => !isProtectedMeta(key))),
	};
}

function runPosts(services: Services, user: UserRow | null, args: PostsArgs, slice: Slice): QueryPage {
	const { where, order } = postsSql(services, user, args);
	const { limit, offset } = limitOffset(args, slice);
	const { rows, total } = services.store.content.find(where, order, limit, offset);
	const zone = siteSettings(services.store).timezone;
	return { rows: rows.map((row) => postRow(row, zone, user)), total: Math.max(0, total - args.offset) };
}

// ---- terms ----

const COUNT = "(SELECT count(*) FROM content_terms ct JOIN content c ON c.id = ct.content_id WHERE ct.term_id = t.id AND c.status = 'publish')";
const TERM_ORDER: Record<string, string> = { name: 't.name COLLATE NOCASE', slug: 't.slug', id: 't.id', count: COUNT, parent: 't.parent' };

function termsSql(args: TermsArgs): { where: Sql; order: Sql } {
	const where = new Where().addSql(inList('t.taxonomy', args.taxonomy));
	if (args.search?.trim()) where.add("t.name LIKE ? ESCAPE '\\'", `%${args.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
	if (args.include.length) where.addSql(inList('t.id', args.include));
	if (args.exclude.length) where.addSql(inList('t.id', args.exclude, true));
	if (args.parent !== undefined) where.add('t.parent = ?', args.parent);
	if (args.hide_empty) where.add(`${COUNT} > 0`);
	const order: Sql =
		args.orderby === 'include'
			? { sql: '(SELECT key FROM json_each(?) WHERE value = t.id), t.id ASC', params: [JSON.stringify(args.include)] }
			: { sql: `${TERM_ORDER[args.orderby]} ${args.order}, t.id ${args.order}`, params: [] };
	return { where: where.sql(), order };
}

function runTerms(services: Services, args: TermsArgs, slice: Slice): QueryPage {
	const { where, order } = termsSql(args);
	const { limit, offset } = limitOffset(args, slice);
	const { rows, total } = services.store.terms.find(where, order, limit ?? -1, offset);
	const counts = services.store.terms.counts(rows.map((row) => row.id));
	const termRow = (row: TermRow): z.output<typeof termRowAnswer> => ({
		term_id: row.id,
		name: row.name,
		slug: row.slug,
		taxonomy: row.taxonomy,
		description: row.description,
		parent: row.parent,
		count: counts.get(row.id) ?? 0,
	});
	return { rows: rows.map(termRow), total: Math.max(0, total - args.offset) };
}

// ---- users ----

const USER_ORDER: Record<string, string> = { id: 'u.id', login: 'u.name', display_name: 'coalesce(u.display_name, u.name) COLLATE NOCASE', registered: 'u.created_at' };

function usersSql(args: UsersArgs): { where: Sql; order: Sql } {
	const where = new Where();
	if (args.role.length) where.addSql(inList('u.role', args.role));
	if (args.search?.trim()) {
		const like = `%${args.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
		where.add("(u.name LIKE ? ESCAPE '\\' OR coalesce(u.display_name, '') LIKE ? ESCAPE '\\' OR coalesce(u.email, '') LIKE ? ESCAPE '\\')", like, like, like);
	}
	if (args.include.length) where.addSql(inList('u.id', args.include));
	if (args.exclude.length) where.addSql(inList('u.id', args.exclude, true));
	const order: Sql =
		args.orderby === 'include'
			? { sql: '(SELECT key FROM json_each(?) WHERE value = u.id), u.id ASC', params: [JSON.stringify(args.include)] }
			: { sql: `${USER_ORDER[args.orderby]} ${args.order}, u.id ${args.order}`, params: [] };
	return { where: where.sql(), order };
}

/** Listing users is for those who may (WordPress's `list_users`: administrators). */
function runUsers(services: Services, user: UserRow | null, args: UsersArgs, slice: Slice): QueryPage {
	if (!can(user, 'list_users')) throw denied(user, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
	const { where, order } = usersSql(args);
	const { limit, offset } = limitOffset(args, slice);
	// The users repository has no filtered listing: the query reads the table itself, with statements
	// outside the store's cache (their text varies with the filters), as the content repository does.
	const prepare = (sql: string) => Database.prototype.prepare.call(services.store.db, sql) as Database.Statement<unknown[]>;
	const total = (prepare(`SELECT count(*) AS n FROM users u WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
	const rows = prepare(`SELECT u.* FROM users u WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
		.all(...where.params, ...order.params, limit ?? -1, offset) as UserRow[];
	return {
		rows: rows.map((row) => ({
			ID: row.id,
			user_login: row.name,
			display_name: row.display_name ?? row.name,
			user_email: row.email ?? '',
			roles: [row.role],
			user_registered: formatGmt(row.created_at),
		})),
		total: Math.max(0, total - args.offset),
	};
}

/** A row field a caller names (value_field, label_field, columns) must be one of the type's. */
export function checkFields(def: QueryDefinition, fields: Record<string, string | string[] | undefined>) {
	const known: readonly string[] = ROW_FIELDS[def.query_type];
	const params: Record<string, string> = {};
	for (const [param, value] of Object.entries(fields)) {
		const bad = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((field) => !known.includes(field));
		if (bad.length) params[param] = `${param} must name fields of ${def.query_type} rows (${known.join(', ')}); unknown: ${bad.join(', ')}`;
	}
	if (Object.keys(params).length) throw new ApiError(400, `Invalid parameter(s): ${Object.keys(params).join(', ')}`, 'rest_invalid_param', { params });
}
