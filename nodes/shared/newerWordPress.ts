import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestMethods, IHttpRequestOptions, IN8nHttpFullResponse, INodeProperties } from 'n8n-workflow';
import { siteBaseUrl } from './site';

/*
 * Options that only a later WordPress than some sites run honours (Formats: 6.7, Exact Search: 6.9, ...).
 * WordPress ignores a query parameter its route does not declare, so on an older site such an option
 * would return unfiltered (or unshaped) results, silently. A field wrapped in `newerWordPress` says the
 * version in its description and, when it is used, reads the route's arguments from the site (OPTIONS
 * on the route: the route's entry of the REST index) and fails, naming the option and the version,
 * when the site does not declare the parameter.
 */

interface Requirement {
	/** The first WordPress that takes it: `6.7`. */
	version: string;
	/** The query parameter the option sends. */
	arg: string;
	/** The site must take it as a list (`type: array`), not only take it. */
	list?: boolean;
	/** Whether the request needs that version (by default: whenever it sends `arg` with a value). */
	needs?: (qs: IDataObject) => boolean;
	/** The uses that need it, when not every use does: `two or more`. */
	uses?: string;
}

/** How many values a query parameter has (asList sends a list comma-separated). */
export const valuesIn = (value: unknown) => (value === undefined ? 0 : Array.isArray(value) ? value.length : String(value).split(',').filter(Boolean).length);

/** The field, with the version in its description and the check after its own preSends. */
export function newerWordPress(field: INodeProperties, requirement: Requirement): INodeProperties {
	const { version, uses } = requirement;
	const send = field.routing?.send ?? {};
	return {
		...field,
		description: `${field.description} (${uses ? `${uses}: ` : ''}WordPress ${version} or newer)`,
		routing: { ...field.routing, send: { ...send, preSend: [...(send.preSend ?? []), check(field.displayName, requirement)] } },
	};
}

function check(option: string, { version, arg, list, needs = (qs) => valuesIn(qs[arg]) > 0 }: Requirement) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		if (!needs(options.qs ?? {})) return options;
		const args = await routeArgs(this, options.url);
		const schema = args?.[arg] as IDataObject | undefined;
		// An answer without the route's arguments tells nothing: the request goes as it is.
		if (!args || (schema && (!list || ([] as unknown[]).concat(schema.type).includes('array')))) return options;
		throw new NodeOperationError(this.getNode(), `${option} needs WordPress ${version} or newer`, {
			description: `The site's ${options.url} route does not take "${arg}"${list ? ' as a list' : ''} (its description in the site's REST API says so), so the site would not apply this option. Remove it, or update WordPress to ${version} or newer.`,
			itemIndex: this.getItemIndex(),
		});
	};
}

/**
 * The GET arguments of each route, by credentials object: the direct runner (direct.ts) reads the
 * credentials once per run and gives every item that object, so a route is asked once a run (an item's
 * ID in the route does not make it another route).
 */
const asked = new WeakMap<object, Map<string, Promise<IDataObject | undefined>>>();

async function routeArgs(ctx: IExecuteSingleFunctions, url: string): Promise<IDataObject | undefined> {
	const credentials = await ctx.getCredentials('wdmSiteApi');
	const routes = asked.get(credentials) ?? asked.set(credentials, new Map()).get(credentials)!;
	const route = url.replace(/\/\d+(?=\/|$)/g, '/{id}');
	if (!routes.has(route)) routes.set(route, readArgs(ctx, siteBaseUrl(credentials), url));
	return await routes.get(route)!;
}

async function readArgs(ctx: IExecuteSingleFunctions, baseURL: string, url: string): Promise<IDataObject | undefined> {
	const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'wdmSiteApi', {
		// WordPress answers OPTIONS on every route with the route's endpoints and their arguments (n8n's type lacks the verb).
		method: 'OPTIONS' as IHttpRequestMethods,
		baseURL,
		url,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	})) as IN8nHttpFullResponse;
	const endpoints = (response.statusCode < 300 && (response.body as IDataObject | undefined)?.endpoints) as Array<{ methods?: string[]; args?: IDataObject }> | undefined;
	return Array.isArray(endpoints) ? endpoints.find((endpoint) => endpoint.methods?.includes('GET'))?.args : undefined;
}
