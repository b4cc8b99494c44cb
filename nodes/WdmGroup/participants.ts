import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { groupJidField, participantsField } from './fields';

export const updateParticipants: Operation = {
	name: 'Update Participants',
	value: 'updateParticipants',
	action: 'Update the participants of a group',
	description: 'Add, remove, promote or demote participants, or approve or reject join requests (admins only); one result per participant',
	routing: gatewayRouting('POST', '/group/updateParticipants'),
	fields: [
		groupJidField,
		{
			displayName: 'Action',
			name: 'participantAction',
			type: 'options',
			default: 'add',
			options: [
				{ name: 'Add', value: 'add' },
				{ name: 'Approve Join Request', value: 'approve' },
				{ name: 'Demote to Member', value: 'demote' },
				{ name: 'Promote to Admin', value: 'promote' },
				{ name: 'Reject Join Request', value: 'reject' },
				{ name: 'Remove', value: 'remove' },
			],
			routing: { send: { type: 'body', property: 'action' } },
		},
		participantsField,
	],
};
