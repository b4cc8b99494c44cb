import { z, type ZodType } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../../http/errors';
import { callRoute, REST_PREFIX } from '../../http/dispatch';
import type { Method, Route } from '../../http/route';
import type { Services } from '../../services';
import { sitePostTypes } from '../registry';
import { InProcessReply } from '../../http/in-process';

/**
 * The engine's MCP tools. Each tool IS a route of the route table: its input schema is the route's
 * parameters (path, query, body) as JSON Schema, and running it runs the route as the caller (same
 * authentication, validation and capability checks), so a tool and its route cannot disagree.
 * Tools whose route the server lacks (another namespace's module not loaded) are left out.
 */

export interface McpTool {
	name: string;
	description: string;
	inputSchema: JsonObjectSchema;
	route: Route;
}

/** A tool as listed: its name, what it does, the JSON Schema of its input (the route's parameters). */
export const toolAnswer = z.object({
	name: z.string(),
	description: z.string(),
	inputSchema: z.object({
		type: z.literal('object'),
		properties: z.record(z.string(), z.record(z.string(), z.unknown())).meta({ description: "Each parameter's JSON Schema" }),
		required: z.array(z.string()),
		additionalProperties: z.literal(false),
	}),
});

type JsonObjectSchema = z.output<typeof toolAnswer>['inputSchema'];

/** The engine's own operations offered as tools, each by the route it runs. */
const ENGINE_TOOLS: { name: string; description: string; method: Method; path: string }[] = [
	{ name: 'list-post-types', description: 'List the post types the engine has added to the site', method: 'GET', path: '/engine/v2/get-post-types' },
	{ name: 'add-post-type', description: 'Add a post type to the site', method: 'POST', path: '/engine/v2/add-post-type' },
	{ name: 'list-taxonomies', description: 'List the taxonomies the engine has added to the site', method: 'GET', path: '/engine/v2/get-taxonomies' },
	{ name: 'add-taxonomy', description: 'Add a taxonomy to the site', method: 'POST', path: '/engine/v2/add-taxonomy' },
	{ name: 'list-meta-boxes', description: 'List the meta boxes of the engine', method: 'GET', path: '/engine/v2/get-meta-boxes' },
	{ name: 'list-relations', description: 'List the relations between post types', method: 'GET', path: '/engine/v2/get-relations' },
	{ name: 'list-queries', description: 'List the stored queries', method: 'GET', path: '/engine/v2/get-queries' },
	{ name: 'get-query', description: 'Get a stored query by id or slug', method: 'GET', path: '/engine/v2/get-query/{id}' },
	{ name: 'add-query', description: 'Store a query of posts, terms or users (query_type, args with filters, order and paging)', method: 'POST', path: '/engine/v2/add-query' },
	{ name: 'preview-query', description: 'Run a query definition (query_type and args) against the site without storing it', method: 'POST', path: '/engine/v2/update-query-preview' },
	{ name: 'run-query', description: 'Run a stored query (query_id) and get a page of its rows', method: 'POST', path: '/engine/v2/table-fetch-data' },
	{ name: 'search-posts', description: 'Find published posts by title, or terms of a taxonomy by name', method: 'GET', path: '/engine/v2/search-posts' },
];

/** JSON Schema per route: converting the schemas is the slow part, and the table never changes. */
const schemaCache = new WeakMap<Route, { schema: JsonObjectSchema; parts: Record<string, 'params' | 'query' | 'body'> }>();

