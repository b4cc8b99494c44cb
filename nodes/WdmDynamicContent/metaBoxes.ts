import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { engineRouting, metaFieldsField, modelPicker, slugListSetting, textSetting } from './fields';

/** engine/v2 meta boxes: fields that the posts of the attached post types carry in their meta. */

const metaBoxId = modelPicker('metaBox', 'Meta Box', 'metaBoxId', 'meta box');
const byId = { id: 'metaBoxId' };

const settings = (withName: boolean): INodeProperties => ({
	displayName: withName ? 'Update Fields' : 'Additional Fields',
	name: withName ? 'metaBoxUpdateFields' : 'metaBoxFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		...(withName ? [textSetting('Name', 'name', 'args.name', 'Title of the box in the editor', 'e.g. Review')] : []),
		{
			displayName: 'Attached To',
			name: 'objectType',
			type: 'options',
			options: [
				{ name: 'Posts', value: 'post', description: 'Items of the post types listed' },
				{ name: 'Terms', value: 'taxonomy', description: 'Terms of the taxonomies listed' },
			],
			default: 'post',
			routing: { send: { type: 'body', property: 'args.object_type' } },
		},
		slugListSetting('Post Types', 'allowedPostTypes', 'args.allowed_post_type', 'Slugs of the post types whose items carry the fields, separated by commas', 'e.g. post, book'),
		slugListSetting('Taxonomies', 'allowedTaxonomies', 'args.allowed_tax', 'Slugs of the taxonomies whose terms carry the fields, separated by commas', 'e.g. genre'),
	],
});

const operations: Operation[] = [
	{
		name: 'Create',
		value: 'createMetaBox',
		action: 'Create a meta box',
		description: 'Add a meta box: fields the items of the attached post types carry in their meta',
		routing: engineRouting('POST', 'add-meta-box'),
		fields: [
			{ displayName: 'Name', name: 'metaBoxName', type: 'string', required: true, default: '', placeholder: 'e.g. Review', description: 'Title of the new meta box', routing: { send: { type: 'body', property: 'args.name' } } },
			settings(false),
			metaFieldsField,
		],
	},
	{
		name: 'Update',
		value: 'updateMetaBox',
		action: 'Update a meta box',
		description: 'Change the settings given; fields given replace the stored ones',
		routing: engineRouting('POST', 'edit-meta-box/{id}', byId),
		fields: [metaBoxId, settings(true), metaFieldsField],
	},
	{
		name: 'Get',
		value: 'getMetaBox',
		action: 'Get a meta box',
		description: 'Get a meta box with its settings and fields',
		routing: engineRouting('GET', 'get-meta-box/{id}', byId),
		fields: [metaBoxId],
	},
	{
		name: 'Get Many',
		value: 'getMetaBoxes',
		action: 'Get many meta boxes',
		description: 'List the meta boxes',
		routing: engineRouting('GET', 'get-meta-boxes'),
	},
	{
		name: 'Delete',
		value: 'deleteMetaBox',
		action: 'Delete a meta box',
		description: 'Delete a meta box; its fields leave the items of the attached types',
		routing: engineRouting('DELETE', 'delete-meta-box/{id}', byId),
		fields: [metaBoxId],
	},
];

export const metaBoxes: Resource = { name: 'Meta Box', value: 'metaBox', operations };
