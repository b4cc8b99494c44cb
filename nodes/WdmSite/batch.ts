import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { inSiteNamespace, siteResponse } from '../shared/site';

interface BatchRequest {
	method: string;
	path: string;
	body?: IDataObject;
	headers?: IDataObject;
}

/** A JSON field's value: n8n gives an object when it comes from an expression, a string when typed in. */
function parseJson(this: IExecuteSingleFunctions, value: unknown, field: string): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), `${field} is not valid JSON: ${(error as Error).message}`, { itemIndex: this.getItemIndex() });
	}
}

/** The requests of the batch, from the list below or from JSON (e.g. items aggregated upstream). */
function batchRequests(this: IExecuteSingleFunctions): BatchRequest[] {
	if (this.getNodeParameter('requestsSource', 'list') === 'json') {
		const requests = parseJson.call(this, this.getNodeParameter('requestsJson', '[]'), 'Requests (JSON)');
		if (!Array.isArray(requests)) {
			throw new NodeOperationError(this.getNode(), 'Requests (JSON) must be an array of {method, path, body, headers}', { itemIndex: this.getItemIndex() });
		}
		return requests as BatchRequest[];
	}
	const rows = (this.getNodeParameter('requests', {}) as { request?: Array<{ method: string; path: string; body?: unknown }> }).request ?? [];
	return rows.map((row, i) => {
		const body = parseJson.call(this, row.body, `Body of request ${i + 1}`);
		return { method: row.method, path: row.path, ...(body === undefined ? {} : { body: body as IDataObject }) };
	});
}

/** The requests in the body, `/cms/v2/...` paths in the credential's content namespace. */
async function sendRequests(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const credentials = await this.getCredentials('wdmSiteApi');
	const requests = batchRequests.call(this).map((request) => ({ ...request, path: typeof request.path === 'string' ? inSiteNamespace(request.path, credentials) : request.path }));
	options.body = { ...(options.body as IDataObject), requests };
	return options;
}

interface Envelope {
	status: number;
	headers: IDataObject;
	body: IDataObject;
}

/**
 * One item per answer, with the request it answers. When `require-all-validate` found an invalid
 * request nothing ran: that is the node's error, naming each invalid request.
 */
async function responsesToItems(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const [{ json }] = await siteResponse.call(this, items, response);
	const requests = batchRequests.call(this);
	const responses = (json.responses ?? []) as Array<Envelope | null>;
	if (json.failed === 'validation') {
		const problems = responses.flatMap((answer, i) =>
			answer ? [`request ${i + 1} (${requests[i]?.method ?? 'POST'} ${requests[i]?.path}): ${answer.body?.message ?? answer.status}`] : [],
		);
		throw new NodeApiError(this.getNode(), json as JsonObject, {
			message: 'The batch did not run: some requests are invalid',
			description: problems.join('; '),
			httpCode: String(response.statusCode),
			itemIndex: this.getItemIndex(),
		});
	}
	return responses.map((answer, i) => ({
		json: { request: { method: requests[i]?.method ?? 'POST', path: requests[i]?.path }, ...(answer as Envelope) } as IDataObject,
	}));
}

const methodOptions = ['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ name: method, value: method }));

export const batch: Operation = {
	name: 'Batch',
	value: 'batch',
	action: 'Run requests in one batch',
	description: 'Run up to 25 requests to posts and pages routes in one call; one output item per answer',
	routing: {
		request: { method: 'POST', url: '/batch/v1' },
		send: { preSend: [sendRequests] },
		output: { postReceive: [responsesToItems] },
	},
	fields: [
		{
			displayName: 'Validation',
			name: 'validation',
			type: 'options',
			options: [
				{ name: 'Normal', value: 'normal', description: 'Run every valid request; invalid ones get their error' },
				{
					name: 'Require All Valid',
					value: 'require-all-validate',
					description: 'Run nothing unless every request is valid',
				},
			],
			default: 'normal',
			routing: { send: { type: 'body', property: 'validation' } },
		},
		{
			displayName: 'Requests Source',
			name: 'requestsSource',
			type: 'options',
			options: [
				{ name: 'Define Below', value: 'list' },
				{ name: 'JSON', value: 'json', description: 'An array of requests, e.g. built from input items with the Aggregate node' },
			],
			default: 'list',
		},
		{
			displayName: 'Requests',
			name: 'requests',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Request',
			default: {},
			displayOptions: { show: { requestsSource: ['list'] } },
			options: [
				{
					displayName: 'Request',
					name: 'request',
					values: [
						{ displayName: 'Method', name: 'method', type: 'options', options: methodOptions, default: 'POST' },
						{
							displayName: 'Path',
							name: 'path',
							type: 'string',
							default: '',
							placeholder: 'e.g. /cms/v2/posts',
							description: 'REST route, with a query string if needed (e.g. /cms/v2/posts/7?force=true)',
						},
						{
							displayName: 'Body',
							name: 'body',
							type: 'json',
							default: '{}',
							description: 'JSON object sent as the request body',
						},
					],
				},
			],
		},
		{
			displayName: 'Requests (JSON)',
			name: 'requestsJson',
			type: 'json',
			default: '[\n  {"method": "POST", "path": "/cms/v2/posts", "body": {"title": "Hello"}}\n]',
			description: 'Array of requests, each {method, path, body, headers}; method defaults to POST',
			displayOptions: { show: { requestsSource: ['json'] } },
		},
	],
};
