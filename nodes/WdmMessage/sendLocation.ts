import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { commonExcept, numberField, sendOptions } from './fields';

export const sendLocation: Operation = {
	name: 'Send Location',
	value: 'sendLocation',
	action: 'Send a location',
	description: 'Send a location pin, with an optional place name and address',
	routing: gatewayRouting('POST', '/send/location'),
	fields: [
		numberField,
		{
			displayName: 'Latitude',
			name: 'latitude',
			type: 'number',
			typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 7 },
			required: true,
			default: 0,
			description: 'Latitude in degrees, from -90 to 90',
			routing: { send: { type: 'body', property: 'latitude' } },
		},
		{
			displayName: 'Longitude',
			name: 'longitude',
			type: 'number',
			typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 7 },
			required: true,
			default: 0,
			description: 'Longitude in degrees, from -180 to 180',
			routing: { send: { type: 'body', property: 'longitude' } },
		},
		sendOptions(
			[
				{
					displayName: 'Place Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. Acme Store',
					routing: { send: { type: 'body', property: 'name' } },
				},
				{
					displayName: 'Address',
					name: 'address',
					type: 'string',
					default: '',
					placeholder: 'e.g. Praça da Sé, São Paulo - SP',
					routing: { send: { type: 'body', property: 'address' } },
				},
			],
			commonExcept('placeholders'),
		),
	],
};
