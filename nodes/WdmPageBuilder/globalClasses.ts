import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { classContextField, parseJsonParameter, splitList } from './designFields';

/** The site's global CSS classes (`/builder/v1/global-classes`) and where they are used. */

interface ClassRow {
	id: string;
	label: string;
	change: 'added' | 'modified';
	variants: unknown;
}

/**
 * The rows and the IDs to delete as the PUT's `changes`, `items` and `order`: each row is an added
 * or modified class, in the order given; classes not named keep their place on the site.
 */
async function classChanges(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const rows = (this.getNodeParameter('globalClassRows', {}) as { class?: ClassRow[] }).class ?? [];
	const items: IDataObject = {};
	for (const row of rows) {
		const variants = parseJsonParameter.call(this, row.variants, `Variants of class ${row.id}`) ?? [];
		items[row.id] = { id: row.id, type: 'class', label: row.label, variants };
	}
	const changes = {
		added: rows.filter((row) => row.change === 'added').map((row) => row.id),
		deleted: splitList(this.getNodeParameter('deletedClassIds', '')),
		modified: rows.filter((row) => row.change === 'modified').map((row) => row.id),
	};
	options.body = { ...(options.body as IDataObject), changes, items, order: rows.map((row) => row.id) };
	return options;
}

const operations: Operation[] = [
	{
		name: 'Get Global Classes',
		value: 'getGlobalClasses',
		action: 'Get the global classes',
		description: 'Get the global classes keyed by ID, with their order in meta.order',
		routing: siteRouting('GET', '/builder/v1/global-classes'),
		fields: [classContextField],
	},
	{
		name: 'Update Global Classes',
		value: 'updateGlobalClasses',
		action: 'Update the global classes',
		description: 'Add, modify and delete global classes; classes not named here stay as they are',
		routing: siteRouting('PUT', '/builder/v1/global-classes', undefined, classChanges),
		fields: [
			classContextField,
			{
				displayName: 'Classes',
				name: 'globalClassRows',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true, sortable: true },
				placeholder: 'Add Class',
				default: {},
				description: 'Classes to add or modify, in the order they should be listed',
				options: [
					{
						displayName: 'Class',
						name: 'class',
						values: [
							{
								displayName: 'Class ID',
								name: 'id',
								type: 'string',
								default: '',
								placeholder: 'e.g. g-card',
								description: 'CSS class name: a letter or underscore, then letters, digits, hyphens or underscores',
							},
							{ displayName: 'Label', name: 'label', type: 'string', default: '', placeholder: 'e.g. Card', description: 'Name shown in the builder, unique, at most 50 characters' },
							{
								displayName: 'Change',
								name: 'change',
								type: 'options',
								options: [
									{ name: 'Add', value: 'added', description: 'A new class' },
									{ name: 'Modify', value: 'modified', description: 'A class the site has' },
								],
								default: 'added',
							},
							{
								displayName: 'Variants',
								name: 'variants',
								type: 'json',
								default: '[\n  {"meta": {"breakpoint": "desktop", "state": null}, "props": {"color": {"$$type": "color", "value": "#333333"}}}\n]',
								description: 'Style variants as the builder stores them: per breakpoint and state, the props',
							},
						],
					},
				],
			},
			{
				displayName: 'Class IDs to Delete',
				name: 'deletedClassIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. g-old, g-unused',
				description: 'Global classes to delete, separated by commas',
			},
		],
	},
	{
		name: 'Get Usage',
		value: 'getGlobalClassesUsage',
		action: 'Get where the global classes are used',
		description: "Count each class's uses in the builder data of posts and pages, per post",
		routing: siteRouting('GET', '/builder/v1/global-classes/usage'),
		fields: [classContextField],
	},
];

export const globalClasses: Resource = { name: 'Global Classes', value: 'globalClass', description: "The site's global CSS classes", operations };
