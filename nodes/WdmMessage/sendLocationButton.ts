import type { Operation } from '../shared/operations';
import { unwrapData } from '../shared/gateway';
import { commonExcept, numberField, sendOptions } from './fields';

export const sendLocationButton: Operation = {
	name: 'Send Location Button',
	value: 'sendLocationButton',
	action: 'Send a location request button',
	description: "Send a text with a button that asks for the recipient's location",
	routing: { request: { method: 'POST', url: '/send/location-button' }, output: { postReceive: [unwrapData] } },
	fields: [
		numberField,
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			required: true,
			default: '',
			placeholder: 'e.g. Where should we deliver your order?',
			description: 'Text shown above the button; the gateway adds the button itself',
			routing: { send: { type: 'body', property: 'text' } },
		},
		sendOptions([], commonExcept('placeholders')),
	],
};
