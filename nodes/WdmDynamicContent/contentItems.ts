import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../shared/site';
import { picker } from '../shared/pickers';
import { jsonBody, parseJson, toBody } from './fields';

/**
 * The items of the post types the engine added (and the terms of its taxonomies), at
 * cms/v2/<REST base>: the posts' routes, for a collection chosen by its REST base.
 */

const restBase: INodeProperties = picker('collection', {
	displayName: 'REST Base',
	name: 'restBase',
	description: "The collection under cms/v2: pick an added post type or taxonomy, or give its REST base",
});
const itemId = picker('contentItem', {
	displayName: 'Item',
	name: 'contentItemId',
	description: 'The item (or term) of the collection: pick it from the list, or give its ID',
});
const collection = '/cms/v2/{base}';
const item = '/cms/v2/{base}/{id}';
const fields = { base: 'restBase', id: 'contentItemId' };

const text = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	description,
	routing: toBody(name),
});

/** What an item is written with: the common fields, meta as JSON (the type's fields), and any other field. */
const itemFields: INodeProperties = {
	displayName: 'Fields',
	name: 'contentItemFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		text('Title', 'title', 'Title of the item'),
		text('Content', 'content', 'Content of the item (HTML)'),
		text('Excerpt', 'excerpt', 'Short text shown in lists'),
		text('Slug', 'slug', 'Name of the item in its address'),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: ['draft', 'future', 'pending', 'private', 'publish'].map((value) => ({ name: value[0].toUpperCase() + value.slice(1), value })),
			default: 'draft',
			routing: toBody('status'),
		},
		picker('contentItem', { displayName: 'Parent', name: 'parent', required: false, description: 'Parent item of a hierarchical type (or parent term): pick it from the collection, or give its ID (0 for none)', routing: toBody('parent') }),
		text('Name', 'name', 'Name of a term (taxonomy collections)'),
		text('Description', 'description', 'Description of a term (taxonomy collections)'),
		{
			displayName: 'Meta',
			name: 'meta',
			type: 'json',
			default: '{}',
			description: "Values of the type's meta fields, e.g. {\"price\": 12}",
			routing: jsonBody('contentItemFields.meta', 'meta', 'Meta'),
		},
		{
			displayName: 'Term IDs (JSON)',
			name: 'terms',
			type: 'json',
			default: '{}',
			description: 'Terms of the taxonomies assigned to the type, by REST base, e.g. {"genres": [3, 4]}',
			routing: {
				send: {
					preSend: [
						async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
							const value = parseJson.call(this, this.getNodeParameter('contentItemFields.terms', ''), 'Term IDs (JSON)');
							if (value && typeof value === 'object') options.body = { ...(options.body as object), ...(value as object) };
							return options;
						},
					],
				},
			},
		},
	],
};

const operations: Operation[] = [
	{
		name: 'Create',
		value: 'createContentItem',
		action: 'Create a content item',
		description: 'Create an item of an added post type (or a term of an added taxonomy)',
		routing: siteRouting('POST', collection, fields),
		fields: [restBase, itemFields],
	},
	{
		name: 'Get',
		value: 'getContentItem',
		action: 'Get a content item',
		description: 'Get an item of an added post type (or a term) by ID',
		// The edit context shows the raw texts and the meta fields.
		routing: { ...siteRouting('GET', item, fields), request: { ...siteRouting('GET', item, fields).request, qs: { context: 'edit' } } },
		fields: [restBase, itemId],
	},
	{
		name: 'Get Many',
		value: 'getContentItems',
		action: 'Get many content items',
		description: 'List the items of an added post type (or the terms of a taxonomy)',
		routing: siteListRouting(collection, fields),
		fields: [restBase, ...siteReturnAllFields],
	},
	{
		name: 'Update',
		value: 'updateContentItem',
		action: 'Update a content item',
		description: 'Change the fields given of an item of an added post type',
		routing: siteRouting('POST', item, fields),
		fields: [restBase, itemId, itemFields],
	},
	{
		name: 'Delete',
		value: 'deleteContentItem',
		action: 'Delete a content item',
		description: 'Move an item of an added post type to the trash, or delete it for good',
		routing: siteRouting('DELETE', item, fields),
		fields: [
			restBase,
			itemId,
			{ displayName: 'Force', name: 'force', type: 'boolean', default: false, description: 'Whether to delete for good instead of moving to the trash', routing: { send: { type: 'query', property: 'force' } } },
		],
	},
];

export const contentItems: Resource = { name: 'Content Item', value: 'contentItem', operations };
