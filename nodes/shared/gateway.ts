import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteFunctions,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';

/**
 * The gateway answers `{success: true, data}` or `{success: false, message}`. The items are `data`
 * (one per element of an array); an error becomes a NodeApiError whose message is the gateway's own
 * sentence (n8n would otherwise show a generic one for the status code) with the HTTP status.
 */
export async function unwrapData(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = (response.body ?? {}) as { data?: unknown; message?: string };
	if (response.statusCode >= 400) {
		throw new NodeApiError(this.getNode(), body as JsonObject, {
			message: body.message ?? `The gateway answered HTTP ${response.statusCode}`,
			description: body.message,
			httpCode: String(response.statusCode),
		});
	}
	const data = Array.isArray(body.data) ? body.data : [body.data ?? {}];
	return data.map((json) => ({ json: json as IDataObject }));
}

type CredentialContext = ILoadOptionsFunctions | IExecuteFunctions | IWebhookFunctions | IHookFunctions;

/**
 * The node's credential of `type`, read (decrypted) once, as n8n's request helpers take it
 * (`credentialsDecrypted`): given to them, they do not read it again. A read outside a run (a webhook,
 * an activation, a list search) costs n8n 2.x an expression isolate of its own (its credentials helper
 * resolves the credential's expressions in a workflow made for the read), so one read, not two, a request.
 */
export async function readCredential(ctx: CredentialContext, type: string): Promise<ICredentialsDecrypted> {
	const ref = ctx.getNode().credentials?.[type];
	return { id: ref?.id ?? '', name: ref?.name ?? type, type, data: (await ctx.getCredentials(type)) as ICredentialDataDecryptedObject };
}

/**
 * A gateway request made by code (the pickers' list searches, WDM Send and Wait, the trigger's
 * activation and claims): the answer's `data`, or the gateway's own sentence as a NodeApiError.
 * `credential`: the credential type to read, or one read already (`readCredential`). `token` sends as
 * that device instead of with the credential (whose base URL is used either way).
 */
export async function gatewayRequest(
	ctx: CredentialContext,
	credential: string | ICredentialsDecrypted,
	method: IHttpRequestMethods,
	url: string,
	body?: IDataObject,
	token?: string,
): Promise<unknown> {
	const read = typeof credential === 'string' ? await readCredential(ctx, credential) : credential;
	const options: IHttpRequestOptions = {
		method,
		baseURL: gatewayBaseUrl(read.data ?? {}),
		url,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		...(body ? { body } : {}),
	};
	const response = (
		token
			? await ctx.helpers.httpRequest({ ...options, headers: { token } })
			: await ctx.helpers.httpRequestWithAuthentication.call(ctx, read.type, options, { credentialsDecrypted: read })
	) as IN8nHttpFullResponse;
	const answer = (response.body ?? {}) as { data?: unknown; message?: string };
	if (response.statusCode >= 400) {
		throw new NodeApiError(ctx.getNode(), answer as JsonObject, {
			message: answer.message ?? `The gateway answered HTTP ${response.statusCode}`,
			httpCode: String(response.statusCode),
		});
	}
	return answer.data;
}

/** The gateway base URL a credential names (`gatewayRequestDefaults` reads it the same way). */
export const gatewayBaseUrl = (credentials: IDataObject) => String(credentials.baseUrl).replace(/\/+$/, '');

/** How the gateway nodes' operations reach the gateway when they run directly (see direct.ts). */
export const instanceApi = { credential: 'wdmInstanceApi', baseUrl: gatewayBaseUrl };
export const userApi = { credential: 'wdmUserApi', baseUrl: gatewayBaseUrl };

/** Request defaults of every gateway node: the credential's base URL, JSON both ways. */
export const gatewayRequestDefaults = {
	baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
	headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
	json: true,
	// Error answers reach `unwrapData`, which raises them with the gateway's message.
	ignoreHttpStatusErrors: true,
};

/**
 * Return All / Limit over a route that pages with `limit`/`offset` in the body and answers
 * `{<list>, hasMore, nextOffset}`: pages are fetched until the route says there are no more, or
 * until the limit is reached. Wire it with `listOperationRouting`.
 */
