import type { Operation } from '../shared/operations';
import { siteRouting } from '../shared/site';
import { commentFields, commentIdField, ITEM_FIELDS, MODERATION } from './fields';

export const update: Operation = {
	name: 'Update',
	value: 'update',
	action: 'Update a comment',
	description: "Change a comment's text, author, date, parent or status (moderators, or the post's author)",
	routing: siteRouting('POST', '/cms/v2/comments/{id}', ITEM_FIELDS),
	fields: [
		commentIdField,
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: commentFields(),
		},
	],
};

/** Moderation is an update of the status (WordPress has no route of its own for it); sent as PATCH. */
export const moderate: Operation = {
	name: 'Moderate',
	value: 'moderate',
	action: 'Moderate a comment',
	description: 'Approve, hold, mark as spam or trash a comment, or bring it back (moderators, or the post’s author)',
	routing: siteRouting('PATCH', '/cms/v2/comments/{id}', ITEM_FIELDS),
	fields: [
		commentIdField,
		{
			displayName: 'Moderation',
			name: 'moderation',
			type: 'options',
			options: MODERATION,
			default: 'approve',
			description: 'What to do with the comment',
			routing: { send: { type: 'body', property: 'status' } },
		},
	],
};
