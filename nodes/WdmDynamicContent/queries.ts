import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { picker, pickedValue } from '../shared/pickers';
import { engineRouting, parseJson, setBody, toBody, toQuery } from './fields';

/** Stored queries of the engine's query builder: write them, preview and convert definitions, run stored ones. */

const QUERY_ID: INodeProperties = picker('query', {
	displayName: 'Query',
	name: 'queryId',
	description: 'The stored query: pick it from the list, or give its ID or its slug (Get Many lists them)',
});

/** Sends Query ID or Slug as `query_id` of the query string or the body (the field is declared once, for the path too). */
const sendQueryId = (where: 'qs' | 'body') =>
	async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const id = String(this.getNodeParameter('queryId', ''));
		if (where === 'qs') return { ...options, qs: { ...options.qs, query_id: id } };
		return setBody(options, 'query_id', id);
	};

const QUERY_TYPE: INodeProperties = {
	displayName: 'Query Type',
	name: 'queryType',
	type: 'options',
	options: [
		{ name: 'Posts', value: 'posts', description: 'Items of post types (posts, pages, the engine’s types)' },
		{ name: 'Terms', value: 'terms', description: 'Terms of taxonomies' },
		{ name: 'Users', value: 'users', description: 'Site users (needs a role that may list users)' },
	],
	default: 'posts',
	description: 'What the query finds',
	routing: toBody('query_type'),
};

const option = (name: string, value: string, description?: string) => ({ name, value, ...(description ? { description } : {}) });

/** The query's arguments, each named as the server's `args` name them. */
const ARG_NAMES: Record<string, string> = {
	author: 'author',
	exclude: 'exclude',
	hideEmpty: 'hide_empty',
	include: 'include',
	offset: 'offset',
	order: 'order',
	orderBy: 'orderby',
	parent: 'parent',
	perPage: 'per_page',
	postStatus: 'post_status',
	postType: 'post_type',
	role: 'role',
	search: 'search',
	taxonomy: 'taxonomy',
	taxRelation: 'tax_relation',
	metaRelation: 'meta_relation',
};

interface TaxRow {
	/** A picker's value (a plain slug in older workflows). */
	taxonomy: unknown;
	terms: string;
	operator: string;
	includeChildren?: boolean;
}
interface MetaRow {
	key: string;
	compare: string;
	value?: string;
}

const ids = (text: string) =>
	String(text)
		.split(/[\s,]+/)
		.filter(Boolean)
		.map(Number);

/**
 * Sends `args`: the Query Arguments, the filter rows and, over them, the Advanced Arguments JSON.
 * Nothing set sends no `args` (a new query takes the defaults, an update keeps the stored ones).
 */
async function sendArgs(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const args: IDataObject = {};
	for (const [name, value] of Object.entries(this.getNodeParameter('queryArgs', {}) as IDataObject)) args[ARG_NAMES[name] ?? name] = value;
	const tax = (this.getNodeParameter('queryTaxFilters', {}) as { filter?: TaxRow[] }).filter;
	if (tax?.length) {
		args.tax_query = tax.map((row) => ({ taxonomy: pickedValue(row.taxonomy), terms: ids(row.terms), operator: row.operator, include_children: row.includeChildren === true }));
	}
	const meta = (this.getNodeParameter('queryMetaFilters', {}) as { filter?: MetaRow[] }).filter;
	if (meta?.length) {
		args.meta_query = meta.map((row) => ({ key: row.key, compare: row.compare, ...(['EXISTS', 'NOT EXISTS'].includes(row.compare) ? {} : { value: row.value ?? '' }) }));
	}
	const advanced = parseJson.call(this, this.getNodeParameter('queryAdvancedArgs', '{}'), 'Advanced Arguments (JSON)');
	if (advanced && typeof advanced === 'object') Object.assign(args, advanced);
	return Object.keys(args).length ? setBody(options, 'args', args) : options;
}

