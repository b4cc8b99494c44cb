import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, PreSendAction } from 'n8n-workflow';

/** Helpers and fields the editor-side resources of WDM Page Builder share. */

/** A JSON field's value: n8n gives an object when it comes from an expression, a string when typed in. */
export function jsonValue(this: IExecuteSingleFunctions, value: unknown, field: string): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), `${field} is not valid JSON: ${(error as Error).message}`, { itemIndex: this.getItemIndex() });
	}
}

/** `1, 2, 3` (or an array from an expression) as numbers; what is not a number is sent as written, for the site to refuse. */
export function idList(value: unknown): unknown[] {
	const parts = Array.isArray(value) ? value : String(value ?? '').split(/[\s,;]+/);
	return parts
		.map((part) => (typeof part === 'string' ? part.trim() : part))
		.filter((part) => part !== '' && part !== undefined && part !== null)
		.map((part) => (typeof part === 'string' && /^\d+$/.test(part) ? Number(part) : part));
}

function target(options: IHttpRequestOptions, where: 'body' | 'query'): IDataObject {
	if (where === 'query') return (options.qs ??= {}) as IDataObject;
	return (options.body = { ...(options.body as IDataObject) });
}

/**
 * preSend of an operation: puts a parameter's value (reshaped by `change`) under `key` of the body or
 * query. One field can so serve several operations that send it differently (one declaration per name).
 */
export function sendParameter(parameter: string, where: 'body' | 'query', key: string, change: (this: IExecuteSingleFunctions, value: unknown) => unknown = (v) => v): PreSendAction {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const value = change.call(this, this.getNodeParameter(parameter, undefined));
		if (value !== undefined) target(options, where)[key] = value as IDataObject[string];
		return options;
	};
}

/** preSend that sends a JSON field as an object or array (parsed when typed in). */
export const sendJson = (parameter: string, where: 'body' | 'query', key: string, label: string) =>
	sendParameter(parameter, where, key, function (value) {
		return jsonValue.call(this, value, label);
	});

/** The rows of a multi-value fixed collection (`parameter.row[]`). */
export function rowsOf(this: IExecuteSingleFunctions, parameter: string, row: string): IDataObject[] {
	return ((this.getNodeParameter(parameter, {}) as IDataObject)[row] as IDataObject[] | undefined) ?? [];
}

/** Routing of an operation whose fields are sent by these preSend functions. */
export const withPreSend = <R extends { send?: { preSend?: PreSendAction[] } }>(routing: R, ...preSend: PreSendAction[]) => ({
	...routing,
	send: { ...routing.send, preSend: [...(routing.send?.preSend ?? []), ...preSend] },
});

/** Sends the field itself under `property` of the body (a dotted path). */
export const toBody = (property: string) => ({ send: { type: 'body' as const, property } });
/** Sends the field itself as the query parameter `property`. */
export const toQuery = (property: string) => ({ send: { type: 'query' as const, property } });

/** The paging route's `search` filter (checklist, onboarding, events). */
export const pagedSearchField: INodeProperties = {
	displayName: 'Search',
	name: 'pagedSearch',
	type: 'string',
	default: '',
	placeholder: 'e.g. logo',
	description: 'Only entries whose name or title contains this text',
	routing: toQuery('search'),
};
