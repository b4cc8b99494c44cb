import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { engineRouting, modelPicker, setBody, textSetting } from './fields';

/** engine/v2 generic items: the engine's glossaries, named lists of options that fields and filters offer. */

const itemId = modelPicker('glossary', 'Item', 'itemId', 'item');
const byId = { id: 'itemId' };

/** Sends the Options rows as `fields` (none: the stored ones stay). */
async function sendOptions(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const rows = (this.getNodeParameter('itemOptions', {}) as { option?: { value: string; label?: string }[] }).option;
	return rows ? setBody(options, 'fields', rows.map((row) => ({ value: row.value, ...(row.label ? { label: row.label } : {}) }))) : options;
}

const itemOptions: INodeProperties = {
	displayName: 'Options',
	name: 'itemOptions',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Option',
	default: {},
	description: 'The options of the list; on an update they replace the stored ones',
	routing: { send: { preSend: [sendOptions] } },
	options: [
		{
			displayName: 'Option',
			name: 'option',
			values: [
				{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. m', description: 'What is stored when the option is picked' },
				{ displayName: 'Label', name: 'label', type: 'string', default: '', placeholder: 'e.g. Medium', description: 'What is shown; by default the value' },
			],
		},
	],
};

const operations: Operation[] = [
	{
		name: 'Create',
		value: 'createItem',
		action: 'Create an item',
		description: 'Add a named list of options',
		routing: engineRouting('POST', 'add-item'),
		fields: [{ displayName: 'Name', name: 'itemName', type: 'string', required: true, default: '', placeholder: 'e.g. Sizes', description: 'Name of the new glossary', routing: { send: { type: 'body', property: 'name' } } }, itemOptions],
	},
	{
		name: 'Update',
		value: 'updateItem',
		action: 'Update an item',
		description: 'Rename an item or replace its options',
		routing: engineRouting('POST', 'edit-item/{id}', byId),
		fields: [
			itemId,
			{ displayName: 'Update Fields', name: 'itemUpdateFields', type: 'collection', placeholder: 'Add Field', default: {}, options: [textSetting('Name', 'name', 'name', 'Name of the list', 'e.g. Sizes')] },
			itemOptions,
		],
	},
	{
		name: 'Get',
		value: 'getItem',
		action: 'Get an item',
		description: 'Get an item with its options',
		routing: engineRouting('GET', 'get-item/{id}', byId),
		fields: [itemId],
	},
	{
		name: 'Get Many',
		value: 'getItems',
		action: 'Get many items',
		description: 'List the items',
		routing: engineRouting('GET', 'get-items'),
	},
	{
		name: 'Delete',
		value: 'deleteItem',
		action: 'Delete an item',
		description: 'Delete an item',
		routing: engineRouting('DELETE', 'delete-item/{id}', byId),
		fields: [itemId],
	},
];

export const items: Resource = { name: 'Item', value: 'item', operations };
