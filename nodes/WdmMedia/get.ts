import type { Operation } from '../shared/operations';
import { siteRouting } from '../shared/site';
import { contextField } from '../shared/content/fields';
import { ITEM_FIELDS, mediaIdField } from './fields';

export const get: Operation = {
	name: 'Get',
	value: 'get',
	action: 'Get a media item',
	description: 'Get a media item with its file URL, type, size and texts',
	routing: siteRouting('GET', '/cms/v2/media/{id}', ITEM_FIELDS),
	fields: [mediaIdField, contextField],
};
