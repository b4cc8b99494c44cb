import { z, type ZodType } from 'zod';
import type { Services } from '../services';
import type { Route } from '../http/route';
import { namespaceOf, route } from '../http/route';
import { notFound } from '../http/errors';
import { REST_PREFIX } from '../http/dispatch';
import { phpMaps } from '../http/rest-server';
import { expandEngineRoutes } from './content/engine-types';
import { SITE_NAMESPACES } from './namespaces';
import { ARG_JSON, wpArg } from './arg-schema';
import { gmtOffsetHours, siteSettings } from './settings';
import { fileUrl } from '../gateway/views';
import type { UserRow } from '../store/types';
import { can } from './roles';

/**
 * `/wdm/v1/devices/{name}` -> `/wdm/v1/devices/(?P<name>[^/]+)`, the form the site index uses, with the
 * route's own pattern for a segment that has one (`(?P<id>\d+)`).
 */
export const wpPattern = (path: string, patterns: Record<string, string> = {}) =>
	path.replace(/\{(\w+)\}/g, (_, name: string) => `(?P<${name}>${patterns[name] ?? '[^/]+'})`);

/** Where an application password is authorized, as WordPress's admin serves it. */
export const ADMIN_PATH = 'wp-admin';

type JsonSchema = { properties?: Record<string, Record<string, unknown>>; required?: string[] };

/** Arguments per route: the table never changes, and converting the schemas is the slow part of the index. */
const argsCache = new WeakMap<Route, Args>();

/** The fields of an object schema (or of the object a PHP-style query pipes into). */
function shapeOf(schema: ZodType): Record<string, ZodType> | undefined {
	const object = schema.def.type === 'pipe' ? (schema.def as unknown as { out: ZodType }).out : schema;
	return (object as unknown as { shape?: Record<string, ZodType> }).shape;
}

/** A field's meta, or that of the schema its `.optional()` / `.default()` wraps. */
export function ownMeta(field: ZodType): Record<string, unknown> | undefined {
	for (let at: ZodType | undefined = field; at; at = (at.def as { innerType?: ZodType }).innerType) {
		const meta = z.globalRegistry.get(at);
		if (meta) return meta;
	}
	return undefined;
}

/** A route's arguments as the index shows them: name -> {type, required, enum, default, ...}. */
type Args = Record<string, Record<string, unknown>> | [];

function args(r: Route): Args {
	const cached = argsCache.get(r);
	if (cached) return cached;
	const out: Record<string, Record<string, unknown>> = {};
	for (const schema of [r.params, r.query, r.body] as (ZodType | undefined)[]) {
		if (!schema) continue;
		const json = z.toJSONSchema(schema, ARG_JSON) as JsonSchema;
		const shape = shapeOf(schema);
		for (const [name, prop] of Object.entries(json.properties ?? {})) {
			// An argument read from the query and the body (DELETE's `force`) is declared once, by the query.
			if (name in out) continue;
			// A path segment the route does not declare as an argument (meta `argument: false`), as WordPress's routes without `args` for it.
			if (prop.argument === false) continue;
			const field = shape?.[name];
			// The field's own meta, whole: zod leaves some of it out where the field is a pipe (a `default` of null).
			const { $schema, additionalProperties, ...rest } = { ...prop, ...(field ? ownMeta(field) : {}) };
			// Required is what validation refuses to miss (a field of any value may still be left out), or what the meta says.
			const required = typeof rest.required === 'boolean' ? rest.required : field ? !field.safeParse(undefined).success : (json.required?.includes(name) ?? false);
			out[name] = wpArg(name, { ...rest, required });
		}
	}
	// As PHP encodes the schema: every empty map (no arguments, `properties` none, `default` none) is `[]`.
	const encoded = phpMaps(out) as Args;
	argsCache.set(r, encoded);
	return encoded;
}

/**
 * An argument's keys that depend on the site (meta given as `(services) => value`: the site's post types,
 * its search subtypes), computed for the answer; the rest is the route's, made once.
 */
function siteArgs(table: Args, services: Services): Args {
	if (Array.isArray(table) || !Object.values(table).some((arg) => Object.values(arg).some((v) => typeof v === 'function'))) return table;
	return Object.fromEntries(
		Object.entries(table).map(([name, arg]) => [name, Object.fromEntries(Object.entries(arg).map(([k, v]) => [k, typeof v === 'function' ? v(services) : v]))]),
	);
}

