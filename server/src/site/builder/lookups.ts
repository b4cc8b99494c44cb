import { z } from 'zod';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { Sql } from '../../store/content';
import type { ContentRow, TermRow, UserRow } from '../../store/types';
import { canEdit } from '../content/capabilities';
import { formatGmt, formatLocal } from '../content/dates';
import { list, wpBool, wpInt } from '../content/params';
import { inList, openSql, perTypeSql, queryType, searchSql, Where } from '../content/query';
import { type SitePostType, siteTaxonomies, sitePostTypes } from '../registry';
import { can } from '../roles';
import { siteSettings } from '../settings';
import { invalidParam, requireCap } from './editor-common';
import { contentDef } from './navigation';

/**
 * `builder/v1/post`, `/term`, `/user`: the builder's lookups (its query controls' autocomplete) over the
 * site's real content, terms and users. Each answers rows shaped as WordPress's objects (`WP_Post`,
 * `WP_Term`, `WP_User`) reduced to the keys of `keys_conversion_map`, renamed as it says; the group
 * key (post type, taxonomy, role) answers its label. Post types and taxonomies are the registry's, so
 * those the engine adds are searched too.
 */

/** Internal types the post lookup leaves out unless told otherwise (the spec's default list). */
export const DEFAULT_EXCLUDED_TYPES = [
	'e-floating-buttons',
	'e-landing-page',
	'builder_library',
	'attachment',
	'revision',
	'nav_menu_item',
	'custom_css',
	'customize_changeset',
];

/** A value that may also come as JSON text (as the builder's controls, and query strings, send objects). */
const orJson = (value: unknown) => {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return value;
	}
};

/** `{"ID": "id"}`: an object, or the same as JSON text; none (or an empty one) is the route's default. */
const keysMap = (fallback: Record<string, string>) =>
	z
		.preprocess(orJson, z.record(z.string(), z.string(), { error: 'must be an object mapping source keys to answer keys (or that object as JSON)' }))
		.prefault(fallback)
		.transform((map) => (Object.keys(map).length ? map : fallback));

const COMPARES = ['=', '!=', '>', '>=', '<', '<=', 'LIKE', 'NOT LIKE', 'IN', 'NOT IN', 'EXISTS', 'NOT EXISTS'] as const;
const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** One `meta_query` clause, as WP_Meta_Query takes it (its key a plain meta key). */
const metaClause = z.object({
	key: z.string().regex(/^[\w-]{1,100}$/, { error: 'must be a meta key (letters, digits, _ and -)' }),
	value: z.union([scalar, z.array(scalar)]).optional(),
	compare: z.enum(COMPARES).default('='),
});
type MetaClause = z.output<typeof metaClause>;
const metaQuery = z.preprocess(orJson, z.array(metaClause)).prefault([]);

const taxClause = z.object({
	taxonomy: z.string(),
	field: z.enum(['term_id', 'slug', 'name']).default('term_id'),
	terms: list(scalar),
	operator: z.enum(['IN', 'NOT IN', 'AND']).default('IN'),
});
type TaxClause = z.output<typeof taxClause>;

const itemsCount = wpInt(1).prefault(100);
const typeList = list(z.string());

const text = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
const numeric = (a: string, b: string) => /^-?\d+(\.\d+)?$/.test(a) && /^-?\d+(\.\d+)?$/.test(b);

