import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { picker } from '../shared/pickers';
import { booleanSetting, engineRouting, metaFieldsField, modelPicker, publicSetting, textSetting, toQuery } from './fields';

/** engine/v2 post types: added ones (a cms/v2 collection each) and the built-in post, page and media. */

const postTypeId = modelPicker('enginePostType', 'Post Type', 'postTypeId', 'post type');
const byId = { id: 'postTypeId' };

const nameSetting: INodeProperties = { ...textSetting('Name', 'name', 'general_settings.name', 'Plural name shown in the admin', 'e.g. Books') };

/** The settings of an added post type; on create the name is a field of its own. */
const settings = (withName: boolean): INodeProperties => ({
	displayName: withName ? 'Update Fields' : 'Additional Fields',
	name: withName ? 'postTypeUpdateFields' : 'postTypeFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		...(withName ? [nameSetting] : []),
		textSetting('Slug', 'slug', 'general_settings.slug', 'The type stored on its items: up to 20 lowercase letters, digits, hyphens or underscores; by default made from the name', 'e.g. book'),
		textSetting('REST Base', 'restBase', 'advanced_settings.rest_base', 'Its collection under cms/v2 (cms/v2/books); by default the slug', 'e.g. books'),
		textSetting('Singular Label', 'singularLabel', 'labels.singular_name', 'Name of one item', 'e.g. Book'),
		publicSetting('type'),
		booleanSetting('Hierarchical', 'hierarchical', 'advanced_settings.hierarchical', 'Whether its items have parents, as pages do'),
	],
});

const builtInPostType: INodeProperties = {
	displayName: 'Built-In Post Type',
	name: 'builtInPostType',
	type: 'options',
	options: [
		{ name: 'Media', value: 'attachment' },
		{ name: 'Page', value: 'page' },
		{ name: 'Post', value: 'post' },
	],
	default: 'post',
};
const builtIn = { post_type: 'builtInPostType' };

const operations: Operation[] = [
	{
		name: 'Create',
		value: 'createPostType',
		action: 'Create a post type',
		description: 'Add a post type; its items are served at cms/v2/&lt;REST base&gt;',
		routing: engineRouting('POST', 'add-post-type'),
		fields: [
			{ displayName: 'Name', name: 'postTypeName', type: 'string', required: true, default: '', placeholder: 'e.g. Books', description: 'Plural name of the new post type', routing: { send: { type: 'body', property: 'general_settings.name' } } },
			settings(false),
			metaFieldsField,
		],
	},
	{
		name: 'Update',
		value: 'updatePostType',
		action: 'Update a post type',
		description: 'Change the settings given; a new slug moves its items along',
		routing: engineRouting('POST', 'edit-post-type/{id}', byId),
		fields: [postTypeId, settings(true), metaFieldsField],
	},
	{
		name: 'Get',
		value: 'getPostType',
		action: 'Get a post type',
		description: 'Get a post type with its settings, labels and fields',
		routing: engineRouting('GET', 'get-post-type/{id}', byId),
		fields: [postTypeId],
	},
	{
		name: 'Get Many',
		value: 'getPostTypes',
		action: 'Get many post types',
		description: 'List the added post types',
		routing: engineRouting('GET', 'get-post-types'),
	},
	{
		name: 'Delete',
		value: 'deletePostType',
		action: 'Delete a post type',
		description: 'Delete a post type and say what becomes of its items',
		routing: engineRouting('DELETE', 'delete-post-type/{id}', byId),
		fields: [
			postTypeId,
			{
				displayName: 'Items',
				name: 'postTypeDeleteAction',
				type: 'options',
				options: [
					{ name: 'Keep', value: 'none', description: 'They stay stored, unreachable until a type of the same slug is added' },
					{ name: 'Delete', value: 'delete', description: 'They are deleted for good' },
					{ name: 'Move', value: 'move', description: 'They become items of another post type' },
				],
				default: 'none',
				routing: toQuery('action'),
			},
			{
				...picker('postType', { displayName: 'Move To Post Type', name: 'toPostType', description: 'The post type the items move to: pick it, or give its slug', routing: toQuery('to_post_type') }),
				displayOptions: { show: { postTypeDeleteAction: ['move'] } },
			},
		],
	},
	{
		name: 'Copy',
		value: 'copyPostType',
		action: 'Copy a post type',
		description: 'Add a copy of a post type (slug and REST base end in -copy), without its items',
		routing: engineRouting('POST', 'copy-post-type/{id}', byId),
		fields: [postTypeId],
	},
	{
		name: 'Get Built-In',
		value: 'getBuiltInPostType',
		action: 'Get a built-in post type',
		description: 'Get the post, page or media type as the engine shows it',
		routing: engineRouting('GET', 'get-built-in-post-type/{post_type}', builtIn),
		fields: [builtInPostType],
	},
	{
		name: 'Update Built-In',
		value: 'updateBuiltInPostType',
		action: 'Update a built-in post type',
		description: 'Relabel the post, page or media type, show or hide it, or give its items fields',
		routing: engineRouting('POST', 'edit-built-in-post-type/{post_type}', builtIn),
		fields: [
			builtInPostType,
			{
				displayName: 'Update Fields',
				name: 'builtInPostTypeFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [
					textSetting('Plural Label', 'pluralLabel', 'labels.name', 'Name of the type', 'e.g. Articles'),
					textSetting('Singular Label', 'singularLabel', 'labels.singular_name', 'Name of one item', 'e.g. Article'),
					publicSetting('type'),
				],
			},
			metaFieldsField,
		],
	},
	{
		name: 'Reset Built-In',
		value: 'resetBuiltInPostType',
		action: 'Reset a built-in post type',
		description: "Give the post, page or media type back WordPress's own labels, without the engine's fields",
		routing: engineRouting('DELETE', 'reset-built-in-post-type/{post_type}', builtIn),
		fields: [builtInPostType],
	},
];

export const postTypes: Resource = { name: 'Post Type', value: 'postType', operations };
