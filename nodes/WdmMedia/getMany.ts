import type { Operation } from '../shared/operations';
import { newerWordPress, valuesIn } from '../shared/newerWordPress';
import { asList, dateFilter, idsField, listOptions, searchFilter } from '../shared/content/fields';
import { siteListRouting, siteReturnAllFields } from '../shared/site';

export const getMany: Operation = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many media items',
	description: 'List media items, filtered by kind, MIME type, post, author, date or text',
	routing: siteListRouting('/cms/v2/media'),
	fields: [
		...siteReturnAllFields,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				dateFilter('After', 'after', 'Only media uploaded after this time'),
				idsField('Attached to Post IDs', 'parent', 'Only media attached to these posts or pages (0 for media attached to none)'),
				idsField('Author IDs', 'author', 'Only media by these users'),
				dateFilter('Before', 'before', 'Only media uploaded before this time'),
				idsField('Exclude IDs', 'exclude', 'Leave out these media items'),
				idsField('Include IDs', 'include', 'Only these media items'),
				newerWordPress(
					{
						displayName: 'Media Types',
						name: 'media_type',
						type: 'multiOptions',
						options: [
							{ name: 'Application (PDF, Office, Archives, ...)', value: 'application' },
							{ name: 'Audio', value: 'audio' },
							{ name: 'Image', value: 'image' },
							{ name: 'Text', value: 'text' },
							{ name: 'Video', value: 'video' },
						],
						default: [],
						description: 'Only media of these kinds; combined with MIME Types, media matching either',
						routing: asList('query', 'media_type'),
					},
					{
						version: '6.9',
						arg: 'media_type',
						list: true,
						// 6.9 merges both filters; an older site keeps one kind, and lets a MIME type replace it.
						needs: (qs) => valuesIn(qs.media_type) > 1 || (qs.media_type !== undefined && qs.mime_type !== undefined),
						uses: 'two or more, or with MIME Types',
					},
				),
				newerWordPress(
					{
						displayName: 'MIME Types',
						name: 'mime_type',
						type: 'string',
						typeOptions: { multipleValues: true, multipleValueButtonText: 'Add MIME Type' },
						default: [],
						placeholder: 'e.g. image/png',
						description: 'Only media of these exact MIME types',
						routing: asList('query', 'mime_type'),
					},
					{ version: '6.9', arg: 'mime_type', list: true, needs: (qs) => valuesIn(qs.mime_type) > 1, uses: 'two or more' },
				),
				idsField('Not Attached to Post IDs', 'parent_exclude', 'Leave out media attached to these posts or pages'),
				searchFilter('Only media whose title, caption or description contains these words'),
				{
					displayName: 'Status',
					name: 'status',
					type: 'multiOptions',
					options: [
						{ name: 'Inherit', value: 'inherit', description: 'Visible with the post they are attached to' },
						{ name: 'Private', value: 'private' },
						{ name: 'Trash', value: 'trash' },
					],
					default: [],
					description: 'Only media in these statuses (Inherit by default); other than Inherit needs the right to edit',
					routing: asList('query', 'status'),
				},
			],
		},
		listOptions([
			{ name: 'Attached Post', value: 'parent' },
			{ name: 'Author', value: 'author' },
			{ name: 'Date', value: 'date' },
			{ name: 'ID', value: 'id' },
			{ name: 'Include List', value: 'include', description: 'The order of Include IDs' },
			{ name: 'Modified', value: 'modified' },
			{ name: 'Relevance', value: 'relevance', description: 'Needs a search' },
			{ name: 'Slug', value: 'slug' },
			{ name: 'Title', value: 'title' },
		]),
	],
};
