import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { chatField } from './fields';

export const markRead: Operation = {
	name: 'Mark Read or Unread',
	value: 'markRead',
	action: 'Mark a chat as read or unread',
	description: 'Mark a chat read (its received messages too) or unread',
	routing: gatewayRouting('POST', '/chat/read'),
	fields: [
		chatField,
		{
			displayName: 'Mark As',
			name: 'read',
			type: 'options',
			default: true,
			options: [
				{ name: 'Read', value: true, description: 'Read every received message; the unread count becomes 0' },
				{ name: 'Unread', value: false, description: 'Show the chat as unread (at least 1 unread message)' },
			],
			routing: { send: { type: 'body', property: 'read' } },
		},
	],
};
