import type { Operation } from '../shared/operations';
import { listOperationRouting, returnAllFields, unwrapData } from '../shared/gateway';

const ignoreCache = (send: 'body' | 'query', property: string) => ({
	displayName: 'Ignore Cache',
	name: 'force',
	type: 'boolean' as const,
	default: false,
	description: 'Whether to read the groups from the network instead of the cache',
	routing: { send: { type: send, property } },
});

export const getMany: Operation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many groups',
	description: 'List the groups the device takes part in, by name, with search and paging',
	routing: listOperationRouting('POST', '/group/list', 'groups'),
	fields: [
		...returnAllFields,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				ignoreCache('body', 'force'),
				{
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Only groups whose name or JID contains this text (any case)',
					routing: { send: { type: 'body', property: 'search' } },
				},
				{
					displayName: 'Without Participants',
					name: 'noParticipants',
					type: 'boolean',
					default: false,
					description: 'Whether to leave out the participant lists (the size stays)',
					routing: { send: { type: 'body', property: 'noParticipants' } },
				},
			],
		},
	],
};

export const list: Operation = {
	name: 'List All',
	value: 'list',
	action: 'List all groups',
	description: 'Every group the device takes part in, in one answer (no paging)',
	routing: { request: { method: 'GET', url: '/group/list' }, output: { postReceive: [unwrapData] } },
	fields: [
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				ignoreCache('query', 'force'),
				{
					displayName: 'Without Participants',
					name: 'noparticipants',
					type: 'boolean',
					default: false,
					description: 'Whether to leave out the participant lists (the size stays)',
					routing: { send: { type: 'query', property: 'noparticipants' } },
				},
			],
		},
	],
};
