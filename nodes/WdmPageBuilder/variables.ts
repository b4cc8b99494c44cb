import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { picker } from '../shared/pickers';
import { siteRouting } from '../shared/site';

/** The design system's variables (`/builder/v1/variables/*`), with the watermark-guarded batch. */

const TYPES = [
	{ name: 'Color', value: 'global-color-variable' },
	{ name: 'Font', value: 'global-font-variable' },
	{ name: 'Size', value: 'global-size-variable' },
];

const body = (property: string) => ({ send: { type: 'body' as const, property } });

const variableIdField: INodeProperties = picker('variable', {
	displayName: 'Variable',
	name: 'variableId',
	description: 'The variable (Restore: a deleted one): pick it, or give its ID as Get Variables lists them',
	routing: body('id'),
});

const labelField: INodeProperties = {
	displayName: 'Label',
	name: 'variableLabel',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. brand-blue',
	description: 'Name of the CSS custom property (--label): letters, digits, hyphens and underscores, at most 50',
	routing: body('label'),
};

const valueField: INodeProperties = {
	displayName: 'Value',
	name: 'variableValue',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. #1E73BE',
	description: 'CSS value of the variable, at most 512 characters',
	routing: body('value'),
};

const typeEntry: INodeProperties = { displayName: 'Type', name: 'type', type: 'options', options: TYPES, default: 'global-color-variable', description: 'Change the kind of variable', routing: body('type') };

/** Update and Restore share one Options collection; each shows its own entries. */
const updateOptions: INodeProperties = {
	displayName: 'Options',
	name: 'variableOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [{ displayName: 'Order', name: 'order', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'Position of the variable in lists', routing: body('order') }, typeEntry],
};

const restoreOptions: INodeProperties = {
	...updateOptions,
	options: [
		{ displayName: 'New Label', name: 'label', type: 'string', default: '', description: 'Restore it under this label (when its own was taken meanwhile)', routing: body('label') },
		{ displayName: 'New Value', name: 'value', type: 'string', default: '', description: 'Restore it with this value', routing: body('value') },
		typeEntry,
	],
};

interface OperationRow {
	action: 'create' | 'update' | 'delete' | 'restore';
	id?: string;
	type?: string;
	label?: string;
	value?: string;
}

/** The rows of Operations as the batch's `operations`; blank label or value of an update or restore leave them as they are. */
async function batchOperations(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const rows = (this.getNodeParameter('variableOperations', {}) as { operation?: OperationRow[] }).operation ?? [];
	const given = (row: OperationRow) => ({ ...(row.label ? { label: row.label } : {}), ...(row.value ? { value: row.value } : {}) });
	const operations = rows.map((row) => {
		switch (row.action) {
			case 'create':
				return { type: 'create', variable: { ...(row.id ? { id: row.id } : {}), type: row.type, label: row.label, value: row.value } };
			case 'update':
				return { type: 'update', id: row.id, variable: given(row) };
			case 'restore':
				return { type: 'restore', id: row.id, ...given(row) };
			default:
				return { type: 'delete', id: row.id };
		}
	});
	options.body = { ...(options.body as IDataObject), operations };
	return options;
}

const operations: Operation[] = [
	{
		name: 'Get Variables',
		value: 'getVariables',
		action: 'Get the variables',
		description: 'Get every variable keyed by ID (deleted ones flagged), their count and the current watermark',
		routing: siteRouting('GET', '/builder/v1/variables/list'),
	},
	{
		name: 'Create Variable',
		value: 'createVariable',
		action: 'Create a variable',
		description: 'Create a colour, font or size variable',
		routing: siteRouting('POST', '/builder/v1/variables/create'),
		fields: [
			{ displayName: 'Type', name: 'variableType', type: 'options', options: TYPES, default: 'global-color-variable', description: 'Kind of variable', routing: body('type') },
			labelField,
			valueField,
		],
	},
	{
		name: 'Update Variable',
		value: 'updateVariable',
		action: 'Update a variable',
		description: 'Change the label and value of a variable, optionally its order or type',
		routing: siteRouting('POST', '/builder/v1/variables/update'),
		fields: [variableIdField, labelField, valueField, updateOptions],
	},
	{
		name: 'Delete Variable',
		value: 'deleteVariable',
		action: 'Delete a variable',
		description: 'Delete a variable; it stays listed as deleted and can be restored',
		routing: siteRouting('POST', '/builder/v1/variables/delete'),
		fields: [variableIdField],
	},
	{
		name: 'Restore Variable',
		value: 'restoreVariable',
		action: 'Restore a deleted variable',
		description: 'Restore a deleted variable, optionally with a new label, value or type',
		routing: siteRouting('POST', '/builder/v1/variables/restore'),
		fields: [variableIdField, restoreOptions],
	},
	{
		name: 'Batch Variables',
		value: 'batchVariables',
		action: 'Change variables in one batch',
		description: 'Create, update, delete and restore variables at once, all or none, if nobody changed them since the watermark',
		routing: siteRouting('POST', '/builder/v1/variables/batch', undefined, batchOperations),
		fields: [
			{
				displayName: 'Watermark',
				name: 'variableWatermark',
				type: 'number',
				required: true,
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'The watermark of the variables the changes are based on (Get Variables gives it); a newer one on the site refuses the batch',
				routing: body('watermark'),
			},
			{
				displayName: 'Operations',
				name: 'variableOperations',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true, sortable: true },
				placeholder: 'Add Operation',
				default: {},
				options: [
					{
						displayName: 'Operation',
						name: 'operation',
						values: [
							{
								displayName: 'Action',
								name: 'action',
								type: 'options',
								options: [
									{ name: 'Create', value: 'create' },
									{ name: 'Update', value: 'update' },
									{ name: 'Delete', value: 'delete' },
									{ name: 'Restore', value: 'restore' },
								],
								default: 'create',
								description: 'What to do with the variable',
							},
							{
								displayName: 'ID',
								name: 'id',
								type: 'string',
								default: '',
								placeholder: 'e.g. gv-3',
								description: 'Variable to change; on Create, an optional temporary ID that the results report back',
							},
							{ displayName: 'Label', name: 'label', type: 'string', default: '', description: 'Label (required on Create; on Update and Restore, blank keeps it)' },
							{ displayName: 'Type', name: 'type', type: 'options', options: TYPES, default: 'global-color-variable', description: 'Kind of variable (Create)' },
							{ displayName: 'Value', name: 'value', type: 'string', default: '', description: 'Value (required on Create; on Update and Restore, blank keeps it)' },
						],
					},
				],
			},
		],
	},
];

export const variables: Resource = { name: 'Variables', value: 'variable', description: "The design system's colour, font and size variables", operations };
