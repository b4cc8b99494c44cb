import type { Resource } from '../shared/resources';
import { conditionsField, layoutField, pageTemplateIdField, relationTypeField, themecoreRouting } from './fields';

/** Page templates: a header, body and footer template put together, and where the page applies. */

export const pageTemplates: Resource = {
	name: 'Page Template',
	value: 'pageTemplate',
	description: 'Pages made of a header, a body and a footer template, and where they apply',
	operations: [
		{
			name: 'Create',
			value: 'createPageTemplate',
			action: 'Create a page template',
			description: 'Create a page template from a layout and conditions',
			routing: themecoreRouting('create-page-template'),
			fields: [
				{
					displayName: 'Name',
					name: 'pageTemplateName',
					type: 'string',
					default: '',
					placeholder: 'e.g. Blog posts',
					description: 'Name of the page template; empty names it after its ID',
					routing: { send: { type: 'body', property: 'name' } },
				},
				layoutField,
				conditionsField,
				relationTypeField,
			],
		},
		{
			name: 'Copy',
			value: 'copyPageTemplate',
			action: 'Copy a page template',
			description: 'Copy a page template with its layout and conditions',
			routing: themecoreRouting('copy-page-template'),
			fields: [pageTemplateIdField],
		},
		{
			name: 'Delete',
			value: 'deletePageTemplate',
			action: 'Delete a page template',
			description: 'Delete a page template for good',
			routing: themecoreRouting('delete-page-template'),
			fields: [pageTemplateIdField],
		},
		{
			name: 'Get Conditions',
			value: 'getPageTemplateConditions',
			action: 'Get the conditions of a page template',
			description: 'Get where a page template applies and how its conditions combine',
			routing: themecoreRouting('get-page-template-conditions'),
			fields: [pageTemplateIdField],
		},
		{
			name: 'Get Many',
			value: 'getPageTemplateList',
			action: 'Get many page templates',
			description: 'List the page templates, newest first unless ordered otherwise',
			routing: themecoreRouting('get-page-template-list', 'list'),
			fields: [
				{
					displayName: 'Name Contains',
					name: 'pageTemplateSearch',
					type: 'string',
					default: '',
					placeholder: 'e.g. blog',
					description: 'Only page templates whose name contains this text (any case)',
					routing: { send: { type: 'body', property: 'templateName' } },
				},
				{
					displayName: 'Order By',
					name: 'pageTemplateOrderBy',
					type: 'options',
					options: [
						{ name: 'Date Created', value: 'date', description: 'Newest first' },
						{ name: 'Date Modified', value: 'modified', description: 'Last changed first' },
						{ name: 'Name', value: 'name', description: 'A to Z' },
					],
					default: 'date',
					routing: { send: { type: 'body', property: 'orderBy' } },
				},
			],
		},
		{
			name: 'Update',
			value: 'updatePageTemplateData',
			action: 'Update a page template',
			description: 'Change the name, relation type, conditions or layout parts of a page template',
			routing: themecoreRouting('update-page-template-data'),
			fields: [
				pageTemplateIdField,
				{
					displayName: 'Update Fields',
					name: 'pageTemplateUpdateFields',
					type: 'collection',
					placeholder: 'Add Field',
					default: {},
					options: [
						{
							displayName: 'Name',
							name: 'templateName',
							type: 'string',
							default: '',
							placeholder: 'e.g. Blog posts',
							routing: { send: { type: 'body', property: 'template_data.templateName' } },
						},
						{ ...relationTypeField, routing: { send: { type: 'body', property: 'template_data.relationType' } } },
					],
				},
				layoutField,
				conditionsField,
			],
		},
	],
};
