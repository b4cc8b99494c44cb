import type { Operation } from '../shared/operations';
import { contextField, dateFilter, idsField, listOptions, query, searchFilter } from '../shared/content/fields';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../shared/site';
import { commentIdField, ITEM_FIELDS } from './fields';

export const get: Operation = {
	name: 'Get',
	value: 'get',
	action: 'Get a comment',
	description: 'Get a comment with its author, text, status and links',
	routing: siteRouting('GET', '/cms/v2/comments/{id}', ITEM_FIELDS),
	fields: [commentIdField, contextField],
};

export const getMany: Operation = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many comments',
	description: 'List comments, filtered by post, reply, author, status, date or text (approved ones by default)',
	routing: siteListRouting('/cms/v2/comments'),
	fields: [
		...siteReturnAllFields,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				dateFilter('After', 'after', 'Only comments made after this time'),
				{
					displayName: 'Author Email',
					name: 'author_email',
					type: 'string',
					placeholder: 'name@email.com',
					default: '',
					description: 'Only comments with this author email (needs the right to write posts)',
					routing: query('author_email'),
				},
				idsField('Author IDs', 'author', 'Only comments by these users (needs the right to write posts)'),
				dateFilter('Before', 'before', 'Only comments made before this time'),
				idsField('Exclude Author IDs', 'author_exclude', 'Leave out comments by these users (needs the right to write posts)'),
				idsField('Exclude IDs', 'exclude', 'Leave out these comments'),
				idsField('Exclude Parent IDs', 'parent_exclude', 'Leave out replies to these comments'),
				idsField('Include IDs', 'include', 'Only these comments'),
				idsField('Parent IDs', 'parent', 'Only replies to these comments (0 for comments that reply to none)'),
				idsField('Post IDs', 'post', 'Only comments on these posts or pages'),
				searchFilter('Only comments whose text or author fields contain this text'),
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					options: [
						{ name: 'All (Approved and Held)', value: 'all' },
						{ name: 'Approved', value: 'approve' },
						{ name: 'Held', value: 'hold', description: 'Waiting for moderation' },
						{ name: 'Spam', value: 'spam' },
						{ name: 'Trash', value: 'trash' },
					],
					default: 'approve',
					description: 'Comments in this status; other than Approved needs the right to write posts, and shows those you may moderate',
					routing: query('status'),
				},
				{
					displayName: 'Type',
					name: 'type',
					type: 'string',
					default: 'comment',
					description: 'Comments of this type (needs the right to write posts for another than comment)',
					routing: query('type'),
				},
			],
		},
		listOptions([
			{ name: 'Date', value: 'date' },
			{ name: 'Date (GMT)', value: 'date_gmt' },
			{ name: 'ID', value: 'id' },
			{ name: 'Include List', value: 'include', description: 'The order of Include IDs' },
			{ name: 'Parent', value: 'parent' },
			{ name: 'Post', value: 'post' },
			{ name: 'Type', value: 'type' },
		]),
	],
};
