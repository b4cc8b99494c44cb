import { NodeApiError } from 'n8n-workflow';
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	JsonObject,
	PreSendAction,
} from 'n8n-workflow';

/*
 * Shared by every node on the `wdmSiteApi` credential (WDM Site, WDM Post, WDM Page, media, ...).
 *
 *   requestDefaults: siteRequestDefaults,
 *   routing: siteRouting('GET', '/cms/v2/posts/{id}')          // a plain request, WordPress errors raised
 *   routing: siteListRouting('/cms/v2/posts')                   // Return All / Limit over page & per_page
 *   send: siteSend('/cms/v2/posts/{parent}/revisions/{id}', { parent: 'postId', id: 'revisionId' })
 *
 * Operations write the REST route only (`/cms/v2/posts`); the base URL of `siteRequestDefaults` adds
 * the site and the credential's addressing style, `…/wp-json` or `…/index.php?rest_route=`. Send query
 * parameters as `qs` (routing `send: {type: 'query'}`), never inside the route: with the
 * `rest_route=` style the request's query string is appended with `&`, which only works for `qs`.
 */

/** Base URL of the credential's addressing style; routes are appended as they are written. */
export const SITE_BASE_URL =
	'={{$credentials.url.replace(/\\/+$/, "") + ($credentials.addressing === "wpJson" ? "/wp-json" : "/index.php?rest_route=")}}';

/** The base URL of the credential's addressing style (`SITE_BASE_URL` says the same as an expression). */
export const siteBaseUrl = (credentials: IDataObject) =>
	String(credentials.url).replace(/\/+$/, '') + (credentials.addressing === 'wpJson' ? '/wp-json' : '/index.php?rest_route=');

/** How the site nodes' operations reach the site when they run directly (see direct.ts). */
export const siteApi = { credential: 'wdmSiteApi', baseUrl: siteBaseUrl };

/** The core-content namespace of a site: `cms/v2` on a WDM site, `wp/v2` on a stock WordPress. */
export const CORE_NAMESPACE = 'cms/v2';

/**
 * A core-content route in the credential's namespace: `/cms/v2/posts/7` is `/wp/v2/posts/7` with a
 * `wp/v2` credential. Other routes stay as they are. Operations write `/cms/v2/...`; this is the one
 * place where that becomes the site's namespace (direct runs and n8n's engine both reach it through
 * `toSiteNamespace`; pickers call it with their credentials).
 */
export function inSiteNamespace(route: string, credentials: IDataObject): string {
	const namespace = typeof credentials.namespace === 'string' && credentials.namespace ? credentials.namespace : CORE_NAMESPACE;
	return route.replace(/^\/cms\/v2(?=\/|$|\?)/, `/${namespace.replace(/^\/+|\/+$/g, '')}`);
}

/** preSend of every `/cms/v2/...` site request: moves its route to the credential's namespace. */
export async function toSiteNamespace(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const credentials = await this.getCredentials('wdmSiteApi');
	return { ...options, url: inSiteNamespace(options.url, credentials) };
}

/** Request defaults of every site node: the site in the credential's style, JSON both ways. */
export const siteRequestDefaults = {
	baseURL: SITE_BASE_URL,
	headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
	json: true,
	// Error answers reach `siteResponse`, which raises them with WordPress's own message.
	ignoreHttpStatusErrors: true,
};

/**
 * preSend of a route with `{name}` segments: fills each, per item, from the node parameter named like
 * the segment unless `fields` maps it (`{parent}` from `postId`), read as getNodeParameter reads it (a
 * picker's ID, taken out of its URL once an expression is resolved). Not `$parameter` in the URL: n8n
 * hands back a By URL locator whose value is an expression unresolved (`=%7B%7B...` in the route).
 */
export function fillRoute(path: string, fields: Record<string, string> = {}) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
			encodeURIComponent(String(this.getNodeParameter(fields[name] ?? name, undefined, { extractValue: true }))),
		);
		return { ...options, url };
	};
}

