import { z } from 'zod';
import { ApiError, badRequest, conflict } from '../../http/errors';
import { parse } from '../../http/dispatch';
import type { Store } from '../../store';
import { idList, list, searchParam, wpBool, wpInt } from '../content/params';
import { sanitizeTitle } from '../content/render';
import { sitePostTypes, siteTaxonomies } from '../registry';

/**
 * The engine's stored queries (the query builder): a name, a slug and a definition, `query_type`
 * (`posts`, `terms`, `users`) with the `args` of that type (filters, order, paging), as the public
 * plugin's query builder stores them. Kept in `store.objects` (namespace `engine`, kind `query`,
 * key = the numeric id).
 */

export const QUERY_TYPES = ['posts', 'terms', 'users'] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

/** Ids and slugs of the `{id}` segment: lowercase letters, digits, hyphen, underscore. */
export const QUERY_ID_PATTERN = '[a-z0-9_-]+';

const order = z.enum(['ASC', 'DESC', 'asc', 'desc']).transform((value) => value.toUpperCase() as 'ASC' | 'DESC');
/** Offsets and pages stay far below what SQLite's LIMIT and OFFSET take (64-bit integers). */
export const MAX_OFFSET = 1_000_000_000;
const paging = { per_page: wpInt(1, 100).prefault(10), offset: wpInt(0, MAX_OFFSET).prefault(0) };

/** Post statuses a posts query may ask for; what the caller may not read is left out when it runs. */
export const QUERY_POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'inherit', 'any'] as const;
export const POST_ORDERBY = ['date', 'modified', 'id', 'title', 'slug', 'author', 'parent', 'menu_order', 'include', 'relevance'] as const;
export const META_COMPARE = ['=', '!=', '>', '>=', '<', '<=', 'LIKE', 'NOT LIKE', 'EXISTS', 'NOT EXISTS'] as const;

/** A meta key: safe inside a JSON path. */
const metaKey = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, hyphens or underscores' });

const taxClause = z.strictObject({
	taxonomy: z.string().min(1),
	terms: idList(),
	/** IN: any of the terms; AND: all of them; NOT IN: none of them. */
	operator: z.enum(['IN', 'AND', 'NOT IN']).default('IN'),
	include_children: wpBool.prefault(false),
});

const metaClause = z.strictObject({
	key: metaKey,
	value: z.union([z.string(), z.number(), z.boolean()]).optional(),
	compare: z.enum(META_COMPARE).default('='),
});

/** The `args` of each query type, with the public plugin's defaults (WP_Query, WP_Term_Query, WP_User_Query). */
export const QUERY_ARGS = {
	posts: z.strictObject({
		/** Post type slugs of the site; `any` is every type but media. */
		post_type: list(z.string().min(1)).prefault(['post']),
		post_status: list(z.enum(QUERY_POST_STATUSES)).prefault(['publish']),
		search: searchParam.optional(),
		author: idList().prefault([]),
		include: idList().prefault([]),
		exclude: idList().prefault([]),
		parent: idList().prefault([]),
		tax_query: z.array(taxClause).max(20).prefault([]),
		tax_relation: z.enum(['AND', 'OR']).default('AND'),
		meta_query: z.array(metaClause).max(20).prefault([]),
		meta_relation: z.enum(['AND', 'OR']).default('AND'),
		orderby: z.enum(POST_ORDERBY).default('date'),
		order: order.default('DESC'),
		...paging,
	}),
	terms: z.strictObject({
		taxonomy: list(z.string().min(1)).prefault(['category']),
		search: searchParam.optional(),
		include: idList().prefault([]),
		exclude: idList().prefault([]),
		parent: wpInt(0).optional(),
		hide_empty: wpBool.prefault(false),
		orderby: z.enum(['name', 'slug', 'id', 'count', 'parent', 'include']).default('name'),
		order: order.default('ASC'),
		...paging,
	}),
	users: z.strictObject({
		role: list(z.enum(['administrator', 'editor', 'author', 'contributor', 'subscriber'])).prefault([]),
		search: searchParam.optional(),
		include: idList().prefault([]),
		exclude: idList().prefault([]),
		orderby: z.enum(['id', 'login', 'display_name', 'registered', 'include']).default('login'),
		order: order.default('ASC'),
		...paging,
	}),
};

export type PostsArgs = z.output<typeof QUERY_ARGS.posts>;
export type TermsArgs = z.output<typeof QUERY_ARGS.terms>;
export type UsersArgs = z.output<typeof QUERY_ARGS.users>;
export type QueryDefinition =
	| { query_type: 'posts'; args: PostsArgs }
	| { query_type: 'terms'; args: TermsArgs }
	| { query_type: 'users'; args: UsersArgs };

export type StoredQuery = { id: number; name: string; slug: string; description: string } & QueryDefinition;

/** A stored query as the engine answers it; `args` are those of its type, with their defaults (`QUERY_ARGS`). */
export const storedQueryAnswer = z.object({
	id: z.number().int(),
	name: z.string(),
	slug: z.string(),
	description: z.string(),
	query_type: z.enum(QUERY_TYPES),
	args: z.record(z.string(), z.unknown()),
});

