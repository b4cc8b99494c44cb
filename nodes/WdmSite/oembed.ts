import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { siteRouting } from '../shared/site';

/** What both oEmbed operations embed. */
const urlField: INodeProperties = {
	displayName: 'URL',
	name: 'url',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://example.com/?p=12',
	description: 'Address to embed (Embed: the link of a published post or page of this site)',
	routing: { send: { type: 'query', property: 'url' } },
};

const maxWidth: INodeProperties = {
	displayName: 'Max Width',
	name: 'maxwidth',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 600,
	description: 'Largest width of the embed in pixels (the site keeps it between 200 and 600)',
	routing: { send: { type: 'query', property: 'maxwidth' } },
};

export const oembedEmbed: Operation = {
	name: 'OEmbed Embed',
	value: 'oembedEmbed',
	action: 'Get the embed of a post or page',
	description: 'Get the oEmbed data (title, author, HTML to embed) of a published post or page of the site',
	routing: siteRouting('GET', '/oembed/1.0/embed'),
	fields: [
		urlField,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Format',
					name: 'format',
					type: 'options',
					options: [
						{ name: 'JSON', value: 'json' },
						{ name: 'XML', value: 'xml', description: 'The XML document is returned whole in the "data" field' },
					],
					default: 'json',
					routing: { send: { type: 'query', property: 'format' } },
				},
				maxWidth,
			],
		},
	],
};

export const oembedProxy: Operation = {
	name: 'OEmbed Proxy',
	value: 'oembedProxy',
	action: 'Get the embed of a URL through the site',
	description: 'Resolve a URL to its oEmbed data through the site (needs a user who can edit posts)',
	routing: siteRouting('GET', '/oembed/1.0/proxy'),
	fields: [
		urlField,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Discover',
					name: 'discover',
					type: 'boolean',
					default: true,
					description: 'Whether to look for an oEmbed provider on sites outside the allowed list',
					routing: { send: { type: 'query', property: 'discover' } },
				},
				{
					displayName: 'Max Height',
					name: 'maxheight',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					description: 'Largest height of the embed in pixels',
					routing: { send: { type: 'query', property: 'maxheight' } },
				},
				maxWidth,
			],
		},
	],
};
