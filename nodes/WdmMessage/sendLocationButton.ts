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
		{ ...textField('Text shown above the button; the gateway adds the button itself', 3), placeholder: 'e.g. Where should we deliver your order?' },
		sendOptions([], commonExcept('placeholders')),
	],
};
