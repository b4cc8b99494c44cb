import { isResourceLocatorValue, NodeApiError, NodeHelpers, NodeOperationError, sleep } from 'n8n-workflow';
import type {
	DeclarativeRestApiSettings,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	JsonObject,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';
import type { Operation } from './operations';
import { type Resource, resourceProperties } from './resources';
import { generatedKey, retryPolicy, runKeyOf } from './retry';
import { pacing } from './pacing';

/**
 * Operations that n8n runs through this module instead of its declarative engine, as the node's
 * `customOperations` (the hook n8n's own WhatsApp node uses for send-and-wait). They run the SAME
 * declarations (`Operation`: request, fields with `routing.send`, preSend, postReceive), but read
 * each parameter once per item.
 *
 * Why: n8n 2.40's RoutingNode evaluates every parameter of the node about four times per item (a
 * pass to build the request, a second to find the base URL, and a read in each), and the base URL
 * expression twice; n8n's expression runtime makes each evaluation cost a fraction of a
 * millisecond. A bulk send of 10,000 items with three per-item expressions spent most of its time
 * there (docs/benchmarks.md; docs/decisions/nodes.md, "Nodes: one declaration per field, and bulk
 * sends").
 *
 * What it runs: a request (method, URL with per-item segments, fixed body and query), fields sent as body or query properties
 * under a fixed name, collections of such fields, preSend and postReceive functions. `directOperations`
 * refuses anything else when the node loads, so an operation that needs more stays declarative.
 */

/** Requests of one node run in flight at once: enough to hide the server's latency, few enough to spare it a burst. */
export const MAX_IN_FLIGHT = 32;

type Run = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

interface Connection {
	/** The credential type the node authenticates with, and how its base URL reads from it. */
	credential: string;
	baseUrl: (credentials: IDataObject) => string;
}

/**
 * A node of one resource: its properties (those of resources.ts, with the hidden `resource` property
 * n8n looks `customOperations` up by, then Request Options with Retry Transient Failures, last: see
 * `requestOptionsProperty`) and its `customOperations` for the operations this module can run.
 */
export function directOperations(resource: string, operations: Operation[], connection: Connection) {
	const resources = [{ name: resource[0].toUpperCase() + resource.slice(1), value: resource, operations }];
	const { requestOptions, customOperations } = directResources(resources, connection);
	return { properties: [...resourceProperties(resources), requestOptions], customOperations };
}

/**
 * The `customOperations` of a node with a Resource selector (see resources.ts), for each resource, and
 * Request Options with Retry Transient Failures (the node's last property).
 */
export function directResources(resources: Resource[], connection: Connection) {
	return {
		requestOptions: requestOptionsProperty(resources.flatMap((resource) => resource.operations)),
		customOperations: Object.fromEntries(resources.map((resource) => [resource.value, runsOf(resource.operations, connection)])),
	};
}

/** Request Options > Retry Transient Failures when the user has not added it: seconds. */
export const DEFAULT_RETRY_SECONDS = 60;

/** The name of the send operations' option whose value is sent as the `Idempotency-Key` header. */
export const IDEMPOTENCY_KEY = 'idempotencyKey';
const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * Request Options (n8n's collection of Batching, Timeout, Proxy, Ignore SSL Issues): a node that
 * declares `requestOptions` gets its entries merged into n8n's (n8n's loader, both 1.x and 2.x), so
 * the retry bound sits beside the other per-node request settings, is declared once for every
 * operation, and is read once per run with them. Shown only for the operations this module runs
 * (n8n's engine, which runs the others, does not retry).
 */
function requestOptionsProperty(operations: Operation[]): INodeProperties {
	const direct = operations.filter(isDirect).map((operation) => operation.value);
	const sends = operations.filter((operation) => isDirect(operation) && takesKey(operation.fields ?? [])).map((operation) => operation.value);
	return {
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Retry Transient Failures',
				name: 'retryTransientFailures',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 3600 },
				default: DEFAULT_RETRY_SECONDS,
				description: `For how many seconds at most to retry each item whose request failed for a passing reason (connection refused, reset or timed out; the server answering 429, 502, 503 or 504), waiting longer between tries and as long as the server's Retry-After asks. 0: no retries. Without this option: ${DEFAULT_RETRY_SECONDS} seconds. Sends retry every such failure (each carries an idempotency key, so it is sent once); other requests that change something are not retried once they may have reached the server.`,
				...(direct.length < operations.length ? { displayOptions: { show: { '/operation': direct } } } : {}),
			},
			// Only where there are sends: elsewhere n8n would show an option no operation reads.
			...(sends.length
				? [
						{
							displayName: 'Pacing (Messages per Minute)',
							name: 'pacing',
							type: 'number',
							typeOptions: { minValue: 0 },
							default: 0,
							description:
								"At most this many messages a minute from the device, spread over the run's items (each gap lengthened by up to a fifth at random), so that a bulk send stays under the network's limits. 0: as fast as the server answers. Runs sending from the same device at once share its pace.",
							displayOptions: { show: { '/operation': sends } },
						} satisfies INodeProperties,
					]
				: []),
		],
	};
}

