import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { picker } from '../shared/pickers';

/** The comment an operation works on; `{id}` of `/cms/v2/comments/{id}`. */
export const commentIdField = picker('comment', { displayName: 'Comment', name: 'commentId', description: 'The comment: pick it from the list, or give its ID or its URL' });

/** `/cms/v2/comments/{id}` with `{id}` from the Comment field. */
export const ITEM_FIELDS = { id: 'commentId' };

/** The moderation statuses a comment may be given (WordPress's `handle_status_param`). */
export const MODERATION: INodePropertyOptions[] = [
	{ name: 'Approve', value: 'approve', description: 'Shown on the site' },
	{ name: 'Hold', value: 'hold', description: 'Waiting for moderation' },
	{ name: 'Spam', value: 'spam' },
	{ name: 'Trash', value: 'trash', description: 'To the trash (Untrash brings it back)' },
	{ name: 'Unspam', value: 'unspam', description: 'Out of spam, held for moderation' },
	{ name: 'Untrash', value: 'untrash', description: 'Out of the trash, with the status it had' },
];

const body = (property: string) => ({ send: { type: 'body' as const, property } });

/**
 * The writable fields of a comment, in the body. `except` leaves some out (the post of a new comment
 * and its text are fields of their own).
 */
export function commentFields(except: string[] = []): INodeProperties[] {
	const fields: INodeProperties[] = [
		{
			displayName: 'Author Email',
			name: 'author_email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'Email of the author, when it is not a user of the site (moderators)',
			routing: body('author_email'),
		},
		picker('anyUser', {
			displayName: 'Author',
			name: 'author',
			required: false,
			description: 'The user the comment is by: pick them, or give their ID (0 for none); someone else than the signed-in user needs the right to moderate',
			routing: body('author'),
		}),
		{
			displayName: 'Author IP',
			name: 'author_ip',
			type: 'string',
			default: '',
			placeholder: 'e.g. 203.0.113.9',
			description: 'IP address of the author (moderators)',
			routing: body('author_ip'),
		},
		{
			displayName: 'Author Name',
			name: 'author_name',
			type: 'string',
			default: '',
			description: 'Name shown for the author, when it is not a user of the site',
			routing: body('author_name'),
		},
		{
			displayName: 'Author URL',
			name: 'author_url',
			type: 'string',
			default: '',
			placeholder: 'https://example.com',
			description: "The author's website",
			routing: body('author_url'),
		},
		{
			displayName: 'Author User Agent',
			name: 'author_user_agent',
			type: 'string',
			default: '',
			description: "The author's browser (by default the request's User-Agent)",
			routing: body('author_user_agent'),
		},
		{
			displayName: 'Content',
			name: 'content',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: 'Text of the comment; HTML beyond simple formatting is removed unless you may post unfiltered HTML',
			routing: body('content'),
		},
		{
			displayName: 'Date',
			name: 'date',
			type: 'dateTime',
			default: '',
			description: "When the comment was made, in the site's time zone unless an offset is given",
			routing: body('date'),
		},
		picker('comment', {
			displayName: 'Parent Comment',
			name: 'parent',
			required: false,
			description: 'The comment this one replies to (on the same post): pick it, or give its ID or URL (0 for none)',
			routing: body('parent'),
		}),
		picker('post', {
			displayName: 'Post',
			name: 'post',
			required: false,
			description: 'The post (or page) the comment is on: pick it, or give its ID or URL',
			routing: body('post'),
		}),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: MODERATION,
			default: 'approve',
			description: 'Moderation status (moderators)',
			routing: body('status'),
		},
	];
	return fields.filter((field) => !except.includes(field.name));
}
