import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, IN8nHttpFullResponse, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { picker, type PickerKind } from '../shared/pickers';
import { type SiteMethod, siteResponse, siteSend } from '../shared/site';

/** Fields and routing shared by the engine's content-model resources (post types, taxonomies, meta boxes, ...). */

/**
 * The engine answers `{success: true, data}`: the items are `data` (one per element of a list), with
 * the new item's `item_id` when it has one; an answer without `data` (a delete) is kept as it is.
 */
export async function engineResponse(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const [{ json }] = await siteResponse.call(this, items, response);
	if (!('data' in json)) return [{ json }];
	const data = json.data as IDataObject | IDataObject[];
	return Array.isArray(data) ? data.map((entry) => ({ json: entry })) : [{ json: data }];
}

/** Routing of an engine route: one request, WordPress errors raised, `data` as the items. */
export function engineRouting(method: SiteMethod, route: string, fields?: Record<string, string>) {
	const path = `/engine/v2/${route}`;
	return { request: { method, url: path }, send: siteSend(path, fields), output: { postReceive: [engineResponse] } };
}

/** A JSON field's value: n8n gives an object when it comes from an expression, a string when typed in. */
export function parseJson(this: IExecuteSingleFunctions, value: unknown, field: string): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), `${field} is not valid JSON: ${(error as Error).message}`, { itemIndex: this.getItemIndex() });
	}
}

/** Sets `property` (a dotted path) of the body, creating the objects on the way. */
export function setBody(options: IHttpRequestOptions, property: string, value: unknown): IHttpRequestOptions {
	let target = (options.body ??= {}) as IDataObject;
	const keys = property.split('.');
	const last = keys.pop()!;
	for (const key of keys) target = (target[key] ??= {}) as IDataObject;
	target[last] = value as IDataObject[string];
	return options;
}

/** Routing of a JSON field (the parameter at `parameter`, a dotted path) sent, parsed, under `property` of the body. */
export function jsonBody(parameter: string, property: string, displayName: string) {
	return {
		send: {
			preSend: [
				async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
					const value = parseJson.call(this, this.getNodeParameter(parameter, ''), displayName);
					return value === undefined ? options : setBody(options, property, value);
				},
			],
		},
	};
}

/** Routing that sends a field under a body property (a dotted path: `general_settings.name`). */
export const toBody = (property: string) => ({ send: { type: 'body' as const, property } });

/** Routing that sends a field as the query parameter named. */
export const toQuery = (property: string) => ({ send: { type: 'query' as const, property } });

/** A stored thing of the model, picked from its list or given by ID: `Post Type` (name `postTypeId`). */
export const modelPicker = (kind: PickerKind, label: string, name: string, noun: string): INodeProperties =>
	picker(kind, { displayName: label, name, description: `The ${noun}: pick it from the list, or give its ID (Get Many lists them)` });

// ---- meta fields, filled in row by row ----

const FIELD_TYPES = [
	{ name: 'Checkbox', value: 'checkbox', description: 'Several of the options' },
	{ name: 'Color Picker', value: 'colorpicker' },
	{ name: 'Date', value: 'date' },
	{ name: 'Date and Time', value: 'datetime-local' },
	{ name: 'Media', value: 'media', description: 'The ID of a media item' },
	{ name: 'Number', value: 'number' },
	{ name: 'Radio', value: 'radio', description: 'One of the options' },
	{ name: 'Select', value: 'select', description: 'One of the options (several with Multiple)' },
	{ name: 'Switcher', value: 'switcher', description: 'On or off' },
	{ name: 'Text', value: 'text' },
	{ name: 'Textarea', value: 'textarea' },
	{ name: 'Time', value: 'time' },
	{ name: 'WYSIWYG', value: 'wysiwyg' },
];

interface FieldRow {
	name: string;
	title?: string;
	type: string;
	isRequired?: boolean;
	minValue?: number | string;
	maxValue?: number | string;
	options?: string;
	isMultiple?: boolean;
	defaultValue?: string;
}

/** `s: Small, m: Medium` -> `[{key: 's', value: 'Small'}, ...]`; a choice without a label is its own label. */
const parseOptions = (text: string) =>
	text
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean)
		.map((part) => {
			const at = part.indexOf(':');
			const key = at < 0 ? part : part.slice(0, at).trim();
			return { key, value: at < 0 ? part : part.slice(at + 1).trim() };
		});

