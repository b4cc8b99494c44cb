import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

/** One entry of a list field: a value, a comma- or line-separated list, or (from an expression) an array. */
function entries(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(entries);
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
export function listToBody(parameter: string, key: string, bodyKey: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const rows = (this.getNodeParameter(parameter, {}) as { values?: IDataObject[] }).values ?? [];
		options.body = { ...(options.body as IDataObject), [bodyKey]: rows.flatMap((row) => entries(row[key])) };
		return options;
	};
}
