import { z, type ZodType } from 'zod';
import { qBool } from '../../http/schema';
import { fieldArg, rawTextArg } from '../item-schema';
import { isDateTime } from './dates';
import { CONTEXTS, type Context } from '../contexts';
import { contentField, excerptField, titleField } from './post-schema';
import { FILTER_STATUSES, FORMATS, type PostType, type Taxonomy, WRITABLE_STATUSES } from './types';

/**
 * Parameters of the content routes as WordPress types them. Query strings carry text, so integers and
 * booleans also come as strings; lists come as arrays (`a[]=1&a[]=2`, see `phpQuery`) or as one
 * comma-separated string (`a=1,2`), in bodies too.
 */

/** Digits as text count as the integer they write. */
const numeric = (value: unknown) => (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value) ? Number(value) : value);

/** An integer, also written as text; `min`/`max` as WordPress's `minimum`/`maximum`. */
export function wpInt(min?: number, max?: number) {
	let schema = z.int({ error: (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? 'must be an integer' : undefined) });
	if (min !== undefined) schema = schema.min(min);
	if (max !== undefined) schema = schema.max(max);
	return z.preprocess(numeric, schema);
}

/**
 * A search text. Capped so that its LIKE patterns stay within SQLite's limit (50,000 bytes); a
 * longer search is a 400 rather than a failed query.
 */
export const MAX_SEARCH_LENGTH = 1000;
export const searchParam = z.string().max(MAX_SEARCH_LENGTH);

/** A boolean, also `true`/`false`/`1`/`0` as text. */
export const wpBool = qBool;

/** WordPress's `wp_parse_list`: a string is split at commas and spaces; a single value is a list of one. */
export function toList(value: unknown): unknown {
	if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
	if (typeof value === 'number' || typeof value === 'boolean') return [value];
	return value;
}

/** A list of `item`: an array, or one comma-separated string. */
export const list = <T extends ZodType>(item: T) => z.preprocess(toList, z.array(item));

/** A list of ids (positive or zero integers). */
export const idList = () => list(wpInt(0));

/** RFC 3339 date-time, as WordPress's `date-time` format; without an offset it is the site's time (GMT for `*_gmt`). */
export const dateTime = z.string().refine(isDateTime, { error: 'must be a date-time such as 2024-05-01T09:30:00 (RFC 3339)', params: { wpCode: 'rest_invalid_date' } });

export const contextParam = z.enum(CONTEXTS).default('view');

// ---- meta fields of posts and pages (the spec's table) ----

export const TEMPLATE_TYPES = [
	'',
	'post',
	'cms-post',
	'cms-page',
	'page',
	'section',
	'container',
	'kit',
	'not-supported',
	'floating-buttons',
	'e-div-block',
	'e-flexbox',
	'cloud-template-preview',
	'builder_component',
	'themecore-not-supported',
	'engine_page',
	'engine_header',
	'engine_footer',
	'engine_section',
	'engine_archive',
	'engine_single',
	'engine-listing-items',
	'engine-not-supported',
	'engine-component',
] as const;

/** Every meta field with its default; an unset field shows its default. */
export const META_DEFAULTS = {
	footnotes: '',
	_builder_edit_mode: '',
	_builder_template_type: '',
	_builder_data: '',
	_builder_page_settings: {} as Record<string, unknown>,
};

/**
 * `null` resets a field to its default. Other keys pass through to the write, which checks those the
 * engine's fields register for the type and ignores the rest, as WordPress ignores unregistered meta.
 */
const metaBody = z.looseObject({
	footnotes: z.string().nullable().optional(),
	_builder_edit_mode: z.enum(['', 'builder']).nullable().optional(),
	_builder_template_type: z.enum(TEMPLATE_TYPES).nullable().optional(),
	_builder_data: z.string().nullable().optional(),
	_builder_page_settings: z.looseObject({ hide_title: z.enum(['yes', 'no']).optional() }).nullable().optional(),
});

// ---- item bodies ----


const openClosed = z.enum(['open', 'closed']);

/** The writable fields of an item of the type; all optional, unknown fields ignored. */
export function itemBody(def: PostType) {
	return z.object({
		date: dateTime.nullable().optional(),
		date_gmt: dateTime.nullable().optional(),
		slug: z.string().max(1000).optional(),
		status: z.enum(WRITABLE_STATUSES).optional(),
		password: z.string().max(255).optional(),
		title: rawTextArg(titleField()),
		content: rawTextArg(contentField),
		excerpt: rawTextArg(excerptField),
		author: wpInt(0).optional(),
		featured_media: wpInt(0).optional(),
		comment_status: openClosed.optional(),
		ping_status: openClosed.optional(),
		meta: metaBody.optional(),
		template: z.string().max(255).optional(),
		...(def.formats ? { format: z.enum(FORMATS).optional() } : {}),
		...(def.sticky ? { sticky: wpBool.optional() } : {}),
		...Object.fromEntries(def.taxonomies.map((tax) => [tax.base, idList().optional()])),
		...(def.hierarchical ? { parent: wpInt(0).optional(), menu_order: wpInt().optional() } : {}),
	});
}
export type ItemBody = {
	date?: string | null;
	date_gmt?: string | null;
	slug?: string;
	status?: (typeof WRITABLE_STATUSES)[number];
	password?: string;
	title?: string;
	content?: string;
	excerpt?: string;
	author?: number;
	featured_media?: number;
	comment_status?: 'open' | 'closed';
	ping_status?: 'open' | 'closed';
	meta?: z.output<typeof metaBody>;
	template?: string;
	format?: (typeof FORMATS)[number];
	sticky?: boolean;
	categories?: number[];
	tags?: number[];
	parent?: number;
	menu_order?: number;
};

