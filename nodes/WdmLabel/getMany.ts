import type { Operation } from '../shared/operations';
import { gatewayRouting, returnAllFields } from '../shared/gateway';

export const getMany: Operation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many labels',
	description: "List the device's labels with their colors",
	routing: gatewayRouting('GET', '/labels'),
	fields: returnAllFields,
};
