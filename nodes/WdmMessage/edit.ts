import type { Operation } from '../shared/operations';
import { unwrapData } from '../shared/gateway';
import { messageIdField } from './fields';

export const edit: Operation = {
	name: 'Edit',
	value: 'edit',
	action: 'Edit a message',
	description: 'Replace the text of a text message the device sent, within 15 minutes of sending',
	routing: { request: { method: 'POST', url: '/message/edit' }, output: { postReceive: [unwrapData] } },
	fields: [
		{ ...messageIdField, description: 'ID of a text message the device sent in the last 15 minutes' },
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 4 },
			required: true,
			default: '',
			description: 'The new text of the message',
			routing: { send: { type: 'body', property: 'text' } },
		},
	],
};
