import type { INodeProperties } from 'n8n-workflow';
import { unwrapData } from '../shared/gateway';
import { listToBody } from '../shared/lists';

/** Fields and routing that several group operations share. */

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

/** A list of numbers a person fills in one by one, or maps from the input (one value, a comma-separated list or an array). */
export function participantsField(description: string): INodeProperties {
	return {
		displayName: 'Participants',
		name: 'participants',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Participant',
		default: {},
		description,
		options: [
			{
				displayName: 'Participant',
				name: 'values',
				values: [
					{
						displayName: 'Number',
						name: 'number',
						type: 'string',
						default: '',
						placeholder: 'e.g. 5511999990001',
						description: 'International number or JID; an expression may give several (an array, or separated by commas)',
					},
				],
			},
		],
		routing: { send: { preSend: [listToBody('participants', 'number', 'participants')] } },
	};
}

/** A POST to a group route whose answer is the item. */
export const post = (url: string) => ({ request: { method: 'POST' as const, url }, output: { postReceive: [unwrapData] } });
