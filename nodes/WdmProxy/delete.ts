import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';

export const remove: Operation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete the proxy of the device',
	description: 'Remove the configured proxy: the device goes back to the default connection',
	routing: gatewayRouting('DELETE', '/proxy'),
};
