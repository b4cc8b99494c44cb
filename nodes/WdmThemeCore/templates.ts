import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Resource } from '../shared/resources';
import { conditionsField, parseJson, TEMPLATE_TYPE_OPTIONS, templateIdField, themecoreRouting } from './fields';

/** Templates (header, footer, single, archive, page, section): create, change, where they apply, list by type. */

/** The builder data typed in as JSON goes as the document it writes. */
async function builderContent(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const data = (options.body as IDataObject).template_data as IDataObject | undefined;
	if (data && 'content' in data) data.content = parseJson(this, data.content, 'Builder Data') as IDataObject;
	return options;
}

export const templates: Resource = {
	name: 'Template',
	value: 'template',
	description: 'Header, footer, single, archive, page and section templates, and where they apply',
	operations: [
		{
			name: 'Create',
			value: 'createTemplate',
			action: 'Create a template',
			description: 'Create a published template of a type, with empty builder data',
			routing: themecoreRouting('create-template'),
			fields: [
				{
					displayName: 'Name',
					name: 'templateName',
					type: 'string',
					default: '',
					placeholder: 'e.g. Main header',
					description: 'Title of the template; empty names it after its type and ID',
					routing: { send: { type: 'body', property: 'name' } },
				},
				{
					displayName: 'Type',
					name: 'templateType',
					type: 'options',
					options: TEMPLATE_TYPE_OPTIONS,
					default: 'themecore-header',
					description: 'What the template is: a header, a footer, a body (single, archive, page) or a section',
					routing: { send: { type: 'body', property: 'type' } },
				},
				{
					displayName: 'Content Type',
					name: 'contentType',
					type: 'options',
					options: [
						{ name: 'Block Editor', value: 'default' },
						{ name: 'Page Builder', value: 'builder' },
					],
					default: 'default',
					description: 'Which editor builds the template',
					routing: { send: { type: 'body', property: 'content_type' } },
				},
			],
		},
		{
			name: 'Update',
			value: 'updateTemplateData',
			action: 'Update a template',
			description: 'Change the title, builder data, status or editor of a template',
			routing: themecoreRouting('update-template-data'),
			fields: [
				templateIdField,
				{
					displayName: 'Update Fields',
					name: 'templateUpdateFields',
					type: 'collection',
					placeholder: 'Add Field',
					default: {},
					options: [
						{
							displayName: 'Builder Data',
							name: 'content',
							type: 'json',
							default: '[]',
							description: "The page builder's data of the template (its elements), a JSON document",
							routing: { send: { type: 'body', property: 'template_data.content', preSend: [builderContent] } },
						},
						{
							displayName: 'Content Type',
							name: 'content_type',
							type: 'options',
							options: [
								{ name: 'Block Editor', value: 'default' },
								{ name: 'Page Builder', value: 'builder' },
							],
							default: 'builder',
							description: 'Which editor builds the template',
							routing: { send: { type: 'body', property: 'template_data.content_type' } },
						},
						{
							displayName: 'Status',
							name: 'status',
							type: 'options',
							options: [
								{ name: 'Draft', value: 'draft', description: 'Applies nowhere until published' },
								{ name: 'Published', value: 'publish' },
							],
							default: 'publish',
							description: 'Whether the template is in use',
							routing: { send: { type: 'body', property: 'template_data.status' } },
						},
						{
							displayName: 'Title',
							name: 'title',
							type: 'string',
							default: '',
							placeholder: 'e.g. Main header',
							routing: { send: { type: 'body', property: 'template_data.title' } },
						},
					],
				},
			],
		},
		{
			name: 'Get Conditions',
			value: 'getTemplateConditions',
			action: 'Get the conditions of a template',
			description: 'Get where a template applies',
			routing: themecoreRouting('get-template-conditions'),
			fields: [templateIdField],
		},
		{
			name: 'Update Conditions',
			value: 'updateTemplateConditions',
			action: 'Update the conditions of a template',
			description: 'Set where a template applies (replaces its conditions; none applies it nowhere)',
			routing: themecoreRouting('update-template-conditions'),
			fields: [templateIdField, conditionsField],
		},
		{
			name: 'Get Many',
			value: 'getStructureTemplateList',
			action: 'Get many templates',
			description: 'List the templates of a type, or every template',
			routing: themecoreRouting('get-structure-template-list'),
			fields: [
				{
					displayName: 'Type',
					name: 'templateTypeFilter',
					type: 'options',
					options: [{ name: 'All Types', value: '' }, ...TEMPLATE_TYPE_OPTIONS],
					default: '',
					description: 'Only templates of this type',
					routing: { send: { type: 'body', property: 'type' } },
				},
			],
		},
	],
};
