import type { Operation } from '../operations';
import { siteRouting } from '../site';
import { type ContentType, writableFields } from './fields';

export const create = (type: ContentType): Operation => ({
	name: 'Create',
	value: 'create',
	action: `Create a ${type.noun}`,
	description: `Create a ${type.noun}; a draft unless a status is given`,
	routing: siteRouting('POST', type.route),
	fields: [
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			routing: { send: { type: 'body', property: 'title' } },
		},
		{
			displayName: 'Content',
			name: 'content',
			type: 'string',
			typeOptions: { rows: 6 },
			default: '',
			description: 'The text, HTML or blocks; blank lines make paragraphs',
			routing: { send: { type: 'body', property: 'content' } },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: writableFields(type, ['title', 'content']),
		},
	],
});