interface Endpoint {
	methods: string[];
	allow_batch?: { v1: true };
	args: Args;
}

interface RouteEntry {
	namespace: string;
	methods: string[];
	endpoints: Endpoint[];
	schema?: Record<string, unknown>;
	_links?: { self: { href: string }[] };
}

/** WordPress's `EDITABLE` endpoint: one callback for POST, PUT and PATCH, listed as one endpoint. */
const EDITABLE = ['POST', 'PUT', 'PATCH'];
const editable = (r: Route) => EDITABLE.includes(r.method);

export interface RoutesMapOptions {
	/** Only this namespace's routes. */
	namespace?: string;
	/** WordPress's `context=help` (and every OPTIONS answer): each route's `schema` too. */
	help?: boolean;
}

/** Groups the table by route pattern, each with its methods and their arguments (one namespace, or all). */
export function routesMap(routes: Route[], services: Services, { namespace, help = false }: RoutesMapOptions = {}) {
	const map: Record<string, RouteEntry> = {};
	const batchPaths = new Set(routes.filter((r) => r.batch).map((r) => r.path));
	// The route each endpoint was made from, to fold an update's PUT and PATCH into its POST.
	const madeFrom = new Map<Endpoint, Route>();
	for (const r of routes) {
		const ns = namespaceOf(r.path);
		if (namespace !== undefined && ns !== namespace) continue;
		const entry = (map[wpPattern(r.path, r.patterns)] ??= { namespace: ns, methods: [], endpoints: [] });
		entry.methods.push(r.method);
		if (help && r.schema && !entry.schema) entry.schema = phpMaps(r.schema(services)) as Record<string, unknown>;
		// As WordPress does: a route without path parameters links to itself.
		if (!r.path.includes('{')) entry._links = { self: [{ href: `${services.baseUrl}${REST_PREFIX}${r.path}` }] };
		const same = editable(r) && entry.endpoints.find((e) => {
			const other = madeFrom.get(e)!;
			return editable(other) && other.body === r.body && other.query === r.query;
		});
		if (same) {
			same.methods.push(r.method);
			continue;
		}
		// As WordPress shows a route that `POST /batch/v1` may run (`allow_batch` is the route's, on each of its endpoints).
		const endpoint: Endpoint = { methods: [r.method], ...(batchPaths.has(r.path) ? { allow_batch: { v1: true as const } } : {}), args: siteArgs(args(r), services) };
		madeFrom.set(endpoint, r);
		entry.endpoints.push(endpoint);
	}
	return map;
}

/** The namespaces the index lists: the site's list, then any other namespace a route of the table is in. */
export function namespacesOf(table: Route[]): string[] {
	const listed: string[] = [...SITE_NAMESPACES];
	for (const r of table) {
		const ns = namespaceOf(r.path);
		if (ns && !listed.includes(ns)) listed.push(ns);
	}
	return listed;
}

/** WordPress's `GET /` site fields, from the stored settings. */
function siteFields(services: Services) {
	const settings = siteSettings(services.store);
	return {
		name: settings.name,
		description: settings.description,
		url: services.baseUrl,
		home: services.baseUrl,
		gmt_offset: gmtOffsetHours(settings.timezone),
		timezone_string: settings.timezone,
		page_for_posts: settings.page_for_posts,
		page_on_front: settings.page_on_front,
		show_on_front: settings.show_on_front,
		// As WordPress's `add_site_logo_to_index` and `add_site_icon_to_index`.
		site_logo: settings.site_logo,
		site_icon: settings.site_icon,
		site_icon_url: siteIconUrl(services, settings.site_icon),
	};
}

/** The site icon's file URL (`get_site_icon_url`), or '' without one. */
function siteIconUrl(services: Services, id: number): string {
	const attachment = id ? services.store.attachments.get(id) : undefined;
	return attachment ? fileUrl(services.baseUrl, attachment.file_id, attachment.file_name) : '';
}

/**
 * The index's links, as WordPress's `get_index` adds them. For a user who may switch themes or manage
 * options WordPress adds `wp:active-theme` (beyond the site's surface) and with it the `wp` curie.
 */
