import type { INodeProperties } from 'n8n-workflow';
import { listField } from '../shared/lists';
import { picker } from '../shared/pickers';

/** Fields that several group (and community) operations share. */

export const groupJidField: INodeProperties = picker('group', {
	displayName: 'Group',
	name: 'groupjid',
	description: 'The group: pick it from the groups of the device, or give its JID (…@g.us)',
	routing: { send: { type: 'body', property: 'groupjid' } },
});

export const inviteCodeField: INodeProperties = {
	displayName: 'Invite Code or Link',
	name: 'invitecode',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv',
	description: 'The invite code, or the whole invite link',
	routing: { send: { type: 'body', property: 'invitecode' } },
};

/** The required name of a group or community. */
export const nameField = (description: string): INodeProperties => ({
	displayName: 'Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	description,
	routing: { send: { type: 'body', property: 'name' } },
});

/** The name of a group, as Create and Rename set it. */
export const groupNameField = nameField('Group name, at most 100 characters');

/**
 * Numbers that Create and Update Participants act on, filled in one by one or mapped from the input
 * (one value, a comma-separated list or an array). One declaration for both (see `fieldProperties`).
 */
export const participantsField: INodeProperties = listField(
	{
		displayName: 'Participants',
		name: 'participants',
		item: 'Participant',
		description: 'Numbers of the participants: on Create, who to add besides the device (at least one); to approve or reject, the numbers that asked to join',
		bodyKey: 'participants',
	},
		{
			displayName: 'Number',
			name: 'number',
			type: 'string',
			default: '',
			placeholder: 'e.g. 5511999990001',
			description: 'International number or JID; an expression may give several (an array, or separated by commas)',
		},
);