/** One row of the Meta Fields collection as the engine declares a field. */
function fieldOf(row: FieldRow): IDataObject {
	const field: IDataObject = { name: row.name, title: row.title || row.name, type: row.type, is_required: row.isRequired === true };
	if (row.minValue !== undefined && row.minValue !== '') field.min_value = Number(row.minValue);
	if (row.maxValue !== undefined && row.maxValue !== '') field.max_value = Number(row.maxValue);
	if (row.options) field.options = parseOptions(row.options);
	if (row.isMultiple) field.is_multiple = true;
	if (row.defaultValue) field.default_val = row.type === 'number' ? Number(row.defaultValue) : row.defaultValue;
	return field;
}

/** Sends the Meta Fields rows as `meta_fields` (none: the stored ones stay). */
async function sendMetaFields(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const rows = (this.getNodeParameter('metaFields', {}) as { field?: FieldRow[] }).field;
	return rows ? setBody(options, 'meta_fields', rows.map(fieldOf)) : options;
}

/** The Meta Fields of a post type, taxonomy, meta box or options page. */
export const metaFieldsField: INodeProperties = {
		displayName: 'Meta Fields',
		name: 'metaFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Field',
		default: {},
		description: 'The fields, each with its type and rules; on an update they replace the stored ones',
		routing: { send: { preSend: [sendMetaFields] } },
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Default',
						name: 'defaultValue',
						type: 'string',
						default: '',
						description: 'The value an item shows while it has none',
					},
					{
						displayName: 'Maximum',
						name: 'maxValue',
						type: 'string',
						default: '',
						placeholder: 'e.g. 100',
						description: 'Number fields: the largest value',
					},
					{
						displayName: 'Minimum',
						name: 'minValue',
						type: 'string',
						default: '',
						placeholder: 'e.g. 0',
						description: 'Number fields: the smallest value',
					},
					{
						displayName: 'Multiple',
						name: 'isMultiple',
						type: 'boolean',
						default: false,
						description: 'Whether a select field takes several options',
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. price',
						description: 'Meta key: lowercase letters, digits, hyphens, underscores',
					},
					{
						displayName: 'Options',
						name: 'options',
						type: 'string',
						default: '',
						placeholder: 'e.g. s: Small, m: Medium, l: Large',
						description: 'Select, radio and checkbox fields: the choices, key: label, separated by commas',
					},
					{
						displayName: 'Required',
						name: 'isRequired',
						type: 'boolean',
						default: false,
						description: 'Whether an item must have a value',
					},
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						placeholder: 'e.g. Price',
					},
					{ displayName: 'Type', name: 'type', type: 'options', options: FIELD_TYPES, default: 'text' },
				],
			},
		],
};

/** A boolean setting sent under `property`. */
export const booleanSetting = (displayName: string, name: string, property: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: false,
	description,
	routing: toBody(property),
});

/** Whether a post type or taxonomy is public (WordPress's default: it is). */
export const publicSetting = (noun: string): INodeProperties => ({
	displayName: 'Public',
	name: 'public',
	type: 'boolean',
	default: true,
	description: `Whether the ${noun} is shown on the site`,
	routing: toBody('advanced_settings.public'),
});

/** A text setting sent under `property`. */
export const textSetting = (displayName: string, name: string, property: string, description: string, placeholder: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder,
	description,
	routing: toBody(property),
});

/** The value at a dotted path of the body (undefined when a step is missing). */
const bodyValue = (options: IHttpRequestOptions, property: string): unknown =>
	property.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as IDataObject)[key] : undefined), options.body);

/** Slugs typed as `book, film`, sent as a list under `property` (a dotted path). */
export const slugListSetting = (displayName: string, name: string, property: string, description: string, placeholder: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder,
	description,
	routing: {
		send: {
			type: 'body',
			property,
			preSend: [
				async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
					const value = bodyValue(options, property);
					return typeof value === 'string' ? setBody(options, property, value.split(',').map((s) => s.trim()).filter(Boolean)) : options;
				},
			],
		},
	},
});
