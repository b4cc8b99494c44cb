import type { Operation } from '../operations';
import { siteRouting } from '../site';
import { type ContentType, writableField, writableFields } from './fields';

export const create = (type: ContentType): Operation => ({
	name: 'Create',
	value: 'create',
	action: `Create a ${type.noun}`,
	description: `Create a ${type.noun}; a draft unless a status is given`,
	routing: siteRouting('POST', type.route),
	fields: [
		writableField(type, 'title'),
		writableField(type, 'content'),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: writableFields(type, ['title', 'content']),
		},
	],
});