export function pageThrough(listKey: string, pageSize = 100) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const max = typeof requestData.maxResults === 'number' ? requestData.maxResults : Infinity;
		const items: INodeExecutionData[] = [];
		let offset = 0;
		for (;;) {
			const limit = Math.min(pageSize, max - items.length);
			const body = { ...(requestData.options.body as IDataObject), limit, offset };
			const [page] = await this.makeRoutingRequest({ ...requestData, options: { ...requestData.options, body } });
			const data = page.json;
			for (const json of data[listKey] as IDataObject[]) items.push({ json });
			if (!data.hasMore || items.length >= max) return items;
			offset = data.nextOffset as number;
		}
	};
}

/** Return All and Limit fields of a paged list operation. */
export const returnAllFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
		routing: { output: { maxResults: '={{$value}}' } },
	},
];

/** Routing of a plain gateway operation: one request, its answer's `data` as the items (`unwrapData`). */
export function gatewayRouting(method: 'GET' | 'POST' | 'DELETE', url: string) {
	return { request: { method, url }, output: { postReceive: [unwrapData] } };
}

/** Routing of a paged list operation (`pageThrough` does the requests). */
export function listOperationRouting(method: 'GET' | 'POST', url: string, listKey: string) {
	return {
		// Each page goes through `unwrapData` (errors included) before `pageThrough` reads it.
		...gatewayRouting(method, url),
		send: { paginate: true },
		operations: { pagination: pageThrough(listKey) },
	};
}

/** Sends a fixed collection of name/value pairs as one object (e.g. `placeholders`). */
export function pairsToObject(parameter: string, bodyKey: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const pairs = (this.getNodeParameter(parameter, {}) as { values?: Array<{ name: string; value: string }> }).values ?? [];
		if (pairs.length) {
			options.body = { ...(options.body as IDataObject), [bodyKey]: Object.fromEntries(pairs.map((p) => [p.name, p.value])) };
		}
		return options;
	};
}

/** Reads a file from an input binary property: its bytes (and as Base64), MIME type and file name. */
export async function binaryInput(this: IExecuteSingleFunctions, property: string) {
	const binary = this.getInputData().binary?.[property];
	if (!binary) {
		throw new NodeOperationError(this.getNode(), `The input item has no binary property "${property}"`, {
			itemIndex: this.getItemIndex(),
			description: 'Set Input Binary Field to the property that holds the file, or choose another File Source',
		});
	}
	const buffer = await this.helpers.getBinaryDataBuffer(property);
	// n8n keeps a download's Content-Type as given (`text/csv; charset=utf-8`): the gateway takes the bare type.
	const mimeType = binary.mimeType?.split(';')[0].trim() || undefined;
	return { buffer, base64: buffer.toString('base64'), mimeType, fileName: binary.fileName };
}

export interface Base64ToBinaryOptions {
	/** File name of the binary data, from the answer. */
	fileName: (data: IDataObject) => string;
	/** MIME type when the value is plain Base64 (a data URI carries its own). */
	mimeType?: (data: IDataObject) => string;
	/** Keep the encoded value in the JSON too: a short data URI (a QR code) is handy there, a file is not. */
	keep?: boolean;
}

/**
 * Where a download puts its file: the binary property of the output item named here. Not
 * `binaryPropertyName`, which names an input file where a node also sends one (one declaration per name).
 */
export const binaryOutputField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'outputPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	description: 'Name of the binary property to write the file to',
};

/** Turns `data[base64Key]` (Base64 or a data URI) of the answer into a binary property of the item. */
export function base64ToBinary(base64Key: string, outputProperty: string, options: Base64ToBinaryOptions) {
	return async function (this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		const property = this.getNodeParameter(outputProperty, 'data') as string;
		return Promise.all(
			items.map(async (item) => {
				const { [base64Key]: encoded, ...rest } = item.json;
				if (typeof encoded !== 'string') return item;
				const uri = encoded.match(/^data:([^;,]+);base64,(.*)$/s);
				const buffer = Buffer.from(uri ? uri[2] : encoded, 'base64');
				const binary = await this.helpers.prepareBinaryData(buffer, options.fileName(item.json), uri?.[1] ?? options.mimeType?.(item.json));
				return { json: options.keep ? item.json : rest, binary: { [property]: binary } };
			}),
		);
	};
}
