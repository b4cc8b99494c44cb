import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { z, type ZodType } from 'zod';
import type { AuthScheme, Route } from './route';
import { packageVersion } from '../version';
import { namespaceOf } from './route';
import { REST_PREFIX, speaksOpenAi, usesEnvelope } from './dispatch';
import { errorStatuses, reasonOf, successStatuses } from './statuses';

/**
 * The OpenAPI 3.1 document of the route table: one more reader of `routes.ts`, like the site index.
 * Paths are the routes under the pretty permalinks' prefix (`/wp-json`, the server's URL); every route also answers at
 * `/index.php?rest_route=...`, which OpenAPI cannot express as a path, so the description says so.
 */

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[]; $defs?: Record<string, JsonSchema> };

/** The three ways a caller signs in, as OpenAPI security schemes (keys used by `security` below). */
export const SECURITY_SCHEMES = {
	apiKey: { type: 'http', scheme: 'bearer', description: "A user's API key: `Authorization: Bearer <API key>` (device and sandbox routes)." },
	instanceToken: { type: 'apiKey', in: 'header', name: 'token', description: "A device's instance token, as `POST /wdm/v1/devices` answers it (every other gateway route)." },
	applicationPassword: {
		type: 'http',
		scheme: 'basic',
		description: 'A site user and one of its application passwords (the site routes). Anonymous callers may read published content.',
	},
} as const;

/** What each auth scheme of the table asks for; `site` routes also take anonymous callers (`{}`). */
const SECURITY: Record<AuthScheme, Record<string, string[]>[]> = {
	none: [],
	user: [{ apiKey: [] }],
	instance: [{ instanceToken: [] }],
	site: [{ applicationPassword: [] }, {}],
};


/**
 * A converted schema without its own `$schema`, its `$defs` moved into the document's components
 * (refs rewritten): a `#/$defs/...` ref inside a path item would point at the document root.
 */
function embed(json: JsonSchema, prefix: string, components: Record<string, JsonSchema>): JsonSchema {
	const { $schema, $defs, ...rest } = json;
	if (!$defs) return rest;
	const renamed = (name: string) => `${prefix}_${name}`;
	for (const [name, def] of Object.entries($defs)) components[renamed(name)] = def;
	return JSON.parse(JSON.stringify(rest).replace(/"#\/\$defs\/([^"]+)"/g, (_, name: string) => `"#/components/schemas/${renamed(name)}"`));
}

const operationId = (r: Route) => `${r.method.toLowerCase()}${r.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ?? '').toUpperCase())}` || r.method.toLowerCase();

function parameters(r: Route, id: string, components: Record<string, JsonSchema>) {
	const out: object[] = [];
	const pathParams = embed(contractJson(r.params ?? z.object({})), id, components);
	// Every segment of the template is a parameter, declared in the route's schema or not.
	for (const [, name] of r.path.matchAll(/\{(\w+)\}/g)) {
		const declared = pathParams.properties?.[name] ?? { type: 'string' };
		const pattern = r.patterns?.[name];
		out.push({ name, in: 'path', required: true, schema: pattern ? { ...declared, pattern: `^(?:${pattern})$` } : declared });
	}
	for (const [where, schema] of [['query', r.query], ['header', r.headers]] as const) {
		if (!schema) continue;
		const json = embed(contractJson(schema), id, components);
		for (const [name, property] of Object.entries(json.properties ?? {})) {
			const { description, ...rest } = property;
			out.push({
				name,
				in: where,
				required: json.required?.includes(name) ?? false,
				...(typeof description === 'string' ? { description } : {}),
				schema: rest,
			});
		}
	}
	return out;
}

