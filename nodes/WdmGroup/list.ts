import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting, listOperationRouting, returnAllFields } from '../shared/gateway';

/** The options both list routes take, sent in the body (POST) or the query string (GET). */
const ignoreCache = (send: 'body' | 'query'): INodeProperties => ({
	displayName: 'Ignore Cache',
	name: 'force',
	type: 'boolean',
	default: false,
	description: 'Whether to read the groups from the network instead of the cache',
	routing: { send: { type: send, property: 'force' } },
});

const withoutParticipants = (send: 'body' | 'query', name: string): INodeProperties => ({
	displayName: 'Without Participants',
	name,
	type: 'boolean',
	default: false,
	description: 'Whether to leave out the participant lists (the size stays)',
	routing: { send: { type: send, property: name } },
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
				ignoreCache('body'),
				{
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Only groups whose name or JID contains this text (any case)',
					routing: { send: { type: 'body', property: 'search' } },
				},
				withoutParticipants('body', 'noParticipants'),
			],
		},
	],
};

export const list: Operation = {
	name: 'List All',
	value: 'list',
	action: 'List all groups',
	description: 'Every group the device takes part in, in one answer (no paging)',
	routing: gatewayRouting('GET', '/group/list'),
	fields: [
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [ignoreCache('query'), withoutParticipants('query', 'noparticipants')],
		},
	],
};
