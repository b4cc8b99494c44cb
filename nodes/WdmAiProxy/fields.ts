import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, IN8nHttpFullResponse, INodeProperties } from 'n8n-workflow';
import { throwSiteError } from '../shared/site';
import { pickedValue } from '../shared/pickers';

export const PROXY = '/proxyext/v1/ai-api-proxy';

/** The URL of a path of the AI service under the proxy (`chat/completions`), each segment encoded. */
export const servicePath = (parameter: string) =>
	`=${PROXY}/{{String($parameter["${parameter}"]).replace(/^\\/+/, "").split("/").map(encodeURIComponent).join("/")}}`;

/**
 * preSend of Set Key and Set Model: fetches a nonce for the signed-in user (GET settings) and adds it
 * to the body, so nobody types one. Needs n8n's engine (`httpRequestWithAuthentication` with the
 * node's credential): these operations stay declarative (see `declarative`).
 */
export async function addNonce(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const settings = (await this.helpers.httpRequestWithAuthentication.call(this, 'wdmSiteApi', {
		method: 'GET',
		baseURL: options.baseURL,
		url: `${PROXY}/settings`,
		headers: { Accept: 'application/json' },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	})) as IN8nHttpFullResponse;
	throwSiteError.call(this, settings);
	options.body = { ...(options.body as IDataObject), nonce: (settings.body as IDataObject).nonce };
	return options;
}

/**
 * A request option beyond method, URL, body and query keeps an operation with n8n's engine rather than
 * the direct runner (nodes/shared/direct.ts), whose preSends get no credentials. It is the default anyway.
 */
export const declarative = { ignoreHttpStatusErrors: true };

/** A JSON field's value: an object from an expression, text when typed in. */
function parseJson(this: IExecuteSingleFunctions, value: unknown, field: string): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), `${field} is not valid JSON: ${(error as Error).message}`, { itemIndex: this.getItemIndex() });
	}
}

/** preSend of Chat: the body from the message rows (with model and options), or the JSON given. */
export async function chatBody(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (this.getNodeParameter('chatInput', 'messages') === 'json') {
		options.body = parseJson.call(this, this.getNodeParameter('chatJson', '{}'), 'Body (JSON)') as IDataObject;
		return options;
	}
	const rows = (this.getNodeParameter('chatMessages', {}) as { message?: Array<{ role: string; content: string }> }).message ?? [];
	if (!rows.length) throw new NodeOperationError(this.getNode(), 'Add at least one message', { itemIndex: this.getItemIndex() });
	const { model: picked, maxTokens, temperature } = this.getNodeParameter('chatOptions', {}) as { model?: unknown; maxTokens?: number; temperature?: number };
	const model = pickedValue(picked);
	options.body = {
		messages: rows.map(({ role, content }) => ({ role, content })),
		...(model ? { model } : {}),
		...(maxTokens ? { max_tokens: maxTokens } : {}),
		...(temperature !== undefined ? { temperature } : {}),
	};
	return options;
}

/** How many of the newest messages a clear keeps (query: every method of the route reads it). */
export const keepField: INodeProperties = {
	displayName: 'Keep Last',
	name: 'keep',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 200 },
	default: 0,
	description: 'How many of the newest messages to keep (0 forgets them all)',
	routing: { send: { type: 'query', property: 'keep' } },
};

/** A path of the AI service for Get and Delete. */
export const apiPathField: INodeProperties = {
	displayName: 'API Path',
	name: 'apiPath',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. models/gpt-4o-mini',
	description: 'Path of the AI service, relative to its base URL',
};
