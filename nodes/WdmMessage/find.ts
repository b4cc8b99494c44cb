import type { Operation } from '../shared/operations';
import { listOperationRouting, returnAllFields } from '../shared/gateway';
import { picker } from '../shared/pickers';

export const find: Operation = {
	name: 'Find',
	value: 'find',
	action: 'Find messages',
	description: 'Find messages by ID, chat or tracking fields, newest first',
	routing: listOperationRouting('POST', '/message/find', 'messages'),
	fields: [
		...returnAllFields,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				picker('chat', {
					displayName: 'Chat',
					name: 'chatid',
					required: false,
					description: 'Only messages of this chat: pick it, or give its number or JID',
					routing: { send: { type: 'body', property: 'chatid' } },
				}),
				picker('message', {
					displayName: 'Message',
					name: 'id',
					required: false,
					description: 'Only this message: pick it (from the chat of the Chat filter, if given), or give its ID',
					routing: { send: { type: 'body', property: 'id' } },
				}),
				{
					displayName: 'Track Source',
					name: 'track_source',
					type: 'string',
					default: '',
					routing: { send: { type: 'body', property: 'track_source' } },
				},
				{
					displayName: 'Track ID',
					name: 'track_id',
					type: 'string',
					default: '',
					routing: { send: { type: 'body', property: 'track_id' } },
				},
			],
		},
	],
};