/** A runner for each operation this module can run, by operation value. */
const runsOf = (operations: Operation[], connection: Connection): Record<string, Run> =>
	Object.fromEntries(operations.filter(isDirect).map((operation) => [operation.value, runner(operation, connection)]));

/** Whether the operation uses only what this module runs (else it stays with n8n's declarative engine). */
function isDirect(operation: Operation): boolean {
	const { request, send, output, operations, ...rest } = operation.routing ?? {};
	const plainRequest = !!request && typeof request.url === 'string' && Object.keys(request).every((k) => ['method', 'url', 'body', 'qs'].includes(k));
	const plainSend = !send || Object.entries(send).every(([k, v]) => k === 'preSend' || (k === 'paginate' && v === true));
	const plainOutput = !output || Object.keys(output).every((k) => k === 'postReceive') && (output.postReceive ?? []).every((a) => typeof a === 'function');
	// Paging: a pagination function (gateway.ts `pageThrough`, site.ts `pageThroughSite`), always on.
	const plainPaging = !operations || (Object.keys(operations).every((k) => k === 'pagination') && typeof operations.pagination === 'function' && send?.paginate === true);
	return plainRequest && plainSend && plainOutput && plainPaging && !Object.keys(rest).length && (operation.fields ?? []).every(isDirectField);
}

function isDirectField(field: INodeProperties): boolean {
	if (field.type === 'options' && (field.options ?? []).some((option) => 'routing' in option && option.routing)) return false;
	if (field.type === 'collection') return (field.options as INodeProperties[]).every(isDirectField);
	// A fixed collection is read whole by a preSend; values routed one by one are for n8n's engine.
	if (field.type === 'fixedCollection' && (field.options ?? []).some((option) => 'values' in option && option.values.some((value) => value.routing))) return false;
	const { send, output, ...rest } = field.routing ?? {};
	// Limit: `maxResults` of the field's own value, nothing else.
	if (output && (Object.keys(output).length !== 1 || output.maxResults !== '={{$value}}')) return false;
	if (Object.keys(rest).length) return false;
	if (!send) return true;
	const { type, property, preSend, ...more } = send;
	return !Object.keys(more).length && (property === undefined || (typeof property === 'string' && !property.startsWith('=') && (type === 'body' || type === 'query'))) && (preSend ?? []).every((a) => typeof a === 'function');
}

/**
 * How pickers are read: their value (`{__rl, mode, value}`, see pickers.ts) as the ID it holds, taken
 * out of a URL in By URL mode, as n8n's declarative engine reads it. Only pickers: the extraction
 * looks the property up, a cost per item that other fields need not pay.
 */
const READ = { extractValue: true };
const readOptions = (field: INodeProperties) => (field.type === 'resourceLocator' ? READ : undefined);

/** The stored value of a parameter path (`options.placeholders`), before expressions are resolved. */
const parameterAt = (parameters: INodeParameters, path: string) => path.split('.').reduce<unknown>((at, key) => (at as IDataObject | undefined)?.[key], parameters);

type PostReceiveFunction = (this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse) => Promise<INodeExecutionData[]>;

/** The request of one item: the route, then each shown field's value where its routing puts it. */
interface Request {
	options: IHttpRequestOptions;
	preSend: PreSendAction[];
	/** Limit: at most this many output items. */
	maxResults?: number;
}

function addField(request: Request, field: INodeProperties, value: unknown) {
	const send = field.routing?.send;
	if (send?.property) {
		// A dotted property is a path, as in n8n's engine: `meta._builder_data` is `{meta: {_builder_data}}`.
		let target = send.type === 'query' ? (request.options.qs ??= {}) : ((request.options.body ??= {}) as IDataObject);
		const keys = send.property.split('.');
		const last = keys.pop()!;
		for (const key of keys) target = (target[key] ??= {}) as IDataObject;
		target[last] = value as IDataObject[string];
	}
	if (send?.preSend) request.preSend.push(...send.preSend);
	if (field.routing?.output?.maxResults) request.maxResults = Number(value);
}

/** Whether the operation has the Idempotency Key option (the send routes): its requests always carry a key. */
const takesKey = (fields: INodeProperties[]) =>
	fields.some((field) => field.name === IDEMPOTENCY_KEY || (field.type === 'collection' && (field.options as INodeProperties[]).some((entry) => entry.name === IDEMPOTENCY_KEY)));