/** The route's parameters as one input object, and which part of the request each goes to (path first). */
function routeInput(route: Route) {
	const cached = schemaCache.get(route);
	if (cached) return cached;
	const schema: JsonObjectSchema = { type: 'object', properties: {}, required: [], additionalProperties: false };
	const parts: Record<string, 'params' | 'query' | 'body'> = {};
	for (const part of ['params', 'query', 'body'] as const) {
		const zod = route[part] as ZodType | undefined;
		if (!zod) continue;
		const json = z.toJSONSchema(zod, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
		for (const [name, property] of Object.entries(json.properties ?? {})) {
			if (parts[name]) continue;
			parts[name] = part;
			schema.properties[name] = property;
			if (json.required?.includes(name)) schema.required.push(name);
		}
	}
	const result = { schema, parts };
	schemaCache.set(route, result);
	return result;
}

const findRoute = (table: Route[], method: Method, path: string) => table.find((r) => r.method === method && r.path === path && !r.rawBody);

/** A tool name from a post type slug (tool names are letters, digits, hyphens and slashes). */
const toolSlug = (slug: string) => slug.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The tools of the site now: the engine's operations, and creating an item of each post type through `cms/v2`. */
export function siteTools(services: Services, table: Route[]): McpTool[] {
	const tools: McpTool[] = [];
	const add = (name: string, description: string, route: Route | undefined) => {
		if (route && !tools.some((tool) => tool.name === name)) tools.push({ name, description, route, inputSchema: routeInput(route).schema });
	};
	for (const tool of ENGINE_TOOLS) add(tool.name, tool.description, findRoute(table, tool.method, tool.path));
	for (const type of sitePostTypes(services.store)) {
		add(`create-${toolSlug(type.slug)}`, `Create a ${type.singular_name.toLowerCase()} (post type "${type.slug}"), a draft unless a status is given`, findRoute(table, 'POST', `/cms/v2/${type.rest_base}`));
	}
	return tools;
}

export function findTool(services: Services, table: Route[], name: string): McpTool {
	const tool = siteTools(services, table).find((candidate) => candidate.name === name);
	if (!tool) throw new ApiError(404, `No MCP tool is named "${name}".`, 'rest_mcp_tool_invalid_name');
	return tool;
}

/** The input split into the route's path parameters, query and body; unknown fields and bad path values are a 400. */
function splitInput(tool: McpTool, input: Record<string, unknown>) {
	const { parts } = routeInput(tool.route);
	const request = { params: {} as Record<string, string>, query: {} as Record<string, unknown>, body: {} as Record<string, unknown> };
	const params: Record<string, string> = {};
	for (const [name, value] of Object.entries(input)) {
		const part = parts[name];
		if (!part) params[name] = `${name} is not an input of the tool "${tool.name}"`;
		else if (part === 'params') request.params[name] = typeof value === 'number' ? String(value) : (value as string);
		else request[part][name] = value;
	}
	// A path value outside its pattern would be no route at all: for a tool it is a bad input.
	for (const [name, pattern] of Object.entries(tool.route.patterns ?? {})) {
		const value = request.params[name];
		if (value !== undefined && !new RegExp(`^(?:${pattern})$`).test(String(value))) params[name] = `${name} must match the pattern ^${pattern}$`;
	}
	if (Object.keys(params).length) throw badRequest(`Invalid parameter(s): ${Object.keys(params).join(', ')}`, 'rest_invalid_param', { params });
	const missing = [...tool.route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((name) => request.params[name] === undefined);
	if (missing.length) throw badRequest(`Missing parameter(s): ${missing.join(', ')}`, 'rest_missing_callback_param', { params: missing });
	return request;
}

/**
 * Runs a tool: its route, in process, as the caller of `outer` (its `Authorization`), through the
 * route's authentication, validation and handler, as `POST /batch/v1` runs its requests. Route errors
 * are thrown as they are (ApiError).
 */
export async function runTool(services: Services, outer: FastifyRequest, tool: McpTool, input: Record<string, unknown>): Promise<{ status: number; data: unknown }> {
	const { params, query, body } = splitInput(tool, input);
	const path = tool.route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));
	const headers: Record<string, string> = outer.headers.authorization ? { authorization: outer.headers.authorization } : {};
	if (tool.route.body) headers['content-type'] = 'application/json';
	const request = { method: tool.route.method, url: REST_PREFIX + path, headers, params, query, body: tool.route.body ? body : undefined, log: outer.log };
	const reply = new InProcessReply();
	const data = await callRoute(tool.route, services, request as unknown as FastifyRequest, reply as unknown as FastifyReply, false);
	return { status: reply.statusCode, data: data === reply ? reply.payload : data };
}
