import type { Operation } from '../shared/operations';
import { siteRouting } from '../shared/site';
import { commentIdField, ITEM_FIELDS } from './fields';

export const remove: Operation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a comment',
	description: 'Move a comment to the trash, or delete it for good (its replies move up a level)',
	routing: siteRouting('DELETE', '/cms/v2/comments/{id}', ITEM_FIELDS),
	fields: [
		commentIdField,
		{
			displayName: 'Delete Permanently',
			name: 'force',
			type: 'boolean',
			default: false,
			description: 'Whether to delete the comment for good instead of moving it to the trash',
			routing: { send: { type: 'query', property: 'force' } },
		},
	],
};