function requestBody(r: Route, id: string, components: Record<string, JsonSchema>) {
	if (r.rawBody) {
		return { description: 'The file itself; name it with `Content-Disposition: attachment; filename=...`.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } };
	}
	if (!r.body) return undefined;
	const schema = contractJson(r.body);
	return { required: (schema.required?.length ?? 0) > 0, content: { 'application/json': { schema: embed(schema, id, components) } } };
}

/**
 * The contract's form of a route's answer: zod's own structure (objects closed, in the output's form),
 * described by the fields' `description`s. WordPress's keywords in the fields' meta are the item schema's
 * (`site/item-schema.ts`), not the contract's: `readonly` becomes OpenAPI's `readOnly`, and a field shown in
 * some contexts only (`context`) is optional; the others (`type`, `properties`... written for the index) are left out.
 */
const CONTRACT_META = ['id', 'title', 'description', 'deprecated', 'examples'];
const contractMeta = {
	get(schema: ZodType) {
		const meta = z.globalRegistry.get(schema) as Record<string, unknown> | undefined;
		if (!meta) return undefined;
		const kept: Record<string, unknown> = Object.fromEntries(CONTRACT_META.filter((key) => meta[key] !== undefined).map((key) => [key, meta[key]]));
		if (meta.readonly === true) kept.readOnly = true;
		return kept;
	},
};

const WORDPRESS_CONTEXTS = ['view', 'edit', 'embed'];

/** The contexts a WordPress item's field is shown in (its `context` meta, under an `optional` an answer's shape may add). */
function contextsOf(field: ZodType): string[] | undefined {
	const meta = z.globalRegistry.get(field) as { context?: string[] } | undefined;
	if (meta?.context) return meta.context;
	const inner = (field as { _zod: { def: { type: string; innerType?: ZodType } } })._zod.def;
	return inner.type === 'optional' && inner.innerType ? contextsOf(inner.innerType) : undefined;
}

/** A route's schema (its input, or its answer as `output`) in the contract's form. */
function contractJson(schema: ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
	return z.toJSONSchema(schema, {
		io,
		unrepresentable: 'any',
		// Only `get` is read: the fields' meta, filtered.
		metadata: contractMeta as never,
		override: ({ zodSchema, jsonSchema }) => {
			const shape = (zodSchema as { _zod: { def: { shape?: Record<string, ZodType> } } })._zod.def.shape;
			if (io === 'input' || !shape) return;
			const optionalByZod = new Set(Object.keys(jsonSchema.properties ?? {}).filter((name) => !jsonSchema.required?.includes(name)));
			// A WordPress field is in every answer when it is shown in every context; other fields as zod says.
			const required = Object.keys(jsonSchema.properties ?? {}).filter((name) => {
				const contexts = shape[name] && contextsOf(shape[name]);
				return contexts ? WORDPRESS_CONTEXTS.every((context) => contexts.includes(context)) : !optionalByZod.has(name);
			});
			if (required.length) jsonSchema.required = required;
			else delete jsonSchema.required;
		},
	}) as JsonSchema;
}

/** The REST server adds these to a site item it answers (`rest-server.ts`): `_links` unless `_fields` leaves them out, `_embedded` on `_embed`. */
const LINKED = { _links: { type: 'object', additionalProperties: true }, _embedded: { type: 'object', additionalProperties: true } };

function linked(json: JsonSchema): JsonSchema {
	if (json.type === 'object' && json.properties) return { ...json, properties: { ...json.properties, ...LINKED } };
	if (json.type === 'array' && json.items && typeof json.items === 'object') return { ...json, items: linked(json.items as JsonSchema) };
	return json;
}

/** The error body of a route: OpenAI's where the route speaks OpenAI's API, the gateway's envelope, or WordPress's. */
const errorRef = (r: Route) => `#/components/schemas/${speaksOpenAi(r.path) ? 'OpenAiError' : usesEnvelope(r.path) ? 'GatewayError' : 'SiteError'}`;

/** The body of a success answer: the route's answer (in the gateway's envelope), a file or stream, or nothing said yet. */
function successContent(r: Route, id: string, components: Record<string, JsonSchema>) {
	const other = r.produces ? { [r.produces]: { schema: { type: 'string', format: 'binary' } } } : {};
	if (!r.answer) return r.produces ? other : undefined;
	const answer = embed(contractJson(r.answer, 'output'), id, components);
	const schema = usesEnvelope(r.path) && !speaksOpenAi(r.path)
		? { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data: answer }, additionalProperties: false }
		: linked(answer);
	// A route with both answers JSON, or the other type when asked (oEmbed's XML).
	return { 'application/json': { schema }, ...other };
}

/** Answers: each success status with its body, each error status the route answers with its namespace's error body. */
function responses(r: Route, id: string, components: Record<string, JsonSchema>) {
	const out: Record<string, object> = {};
	const content = successContent(r, id, components);
	for (const status of successStatuses(r)) {
		const description = usesEnvelope(r.path) ? 'Success: the envelope with the data' : "The route's answer, as WordPress gives it (lists carry `X-WP-Total` and `X-WP-TotalPages`)";
		// 204, and MCP's 202 for a notification, have no body.
		out[status] = status === 204 || status === 202 || !content ? { description } : { description, content };
	}
	// A route that answers another type on request answers its errors in it too (oEmbed's XML).
	const error = { 'application/json': { schema: { $ref: errorRef(r) } }, ...(r.answer && r.produces ? { [r.produces]: { schema: { type: 'string' } } } : {}) };
	for (const status of errorStatuses(r)) out[status] = { description: reasonOf(status), content: error };
	out.default = { description: 'Server error', content: error };
	return out;
}

const SHARED_SCHEMAS: Record<string, JsonSchema> = {
	GatewayError: { type: 'object', required: ['success', 'message'], properties: { success: { const: false }, message: { type: 'string' } } },
	OpenAiError: {
		type: 'object',
		required: ['error'],
		properties: {
			error: {
				type: 'object',
				required: ['message', 'type'],
				properties: { message: { type: 'string' }, type: { type: 'string' }, code: { type: ['string', 'null'] }, param: { type: ['string', 'null'] } },
			},
		},
	},
	SiteError: {
		type: 'object',
		required: ['code', 'message', 'data'],
		properties: { code: { type: 'string' }, message: { type: 'string' }, data: { type: 'object', properties: { status: { type: 'integer' } } } },
	},
};

