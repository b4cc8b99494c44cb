import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { engineRouting, jsonBody, metaFieldsField, modelPicker, textSetting, toQuery } from './fields';

/** engine/v2 options pages: settings pages with fields, and the values stored for them. */

const optionsPageId = modelPicker('optionsPage', 'Options Page', 'optionsPageId', 'options page');
const byId = { id: 'optionsPageId' };

const settings = (withName: boolean): INodeProperties => ({
	displayName: withName ? 'Update Fields' : 'Additional Fields',
	name: withName ? 'optionsPageUpdateFields' : 'optionsPageFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		...(withName ? [textSetting('Name', 'name', 'general_settings.name', 'Title of the page', 'e.g. Shop Settings')] : []),
		textSetting('Slug', 'slug', 'general_settings.slug', 'Key of the page and of its values: up to 64 lowercase letters, digits, hyphens or underscores; by default made from the name', 'e.g. shop-settings'),
		textSetting('Menu Name', 'menuName', 'general_settings.menu_name', 'Its entry in the admin menu; by default the name', 'e.g. Shop'),
	],
});

const values: INodeProperties = {
	displayName: 'Values',
	name: 'optionsPageValues',
	type: 'json',
	default: '',
	placeholder: 'e.g. {"phone": "+1 555 0100", "days": ["mon"]}',
	description: "Values of the page's fields by field name, checked by field type; null clears one; fields not named keep their values",
	routing: jsonBody('optionsPageValues', 'values', 'Values'),
};

const operations: Operation[] = [
	{
		name: 'Create',
		value: 'createOptionsPage',
		action: 'Create an options page',
		description: 'Add a settings page with its fields and, optionally, their values',
		routing: engineRouting('POST', 'add-options-page'),
		fields: [
			{ displayName: 'Name', name: 'optionsPageName', type: 'string', required: true, default: '', placeholder: 'e.g. Shop Settings', description: 'Title of the new options page', routing: { send: { type: 'body', property: 'general_settings.name' } } },
			settings(false),
			metaFieldsField,
			values,
		],
	},
	{
		name: 'Update',
		value: 'updateOptionsPage',
		action: 'Update an options page',
		description: 'Change its settings or fields, or save values of its fields',
		routing: engineRouting('POST', 'edit-options-page/{id}', byId),
		fields: [optionsPageId, settings(true), metaFieldsField, values],
	},
	{
		name: 'Get',
		value: 'getOptionsPage',
		action: 'Get an options page',
		description: 'Get an options page with its settings, fields and values',
		routing: engineRouting('GET', 'get-options-page/{id}', byId),
		fields: [optionsPageId],
	},
	{
		name: 'Get Many',
		value: 'getOptionsPages',
		action: 'Get many options pages',
		description: 'List the options pages with their values',
		routing: engineRouting('GET', 'get-options-pages'),
	},
	{
		name: 'Delete',
		value: 'deleteOptionsPage',
		action: 'Delete an options page',
		description: 'Delete an options page and say what becomes of its values',
		routing: engineRouting('DELETE', 'delete-options-page/{id}', byId),
		fields: [
			optionsPageId,
			{
				displayName: 'Values',
				name: 'optionsPageDeleteAction',
				type: 'options',
				options: [
					{ name: 'Keep', value: 'none', description: 'They stay for a page of the same slug' },
					{ name: 'Delete', value: 'delete', description: 'They are deleted too' },
				],
				default: 'none',
				routing: toQuery('action'),
			},
		],
	},
];

export const optionsPages: Resource = { name: 'Options Page', value: 'optionsPage', operations };
