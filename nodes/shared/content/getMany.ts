import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { newerWordPress } from '../newerWordPress';
import type { Operation } from '../operations';
import { siteListRouting, siteReturnAllFields } from '../site';
import { asList, type ContentType, dateFilter, FORMATS, idsField, listOptions, query, searchFilter, STATUSES } from './fields';

const byName = (fields: INodeProperties[]) => [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName));

/** A term filter in WordPress's object form: `categories[terms]`, `categories[operator]`, `categories[include_children]`. */
function termFilters(base: 'categories' | 'tags', singular: string, plural: string): INodeProperties[] {
	const label = singular[0].toUpperCase() + singular.slice(1);
	return [
		idsField(`${label} IDs`, base, `Only posts with these ${plural}`, 'query', `${base}.terms`),
		{
			displayName: `${label} Match`,
			name: `${base}Operator`,
			type: 'options',
			options: [
				{ name: 'All', value: 'AND', description: `Posts with every one of the ${plural}` },
				{ name: 'Any', value: 'OR', description: `Posts with at least one of the ${plural}` },
			],
			default: 'OR',
			description: `How ${label} IDs combine`,
			routing: query(`${base}.operator`),
		},
		idsField(`Exclude ${label} IDs`, `${base}_exclude`, `Leave out posts with any of these ${plural}`, 'query', `${base}_exclude.terms`),
		...(base === 'categories'
			? [
					{
						displayName: 'Include Subcategories',
						name: 'categoriesChildren',
						type: 'boolean',
						default: false,
						description: 'Whether Category IDs also take in the categories below each one',
						routing: query('categories.include_children'),
					} satisfies INodeProperties,
					{
						displayName: 'Exclude Subcategories',
						name: 'categoriesExcludeChildren',
						type: 'boolean',
						default: false,
						description: 'Whether Exclude Category IDs also leave out posts in the categories below each one',
						routing: query('categories_exclude.include_children'),
					} satisfies INodeProperties,
				]
			: []),
	];
}

/** Exact Search: WordPress's `search_semantics=exact` (6.9), sent only when asked for. */
async function exactSearch(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (this.getNodeParameter('filters.exact', false)) options.qs = { ...options.qs, search_semantics: 'exact' };
	return options;
}

/** Sticky Posts First: WordPress's `ignore_sticky` is its opposite. */
async function stickyFirst(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	options.qs = { ...options.qs, ignore_sticky: !this.getNodeParameter('filters.stickyFirst', false) };
	return options;
}

