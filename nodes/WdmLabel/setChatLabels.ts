import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { chatField } from '../WdmChat/fields';
import { pickerOptions } from '../shared/pickers';
import { labelIdField } from './fields';

/**
 * `/chat/labels` takes exactly one of three modes: replace every label, add one, remove one. Each is
 * an operation of its own, so that Label ID is one field for them and for Edit (see
 * docs/decisions/nodes.md, "Nodes: one declaration per field").
 */

const chatToLabel = {
	...chatField,
	description: 'Chat to label: international number (country code first), a user JID (…@s.whatsapp.net) or a group JID (…@g.us)',
};

export const setChatLabels: Operation = {
	name: 'Set Chat Labels',
	value: 'setChatLabels',
	action: 'Set the labels of a chat',
	description: 'Replace all labels of a chat: it gets exactly these labels, and an empty list removes them all',
	routing: gatewayRouting('POST', '/chat/labels'),
	fields: [
		chatToLabel,
		pickerOptions('label', {
			displayName: 'Label Names or IDs',
			name: 'labelIds',
			description:
				'The labels the chat gets; none removes every label. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			routing: { send: { type: 'body', property: 'labelids' } },
		}),
	],
};

export const addChatLabel: Operation = {
	name: 'Add Chat Label',
	value: 'addChatLabel',
	action: 'Add a label to a chat',
	description: 'Add one label to a chat, keeping the others',
	routing: gatewayRouting('POST', '/chat/labels'),
	fields: [chatToLabel, labelIdField],
};

export const removeChatLabel: Operation = {
	name: 'Remove Chat Label',
	value: 'removeChatLabel',
	action: 'Remove a label from a chat',
	description: 'Remove one label from a chat, keeping the others',
	routing: gatewayRouting('POST', '/chat/labels'),
	fields: [chatToLabel, labelIdField],
};
