import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { labelColorOptions } from './colors';
import { labelIdField } from './fields';

export const edit: Operation = {
	name: 'Edit',
	value: 'edit',
	action: 'Edit or delete a label',
	description: 'Rename or recolor a label, or delete it (it is then removed from every chat)',
	routing: gatewayRouting('POST', '/label/edit'),
	fields: [
		labelIdField,
		{
			displayName: 'Change',
			name: 'change',
			type: 'options',
			default: 'update',
			options: [
				{ name: 'Rename or Recolor', value: 'update' },
				{
					name: 'Delete',
					value: 'delete',
					description: 'Delete the label and remove it from every chat',
					routing: { send: { type: 'body', property: 'delete', value: '={{true}}' } },
				},
			],
		},
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show: { change: ['update'] } },
			options: [
				{
					displayName: 'Color',
					name: 'color',
					type: 'options',
					default: 0,
					options: labelColorOptions,
					description: 'New color of the label',
					routing: { send: { type: 'body', property: 'color' } },
				},
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					description: 'New name of the label',
					routing: { send: { type: 'body', property: 'name' } },
				},
			],
		},
	],
};
