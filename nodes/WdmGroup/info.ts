import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { groupJidField } from './fields';

export const getInfo: Operation = {
	name: 'Get',
	value: 'get',
	action: 'Get a group',
	description: 'Get the details of a group: settings and participants, optionally the invite link and join requests',
	routing: gatewayRouting('POST', '/group/info'),
	fields: [
		groupJidField,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Ignore Cache',
					name: 'force',
					type: 'boolean',
					default: false,
					description: 'Whether to read the group from the network instead of the cache',
					routing: { send: { type: 'body', property: 'force' } },
				},
				{
					displayName: 'Include Invite Link',
					name: 'getInviteLink',
					type: 'boolean',
					default: false,
					description: 'Whether to include the invite code and link (admins only)',
					routing: { send: { type: 'body', property: 'getInviteLink' } },
				},
				{
					displayName: 'Include Join Requests',
					name: 'getRequestsParticipants',
					type: 'boolean',
					default: false,
					description: 'Whether to include the pending requests to join (admins only)',
					routing: { send: { type: 'body', property: 'getRequestsParticipants' } },
				},
			],
		},
	],
};
