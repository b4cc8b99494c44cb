import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { chatField } from '../WdmChat/fields';

export const setChatLabels: Operation = {
	name: 'Set Chat Labels',
	value: 'setChatLabels',
	action: 'Set the labels of a chat',
	description: 'Replace all labels of a chat, or add or remove one',
	routing: gatewayRouting('POST', '/chat/labels'),
	fields: [
		{
			...chatField,
			description: 'Chat to label: international number (country code first), a user JID (…@s.whatsapp.net) or a group JID (…@g.us)',
		},
		{
			displayName: 'Mode',
			name: 'mode',
			type: 'options',
			default: 'set',
			options: [
				{ name: 'Set All Labels', value: 'set', description: 'The chat gets exactly these labels; an empty list removes them all' },
				{ name: 'Add One Label', value: 'add' },
				{ name: 'Remove One Label', value: 'remove' },
			],
		},
		{
			displayName: 'Label IDs',
			name: 'labelIds',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Label ID' },
			default: [],
			placeholder: 'e.g. 3',
			description: 'IDs of the labels the chat gets (see Get Many); none removes every label',
			displayOptions: { show: { mode: ['set'] } },
			routing: { send: { type: 'body', property: 'labelids' } },
		},
		{
			displayName: 'Label ID',
			name: 'labelId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 3',
			description: 'ID of the label to add or remove (see Get Many)',
			displayOptions: { show: { mode: ['add', 'remove'] } },
			routing: { send: { type: 'body', property: '={{$parameter.mode === "add" ? "add_labelid" : "remove_labelid"}}' } },
		},
	],
};
