import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { groupNameField, participantsField } from './fields';

export const create: Operation = {
	name: 'Create',
	value: 'create',
	action: 'Create a group',
	description: 'Create a group with the device as its super admin; numbers not on the network are reported in results',
	routing: gatewayRouting('POST', '/group/create'),
	fields: [
		groupNameField,
		participantsField,
	],
};
