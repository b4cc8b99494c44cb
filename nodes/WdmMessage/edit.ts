import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { messageIdField, textField } from './fields';

export const edit: Operation = {
	name: 'Edit',
	value: 'edit',
	action: 'Edit a message',
	description: 'Replace the text of a text message the device sent, within 15 minutes of sending',
	routing: gatewayRouting('POST', '/message/edit'),
	fields: [
		messageIdField,
		textField,
	],
};
