import type { Operation } from '../shared/operations';
import { listOperationRouting, returnAllFields } from '../shared/gateway';

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
				{
					displayName: 'Chat',
					name: 'chatid',
					type: 'string',
					default: '',
					placeholder: 'e.g. 5511999990001@s.whatsapp.net',
					description: 'Only messages of this chat (number or JID)',
					routing: { send: { type: 'body', property: 'chatid' } },
				},
				{
					displayName: 'Message ID',
					name: 'id',
					type: 'string',
					default: '',
					routing: { send: { type: 'body', property: 'id' } },
				},
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
