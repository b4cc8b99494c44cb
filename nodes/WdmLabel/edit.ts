import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { labelColorOptions } from './colors';
import { labelIdField } from './fields';

/** Change: Delete sends `delete: true`; Rename or Recolor sends the Update Fields. */
async function deleteToBody(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (this.getNodeParameter('change') === 'delete') options.body = { ...(options.body as IDataObject), delete: true };
	return options;
}

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
				},
			],
			routing: { send: { preSend: [deleteToBody] } },
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
