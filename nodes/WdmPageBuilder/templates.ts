import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { sendJson, toBody, withPreSend } from './editorFields';

const ROUTE = '/builder/v1/template-library/templates';

const operations: Operation[] = [
	{
		name: 'Create',
		value: 'createTemplate',
		action: 'Create a template',
		description: 'Save a template of the template library with its content',
		routing: withPreSend(siteRouting('POST', ROUTE), sendJson('templateContent', 'body', 'content', 'Content')),
		fields: [
			{
				displayName: 'Type',
				name: 'templateType',
				type: 'options',
				options: [
					{ name: 'Container', value: 'container' },
					{ name: 'Div Block', value: 'e-div-block' },
					{ name: 'Flexbox', value: 'e-flexbox' },
					{ name: 'Page', value: 'page' },
					{ name: 'Section', value: 'section' },
				],
				default: 'page',
				description: 'What kind of template it is',
				routing: toBody('type'),
			},
			{
				displayName: 'Title',
				name: 'templateTitle',
				type: 'string',
				default: '',
				placeholder: 'e.g. Hero section',
				description: 'Title of the template; empty for "Untitled" followed by its type',
				routing: toBody('title'),
			},
			{
				displayName: 'Content',
				name: 'templateContent',
				type: 'json',
				default: '{}',
				description: 'The template in the builder\'s JSON format, e.g. {"content": [...elements], "page_settings": {}}',
			},
		],
	},
	{
		name: 'Get Many',
		value: 'getTemplates',
		action: 'Get many templates',
		description: 'List the saved templates with their type and content, newest first',
		routing: siteRouting('GET', ROUTE),
	},
];

export const templates: Resource = { name: 'Template', value: 'template', operations };
