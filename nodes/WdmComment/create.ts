import type { Operation } from '../shared/operations';
import { picker } from '../shared/pickers';
import { siteRouting } from '../shared/site';
import { commentFields } from './fields';

export const create: Operation = {
	name: 'Create',
	value: 'create',
	action: 'Create a comment',
	description: 'Comment on a post whose comments are open, as the signed-in user (held for moderation until they have an approved comment)',
	routing: siteRouting('POST', '/cms/v2/comments'),
	fields: [
		picker('post', {
			displayName: 'Post',
			name: 'postId',
			description: 'The post (or page) to comment on: pick it from the list, or give its ID or its URL',
			routing: { send: { type: 'body', property: 'post' } },
		}),
		{
			displayName: 'Content',
			name: 'commentContent',
			type: 'string',
			typeOptions: { rows: 4 },
			required: true,
			default: '',
			description: 'Text of the comment',
			routing: { send: { type: 'body', property: 'content' } },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: commentFields(['content', 'post']),
		},
	],
};
