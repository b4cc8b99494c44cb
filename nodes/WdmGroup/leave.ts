import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { groupJidField } from './fields';

export const leave: Operation = {
	name: 'Leave',
	value: 'leave',
	action: 'Leave a group',
	description: 'Leave a group: the device no longer sees it or gets its messages',
	routing: gatewayRouting('POST', '/group/leave'),
	fields: [groupJidField],
};
