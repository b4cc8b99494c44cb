import type { Operation } from '../shared/operations';
import { siteResponse, siteSend } from '../shared/site';
import { ITEM_FIELDS, mediaIdField } from './fields';

export const deleteMedia: Operation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a media item',
	description: 'Delete a media item and its file for good (media has no trash)',
	routing: {
		// Without force the site refuses (501): it keeps no trash for media.
		request: { method: 'DELETE', url: '/cms/v2/media/{id}', qs: { force: true } },
		send: siteSend('/cms/v2/media/{id}', ITEM_FIELDS),
		output: { postReceive: [siteResponse] },
	},
	fields: [mediaIdField],
};
