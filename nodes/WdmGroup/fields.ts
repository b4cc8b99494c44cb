import type { INodeProperties } from 'n8n-workflow';
import { listField } from '../shared/lists';

/** Fields that several group (and community) operations share. */

export const groupJidField: INodeProperties = {
	displayName: 'Group JID',
	name: 'groupjid',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 120363012345678901@g.us',
	description: 'JID of the group (…@g.us)',
	routing: { send: { type: 'body', property: 'groupjid' } },
};

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

/** A list of numbers a person fills in one by one, or maps from the input (one value, a comma-separated list or an array). */
export function participantsField(description: string): INodeProperties {
	return listField(
		{ displayName: 'Participants', name: 'participants', item: 'Participant', description, bodyKey: 'participants' },
		{
			displayName: 'Number',
			name: 'number',
			type: 'string',
			default: '',
			placeholder: 'e.g. 5511999990001',
			description: 'International number or JID; an expression may give several (an array, or separated by commas)',
		},
	);
}
