import { newerWordPress } from '../newerWordPress';
import type { Operation } from '../operations';
import { type ContentType, contextField, idField, itemRouting } from './fields';

export const get = (type: ContentType): Operation => ({
	name: 'Get',
	value: 'get',
	action: `Get a ${type.noun}`,
	description: `Get a ${type.noun} by ID`,
	routing: itemRouting(type, 'GET'),
	fields: [
		idField(type),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				contextField,
				newerWordPress(
					{
						displayName: 'Excerpt Length',
						name: 'excerpt_length',
						type: 'number',
						default: 55,
						typeOptions: { minValue: 1 },
						description: 'Words of an excerpt made from the content (when none was written)',
						routing: { send: { type: 'query', property: 'excerpt_length' } },
					},
					{ version: '6.6', arg: 'excerpt_length' },
				),
				{
					displayName: 'Password',
					name: 'password',
					type: 'string',
					typeOptions: { password: true },
					default: '',
					description: `The ${type.noun}'s password, to read protected content and excerpt`,
					routing: { send: { type: 'query', property: 'password' } },
				},
			],
		},
	],
});
