import type { Operation } from '../shared/operations';
import { siteRouting } from '../shared/site';
import { ITEM_FIELDS, mediaFields, mediaIdField } from './fields';

export const update: Operation = {
	name: 'Update',
	value: 'update',
	action: 'Update a media item',
	description: 'Change the title, texts, attached post or status of a media item (the file stays)',
	routing: siteRouting('POST', '/cms/v2/media/{id}', ITEM_FIELDS),
	fields: [
		mediaIdField,
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: mediaFields('body'),
		},
	],
};