export const getMany = (type: ContentType): Operation => ({
	name: 'Get Many',
	value: 'getMany',
	action: `Get many ${type.noun}s`,
	description: `List ${type.noun}s, filtered by status, date, author, text${type.postFields ? ', category, tag, format' : ', parent'} and more`,
	routing: siteListRouting(type.route),
	fields: [
		...siteReturnAllFields,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			// Alphabetical, as n8n lists a collection's options; the post and page filters interleave.
			options: byName([
				dateFilter('After', 'after', `Only ${type.noun}s published after this time`),
				idsField('Author IDs', 'author', `Only ${type.noun}s by these users`),
				dateFilter('Before', 'before', `Only ${type.noun}s published before this time`),
				...(type.postFields ? termFilters('categories', 'category', 'categories') : []),
				newerWordPress(
					{
						displayName: 'Exact Search',
						name: 'exact',
						type: 'boolean',
						default: false,
						description: 'Whether Search must be a whole title, excerpt or content (ignoring case) rather than words in it',
						routing: { send: { preSend: [exactSearch] } },
					},
					{ version: '6.9', arg: 'search_semantics' },
				),
				idsField('Exclude Author IDs', 'author_exclude', `Leave out ${type.noun}s by these users`),
				idsField('Exclude IDs', 'exclude', `Leave out these ${type.noun}s`),
				...(type.pageFields ? [idsField('Exclude Parent IDs', 'parent_exclude', 'Leave out pages under these pages')] : []),
				...(type.postFields
					? [
							newerWordPress(
								{
									displayName: 'Formats',
									name: 'format',
									type: 'multiOptions',
									options: FORMATS,
									default: [],
									description: 'Only posts of these formats',
									routing: asList('query', 'format'),
								},
								{ version: '6.7', arg: 'format' },
							),
						]
					: []),
				idsField('Include IDs', 'include', `Only these ${type.noun}s`),
				...(type.pageFields
					? [
							{
								displayName: 'Menu Order',
								name: 'menu_order',
								type: 'number',
								default: 0,
								description: 'Only pages at this position in menus',
								routing: query('menu_order'),
							} satisfies INodeProperties,
						]
					: []),
				dateFilter('Modified After', 'modified_after', `Only ${type.noun}s last changed after this time`),
				dateFilter('Modified Before', 'modified_before', `Only ${type.noun}s last changed before this time`),
				...(type.pageFields ? [idsField('Parent IDs', 'parent', 'Only pages under these pages (0 for top-level pages)')] : []),
				searchFilter('Only items with every word in their title, excerpt or content; "quoted phrases" and -excluded words work'),
				newerWordPress(
					{
						displayName: 'Search In',
						name: 'search_columns',
						type: 'multiOptions',
						options: [
							{ name: 'Content', value: 'post_content' },
							{ name: 'Excerpt', value: 'post_excerpt' },
							{ name: 'Title', value: 'post_title' },
						],
						default: [],
						description: 'Which fields Search looks at (all three by default)',
						routing: asList('query', 'search_columns'),
					},
					{ version: '6.2', arg: 'search_columns' },
				),
				{
					displayName: 'Slugs',
					name: 'slug',
					type: 'string',
					default: '',
					placeholder: 'e.g. hello-world, about',
					description: `Only ${type.noun}s with these slugs`,
					routing: asList('query', 'slug'),
				},
				{
					displayName: 'Status',
					name: 'status',
					type: 'multiOptions',
					options: [
						{ name: 'Any (Not Trash)', value: 'any' },
						...STATUSES,
						{ name: 'Trash', value: 'trash' },
					],
					default: [],
					description: 'Only items in these statuses (Publish by default); others need the right to edit',
					routing: asList('query', 'status'),
				},
				...(type.postFields
					? [
							{
								displayName: 'Sticky',
								name: 'sticky',
								type: 'options',
								options: [
									{ name: 'Only Sticky Posts', value: true },
									{ name: 'Only Other Posts', value: false },
								],
								default: true,
								routing: query('sticky'),
							} satisfies INodeProperties,
							newerWordPress(
								{
									displayName: 'Sticky Posts First',
									name: 'stickyFirst',
									type: 'boolean',
									default: false,
									description: 'Whether the sticky posts come first on the first page, as on the front page',
									routing: { send: { preSend: [stickyFirst] } },
								},
								// Off asks what an older site does anyway: its posts in their order.
								{ version: '6.8', arg: 'ignore_sticky', needs: (qs) => qs.ignore_sticky === false },
							),
							...termFilters('tags', 'tag', 'tags'),
							{
								displayName: 'Taxonomy Relation',
								name: 'tax_relation',
								type: 'options',
								options: [
									{ name: 'AND', value: 'AND', description: 'Posts that pass every category and tag filter' },
									{ name: 'OR', value: 'OR', description: 'Posts that pass any of them' },
								],
								default: 'AND',
								description: 'How the category and tag filters combine',
								routing: query('tax_relation'),
							} satisfies INodeProperties,
						]
					: []),
			]),
		},
		listOptions([
			{ name: 'Author', value: 'author' },
			{ name: 'Date', value: 'date' },
			{ name: 'ID', value: 'id' },
			{ name: 'Include IDs', value: 'include', description: 'The order of Include IDs' },
			...(type.pageFields ? [{ name: 'Menu Order', value: 'menu_order' }] : []),
			{ name: 'Modified', value: 'modified' },
			{ name: 'Parent', value: 'parent' },
			{ name: 'Relevance', value: 'relevance', description: 'Best matches of Search first' },
			{ name: 'Slug', value: 'slug' },
			{ name: 'Slugs', value: 'include_slugs', description: 'The order of Slugs' },
			{ name: 'Title', value: 'title' },
		]),
	],
});