const tagOf = (r: Route) => namespaceOf(r.path) || 'index';

/** The gateway first, then its sandbox, the site's core, and the extension namespaces: the order of the docs page. */
const TAG_GROUPS: [(tag: string) => boolean, string][] = [
	[(t) => t === 'wdm/v1', 'The messaging gateway: devices (Bearer API key) and everything a device does (instance token).'],
	[(t) => t === 'sandbox/v1', 'The simulated network: play the other side (contacts, pairing, groups) and watch events.'],
	[(t) => ['index', 'cms/v2', 'wp/v2', 'oembed/1.0'].includes(t) || t.startsWith('cms-'), 'The site core, as WordPress serves it.'],
	[() => true, 'An extension namespace of the site.'],
];
const groupOf = (tag: string) => TAG_GROUPS.findIndex(([inGroup]) => inGroup(tag));
const TAG_NOTES: Record<string, string> = {
	index: 'The REST server itself: the site index and batch requests.',
	'cms/v2': 'Posts, pages, media, revisions, autosaves and terms.',
	'wp/v2': "The `cms/v2` routes under stock WordPress's namespace.",
};

/** The OpenAPI 3.1 document of `routes`: one operation per route of the table. */
export function openApiDocument(routes: Route[], info: { title: string; version: string }) {
	const components: Record<string, JsonSchema> = { ...SHARED_SCHEMAS };
	const paths: Record<string, Record<string, object>> = {};
	const tags: string[] = [];
	for (const r of routes) {
		const id = operationId(r);
		const tag = tagOf(r);
		if (!tags.includes(tag)) tags.push(tag);
		const item = (paths[r.path] ??= {});
		const method = r.method.toLowerCase();
		if (item[method]) throw new Error(`route ${r.method} ${r.path} is declared twice`);
		const body = requestBody(r, id, components);
		item[method] = {
			operationId: id,
			summary: r.summary,
			tags: [tag],
			security: SECURITY[r.auth],
			parameters: parameters(r, id, components),
			...(body ? { requestBody: body } : {}),
			responses: responses(r, id, components),
		};
	}
	return {
		openapi: '3.1.0',
		info: {
			...info,
			license: { name: 'MIT', identifier: 'MIT' },
			description:
				'Every route also answers at `/index.php?rest_route=<route>` (e.g. `/index.php?rest_route=/wdm/v1/devices`). ' +
				'Gateway routes (`wdm/v1`, `sandbox/v1`) answer an envelope `{success, data}`; the site routes answer as WordPress does.',
		},
		// Paths are the routes as the spec writes them, under the REST prefix every route is served at.
		servers: [{ url: REST_PREFIX, description: 'This server' }],
		tags: tags
			.map((name, i) => ({ name, i }))
			.sort((a, b) => groupOf(a.name) - groupOf(b.name) || a.i - b.i)
			.map(({ name }) => ({ name, description: TAG_NOTES[name] ?? TAG_GROUPS[groupOf(name)][1] })),
		paths,
		components: { schemas: components, securitySchemes: SECURITY_SCHEMES },
	};
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;


/** Built once per table: converting every schema takes a noticeable moment (tests start many servers). */
const documents = new WeakMap<Route[], OpenApiDocument>();

export function documentOf(routes: Route[]): OpenApiDocument {
	let document = documents.get(routes);
	if (!document) documents.set(routes, (document = openApiDocument(routes, { title: 'WDM reference server', version: packageVersion() })));
	return document;
}

/**
 * `GET /openapi.json`, and the interactive page at `/docs` (Swagger UI, served from its npm package:
 * no CDN; the online validator badge is off). `@fastify/swagger` serves our document as it is (static
 * mode): our routes validate with zod in the handler, not with Fastify schemas it could read.
 */
export function serveOpenApi(app: FastifyInstance, routes: Route[]) {
	app.register(swagger, { mode: 'static', specification: { document: documentOf(routes) as never } });
	app.register(swaggerUi, {
		routePrefix: '/docs',
		logLevel: 'warn',
		theme: { title: 'WDM reference server: API' },
		uiConfig: {
			deepLinking: true,
			tryItOutEnabled: true,
			// Credentials typed into "Authorize" live as long as the page: never in localStorage, where any script of the origin could read them.
			persistAuthorization: false,
			// Hundreds of operations: a filter box, every group closed but the gateway's, which the page opens on.
			filter: true,
			docExpansion: 'none',
			// Serialized into the page's script, where `ui` is Swagger UI's instance; a link to a group (#/...) wins.
			onComplete: new Function("if (!window.location.hash) ui.layoutActions.show(['operations-tag', 'wdm/v1'], true);") as () => void,
		},
	});
	app.get('/openapi.json', async () => app.swagger());
}
