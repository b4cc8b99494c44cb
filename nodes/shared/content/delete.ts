import type { Operation } from '../operations';
import { type ContentType, idField, itemRouting } from './fields';

export const remove = (type: ContentType): Operation => ({
	name: 'Delete',
	value: 'delete',
	action: `Delete a ${type.noun}`,
	description: `Move a ${type.noun} to the trash, or delete it for good with its revisions`,
	routing: itemRouting(type, 'DELETE'),
	fields: [
		idField(type),
		{
			displayName: 'Delete Permanently',
			name: 'force',
			type: 'boolean',
			default: false,
			description: `Whether to delete the ${type.noun} for good instead of moving it to the trash`,
			routing: { send: { type: 'query', property: 'force' } },
		},
	],
});
