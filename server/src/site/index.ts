import { z, type ZodType } from 'zod';
import type { Route } from '../http/route';
import { namespaceOf, route } from '../http/route';

/** `/wdm/v1/devices/{name}` -> `/wdm/v1/devices/(?P<name>[^/]+)`, the form the site index uses. */
export const wpPattern = (path: string) => path.replace(/\{(\w+)\}/g, '(?P<$1>[^/]+)');

type JsonSchema = { properties?: Record<string, Record<string, unknown>>; required?: string[] };

/** A route's arguments as the index shows them: name -> {type, required, enum, default, ...}. */
function args(r: Route): Record<string, Record<string, unknown>> {
	const out: Record<string, Record<string, unknown>> = {};
	for (const schema of [r.params, r.query, r.body] as (ZodType | undefined)[]) {
		if (!schema) continue;
		const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
		for (const [name, prop] of Object.entries(json.properties ?? {})) {
			const { $schema, additionalProperties, ...rest } = prop;
			out[name] = { ...rest, required: json.required?.includes(name) ?? false };
		}
	}
	return out;
}

/** Groups the table by route pattern, each with its methods and their arguments. */
export function routesMap(routes: Route[], namespace?: string) {
	const map: Record<string, { namespace: string; methods: string[]; endpoints: { methods: string[]; args: object }[] }> = {};
	for (const r of routes) {
		const ns = namespaceOf(r.path);
		if (namespace && ns !== namespace) continue;
		const entry = (map[wpPattern(r.path)] ??= { namespace: ns, methods: [], endpoints: [] });
		entry.methods.push(r.method);
		entry.endpoints.push({ methods: [r.method], args: args(r) });
	}
	return map;
}

const namespaceQuery = z.object({ context: z.enum(['view', 'embed', 'edit']).default('view') });

/** `GET /` and `GET /<namespace>` for every namespace in the table, generated from it. */
export function indexRoutes(table: Route[]): Route[] {
	const namespaces = [...new Set(table.map((r) => namespaceOf(r.path)))];
	const index: Route = route({
		method: 'GET',
		path: '/',
		auth: 'site',
		summary: 'Site index: site data, namespaces, authentication and every route with its arguments',
		query: namespaceQuery,
		handler: ({ services }): object => ({
			name: 'WDM reference site',
			description: 'Reference server for the WDM gateway',
			url: services.baseUrl,
			home: services.baseUrl,
			gmt_offset: 0,
			timezone_string: 'UTC',
			page_for_posts: 0,
			page_on_front: 0,
			show_on_front: 'posts',
			namespaces,
			authentication: {},
			routes: routesMap(all),
		}),
	});
	const perNamespace: Route[] = namespaces.map((ns) =>
		route({
			method: 'GET',
			path: `/${ns}`,
			auth: 'site',
			summary: `Index of the ${ns} namespace`,
			query: namespaceQuery.extend({ namespace: z.string().default(ns) }),
			handler: () => ({ namespace: ns, routes: routesMap(all, ns) }),
		}),
	);
	const all: Route[] = [index, ...perNamespace, ...table];
	return [index, ...perNamespace];
}