/** Whether stored meta passes every clause (WP_Meta_Query with its default AND). */
function metaMatches(meta: Record<string, unknown>, clauses: MetaClause[]): boolean {
	return clauses.every(({ key, value, compare }) => {
		const has = key in meta && meta[key] !== '' && meta[key] !== undefined;
		if (compare === 'EXISTS') return has;
		if (compare === 'NOT EXISTS') return !has;
		const stored = has ? text(meta[key]) : undefined;
		const values = (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
		const wanted = values[0] ?? '';
		switch (compare) {
			case '=':
				return stored === wanted;
			case '!=':
				return stored !== wanted;
			case 'LIKE':
				return stored !== undefined && stored.toLowerCase().includes(wanted.toLowerCase());
			case 'NOT LIKE':
				return stored === undefined || !stored.toLowerCase().includes(wanted.toLowerCase());
			case 'IN':
				return stored !== undefined && values.includes(stored);
			case 'NOT IN':
				return stored === undefined || !values.includes(stored);
			default: {
				if (stored === undefined) return false;
				const order = numeric(stored, wanted) ? Number(stored) - Number(wanted) : stored.localeCompare(wanted);
				return compare === '>' ? order > 0 : compare === '>=' ? order >= 0 : compare === '<' ? order < 0 : order <= 0;
			}
		}
	});
}

/** The answer row: the keys the map names, renamed (WordPress's `translate_keys`). */
const translate = (raw: Record<string, unknown>, map: Record<string, string>) =>
	Object.fromEntries(Object.entries(map).filter(([from]) => from in raw).map(([from, to]) => [to, raw[from]]));

const wpDate = (iso: string) => iso.replace('T', ' ');

/**
 * A content item as WordPress's `WP_Post` has it. A password-protected item's content and excerpt are
 * blank unless the caller may edit it, as the content routes answer them (`post_password_required`).
 */
function rawPost(services: Services, user: UserRow, type: SitePostType, row: ContentRow, zone: string): Record<string, unknown> {
	const shown = row.password === '' || canEdit(user, contentDef(services, type), row);
	return {
		ID: row.id,
		post_author: String(row.author),
		post_date: wpDate(formatLocal(row.date_gmt, zone)),
		post_date_gmt: wpDate(formatGmt(row.date_gmt)),
		post_content: shown ? row.content : '',
		post_title: row.title,
		post_excerpt: shown ? row.excerpt : '',
		post_status: row.status,
		comment_status: row.comment_status,
		ping_status: row.ping_status,
		post_name: row.slug,
		post_parent: row.parent,
		post_modified: wpDate(formatLocal(row.modified_gmt, zone)),
		post_modified_gmt: wpDate(formatGmt(row.modified_gmt)),
		menu_order: row.menu_order,
		// As the builder answers it: the type's label, which groups the results.
		post_type: type.name,
		post_mime_type: row.mime_type,
		guid: `${services.baseUrl}/?p=${row.id}`,
	};
}

/** The ids of the terms a tax_query clause names (by id, slug or name). */
function clauseTermIds(services: Services, clause: TaxClause): number[] {
	const values = clause.terms.map(String);
	const column = clause.field === 'term_id' ? 't.id' : clause.field === 'slug' ? 't.slug' : 't.name';
	const where = new Where().add('t.taxonomy = ?', clause.taxonomy).addSql(inList(column, clause.field === 'term_id' ? values.map(Number) : values));
	return services.store.terms.find(where.sql(), { sql: 't.id', params: [] }, -1, 0).rows.map((t) => t.id);
}

/** A tax_query clause as SQL over `content c`. */
function taxSql(services: Services, clause: TaxClause): Sql {
	const ids = clauseTermIds(services, clause);
	const has = (set: number[]) => ({
		sql: 'EXISTS (SELECT 1 FROM content_terms ct WHERE ct.content_id = c.id AND ct.term_id IN (SELECT value FROM json_each(?)))',
		params: [JSON.stringify(set)],
	});
	if (clause.operator === 'NOT IN') {
		const sql = has(ids);
		return { sql: `NOT ${sql.sql}`, params: sql.params };
	}
	if (clause.operator === 'AND') {
		// Every named term must exist and be on the item.
		if (ids.length < clause.terms.length || !ids.length) return { sql: '0', params: [] };
		const each = ids.map((id) => has([id]));
		return { sql: `(${each.map((s) => s.sql).join(' AND ')})`, params: each.flatMap((s) => s.params) };
	}
	return has(ids);
}

const postQuery = phpQuery({
	included_types: typeList.prefault([]),
	excluded_types: typeList.prefault(DEFAULT_EXCLUDED_TYPES),
	term: z.string().max(1000).prefault(''),
	keys_conversion_map: keysMap({ ID: 'id', post_title: 'label', post_type: 'groupLabel' }),
	items_count: itemsCount,
	is_public: wpBool.prefault(true),
	meta_query: metaQuery,
	tax_query: z.preprocess(orJson, z.array(taxClause)).prefault([]),
});

const termQuery = phpQuery({
	included_types: typeList.prefault([]),
	excluded_types: typeList.prefault([]),
	term: z.string().max(1000).prefault(''),
	keys_conversion_map: keysMap({ term_id: 'id', name: 'label', taxonomy: 'groupLabel' }),
	items_count: itemsCount,
	hide_empty: wpBool.prefault(false),
	meta_query: metaQuery,
});

const userQuery = phpQuery({
	term: z.string().max(1000).prefault(''),
	keys_conversion_map: keysMap({ ID: 'id', display_name: 'label', role: 'groupLabel' }),
	items_count: itemsCount,
});

const ROLE_LABELS: Record<string, string> = {
	administrator: 'Administrator',
	editor: 'Editor',
	author: 'Author',
	contributor: 'Contributor',
	subscriber: 'Subscriber',
};

/** The rows of a lookup: their keys are the ones keys_conversion_map names, so the caller shapes them. */
const lookupAnswer = z.array(z.record(z.string(), z.unknown()));

const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const lookupRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/post',
		auth: 'site',
		summary: 'Find published content of the site (types included or excluded, search term, meta and tax queries), keys renamed by keys_conversion_map',
		query: postQuery,
		answer: lookupAnswer,
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, 'edit_posts');
			const taxonomies = new Set(siteTaxonomies(services.store).map((t) => t.slug));
			query.tax_query.forEach((clause, i) => {
				if (!taxonomies.has(clause.taxonomy)) throw invalidParam('tax_query', `tax_query[${i}].taxonomy must be one of the site's taxonomies: ${[...taxonomies].join(', ')}`);
			});
			const types = sitePostTypes(services.store).filter(
				(type) => (!query.is_public || type.public) && (!query.included_types.length || query.included_types.includes(type.slug)) && !query.excluded_types.includes(type.slug),
			);
			if (!types.length) return [];
			const bySlug = new Map(types.map((type) => [type.slug, type]));
			const where = new Where().addSql(inList('c.type', [...bySlug.keys()])).add("c.status = 'publish'");
			// Behind a password, a search or a meta clause sees only what the item shows the caller (its title), unless
			// the caller may edit it: a match would tell what the password keeps.
			const open = perTypeSql([...bySlug.keys()].map(queryType), (def) => openSql(siteUser, def));
			const everywhere = searchSql(query.term, [], false);
			const title = searchSql(query.term, ['post_title'], false);
			if (everywhere && title) where.add(`(${title.sql} OR (${everywhere.sql} AND ${open.sql}))`, ...title.params, ...everywhere.params, ...open.params);
			if (query.meta_query.length) where.addSql(open);
			for (const clause of query.tax_query) where.addSql(taxSql(services, clause));
			const rows = services.store.content.find(where.sql(), { sql: 'c.date_gmt DESC, c.id DESC', params: [] }, null, 0).rows;
			const zone = siteSettings(services.store).timezone;
			return rows
				.filter((row) => metaMatches(JSON.parse(row.meta) as Record<string, unknown>, query.meta_query))
				.slice(0, query.items_count)
				.map((row) => translate(rawPost(services, siteUser, bySlug.get(row.type)!, row, zone), query.keys_conversion_map));
		},
	}),

	route({
		method: 'GET',
		path: '/builder/v1/term',
		auth: 'site',
		summary: 'Find terms of the site (taxonomies included or excluded, search term, hide_empty), keys renamed by keys_conversion_map',
		query: termQuery,
		answer: lookupAnswer,
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, 'edit_posts');
			const taxonomies = siteTaxonomies(services.store).filter(
				(tax) => (!query.included_types.length || query.included_types.includes(tax.slug)) && !query.excluded_types.includes(tax.slug),
			);
			if (!taxonomies.length) return [];
			const labels = new Map(taxonomies.map((tax) => [tax.slug, tax.name]));
			const where = new Where().addSql(inList('t.taxonomy', [...labels.keys()]));
			if (query.term.trim()) where.add("(t.name LIKE ? ESCAPE '\\' OR t.slug LIKE ? ESCAPE '\\')", like(query.term.trim()), like(query.term.trim()));
			const rows: TermRow[] = services.store.terms.find(where.sql(), { sql: 't.name COLLATE NOCASE, t.id', params: [] }, -1, 0).rows;
			const counts = services.store.terms.counts(rows.map((t) => t.id));
			return rows
				.map((t) => ({
					term_id: t.id,
					name: t.name,
					slug: t.slug,
					term_group: 0,
					term_taxonomy_id: t.id,
					taxonomy: labels.get(t.taxonomy) ?? t.taxonomy,
					description: t.description,
					parent: t.parent,
					count: counts.get(t.id) ?? 0,
				}))
				.filter((t) => !query.hide_empty || t.count > 0)
				// Terms keep no meta here: a clause sees none (EXISTS fails, NOT EXISTS passes).
				.filter(() => metaMatches({}, query.meta_query))
				.slice(0, query.items_count)
				.map((t) => translate(t, query.keys_conversion_map));
		},
	}),

	route({
		method: 'GET',
		path: '/builder/v1/user',
		auth: 'site',
		summary: 'Find users of the site by login or name (and email, for who may list users), keys renamed by keys_conversion_map',
		query: userQuery,
		answer: lookupAnswer,
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, 'edit_posts');
			// Email addresses, shown or searched, only for those who may list users (WordPress's `list_users`, as its
			// users controller narrows `search_columns`): a match on them would tell the address.
			const emails = can(siteUser, 'list_users');
			// The users repository has no listing; the lookup reads the table as WP_User_Query does.
			const term = query.term.trim();
			const rows = services.store.db
				.prepare(
					`SELECT * FROM users WHERE ? = '' OR name LIKE ? ESCAPE '\\' OR display_name LIKE ? ESCAPE '\\' OR (? AND email LIKE ? ESCAPE '\\')
					 ORDER BY COALESCE(display_name, name) COLLATE NOCASE, id LIMIT ?`,
				)
				.all(term, like(term), like(term), emails ? 1 : 0, like(term), query.items_count) as UserRow[];
			return rows.map((user) =>
				translate(
					{
						ID: user.id,
						user_login: user.name,
						user_nicename: user.name,
						...(emails ? { user_email: user.email ?? '' } : {}),
						display_name: user.display_name ?? user.name,
						role: ROLE_LABELS[user.role] ?? user.role,
					},
					query.keys_conversion_map,
				),
			);
		},
	}),
];
