import type { Operation } from '../shared/operations';
import { participantsField, post } from './fields';

export const create: Operation = {
	name: 'Create',
	value: 'create',
	action: 'Create a group',
	description: 'Create a group with the device as its super admin; numbers not on the network are reported in results',
	routing: post('/group/create'),
	fields: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			description: 'Group name, at most 100 characters',
			routing: { send: { type: 'body', property: 'name' } },
		},
		participantsField('Who to add besides the device: at least one'),
	],
};
