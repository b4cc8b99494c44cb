import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Route } from '../http/route';
import { answerContextSet, route, setAnswerContext } from '../http/route';
import { ApiError } from '../http/errors';
import { allowFor, callRoute, parse, REST_PREFIX, routesByPath } from '../http/dispatch';
import { InProcessReply, matchRoute, splitPath } from '../http/in-process';
import { phpMap, withoutPreviousLinks } from '../http/rest-server';
import type { Services } from '../services';
import { expandEngineRoutes } from './content/engine-types';
import { toList } from './content/params';

/** WordPress's default (`rest_get_max_batch_size`). */
export const MAX_BATCH_REQUESTS = 25;

const batchRequest = z.object({
	method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
	/** A REST route, optionally with a query string: `/cms/v2/posts/7?force=true`. */
	path: z
		.string()
		.refine((path) => path !== '', { error: 'must not be empty' })
		.meta({ required: true }),
	// Open objects, as WordPress declares them (`properties` none, any other allowed).
	body: z.record(z.string(), z.unknown()).optional().meta({ properties: {}, additionalProperties: true }),
	headers: z
		.record(z.string(), z.union([z.string(), z.array(z.string())]))
		.optional()
		.meta({ properties: {} }),
});
type BatchRequest = z.output<typeof batchRequest>;

const batchBody = z.object({
	validation: z.enum(['require-all-validate', 'normal']).default('normal'),
	// As WordPress reads an array parameter, text is a list (`"nope"` is one request, not an object).
	// No minimum: WordPress answers an empty list with no responses (207).
	requests: z.preprocess(toList, z.array(batchRequest).max(MAX_BATCH_REQUESTS)),
});

/** One answer of the batch, as WordPress envelopes it. */
/** One request's answer in the batch: what the route answered (its own contract), its status and headers. */
const envelopeAnswer = z.object({
	body: z.unknown().meta({ description: "The route's answer, or its error" }),
	status: z.int(),
	// PHP's empty map, `[]`, when there are none (a request refused before it ran).
	headers: z.union([z.record(z.string(), z.string()), z.tuple([])]),
});
type Envelope = z.output<typeof envelopeAnswer>;

/** The batch's answer: each request's answer in order, or with `require-all-validate` and an invalid request, only the validation's. */
const batchAnswer = z.union([
	z.object({ responses: z.array(envelopeAnswer) }),
	z.object({ failed: z.literal('validation'), responses: z.array(envelopeAnswer.nullable()) }),
]);

const errorEnvelope = (error: ApiError): Envelope => ({
	body: { code: error.code, message: error.message, data: { status: error.status, ...error.data } },
	status: error.status,
	headers: [],
});

/** A request of the batch as matched: its route, path parameters and query, and what refuses it before it runs. */
interface Prepared {
	route: Route;
	params: Record<string, string>;
	query: Record<string, string | string[]>;
	error?: ApiError;
}

/**
 * What WordPress checks before it runs any request of a batch: the route exists, allows batching, and
 * its parameters are valid. The error when no route matches, or the matched request with its error, if any.
 */
function prepare(routes: Route[], request: BatchRequest): Prepared | ApiError {
	const { path, query } = splitPath(request.path);
	const match = matchRoute(routes, request.method, path);
	if (!match) return new ApiError(404, 'No route was found matching the URL and request method.', 'rest_no_route');
	const prepared = { ...match, query };
	if (!match.route.batch) return { ...prepared, error: new ApiError(400, 'The requested route does not support batch requests.', 'rest_batch_not_allowed') };
	try {
		parse(match.route.params, match.params, 'path', false);
		parse(match.route.query, query, 'query', false);
		parse(match.route.body, request.body, 'body', false);
	} catch (error) {
		if (error instanceof ApiError) return { ...prepared, error };
		throw error;
	}
	return prepared;
}

/** The refusal of a request before it runs, as an answer; one that matched a route names its `Allow`, as WordPress's `respond_to_request`. */
const refusal = (check: Prepared | ApiError, allow = ''): Envelope => {
	const answer = errorEnvelope(check instanceof ApiError ? check : check.error!);
	return allow ? { ...answer, headers: { Allow: allow } } : answer;
};

/** Headers a request of the batch may not set: the batch's caller and the transport decide them. */
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'host', 'connection', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade']);