function runner(operation: Operation, connection: Connection): Run {
	const { method, url, body, qs } = operation.routing!.request as { method: IHttpRequestMethods; url: string; body?: IDataObject; qs?: IDataObject };
	const postReceive = (operation.routing?.output?.postReceive ?? []) as PostReceiveAction[];
	const paginate = operation.routing?.operations?.pagination as Pagination | undefined;
	const fields = operation.fields ?? [];
	const keyed = takesKey(fields);

	return async function (this: IExecuteFunctions) {
		const items = this.getInputData();
		const node = this.getNode();
		// The fields set and shown (as n8n's engine reads them: a Limit stored beside Return All is not read).
		const shownFields = fields.filter((field) => field.name in node.parameters && NodeHelpers.displayParameter(node.parameters, field, node, null, node.parameters));
		const credentials = await this.getCredentials(connection.credential);
		// Loaded once for the run (n8n's engine would load it again for every request).
		const credentialsDecrypted: ICredentialsDecrypted = {
			id: node.credentials?.[connection.credential]?.id ?? '',
			name: node.credentials?.[connection.credential]?.name ?? connection.credential,
			type: connection.credential,
			data: credentials as ICredentialsDecrypted['data'],
		};
		const { batching, timeout, retryTransientFailures, pacing: perMinute } = this.getNodeParameter('requestOptions', 0, {}) as {
			batching?: { batch?: { batchSize?: number; batchInterval?: number } };
			timeout?: number;
			retryTransientFailures?: number;
			pacing?: number;
		};
		const retry = retryPolicy(this, retryTransientFailures, DEFAULT_RETRY_SECONDS, keyed, method);
		// The device is the credential's (a send node authenticates as one device, with its instance token).
		const pace = keyed ? pacing(this, perMinute, `${connection.baseUrl(credentials)} ${credentialsDecrypted.id || credentialsDecrypted.name}`) : undefined;
		// A send's key when the user gives none: this execution, node, run of the node and item (and the
		// request, see `generatedKey`), so that a retry in this run, or n8n's Retry On Fail, sends once.
		const runKey = keyed ? runKeyOf(this) : '';
		const defaults: IHttpRequestOptions = {
			baseURL: connection.baseUrl(credentials),
			url: '',
			method,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: timeout || 300_000,
		};

		const one = async (i: number): Promise<INodeExecutionData[]> => {
			// A URL with segments from parameters (`=/posts/{{...$parameter.postId}}`) is an expression of the item.
			// (evaluateExpression adds the leading `=` itself.)
			const itemUrl = url.startsWith('=') ? String(this.evaluateExpression(url.slice(1), i)) : url;
			const request: Request = { options: { ...defaults, url: itemUrl, body: { ...body }, qs: { ...qs } }, preSend: [...(operation.routing?.send?.preSend ?? [])] };
			for (const field of shownFields) {
				const value = this.getNodeParameter(field.name, i, undefined, readOptions(field));
				if (field.type !== 'collection') addField(request, field, value);
				else {
					for (const entry of field.options as INodeProperties[]) {
						const shownEntry = entry.name in (value as IDataObject) && NodeHelpers.displayParameter(node.parameters, entry, node, null, node.parameters);
						if (!shownEntry) continue;
						// A picker inside a collection: its ID read as for a field of its own.
						const entryValue = readOptions(entry) ? this.getNodeParameter(`${field.name}.${entry.name}`, i, undefined, READ) : (value as IDataObject)[entry.name];
						addField(request, entry, entryValue);
					}
				}
			}
			const item = itemFunctions(this, i, items[i], credentials, node.parameters);
			for (const preSend of request.preSend) request.options = await preSend.call(item, request.options);
			let generated: string | undefined;
			if (keyed && !request.options.headers?.[IDEMPOTENCY_HEADER]) {
				generated = generatedKey(runKey, i, request.options);
				request.options.headers = { ...request.options.headers, [IDEMPOTENCY_HEADER]: generated };
			}
			await pace?.();
			/** One request, retried; an answer given up on is a failure even where no postReceive raises it. */
			const answer = async (options: IHttpRequestOptions) => {
				const send = () => this.helpers.httpRequestWithAuthentication.call(this, connection.credential, options, { credentialsDecrypted }) as Promise<IN8nHttpFullResponse>;
				const { response, gaveUp } = await retry.send(send, generated);
				const failed = () => new NodeApiError(node, response.body as JsonObject, { message: `The server answered HTTP ${response.statusCode}`, httpCode: String(response.statusCode) });
				return { response, gaveUp: gaveUp && ((error: Error = failed()) => gaveUp(error)) };
			};
			/** One request and the items its postReceive makes of the answer (n8n's `makeRoutingRequest`). */
			const pageItems = async (options: IHttpRequestOptions) => {
				const { response, gaveUp } = await answer(options);
				let output: INodeExecutionData[] = [{ json: response.body as IDataObject }];
				try {
					for (const action of postReceive) output = await (action as PostReceiveFunction).call(item, output, response);
				} catch (error) {
					throw gaveUp ? gaveUp(error as Error) : error;
				}
				if (gaveUp) throw gaveUp();
				return output;
			};
			const output = paginate ? await paginate.call(pagingFunctions(item, pageItems, answer), { options: request.options, maxResults: request.maxResults, paginate: true, preSend: [], postReceive: [], requestOperations: {} }) : await pageItems(request.options);
			return output.slice(0, request.maxResults).map((out) => ({ ...out, pairedItem: { item: i } }));
		};

		// A pool: each worker takes the next item, so requests leave in item order, at most MAX_IN_FLIGHT at once.
		// Batching (Request Options): batch k of Items per Batch starts k Batch Intervals after the first.
		const results: Array<INodeExecutionData[] | { error: Error }> = new Array(items.length);
		const batchSize = batching?.batch?.batchSize ?? 0;
		const interval = batching?.batch?.batchInterval ?? 0;
		const start = Date.now();
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				if (batchSize > 0 && interval > 0) await sleep(start + Math.floor(i / batchSize) * interval - Date.now());
				try {
					results[i] = await one(i);
				} catch (error) {
					results[i] = { error: asNodeError(this, error as Error, i) };
				}
			}
		};
		await Promise.all(Array.from({ length: Math.min(MAX_IN_FLIGHT, items.length) }, worker));

		const returnData: INodeExecutionData[] = [];
		for (const [i, result] of results.entries()) {
			if (!('error' in result)) returnData.push(...result);
			// The message in the item's JSON too (n8n's convention for code nodes): n8n 1.x takes `error` off
			// an item it puts on the error output, which left it with no message at all.
			else if (this.continueOnFail()) returnData.push({ json: { error: result.error.message }, error: result.error as NodeApiError, pairedItem: { item: i } });
			else throw result.error;
		}
		return [returnData];
	};
}

