import type { INodeProperties } from 'n8n-workflow';
import { openClosed } from '../shared/content/fields';
import { picker } from '../shared/pickers';

/** The media item an operation works on; `{id}` of `/cms/v2/media/{id}`. */
export const mediaIdField = picker('media', { displayName: 'Media', name: 'mediaId', description: 'The media item: pick it from the list, or give its ID or its URL' });

/** `/cms/v2/media/{id}` with `{id}` from the Media ID field. */
export const ITEM_FIELDS = { id: 'mediaId' };

/**
 * The writable fields of a media item, sent as `send` says: in the query string with an upload (its
 * body is the file), in the body with an update.
 */
export function mediaFields(send: 'query' | 'body'): INodeProperties[] {
	const to = (property: string) => ({ send: { type: send, property } });
	return [
		{
			displayName: 'Alt Text',
			name: 'alt_text',
			type: 'string',
			default: '',
			description: 'Text shown in place of the image when it cannot be seen',
			routing: to('alt_text'),
		},
		picker('post', {
			displayName: 'Attached Post',
			name: 'post',
			required: false,
			description: 'The post (or page) the media item belongs to: pick it, or give its ID or URL (0 for none)',
			routing: to('post'),
		}),
		picker('author', {
			displayName: 'Author',
			name: 'author',
			required: false,
			description: "The user the media item is by: pick them from the site's authors, or give their ID",
			routing: to('author'),
		}),
		{
			displayName: 'Caption',
			name: 'caption',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			routing: to('caption'),
		},
		openClosed('Comment Status', 'comment_status', 'Whether comments are allowed on the media page', to),
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			routing: to('description'),
		},
		{
			displayName: 'Slug',
			name: 'slug',
			type: 'string',
			default: '',
			description: 'Name of the media page in URLs, unique on the site',
			routing: to('slug'),
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Private', value: 'private', description: 'Only for users who may read private content' },
				{
					name: 'Public',
					value: 'publish',
					description: 'Visible with the post it is attached to, or to everyone when attached to none (the site stores it as inherit)',
				},
			],
			default: 'publish',
			routing: to('status'),
		},
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: 'Title of the media item (on upload, the file name without extension by default)',
			routing: to('title'),
		},
	];
}