const ORDER_BY = [
	option('Author', 'author', 'Posts'),
	option('Count', 'count', 'Terms: how many published items carry the term'),
	option('Date', 'date', 'Posts (the default for posts)'),
	option('Display Name', 'display_name', 'Users'),
	option('ID', 'id'),
	option('Include', 'include', 'The order of Include'),
	option('Login', 'login', 'Users (the default for users)'),
	option('Menu Order', 'menu_order', 'Posts'),
	option('Modified', 'modified', 'Posts'),
	option('Name', 'name', 'Terms (the default for terms)'),
	option('Parent', 'parent', 'Posts and terms'),
	option('Registered', 'registered', 'Users'),
	option('Relevance', 'relevance', 'Posts: needs Search'),
	option('Slug', 'slug', 'Posts and terms'),
	option('Title', 'title', 'Posts'),
];

const relation = (displayName: string, name: string, what: string): INodeProperties => ({
	displayName,
	name,
	type: 'options',
	options: [option('AND', 'AND', `Items must match every ${what}`), option('OR', 'OR', `Items must match at least one ${what}`)],
	default: 'AND',
	description: `Posts: how the ${what}s combine`,
});

/** The definition of a query, as a person fills it in: the arguments, then rows of taxonomy and meta filters, then JSON. */
const DEFINITION: INodeProperties[] = [
	{
		displayName: 'Query Arguments',
		name: 'queryArgs',
		type: 'collection',
		placeholder: 'Add Argument',
		default: {},
		description: 'Filters, order and paging; each says which query types it is for',
		options: [
			{ displayName: 'Author IDs', name: 'author', type: 'string', default: '', placeholder: 'e.g. 1, 4', description: 'Posts: only items by these users' },
			{ displayName: 'Exclude IDs', name: 'exclude', type: 'string', default: '', placeholder: 'e.g. 12, 15', description: 'Leave out these items, terms or users' },
			{ displayName: 'Hide Empty', name: 'hideEmpty', type: 'boolean', default: false, description: 'Whether terms that no published item carries are left out (terms)' },
			{ displayName: 'Include IDs', name: 'include', type: 'string', default: '', placeholder: 'e.g. 12, 15', description: 'Only these items, terms or users' },
			relation('Meta Relation', 'metaRelation', 'meta filter'),
			{ displayName: 'Offset', name: 'offset', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'How many matches to skip' },
			{ displayName: 'Order', name: 'order', type: 'options', options: [option('Ascending', 'ASC'), option('Descending', 'DESC')], default: 'DESC', description: 'Direction of Order By' },
			{ displayName: 'Order By', name: 'orderBy', type: 'options', options: ORDER_BY, default: 'date', description: 'What the matches are sorted by; each value says which query types have it' },
			{ displayName: 'Parent', name: 'parent', type: 'string', default: '', placeholder: 'e.g. 7', description: 'Posts: only items under these parents (IDs); terms: only terms under this term' },
			{ displayName: 'Per Page', name: 'perPage', type: 'number', typeOptions: { minValue: 1, maxValue: 100 }, default: 10, description: 'How many matches the query gives at once' },
			{
				displayName: 'Post Status',
				name: 'postStatus',
				type: 'multiOptions',
				options: ['any', 'draft', 'future', 'inherit', 'pending', 'private', 'publish', 'trash'].map((status) => option(status[0].toUpperCase() + status.slice(1), status)),
				default: ['publish'],
				description: 'Posts: the statuses to find; items the caller may not read are left out',
			},
			{ displayName: 'Post Types', name: 'postType', type: 'string', default: 'post', placeholder: 'e.g. post, page', description: 'Posts: slugs of the post types, or "any" for every type but media' },
			{
				displayName: 'Roles',
				name: 'role',
				type: 'multiOptions',
				options: ['administrator', 'author', 'contributor', 'editor', 'subscriber'].map((role) => option(role[0].toUpperCase() + role.slice(1), role)),
				default: [],
				description: 'Users: only users with these roles',
			},
			{ displayName: 'Search', name: 'search', type: 'string', default: '', placeholder: 'e.g. apple', description: 'Words to find: in titles, excerpts and contents (posts), names (terms), logins, names and emails (users)' },
			relation('Taxonomy Relation', 'taxRelation', 'taxonomy filter'),
			{ displayName: 'Taxonomies', name: 'taxonomy', type: 'string', default: 'category', placeholder: 'e.g. category, post_tag', description: 'Terms: slugs of the taxonomies' },
		],
	},
	{
		displayName: 'Taxonomy Filters',
		name: 'queryTaxFilters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Taxonomy Filter',
		default: {},
		description: 'Posts: only items with (or without) terms',
		options: [
			{
				displayName: 'Filter',
				name: 'filter',
				values: [
					picker('siteTaxonomy', { displayName: 'Taxonomy', name: 'taxonomy', value: 'category', description: 'The taxonomy: pick it, or give its slug' }),
					{ displayName: 'Term IDs', name: 'terms', type: 'string', default: '', placeholder: 'e.g. 3, 8' },
					{
						displayName: 'Operator',
						name: 'operator',
						type: 'options',
						options: [option('Any (IN)', 'IN'), option('All (AND)', 'AND'), option('None (NOT IN)', 'NOT IN')],
						default: 'IN',
					},
					{ displayName: 'Include Children', name: 'includeChildren', type: 'boolean', default: false, description: 'Whether terms below each term count too' },
				],
			},
		],
	},
	{
		displayName: 'Meta Filters',
		name: 'queryMetaFilters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Meta Filter',
		default: {},
		description: 'Posts: only items whose meta fields compare as given',
		options: [
			{
				displayName: 'Filter',
				name: 'filter',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'e.g. price' },
					{
						displayName: 'Compare',
						name: 'compare',
						type: 'options',
						options: ['=', '!=', '>', '>=', '<', '<=', 'LIKE', 'NOT LIKE', 'EXISTS', 'NOT EXISTS'].map((value) => option(value, value)),
						default: '=',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '', description: 'Not used by EXISTS and NOT EXISTS' },
				],
			},
		],
	},
	{
		displayName: 'Advanced Arguments (JSON)',
		name: 'queryAdvancedArgs',
		type: 'json',
		default: '{}',
		description: 'Arguments as the server names them (e.g. {"post_type": ["post"], "per_page": 20}); they win over the fields above',
		// Sends the whole definition: this field is always shown with the others (a collection's own routing is not run).
		routing: { send: { preSend: [sendArgs] } },
	},
];

