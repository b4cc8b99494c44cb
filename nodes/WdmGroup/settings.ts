import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { groupJidField, groupNameField } from './fields';

export const updateAnnounce: Operation = {
	name: 'Set Announce Mode',
	value: 'updateAnnounce',
	action: 'Set who may send messages to a group',
	description: 'Turn announce mode on (only admins send messages) or off (admins only)',
	routing: gatewayRouting('POST', '/group/updateAnnounce'),
	fields: [
		groupJidField,
		{
			displayName: 'Only Admins Send Messages',
			name: 'announce',
			type: 'boolean',
			default: true,
			description: 'Whether only admins may send messages to the group',
			routing: { send: { type: 'body', property: 'announce' } },
		},
	],
};

export const updateDescription: Operation = {
	name: 'Set Description',
	value: 'updateDescription',
	action: 'Set the description of a group',
	description: 'Set the group description; empty removes it (admins only while the group is locked)',
	routing: gatewayRouting('POST', '/group/updateDescription'),
	fields: [
		groupJidField,
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'At most 2048 characters; empty removes the description',
			routing: { send: { type: 'body', property: 'description' } },
		},
	],
};

export const updateLocked: Operation = {
	name: 'Set Locked',
	value: 'updateLocked',
	action: 'Set who may edit a group',
	description: 'Lock the group info (only admins change name, description and image) or unlock it (admins only)',
	routing: gatewayRouting('POST', '/group/updateLocked'),
	fields: [
		groupJidField,
		{
			displayName: 'Only Admins Edit Group Info',
			name: 'locked',
			type: 'boolean',
			default: true,
			description: 'Whether only admins may change the name, description and image',
			routing: { send: { type: 'body', property: 'locked' } },
		},
	],
};

export const updateName: Operation = {
	name: 'Rename',
	value: 'updateName',
	action: 'Rename a group',
	description: 'Change the group name (admins only while the group is locked)',
	routing: gatewayRouting('POST', '/group/updateName'),
	fields: [groupJidField, groupNameField],
};
