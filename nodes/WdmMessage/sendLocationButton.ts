import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { commonExcept, numberField, sendOptions, textField } from './fields';

export const sendLocationButton: Operation = {
	name: 'Send Location Button',
	value: 'sendLocationButton',
	action: 'Send a location request button',
	description: "Send a text with a button that asks for the recipient's location",
	routing: gatewayRouting('POST', '/send/location-button'),
	fields: [
		numberField,
		textField,
		sendOptions([], commonExcept('placeholders')),
	],
};
