import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { listField } from '../shared/lists';
import { picker } from '../shared/pickers';

export const editGroups: Operation = {
	name: 'Edit Groups',
	value: 'editGroups',
	action: 'Add or remove groups of a community',
	description: 'Add groups to a community or remove them (community admins only); one result per group',
	routing: gatewayRouting('POST', '/community/editgroups'),
	fields: [
		picker('community', {
			displayName: 'Community',
			name: 'community',
			description: 'The community: pick it from the communities of the device, or give its JID (…@g.us)',
			routing: { send: { type: 'body', property: 'community' } },
		}),
		{
			displayName: 'Action',
			name: 'groupAction',
			type: 'options',
			default: 'add',
			options: [
				{ name: 'Add', value: 'add', description: 'Link the groups to the community (you must be an admin of each)' },
				{ name: 'Remove', value: 'remove', description: 'Unlink the groups from the community' },
			],
			routing: { send: { type: 'body', property: 'action' } },
		},
		listField(
			{ displayName: 'Groups', name: 'groups', item: 'Group', description: 'The groups to add or remove', bodyKey: 'groupjids' },
			picker('group', {
				displayName: 'Group',
				name: 'groupjid',
				required: false,
				description: 'The group: pick it, or give its JID; an expression may give several (an array, or separated by commas)',
			}),
		),
	],
};
