import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	PostReceiveAction,
} from 'n8n-workflow';

/** The gateway answers `{success, data}`: the items are `data` (one item per element of an array). */
export const unwrapData: PostReceiveAction = { type: 'rootProperty', properties: { property: 'data' } };

/** Request defaults of every gateway node: the credential's base URL, JSON both ways. */
export const gatewayRequestDefaults = {
	baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
	headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
	json: true,
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
			const data = (page.json as { data: IDataObject }).data;
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

/** Routing of a paged list operation (`pageThrough` does the requests). */
export function listOperationRouting(method: 'GET' | 'POST', url: string, listKey: string) {
	return {
		request: { method, url },
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

/** Reads a file from an input binary property: its Base64 content, MIME type and file name. */
export async function binaryInput(this: IExecuteSingleFunctions, property: string) {
	const binary = this.getInputData().binary?.[property];
	if (!binary) throw new Error(`The input item has no binary property "${property}"`);
	const buffer = await this.helpers.getBinaryDataBuffer(property);
	return { base64: buffer.toString('base64'), mimeType: binary.mimeType, fileName: binary.fileName };
}

/** Turns `data[base64Key]` (Base64 or a data URI) of the answer into a binary property of the item. */
export function base64ToBinary(base64Key: string, outputProperty: string, fileName: (data: IDataObject) => string, mimeType?: (data: IDataObject) => string) {
	return async function (this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		const property = this.getNodeParameter(outputProperty, 'data') as string;
		return Promise.all(
			items.map(async (item) => {
				const { [base64Key]: encoded, ...json } = item.json;
				if (typeof encoded !== 'string') return item;
				const uri = encoded.match(/^data:([^;,]+);base64,(.*)$/s);
				const buffer = Buffer.from(uri ? uri[2] : encoded, 'base64');
				const binary = await this.helpers.prepareBinaryData(buffer, fileName(item.json), uri?.[1] ?? mimeType?.(item.json));
				return { json, binary: { [property]: binary } };
			}),
		);
	};
}
