import type { Operation } from '../operations';
import { type ContentType, idField, itemRouting, writableFields } from './fields';

export const update = (type: ContentType): Operation => ({
	name: 'Update',
	value: 'update',
	action: `Update a ${type.noun}`,
	description: `Change fields of a ${type.noun}; a change of title, content or excerpt keeps a revision`,
	routing: itemRouting(type, 'POST'),
	fields: [
		idField(type),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: writableFields(type),
		},
	],
});
