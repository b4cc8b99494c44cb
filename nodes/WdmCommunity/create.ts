import type { Operation } from '../shared/operations';
import { post } from '../WdmGroup/fields';

export const create: Operation = {
	name: 'Create',
	value: 'create',
	action: 'Create a community',
	description: 'Create a community with its announcement group; the device is its super admin',
	routing: post('/community/create'),
	fields: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			description: 'Community name, at most 100 characters',
			routing: { send: { type: 'body', property: 'name' } },
		},
	],
};
