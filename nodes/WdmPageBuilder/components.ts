import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { picker, pickedValue } from '../shared/pickers';
import { siteRouting } from '../shared/site';
import { idList, jsonValue, rowsOf, sendParameter, toBody, withPreSend } from './editorFields';

const BASE = '/builder/v1/components';

/** The component a lock, lock status or overridable-props operation is about (sent in the body or the query). */
const componentIdField: INodeProperties = picker('component', {
	displayName: 'Component',
	name: 'componentId',
	description: 'The component: pick it from the list, or give its ID (Get Many lists them)',
});

const componentIdsField: INodeProperties = {
	displayName: 'Component IDs',
	name: 'componentIds',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 12, 15',
	description: 'IDs of the components, separated by commas',
};

const componentStatusField: INodeProperties = {
	displayName: 'Save Status',
	name: 'componentStatus',
	type: 'options',
	options: [
		{ name: 'Autosave', value: 'autosave', description: 'Saved as drafts' },
		{ name: 'Draft', value: 'draft' },
		{ name: 'Publish', value: 'publish' },
	],
	default: 'publish',
	description: 'How the components are saved',
	routing: toBody('status'),
};

/** The components to create or validate: one row each, the elements as the builder's JSON. */
const componentItemsField: INodeProperties = {
	displayName: 'Components',
	name: 'componentItems',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Component',
	required: true,
	default: {},
	description: 'The components, one row each, with their elements as the builder JSON',
	options: [
		{
			displayName: 'Component',
			name: 'component',
			values: [
				{
					displayName: 'UID',
					name: 'uid',
					type: 'string',
					default: '',
					placeholder: 'e.g. card-1',
					description: "The editor's own ID of the new component; the answer maps it to the component's ID",
				},
				{
					displayName: 'Title',
					name: 'title',
					type: 'string',
					default: '',
					placeholder: 'e.g. Product card',
					description: '2 to 200 characters, unique among the components',
				},
				{
					displayName: 'Elements',
					name: 'elements',
					type: 'json',
					default: '[]',
					description: "The component's elements, in the builder's JSON format (an array of element objects)",
				},
				{
					displayName: 'Settings',
					name: 'settings',
					type: 'json',
					default: '{}',
					description: 'Component settings, e.g. {"overridable_props": {...}}',
				},
			],
		},
	],
	routing: {
		send: {
			preSend: [
				async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
					const items = rowsOf.call(this, 'componentItems', 'component').map((row, i) => {
						const settings = jsonValue.call(this, row.settings, `Settings of component ${i + 1}`) as IDataObject | undefined;
						return {
							uid: row.uid,
							title: row.title,
							elements: jsonValue.call(this, row.elements, `Elements of component ${i + 1}`) ?? [],
							...(settings && Object.keys(settings).length ? { settings } : {}),
						};
					});
					options.body = { ...(options.body as IDataObject), items };
					return options;
				},
			],
		},
	},
};

const componentTitlesField: INodeProperties = {
	displayName: 'Titles',
	name: 'componentTitles',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Title',
	required: true,
	default: {},
	description: 'The new title of each component',
	options: [
		{
			displayName: 'Title',
			name: 'title',
			values: [
				picker('component', { displayName: 'Component', name: 'componentId', required: false, description: 'The component to rename: pick it, or give its ID' }),
				{ displayName: 'Title', name: 'title', type: 'string', default: '', description: 'The new title, 2 to 200 characters' },
			],
		},
	],
	routing: {
		send: {
			preSend: [
				async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
					const components = rowsOf.call(this, 'componentTitles', 'title').map((row) => ({ componentId: Number(pickedValue(row.componentId)), title: row.title }));
					options.body = { ...(options.body as IDataObject), components };
					return options;
				},
			],
		},
	},
};

// The builder takes the ID as a number; a picker gives it as text.
const sendComponentId = (where: 'body' | 'query') => sendParameter('componentId', where, 'componentId', (id) => Number(id));
const sendIds = (key: string) => sendParameter('componentIds', 'body', key, idList);

const operations: Operation[] = [
	{
		name: 'Archive',
		value: 'archiveComponents',
		action: 'Archive components',
		description: 'Mark components archived (they stay listed) and save them with a status',
		routing: withPreSend(siteRouting('POST', `${BASE}/archive`), sendIds('componentIds')),
		fields: [componentIdsField, componentStatusField],
	},
	{
		name: 'Create',
		value: 'createComponents',
		action: 'Create components',
		description: 'Create components from their elements; the answer maps each UID to its new ID',
		routing: siteRouting('POST', BASE),
		fields: [componentStatusField, componentItemsField],
	},
	{
		name: 'Get Lock Status',
		value: 'getComponentLockStatus',
		action: 'Get the lock status of a component',
		description: 'Who is editing a component, and whether you may edit it',
		routing: withPreSend(siteRouting('GET', `${BASE}/lock-status`), sendComponentId('query')),
		fields: [componentIdField],
	},
	{
		name: 'Get Many',
		value: 'getComponents',
		action: 'Get many components',
		description: 'List the components with their ID, name, UID, status and whether archived',
		routing: siteRouting('GET', BASE),
	},
	{
		name: 'Get Overridable Props',
		value: 'getComponentOverridableProps',
		action: 'Get the overridable props of a component',
		description: 'Get the properties that instances of a component may override',
		routing: withPreSend(siteRouting('GET', `${BASE}/overridable-props`), sendComponentId('query')),
		fields: [componentIdField],
	},
	{
		name: 'Get Styles',
		value: 'getComponentStyles',
		action: 'Get the styles of the components',
		description: "Get every component's styles, by component ID",
		routing: siteRouting('GET', `${BASE}/styles`),
	},
	{
		name: 'Lock',
		value: 'lockComponent',
		action: 'Lock a component',
		description: 'Lock a component for the credential user for an hour (again to renew it)',
		routing: withPreSend(siteRouting('POST', `${BASE}/lock`), sendComponentId('body')),
		fields: [componentIdField],
	},
	{
		name: 'Publish',
		value: 'publishComponents',
		action: 'Publish components',
		description: 'Publish draft components; the answer lists the IDs published and those that are no component',
		routing: withPreSend(
			{ ...siteRouting('PUT', `${BASE}/status`), request: { method: 'PUT' as const, url: `${BASE}/status`, body: { status: 'publish' } } },
			sendIds('ids'),
		),
		fields: [componentIdsField],
	},
	{
		name: 'Unlock',
		value: 'unlockComponent',
		action: 'Unlock a component',
		description: "Release the credential user's lock of a component",
		routing: withPreSend(siteRouting('POST', `${BASE}/unlock`), sendComponentId('body')),
		fields: [componentIdField],
	},
	{
		name: 'Update Titles',
		value: 'updateComponentTitles',
		action: 'Update the titles of components',
		description: 'Rename components (titles stay unique) and save them with a status',
		routing: siteRouting('POST', `${BASE}/update-titles`),
		fields: [componentTitlesField, componentStatusField],
	},
	{
		name: 'Validate',
		value: 'validateComponents',
		action: 'Validate components',
		description: 'Check components as Create would (titles, duplicates, limit) without creating them',
		routing: siteRouting('POST', `${BASE}/create-validate`),
		fields: [componentItemsField],
	},
];

export const components: Resource = { name: 'Component', value: 'component', operations };