const queryName: INodeProperties = {
	displayName: 'Name',
	name: 'queryName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Latest news',
	description: 'Name of the query, as lists of queries show it',
	routing: toBody('name'),
};

const slugField = (description: string): INodeProperties => ({
	displayName: 'Slug',
	name: 'slug',
	type: 'string',
	default: '',
	placeholder: 'e.g. latest-news',
	description,
	routing: toBody('slug'),
});
const descriptionField: INodeProperties = { displayName: 'Description', name: 'description', type: 'string', default: '', routing: toBody('description') };

const addQuery: Operation = {
	name: 'Create',
	value: 'createQuery',
	action: 'Create a query',
	description: 'Store a query of posts, terms or users with its filters, order and paging',
	routing: engineRouting('POST', 'add-query'),
	fields: [
		queryName,
		QUERY_TYPE,
		...DEFINITION,
		{
			displayName: 'Additional Fields',
			name: 'queryAdditionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [descriptionField, slugField('Unique; lowercase letters, digits, hyphens, underscores (made from the name when empty)')],
		},
	],
};

const updateQuery: Operation = {
	name: 'Update',
	value: 'updateQuery',
	action: 'Update a query',
	description: 'Change a stored query; arguments given replace its stored arguments',
	routing: engineRouting('POST', 'edit-query/{id}', { id: 'queryId' }),
	fields: [
		QUERY_ID,
		{
			displayName: 'Update Fields',
			name: 'queryUpdateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				descriptionField,
				{ displayName: 'Name', name: 'name', type: 'string', default: '', routing: toBody('name') },
				{ ...QUERY_TYPE, description: 'A new type starts from its default arguments unless arguments are given' },
				slugField('Unique; lowercase letters, digits, hyphens, underscores'),
			],
		},
		...DEFINITION,
	],
};

const getQuery: Operation = {
	name: 'Get',
	value: 'getQuery',
	action: 'Get a query',
	description: 'Get a stored query with its definition',
	routing: engineRouting('GET', 'get-query/{id}', { id: 'queryId' }),
	fields: [QUERY_ID],
};

const deleteQuery: Operation = {
	name: 'Delete',
	value: 'deleteQuery',
	action: 'Delete a query',
	description: 'Delete a stored query',
	routing: engineRouting('DELETE', 'delete-query/{id}', { id: 'queryId' }),
	fields: [QUERY_ID],
};

const getQueries: Operation = {
	name: 'Get Many',
	value: 'getQueries',
	action: 'Get many queries',
	description: 'List the stored queries',
	routing: engineRouting('GET', 'get-queries'),
};

