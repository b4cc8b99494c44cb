import type { Operation } from '../shared/operations';
import { returnAllFields, unwrapData } from '../shared/gateway';

export const getMany: Operation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many labels',
	description: "List the device's labels with their colors",
	routing: { request: { method: 'GET', url: '/labels' }, output: { postReceive: [unwrapData] } },
	fields: returnAllFields,
};