/** An error of item `i` as n8n's engine gives it: the node's own errors as they are, others as a NodeApiError. */
function asNodeError(ctx: IExecuteFunctions, error: Error, i: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = i;
		return error;
	}
	return new NodeApiError(ctx.getNode(), error as unknown as JsonObject, { itemIndex: i, message: error.message });
}

type Pagination = (this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions) => Promise<INodeExecutionData[]>;

/**
 * What a pagination function uses of n8n's context: the item's, with `makeRoutingRequest` (one page through
 * the operation's postReceive) and the HTTP helper it may call itself for the headers, both retried.
 */
function pagingFunctions(
	item: IExecuteSingleFunctions,
	items: (options: IHttpRequestOptions) => Promise<INodeExecutionData[]>,
	answer: (options: IHttpRequestOptions) => Promise<{ response: IN8nHttpFullResponse; gaveUp?: (error?: Error) => Error }>,
): IExecutePaginationFunctions {
	const httpRequestWithAuthentication = async (_credential: string, options: IHttpRequestOptions) => {
		const { response, gaveUp } = await answer(options);
		if (gaveUp) throw gaveUp();
		return response;
	};
	return {
		...item,
		makeRoutingRequest: async (requestData: DeclarativeRestApiSettings.ResultOptions) => await items(requestData.options as IHttpRequestOptions),
		helpers: { ...item.helpers, httpRequestWithAuthentication },
	} as unknown as IExecutePaginationFunctions;
}

/**
 * What the declarations' preSend and postReceive functions use of n8n's per-item context, for item
 * `i`: its parameters, input, binary data, node and index, and the credentials loaded for the run.
 */
function itemFunctions(ctx: IExecuteFunctions, i: number, item: INodeExecutionData, credentials: IDataObject, parameters: INodeParameters): IExecuteSingleFunctions {
	const functions: Partial<IExecuteSingleFunctions> = {
		// A picker that a preSend reads gives its ID, as a field's does (READ).
		getNodeParameter: ((name: string, fallback?: unknown, options?: object) =>
			ctx.getNodeParameter(name, i, fallback, isResourceLocatorValue(parameterAt(parameters, name)) ? { ...options, ...READ } : options)) as IExecuteSingleFunctions['getNodeParameter'],
		getInputData: () => item,
		getItemIndex: () => i,
		getNode: () => ctx.getNode(),
		getCredentials: (async () => credentials) as IExecuteSingleFunctions['getCredentials'],
		helpers: {
			...ctx.helpers,
			getBinaryDataBuffer: (property: string) => ctx.helpers.getBinaryDataBuffer(i, property),
		} as unknown as IExecuteSingleFunctions['helpers'],
	};
	return functions as IExecuteSingleFunctions;
}