const previewQuery: Operation = {
	name: 'Preview',
	value: 'previewQuery',
	action: 'Preview a query',
	description: 'Run a query definition against the site without storing it; one item per row found',
	routing: engineRouting('POST', 'update-query-preview'),
	fields: [
		QUERY_TYPE,
		...DEFINITION,
		{
			displayName: 'Limit',
			name: 'previewLimit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 10,
			description: 'Max number of results to return',
			routing: toBody('limit'),
		},
	],
};

const convertQuery: Operation = {
	name: 'Convert to Advanced',
	value: 'convertQuery',
	action: 'Convert a query to advanced form',
	description: 'Get a query definition with every argument and its default, and the SQL it runs',
	routing: engineRouting('POST', 'convert-query-advanced'),
	fields: [QUERY_TYPE, ...DEFINITION],
};

const findPreviewPosts: Operation = {
	name: 'Find Preview Posts',
	value: 'findPreviewPosts',
	action: 'Find posts to preview queries on',
	description: 'Find posts and pages by title, as the query editor offers them to preview a query in their context',
	routing: engineRouting('GET', 'search-query-preview'),
	fields: [
		{ displayName: 'Title Contains', name: 'previewSearch', type: 'string', default: '', placeholder: 'e.g. about', description: 'Text the titles contain; empty for every post', routing: toQuery('_s') },
	],
};

const getFieldOptions: Operation = {
	name: 'Get Field Options',
	value: 'getQueryFieldOptions',
	action: 'Get the options a query gives',
	description: 'Run a stored query and get its rows as value and label options',
	routing: siteRouting('GET', '/engine/v2/search-query-field-options', undefined, sendQueryId('qs')),
	fields: [
		QUERY_ID,
		{
			displayName: 'Options',
			name: 'queryOptionsFilter',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{ displayName: 'Label Field', name: 'label_field', type: 'string', default: '', placeholder: 'e.g. post_title', description: 'Row field for the labels (post_title, name or display_name by default)', routing: toQuery('label_field') },
				{ displayName: 'Search', name: 'q', type: 'string', default: '', placeholder: 'e.g. apple', description: 'Only options whose value or label contains this text', routing: toQuery('q') },
				{ displayName: 'Value Field', name: 'value_field', type: 'string', default: '', placeholder: 'e.g. ID', description: 'Row field for the values (ID or term_id by default)', routing: toQuery('value_field') },
				{ displayName: 'Values', name: 'values', type: 'string', default: '', placeholder: 'e.g. 12, 15', description: 'Only the options with these values (Search is then ignored)', routing: toQuery('values') },
			],
		},
	],
};

/** A table's answer: one item per row. */
async function tableRows(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return items.flatMap(({ json }) => ((json.rows ?? []) as IDataObject[]).map((row) => ({ json: row })));
}

const runQuery: Operation = {
	name: 'Run',
	value: 'runQuery',
	action: 'Run a query',
	description: 'Run a stored query against the site; one item per row of the page asked for',
	routing: (() => {
		const routing = engineRouting('POST', 'table-fetch-data');
		return { ...routing, send: { preSend: [sendQueryId('body')] }, output: { postReceive: [...routing.output.postReceive, tableRows] } };
	})(),
	fields: [
		QUERY_ID,
		{
			displayName: 'Options',
			name: 'queryRunOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{ displayName: 'Columns', name: 'columns', type: 'string', default: '', placeholder: 'e.g. ID, post_title', description: 'Row fields to keep (all by default)', routing: toBody('columns') },
				{ displayName: 'Page', name: 'page', type: 'number', typeOptions: { minValue: 1 }, default: 1, description: 'Which page of rows', routing: toBody('page') },
				{ displayName: 'Per Page', name: 'per_page', type: 'number', typeOptions: { minValue: 1, maxValue: 100 }, default: 10, description: 'Rows per page (the query’s own Per Page by default)', routing: toBody('per_page') },
			],
		},
	],
};

export const queries: Resource = {
	name: 'Query',
	value: 'query',
	description: 'Stored queries of posts, terms or users, their previews and results',
	operations: [addQuery, deleteQuery, getQuery, getQueries, previewQuery, runQuery, updateQuery, convertQuery, getFieldOptions, findPreviewPosts],
};