/** What an HTTP request can carry: a header name is a token, a value has no line break or NUL. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_HEADER_VALUE = /[\r\n\0]/;

/**
 * Runs one request of the batch in process, the way the server runs a request on its own: as the
 * batch's caller (same `Authorization`), through the route's auth, validation and handler.
 */
async function run(services: Services, batch: FastifyRequest, item: BatchRequest, { route, params, query, error: refused }: Prepared, group: Route[]): Promise<Envelope> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(item.headers ?? {})) {
		if (RESERVED_HEADERS.has(name.toLowerCase())) continue;
		const text = Array.isArray(value) ? value.join(', ') : value;
		if (!HEADER_NAME.test(name) || BAD_HEADER_VALUE.test(text)) {
			return errorEnvelope(new ApiError(400, `Could not parse the request: header ${JSON.stringify(name)} cannot be sent over HTTP`, 'parse_path_failed'));
		}
		headers[name.toLowerCase()] = text.trim();
	}
	if (batch.headers.authorization) headers.authorization = batch.headers.authorization;
	if (item.body !== undefined) headers['content-type'] = 'application/json';
	const request = { method: item.method, url: REST_PREFIX + item.path.split('#')[0], headers, params, query, body: item.body, log: batch.log } as unknown as FastifyRequest;
	// As each answer of the REST server (`rest_send_allow_header` runs on every dispatch, the request's own callbacks).
	const allow = allowFor(group, services, request, params);
	if (refused) return refusal(refused, allow);
	const reply = new InProcessReply();
	if (allow) reply.header('Allow', allow);
	try {
		const data = await callRoute(route, services, request, reply as unknown as FastifyReply, false);
		// As the dispatch: `Allow` again after the write (a force-deleted item allows nothing), in the context it answered in.
		if (!answerContextSet(request)) setAnswerContext(request, 'edit');
		const after = allowFor(group, services, request, params);
		if (after) reply.header('Allow', after);
		else delete reply.headers.Allow;
		// What the REST server does to an answer's data that applies here: a deletion's `previous` has no links.
		return { body: withoutPreviousLinks(data === reply ? reply.payload : data) ?? null, status: reply.statusCode, headers: phpMap(reply.headers) };
	} catch (error) {
		if (error instanceof ApiError) return refusal(error, allow);
		// As the server answers a crash: logged, and a 500 that says nothing more.
		batch.log.error({ err: error }, 'request failed');
		return errorEnvelope(new ApiError(500, 'internal server error', 'internal_error'));
	}
}

/**
 * Keeps the batch's answer within `--batch-answer-max-bytes`: an answer whose body does not fit any more
 * keeps its status and headers (the request ran: a 201 keeps its `Location`), and its body becomes an
 * error saying so, in WordPress's error shape. Bodies that fit are kept whole, never cut.
 */
function within(budget: { left: number; limit: number }, answer: Envelope): Envelope {
	const size = Buffer.byteLength(JSON.stringify(answer.body ?? null));
	if (size <= budget.left) {
		budget.left -= size;
		return answer;
	}
	const message =
		`The answer of this request (${size} bytes) does not fit in the batch's answer, which is at most ${budget.limit} bytes ` +
		'(server setting --batch-answer-max-bytes). The request ran (see status): read its result back, or send it on its own.';
	return { ...answer, body: { code: 'rest_batch_answer_too_large', message, data: { status: answer.status, size, limit: budget.limit } } };
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
			answer: batchAnswer,
			status: 207,
			handler: async ({ services, body, request }) => {
				// The engine's post types and taxonomies by their own routes: an unknown REST base is no route, as in WordPress.
				const table = expandEngineRoutes(routes(), services.store);
				const checks = body.requests.map((item) => prepare(table, item));
				const byPath = routesByPath(table);
				if (body.validation === 'require-all-validate' && checks.some((check) => check instanceof ApiError || check.error)) {
					// Nothing runs: the invalid requests get their error, the others null.
					return { failed: 'validation' as const, responses: checks.map((check) => (check instanceof ApiError || check.error ? refusal(check) : null)) };
				}
				const responses: Envelope[] = [];
				const budget = { left: services.config.batchAnswerMaxBytes, limit: services.config.batchAnswerMaxBytes };
				// One after the other, in order: a later request may read what an earlier one wrote.
				for (const [i, item] of body.requests.entries()) {
					const check = checks[i];
					const answer = check instanceof ApiError ? refusal(check) : await run(services, request, item, check, byPath.get(check.route.path) ?? []);
					responses.push(within(budget, answer));
				}
				return { responses };
			},
		}),
	];
}
