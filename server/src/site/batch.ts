import { z, type ZodType } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { Route } from '../http/route';
import { route } from '../http/route';
import { ApiError, builtInIssues, invalidParams } from '../http/errors';
import { REST_PREFIX } from '../http/dispatch';

/** WordPress's default (`rest_get_max_batch_size`). */
export const MAX_BATCH_REQUESTS = 25;

const batchRequest = z.object({
	method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
	/** A REST route, optionally with a query string: `/cms/v2/posts/7?force=true`. */
	path: z.string().min(1),
	body: z.record(z.string(), z.unknown()).optional(),
	headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
});
type BatchRequest = z.output<typeof batchRequest>;

const batchBody = z.object({
	validation: z.enum(['require-all-validate', 'normal']).default('normal'),
	requests: z.array(batchRequest).min(1).max(MAX_BATCH_REQUESTS),
});

/** One answer of the batch, as WordPress envelopes it. */
interface Envelope {
	body: unknown;
	status: number;
	headers: Record<string, string>;
}

const errorEnvelope = (error: ApiError): Envelope => ({
	body: { code: error.code, message: error.message, data: { status: error.status, ...error.data } },
	status: error.status,
	headers: {},
});

/** Splits `/cms/v2/posts?status=draft` the way the server reads a URL (repeated keys become arrays). */
function splitPath(path: string): { path: string; query: Record<string, string | string[]> } {
	const q = path.indexOf('?');
	const bare = (q < 0 ? path : path.slice(0, q)).split('#')[0];
	const query: Record<string, string | string[]> = Object.create(null);
	for (const [key, value] of new URLSearchParams(q < 0 ? '' : path.slice(q + 1).split('#')[0])) {
		const seen = query[key];
		query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
	}
	// The router ignores a trailing slash.
	return { path: bare.length > 1 ? bare.replace(/\/+$/, '') : bare, query };
}

/**
 * The route of the table a request would reach, with its path parameters; static segments win over
 * parameters, as in the router. Undefined when none matches.
 */
export function matchRoute(routes: Route[], method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
	const segments = path.split('/');
	let best: { route: Route; params: Record<string, string>; rank: string } | undefined;
	for (const candidate of routes) {
		if (candidate.method !== method) continue;
		const pattern = candidate.path.split('/');
		if (pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		let rank = '';
		const fits = pattern.every((part, i) => {
			const name = part.match(/^\{(\w+)\}$/)?.[1];
			rank += name ? '1' : '0';
			if (!name) return part === segments[i];
			if (segments[i] === '') return false;
			try {
				params[name] = decodeURIComponent(segments[i]);
			} catch {
				return false;
			}
			return true;
		});
		if (fits && (!best || rank < best.rank)) best = { route: candidate, params, rank };
	}
	return best && { route: best.route, params: best.params };
}

function check(schema: ZodType | undefined, input: unknown, where: string) {
	if (!schema) return;
	const value = input ?? {};
	const result = schema.safeParse(value, builtInIssues);
	if (!result.success) throw invalidParams(result.error, value, where);
}

/**
 * What WordPress checks before it runs any request of a batch: the route exists, allows batching, and
 * its parameters are valid. Undefined when the request may run; the error otherwise.
 */
function validate(routes: Route[], request: BatchRequest): ApiError | undefined {
	const { path, query } = splitPath(request.path);
	const match = matchRoute(routes, request.method, path);
	if (!match) return new ApiError(404, 'No route was found matching the URL and request method.', 'rest_no_route');
	if (!match.route.batch) return new ApiError(400, 'The requested route does not support batch requests.', 'rest_batch_not_allowed');
	try {
		check(match.route.params, match.params, 'path');
		check(match.route.query, query, 'query');
		check(match.route.body, request.body, 'body');
	} catch (error) {
		if (error instanceof ApiError) return error;
		throw error;
	}
	return undefined;
}

/** Headers a request of the batch may not set: the batch's caller and the transport decide them. */
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'host', 'connection', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade']);
/** Transport headers of an answer, left out of its envelope (WordPress shows the headers the route set). */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Where this server listens, as the server itself can reach it. */
function ownAddress(request: FastifyRequest): string {
	const address = request.server.server.address();
	if (!address || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
	const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
	return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * Runs one request of the batch through the server itself, over HTTP on its own address, as the
 * batch's caller (same `Authorization`): it is authenticated, validated and answered exactly as on
 * its own. (Fastify's `inject` would save the round trip, but needs `require` of an ES module that
 * Node 20 before 20.19 cannot load.)
 */
async function run(request: FastifyRequest, item: BatchRequest): Promise<Envelope> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(item.headers ?? {})) {
		if (!RESERVED_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	}
	if (request.headers.authorization) headers.authorization = request.headers.authorization;
	if (item.body !== undefined) headers['content-type'] = 'application/json';
	let res: Response;
	try {
		res = await fetch(`${ownAddress(request)}${REST_PREFIX}${item.path.startsWith('/') ? '' : '/'}${item.path}`, {
			method: item.method,
			headers,
			body: item.body === undefined ? undefined : JSON.stringify(item.body),
			redirect: 'manual',
		});
	} catch (error) {
		// A path fetch cannot put in a URL, or a header value it refuses.
		// (By name: under a test runner fetch's TypeError is another realm's class.)
		const { name, message } = error as Error;
		if (name === 'TypeError') return errorEnvelope(new ApiError(400, `Could not parse the request: ${message}`, 'parse_path_failed'));
		throw error;
	}
	const text = await res.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		/* not JSON: keep the text */
	}
	const answerHeaders: Record<string, string> = {};
	res.headers.forEach((value, name) => {
		if (!TRANSPORT_HEADERS.has(name)) answerHeaders[name] = value;
	});
	return { body, status: res.status, headers: answerHeaders };
}

/** `POST /batch/v1`; `routes` gives the table the requests are matched against. */
export function batchRoutes(routes: () => Route[]): Route[] {
	return [
		route({
			method: 'POST',
			path: '/batch/v1',
			auth: 'site',
			summary: 'Run up to 25 requests to batch-capable routes in one call; answers 207 with one response per request',
			body: batchBody,
			handler: async ({ body, request, reply }) => {
				const checks = body.requests.map((item) => validate(routes(), item));
				reply.code(207);
				if (body.validation === 'require-all-validate' && checks.some(Boolean)) {
					// Nothing runs: the invalid requests get their error, the others null.
					return { failed: 'validation', responses: checks.map((error) => (error ? errorEnvelope(error) : null)) };
				}
				const responses: Envelope[] = [];
				// One after the other, in order: a later request may read what an earlier one wrote.
				for (const [i, item] of body.requests.entries()) {
					const error = checks[i];
					responses.push(error ? errorEnvelope(error) : await run(request, item));
				}
				return { responses };
			},
		}),
	];
}
