import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { rowsOf, toQuery } from './editorFields';

/** The builder's lookups over the site's content, terms and users (what its query controls search). */

/**
 * The comparisons of a meta condition. n8n reads an option value that starts with `=` as an
 * expression, so the options carry names and the request the operator.
 */
const COMPARES: Record<string, string> = {
	equals: '=',
	notEquals: '!=',
	greater: '>',
	greaterOrEqual: '>=',
	less: '<',
	lessOrEqual: '<=',
	like: 'LIKE',
	notLike: 'NOT LIKE',
	in: 'IN',
	notIn: 'NOT IN',
	exists: 'EXISTS',
	notExists: 'NOT EXISTS',
};

const searchField: INodeProperties = {
	displayName: 'Search Term',
	name: 'lookupTerm',
	type: 'string',
	default: '',
	placeholder: 'e.g. about',
	description: 'Only results whose title or name contains this text',
	routing: toQuery('term'),
};

const keysMapEntry: INodeProperties = {
	displayName: 'Keys Conversion Map',
	name: 'keysConversionMap',
	type: 'json',
	default: '{}',
	description: 'Which keys of the WordPress objects to answer, and under which names, e.g. {"post_title": "label"}; empty for the default map',
	routing: toQuery('keys_conversion_map'),
};

const itemsCountEntry: INodeProperties = {
	displayName: 'Items Count',
	name: 'itemsCount',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 100,
	description: 'At most this many results',
	routing: toQuery('items_count'),
};

const typesEntry = (displayName: string, name: string, property: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: 'e.g. post, page',
	description,
	routing: toQuery(property),
});

/** Meta query rows, sent as the JSON the route also takes. */
const metaQueryField: INodeProperties = {
	displayName: 'Meta Query',
	name: 'lookupMetaQuery',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Meta Condition',
	default: {},
	description: 'Conditions on meta fields; all must hold',
	options: [
		{
			displayName: 'Condition',
			name: 'condition',
			values: [
				{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'e.g. _builder_edit_mode' },
				{
					displayName: 'Compare',
					name: 'compare',
					type: 'options',
					options: Object.entries(COMPARES)
						.map(([value, operator]) => ({ name: operator, value }))
						.sort((a, b) => a.name.localeCompare(b.name)),
					default: 'equals',
				},
				{ displayName: 'Value', name: 'value', type: 'string', default: '', description: 'For IN and NOT IN, values separated by commas' },
			],
		},
	],
	routing: {
		send: {
			preSend: [
				async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
					const clauses = rowsOf.call(this, 'lookupMetaQuery', 'condition').map((row) => {
						const compare = COMPARES[String(row.compare ?? 'equals')] ?? String(row.compare);
						const list = compare === 'IN' || compare === 'NOT IN';
						const value = list ? String(row.value ?? '').split(',').map((v) => v.trim()) : (row.value ?? '');
						return { key: row.key, compare, ...(compare.endsWith('EXISTS') ? {} : { value }) };
					});
					if (clauses.length) options.qs = { ...(options.qs as IDataObject), meta_query: JSON.stringify(clauses) };
					return options;
				},
			],
		},
	},
};

const taxQueryField: INodeProperties = {
	displayName: 'Tax Query',
	name: 'lookupTaxQuery',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Term Condition',
	default: {},
	description: 'Conditions on the terms of the items; all must hold',
	options: [
		{
			displayName: 'Condition',
			name: 'condition',
			values: [
				{ displayName: 'Taxonomy', name: 'taxonomy', type: 'string', default: 'category', placeholder: 'e.g. category' },
				{
					displayName: 'Field',
					name: 'field',
					type: 'options',
					options: [
						{ name: 'Name', value: 'name' },
						{ name: 'Slug', value: 'slug' },
						{ name: 'Term ID', value: 'term_id' },
					],
					default: 'term_id',
				},
				{ displayName: 'Terms', name: 'terms', type: 'string', default: '', placeholder: 'e.g. 3, 7', description: 'Terms separated by commas' },
				{
					displayName: 'Operator',
					name: 'operator',
					type: 'options',
					options: [
						{ name: 'All (AND)', value: 'AND' },
						{ name: 'Any (IN)', value: 'IN' },
						{ name: 'None (NOT IN)', value: 'NOT IN' },
					],
					default: 'IN',
				},
			],
		},
	],
	routing: {
		send: {
			preSend: [
				async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
					const clauses = rowsOf.call(this, 'lookupTaxQuery', 'condition').map((row) => ({ ...row, terms: String(row.terms).split(',').map((t) => t.trim()).filter(Boolean) }));
					if (clauses.length) options.qs = { ...(options.qs as IDataObject), tax_query: JSON.stringify(clauses) };
					return options;
				},
			],
		},
	},
};

const operations: Operation[] = [
	{
		name: 'Find Posts',
		value: 'findPosts',
		action: 'Find posts for the builder',
		description: 'Search the published content of the site as the builder’s query controls do',
		routing: siteRouting('GET', '/builder/v1/post'),
		fields: [
			searchField,
			{
				displayName: 'Options',
				name: 'postLookupOptions',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					typesEntry('Included Types', 'includedPostTypes', 'included_types', 'Only these post types, separated by commas'),
					typesEntry('Excluded Types', 'excludedPostTypes', 'excluded_types', 'Leave out these post types (replaces the default list of internal types)'),
					itemsCountEntry,
					{ displayName: 'Public Types Only', name: 'isPublic', type: 'boolean', default: true, description: 'Whether to search public post types only', routing: toQuery('is_public') },
					keysMapEntry,
				],
			},
			metaQueryField,
			taxQueryField,
		],
	},
	{
		name: 'Find Terms',
		value: 'findTerms',
		action: 'Find terms for the builder',
		description: 'Search the terms of the site’s taxonomies',
		routing: siteRouting('GET', '/builder/v1/term'),
		fields: [
			searchField,
			{
				displayName: 'Options',
				name: 'termLookupOptions',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					typesEntry('Included Taxonomies', 'includedTaxonomies', 'included_types', 'Only these taxonomies, separated by commas'),
					typesEntry('Excluded Taxonomies', 'excludedTaxonomies', 'excluded_types', 'Leave out these taxonomies'),
					itemsCountEntry,
					{ displayName: 'Hide Empty', name: 'hideEmpty', type: 'boolean', default: false, description: 'Whether to leave out terms no published item carries', routing: toQuery('hide_empty') },
					keysMapEntry,
				],
			},
			metaQueryField,
		],
	},
	{
		name: 'Find Users',
		value: 'findUsers',
		action: 'Find users for the builder',
		description: 'Search the users of the site by login, name or email',
		routing: siteRouting('GET', '/builder/v1/user'),
		fields: [
			searchField,
			{
				displayName: 'Options',
				name: 'userLookupOptions',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [itemsCountEntry, keysMapEntry],
			},
		],
	},
];

export const lookups: Resource = { name: 'Lookup', value: 'lookup', operations };
