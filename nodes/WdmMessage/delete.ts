import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { messageIdField } from './fields';

export const deleteMessage: Operation = {
	name: 'Delete for Everyone',
	value: 'delete',
	action: 'Delete a message for everyone',
	description: 'Delete a message the device sent, for everyone in the chat',
	routing: gatewayRouting('POST', '/message/delete'),
	fields: [messageIdField],
};
