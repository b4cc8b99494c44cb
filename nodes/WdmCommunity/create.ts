import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { nameField } from '../WdmGroup/fields';

export const create: Operation = {
	name: 'Create',
	value: 'create',
	action: 'Create a community',
	description: 'Create a community with its announcement group; the device is its super admin',
	routing: gatewayRouting('POST', '/community/create'),
	fields: [nameField('Community name, at most 100 characters')],
};
