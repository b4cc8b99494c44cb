import { isResourceLocatorValue } from 'n8n-workflow';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { pickedValue } from './pickers';

/** One entry of a list field: a value (or a picker's), a comma- or line-separated list, or (from an expression) an array. */
function entries(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(entries);
	if (isResourceLocatorValue(value)) return entries(pickedValue(value));
	if (value === undefined || value === null) return [];
	return String(value)
		.split(/[,;\n]/)
		.map((part) => part.trim())
		.filter(Boolean);
}

/**
 * Sends a multi-value fixed collection (`parameter.values[].key`) as one array in the body. Each entry
 * may be typed in, or mapped from the input item as one value, a comma-separated list or an array.
 */
function listToBody(parameter: string, key: string, bodyKey: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const rows = (this.getNodeParameter(parameter, {}) as { values?: IDataObject[] }).values ?? [];
		options.body = { ...(options.body as IDataObject), [bodyKey]: rows.flatMap((row) => entries(row[key])) };
		return options;
	};
}

export interface ListFieldOptions {
	displayName: string;
	name: string;
	/** What one entry is called: `Participant` (its button reads Add Participant). */
	item: string;
	description: string;
	/** The body property the array is sent as. */
	bodyKey: string;
}

/** A multi-value fixed collection of one value per entry (`entry`), sent by `listToBody` as one array. */
export function listField(options: ListFieldOptions, entry: INodeProperties): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: `Add ${options.item}`,
		default: {},
		description: options.description,
		options: [{ displayName: options.item, name: 'values', values: [entry] }],
		routing: { send: { preSend: [listToBody(options.name, entry.name, options.bodyKey)] } },
	};
}