// ---- collection queries ----

export const ORDERBY = ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'] as const;
export const SEARCH_COLUMNS = ['post_title', 'post_content', 'post_excerpt'] as const;

/**
 * `categories`/`tags` filter: a list of term ids, or the object form `{terms, include_children
 * (categories), operator (AND/OR, not for exclusion)}`; a list is the object with its defaults.
 */
function termFilter(tax: Taxonomy, include: boolean) {
	const query = z.strictObject({
		terms: idList().prefault([]).meta({ description: 'Term IDs.' }),
		...(tax.hierarchical ? { include_children: wpBool.prefault(false).meta({ description: 'Whether to include child terms in the terms limiting the result set.' }) } : {}),
		...(include ? { operator: z.enum(['AND', 'OR']).default('OR').meta({ description: 'Whether items must be assigned all or any of the specified terms.' }) } : {}),
	});
	return z
		.preprocess((value) => (value && typeof value === 'object' && !Array.isArray(value) ? value : { terms: value }), query)
		.optional()
		.meta({
			description: include
				? `Limit result set to items with specific terms assigned in the ${tax.base} taxonomy.`
				: `Limit result set to items except those with specific terms assigned in the ${tax.base} taxonomy.`,
			// WordPress's two forms: a list of ids, or the query object.
			type: ['object', 'array'],
			oneOf: [
				{ title: 'Term ID List', description: 'Match terms with the listed IDs.', type: 'array', items: { type: 'integer' } },
				{
					title: 'Term ID Taxonomy Query',
					description: 'Perform an advanced term query.',
					...fieldArg(query),
					additionalProperties: false,
				},
			],
		});
}
export interface TermFilter {
	terms: number[];
	include_children?: boolean;
	operator?: 'AND' | 'OR';
}

/** The collection parameters of the type (spec's table), with WordPress's defaults. */
export function collectionParams(def: PostType) {
	return {
		context: contextParam,
		page: wpInt(1).prefault(1),
		per_page: wpInt(1, 100).prefault(10),
		search: searchParam.optional(),
		after: dateTime.optional(),
		modified_after: dateTime.optional(),
		before: dateTime.optional(),
		modified_before: dateTime.optional(),
		author: idList().prefault([]),
		author_exclude: idList().prefault([]),
		exclude: idList().prefault([]),
		include: idList().prefault([]),
		search_semantics: z.enum(['exact']).optional(),
		offset: wpInt().optional(),
		order: z.enum(['asc', 'desc']).default('desc'),
		orderby: z.enum(def.hierarchical ? [...ORDERBY, 'menu_order'] : ORDERBY).default('date'),
		search_columns: list(z.enum(SEARCH_COLUMNS)).prefault([]),
		slug: list(z.string()).optional(),
		// WordPress declares the default as the one status, not a list.
		status: list(z.enum(FILTER_STATUSES)).prefault(['publish']).meta({ description: 'Limit result set to posts assigned one or more statuses.', default: 'publish' }),
		...(def.taxonomies.length
			? { tax_relation: z.enum(['AND', 'OR']).optional().meta({ description: 'Limit result set based on relationship between multiple taxonomies.' }) }
			: {}),
		...Object.fromEntries(
			def.taxonomies.flatMap((tax) => [
				[tax.base, termFilter(tax, true)],
				[`${tax.base}_exclude`, termFilter(tax, false)],
			]),
		),
		...(def.sticky ? { sticky: wpBool.optional(), ignore_sticky: wpBool.prefault(true) } : {}),
		...(def.formats ? { format: list(z.enum(FORMATS)).optional() } : {}),
		...(def.hierarchical
			? { menu_order: wpInt().optional(), parent: idList().prefault([]), parent_exclude: idList().prefault([]) }
			: {}),
	};
}

/** The parsed collection parameters; fields a type does not have are absent. */
export interface CollectionParams {
	context: Context;
	page: number;
	per_page: number;
	search?: string;
	after?: string;
	modified_after?: string;
	before?: string;
	modified_before?: string;
	author: number[];
	author_exclude: number[];
	exclude: number[];
	include: number[];
	search_semantics?: 'exact';
	offset?: number;
	order: 'asc' | 'desc';
	orderby: string;
	search_columns: (typeof SEARCH_COLUMNS)[number][];
	slug?: string[];
	status: (typeof FILTER_STATUSES)[number][];
	tax_relation?: 'AND' | 'OR';
	categories?: TermFilter;
	categories_exclude?: TermFilter;
	tags?: TermFilter;
	tags_exclude?: TermFilter;
	sticky?: boolean;
	ignore_sticky?: boolean;
	format?: (typeof FORMATS)[number][];
	menu_order?: number;
	parent?: number[];
	parent_exclude?: number[];
}

/** WordPress's item routes take digits (`(?P<id>[\d]+)`, `(?P<parent>[\d]+)`): another segment is no route. */
export const DIGITS = '[\\d]+';
