import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, IN8nHttpFullResponse, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { siteResponse } from '../shared/site';

/** What the design-system resources of WDM Page Builder share: JSON inputs, list splitting, context. */

/** A JSON field's value: n8n gives an object when it comes from an expression, a string when typed in. */
export function parseJsonParameter(this: IExecuteSingleFunctions, value: unknown, field: string): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), `${field} is not valid JSON: ${(error as Error).message}`, { itemIndex: this.getItemIndex() });
	}
}

/** preSend: the JSON parameter `parameter` (shown as `label`), parsed, as the body's `property`. */
export function jsonToBody(parameter: string, label: string, property: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const value = parseJsonParameter.call(this, this.getNodeParameter(parameter), label);
		options.body = { ...(options.body as IDataObject), [property]: value };
		return options;
	};
}

/** postReceive: an answer keyed by id (`{primary: {...}, accent: {...}}`) as one item per entry. */
export async function entriesAsItems(this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
	const [{ json }] = await siteResponse.call(this, items, response);
	return Object.values(json).map((entry) => ({ json: (entry && typeof entry === 'object' ? entry : { value: entry }) as IDataObject }));
}

/** Words of a list typed in as `a, b` or one per line, or given as an array by an expression. */
export function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(splitList);
	if (value === undefined || value === null) return [];
	return String(value)
		.split(/[,\n]/)
		.map((part) => part.trim())
		.filter(Boolean);
}

/** The `context` of the global-classes routes: the published set or the editor's preview. */
export const classContextField: INodeProperties = {
	displayName: 'Context',
	name: 'classContext',
	type: 'options',
	options: [
		{ name: 'Frontend', value: 'frontend', description: 'The published classes' },
		{ name: 'Preview', value: 'preview', description: "The editor's unpublished classes (the published ones until a preview is saved)" },
	],
	default: 'frontend',
	description: 'Which set of classes to use',
	routing: { send: { type: 'query', property: 'context' } },
};