/** The JSON Schema of `args` of one query type, as a part of another schema. */
const argsSchemaOf = (type: QueryType) => {
	const { $schema, ...schema } = z.toJSONSchema(QUERY_ARGS[type], { io: 'input', unrepresentable: 'any' });
	return schema;
};

/**
 * `args` as given: its fields are checked against the query type once that is known (`definition`).
 * Its JSON Schema (the index, OpenAPI, the MCP tools' input) says what that check takes: the args of
 * one of the query types, no other key.
 */
export const argsInput = z.record(z.string(), z.unknown()).meta({ anyOf: QUERY_TYPES.map(argsSchemaOf) });

/** What add-query and edit-query write besides the definition. */
export const queryFields = {
	name: z.string().trim().min(1).max(200),
	slug: z
		.string()
		.regex(/^[a-z0-9_-]{1,100}$/, { error: 'must be 1 to 100 lowercase letters, digits, hyphens or underscores' })
		.refine((slug) => !/^\d+$/.test(slug), { error: 'must not be only digits (digits are query ids)' }),
	description: z.string().max(2000),
};

/**
 * A definition checked for its type: the args with their defaults, the post types and taxonomies
 * they name known to the site, and an order that has what it orders by.
 */
export function definition(store: Store, queryType: QueryType, args: unknown): QueryDefinition {
	const parsed = parse(z.object({ args: QUERY_ARGS[queryType] }), { args: args ?? {} }, 'body', false) as { args: never };
	const def = { query_type: queryType, args: parsed.args } as QueryDefinition;
	const invalid = (message: string) => badRequest('Invalid parameter(s): args', 'rest_invalid_param', { params: { args: message } });
	if (def.query_type === 'posts') {
		const known = new Set(sitePostTypes(store).map((type) => type.slug));
		const unknown = def.args.post_type.filter((type) => type !== 'any' && !known.has(type));
		if (unknown.length) throw invalid(`args.post_type names no post type of the site: ${unknown.join(', ')}`);
		const taxonomies = new Set(siteTaxonomies(store).map((tax) => tax.slug));
		const badTax = def.args.tax_query.filter((clause) => !taxonomies.has(clause.taxonomy)).map((clause) => clause.taxonomy);
		if (badTax.length) throw invalid(`args.tax_query names no taxonomy of the site: ${badTax.join(', ')}`);
		if (def.args.orderby === 'relevance' && !def.args.search?.trim()) throw invalid('args.orderby "relevance" needs args.search');
		if (def.args.orderby === 'include' && !def.args.include.length) throw invalid('args.orderby "include" needs args.include');
	} else if (def.query_type === 'terms') {
		const taxonomies = new Set(siteTaxonomies(store).map((tax) => tax.slug));
		const unknown = def.args.taxonomy.filter((tax) => !taxonomies.has(tax));
		if (unknown.length) throw invalid(`args.taxonomy names no taxonomy of the site: ${unknown.join(', ')}`);
		if (def.args.orderby === 'include' && !def.args.include.length) throw invalid('args.orderby "include" needs args.include');
	} else if (def.args.orderby === 'include' && !def.args.include.length) {
		throw invalid('args.orderby "include" needs args.include');
	}
	return def;
}

// ---- storage ----

const NS = 'engine';
const KIND = 'query';

export const listQueries = (store: Store): StoredQuery[] => store.objects.list<StoredQuery>(NS, KIND).map((object) => object.data);

/** A stored query by id or slug; a 404 when there is none. */
export function findQuery(store: Store, ref: string | number): StoredQuery {
	const key = String(ref);
	const found = /^\d+$/.test(key) ? store.objects.get<StoredQuery>(NS, KIND, String(Number(key)))?.data : listQueries(store).find((query) => query.slug === key);
	if (!found) throw new ApiError(404, `No query has the id or slug "${key}".`, 'rest_query_invalid_id');
	return found;
}

/** A slug no other query has: the given one (else a 409), or one made from the name, numbered if taken. */
function uniqueSlug(store: Store, id: number, name: string, wanted?: string): string {
	const taken = new Set(listQueries(store).filter((query) => query.id !== id).map((query) => query.slug));
	if (wanted !== undefined) {
		if (taken.has(wanted)) throw conflict(`Another query already has the slug "${wanted}".`, 'rest_query_slug_exists');
		return wanted;
	}
	let base = sanitizeTitle(name).replace(/[^a-z0-9_-]/g, '').slice(0, 90) || 'query';
	if (/^\d+$/.test(base)) base = `query-${base}`;
	let slug = base;
	for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
	return slug;
}

/** Writes a new or changed query (call inside a transaction). */
export function saveQuery(
	store: Store,
	previous: StoredQuery | undefined,
	fields: { name?: string; slug?: string; description?: string },
	def: QueryDefinition,
): StoredQuery {
	const id = previous?.id ?? store.objects.nextId(NS, KIND);
	const name = fields.name ?? previous?.name ?? '';
	const slug = fields.slug !== undefined || !previous ? uniqueSlug(store, id, name, fields.slug) : previous.slug;
	const query = { id, name, slug, description: fields.description ?? previous?.description ?? '', query_type: def.query_type, args: def.args } as StoredQuery;
	store.objects.put(NS, KIND, String(id), query);
	return query;
}

export const deleteQuery = (store: Store, query: StoredQuery) => store.objects.delete(NS, KIND, String(query.id));