function indexLinks(user: UserRow | null) {
	const help = [{ href: 'https://developer.wordpress.org/rest-api/' }];
	return can(user, 'switch_themes') || can(user, 'manage_options') ? { help, curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }] } : { help };
}

/** A route of an index: its methods, each endpoint's arguments, and with `?context=help` its schema. */
const routeEntryAnswer = z.object({
	namespace: z.string(),
	methods: z.array(z.string()),
	endpoints: z.array(
		z.object({
			methods: z.array(z.string()),
			allow_batch: z.object({ v1: z.literal(true) }).optional(),
			// `[]` (PHP's empty map) for an endpoint without arguments.
			args: z.union([z.record(z.string(), z.record(z.string(), z.unknown())), z.tuple([])]).meta({ description: "Each argument's JSON Schema keywords" }),
		}),
	),
	schema: z.record(z.string(), z.unknown()).optional().meta({ description: "The resource's JSON Schema (`context=help`)" }),
	_links: z.object({ self: z.array(z.object({ href: z.string() })) }).optional(),
});
const routesAnswer = z.record(z.string(), routeEntryAnswer);
const hrefs = z.array(z.object({ href: z.string() }));

// WordPress declares the indexes' `context` with a default only: any value is taken.
const context = z.unknown().default('view');

/**
 * `GET /` and `GET /<namespace>` for every namespace, generated from the table. Both answer bare
 * JSON (also `GET /wdm/v1`): they are the REST server's routes, not the gateway's.
 */
export function indexRoutes(table: Route[]): Route[] {
	const namespaces = namespacesOf(table);
	const index: Route = route({
		method: 'GET',
		path: '/',
		auth: 'site',
		summary: 'Site index: site data, namespaces, authentication and every route with its arguments',
		query: z.object({ context }),
		answer: z.object({
			name: z.string(),
			description: z.string(),
			url: z.string(),
			home: z.string(),
			gmt_offset: z.number(),
			timezone_string: z.string(),
			page_for_posts: z.number(),
			page_on_front: z.number(),
			show_on_front: z.string(),
			site_logo: z.number(),
			site_icon: z.number(),
			site_icon_url: z.string(),
			namespaces: z.array(z.string()),
			authentication: z.object({ 'application-passwords': z.object({ endpoints: z.object({ authorization: z.string() }) }) }),
			routes: routesAnswer,
			_links: z.object({ help: hrefs, curies: z.array(z.object({ name: z.string(), href: z.string(), templated: z.boolean() })).optional() }),
		}),
		handler: ({ query, services, siteUser }) => ({
			...siteFields(services),
			namespaces,
			authentication: {
				'application-passwords': {
					endpoints: { authorization: `${services.baseUrl}/${ADMIN_PATH}/authorize-application.php` },
				},
			},
			routes: routesMap(expandEngineRoutes(all, services.store), services, { help: query.context === 'help' }),
			_links: indexLinks(siteUser),
		}),
	});
	const perNamespace: Route[] = namespaces.map((ns) =>
		route({
			method: 'GET',
			path: `/${ns}`,
			auth: 'site',
			summary: `Index of the ${ns} namespace`,
			// As in WordPress, `namespace` may name another namespace: its index is answered.
			// Declared with a default only, as in WordPress (the index shows no type); a repeated one is refused.
			query: z.object({ namespace: z.unknown().default(ns).pipe(z.string()), context }),
			answer: z.object({ namespace: z.string(), routes: routesAnswer, _links: z.object({ up: hrefs }) }),
			// `namespace` naming no namespace.
			errors: [404],
			handler: ({ query, services }) => {
				if (!namespaces.includes(query.namespace)) throw notFound('The specified namespace could not be found.', 'rest_invalid_namespace');
				return {
					namespace: query.namespace,
					routes: routesMap(expandEngineRoutes(all, services.store), services, { namespace: query.namespace, help: query.context === 'help' }),
					_links: { up: [{ href: `${services.baseUrl}${REST_PREFIX}/` }] },
				};
			},
		}),
	);
	const all: Route[] = [index, ...perNamespace, ...table];
	return [index, ...perNamespace];
}