/**
 * The `send` of a site request to `path` (also its `url`, segments and all): the segments filled, the
 * core-content namespace moved to the credential's, then the operation's own preSends (`more`).
 */
export function siteSend(path: string, fields?: Record<string, string>, ...more: PreSendAction[]) {
	const segments = /\{\w+\}/.test(path) ? [fillRoute(path, fields)] : [];
	const core = path.startsWith('/cms/v2/') || path === '/cms/v2' ? [toSiteNamespace] : [];
	return { preSend: [...segments, ...core, ...more] };
}

interface WordPressError {
	code?: string;
	message?: string;
	data?: { status?: number; params?: Record<string, string> | string[] };
}

/** Raises a WordPress error answer (`{code, message, data}`) as a NodeApiError with its message and status. */
export function throwSiteError(this: IExecuteSingleFunctions, response: IN8nHttpFullResponse): void {
	if (response.statusCode < 400) return;
	const body = (response.body && typeof response.body === 'object' ? response.body : {}) as WordPressError;
	// `rest_invalid_param` names the parameters in `message`; the sentence for each is in `data.params`.
	const params = body.data?.params;
	const details = params && !Array.isArray(params) ? Object.values(params).join('; ') : undefined;
	throw new NodeApiError(this.getNode(), body as JsonObject, {
		message: body.message ?? `The site answered HTTP ${response.statusCode}`,
		description: [body.code, details].filter(Boolean).join(': ') || undefined,
		httpCode: String(response.statusCode),
		itemIndex: this.getItemIndex(),
	});
}

/** postReceive of site operations: raises errors; an array answer becomes one item per element. */
export async function siteResponse(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	throwSiteError.call(this, response);
	const body = response.body as unknown;
	const list = Array.isArray(body) ? body : [body ?? {}];
	// A text answer (the oEmbed XML) is kept whole in `data`.
	return list.map((json) => ({ json: (json && typeof json === 'object' ? json : { data: json }) as IDataObject }));
}

export type SiteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Routing of a plain site operation: one request, WordPress errors raised, arrays split into items; `more` preSends run last. */
export function siteRouting(method: SiteMethod, path: string, fields?: Record<string, string>, ...more: PreSendAction[]) {
	return { request: { method, url: path }, send: siteSend(path, fields, ...more), output: { postReceive: [siteResponse] } };
}

/**
 * Return All / Limit over a WordPress collection: fetches `page` 1, 2, ... with one `per_page` (up to
 * 100; it must not change between pages, which are counted in it) until `X-WP-TotalPages` says there
 * are no more or the limit is reached. The pages are requested directly (not through
 * `makeRoutingRequest`), because the headers are needed.
 */
function pageThroughSite(pageSize = 100) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const max = typeof requestData.maxResults === 'number' ? requestData.maxResults : Infinity;
		const perPage = Math.min(pageSize, max);
		const items: INodeExecutionData[] = [];
		for (let page = 1; ; page++) {
			const qs = { ...requestData.options.qs, page, per_page: perPage };
			const options = { ...requestData.options, qs, returnFullResponse: true } as IHttpRequestOptions;
			const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'wdmSiteApi', options)) as IN8nHttpFullResponse;
			const pageItems = await siteResponse.call(this, [], response);
			items.push(...pageItems);
			const totalPages = Number(response.headers['x-wp-totalpages'] ?? Infinity);
			if (page >= totalPages || pageItems.length < perPage || items.length >= max) return items.slice(0, max);
		}
	};
}

/** Routing of a collection route with Return All / Limit (add `siteReturnAllFields` to its fields). */
export function siteListRouting(path: string, fields?: Record<string, string>) {
	return {
		request: { method: 'GET' as const, url: path },
		send: { paginate: true, ...siteSend(path, fields) },
		operations: { pagination: pageThroughSite() },
	};
}

/** Return All and Limit fields of a site collection operation (the gateway's, declared once). */
export { returnAllFields as siteReturnAllFields } from './gateway';
