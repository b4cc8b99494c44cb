import type { Operation } from '../shared/operations';
import { siteResponse, siteSend } from '../shared/site';
import { ITEM_FIELDS, mediaIdField } from './fields';

export const generateSizes: Operation = {
	name: 'Generate Missing Sizes',
	value: 'generateSizes',
	action: 'Generate the missing sizes of an image',
	description: 'Make the sizes (thumbnail, medium, ...) an image is missing, as the site does after an upload',
	routing: {
		request: { method: 'POST', url: '/cms/v2/media/{id}/post-process', body: { action: 'create-image-subsizes' } },
		send: siteSend('/cms/v2/media/{id}/post-process', ITEM_FIELDS),
		output: { postReceive: [siteResponse] },
	},
	fields: [mediaIdField],
};
