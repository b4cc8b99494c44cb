import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';

export const get: Operation = {
	name: 'Get',
	value: 'get',
	action: 'Get the proxy of the device',
	description: 'Get whether the device connects through a proxy, and which one (its password masked)',
	routing: gatewayRouting('GET', '/proxy'),
};
