import { type IncomingMessage, maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ZodType } from 'zod';
import type { Services } from '../services';
import type { UserRow } from '../store/types';
import type { AnswerCheck, Route, RouteContext } from './route';
import { answerContextSet, namespaceOf, setAnswerContext } from './route';
import { ApiError, badRequest, openAiError, fieldName, invalidParams, safeParse, validationMessage } from './errors';
import { authenticate, authenticateOnce } from './auth';
import { bodyTooLarge, LIMIT_SETTINGS, limitBody, routeBodyLimit } from './limits';
import type { Config } from '../config';
import { checkJsonBody } from './json';
import { multipartFields, refuseAfterBody, urlencodedFields } from './forms';
import { envelope, overrideMethod, shapeAnswer, wantsEnvelope } from './rest-server';
import { InProcessReply, matchRoute, splitPath } from './in-process';

/** Every REST route is served under this prefix; `index.php?rest_route=` is rewritten onto it. */
export const REST_PREFIX = '/wp-json';

/** Namespaces that answer with the gateway envelope; the others answer WordPress-style. */
const GATEWAY_NAMESPACES = new Set(['wdm/v1', 'sandbox/v1']);

/** A gateway route: something after the namespace (`/wp-json/wdm/v1` alone is the namespace's index). */
const isGatewayUrl = (url: string) => /^\/wp-json\/(wdm|sandbox)\/v1\/[^/?#]/.test(url);

/**
 * Whether a route answers with the gateway envelope: the routes of a gateway namespace except the
 * namespace's index, which the REST server itself serves (bare, as WordPress does).
 */
export const usesEnvelope = (path: string) => GATEWAY_NAMESPACES.has(namespaceOf(path)) && path !== `/${namespaceOf(path)}`;

/**
 * Maps the plain-permalink form onto the pretty one, as the host site does:
 * `/index.php?rest_route=/wdm/v1/devices&x=1` -> `/wp-json/wdm/v1/devices?x=1`.
 */
export function rewriteRestRoute(raw: string): string {
	// A site URL written with a trailing slash gives `//wp-json/...`: hosts read it as one slash.
	const url = raw.replace(/^\/{2,}/, '/');
	const q = url.indexOf('?');
	const path = q < 0 ? url : url.slice(0, q);
	if (path === REST_PREFIX) return `${REST_PREFIX}/${q < 0 ? '' : url.slice(q)}`;
	if (q < 0 || (path !== '/index.php' && path !== '/')) return url;
	const params = new URLSearchParams(url.slice(q + 1));
	const route = params.get('rest_route');
	if (route === null) return url;
	params.delete('rest_route');
	const rest = params.toString();
	// The parameter arrives decoded: encode it again so that `%`, `?` or `#` in it stay part of the path.
	const encoded = encodeURI(route.startsWith('/') ? route : `/${route}`).replace(/[?#]/g, encodeURIComponent);
	return `${REST_PREFIX}${encoded}${rest ? `?${rest}` : ''}`;
}

/**
 * `/wdm/v1/devices/{name}` -> `/wp-json/wdm/v1/devices/:name`. A last segment whose pattern takes `/`
 * (the AI proxy's `(?P<api_path>.+)`, an MCP tool name) is the router's wildcard: WordPress matches
 * such a route across segments, so `/ai-api-proxy/chat/completions` is one `api_path`.
 */
export function fastifyPath(route: Route): string {
	const wildcard = wildcardParam(route);
	return REST_PREFIX + route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === wildcard ? '*' : `:${name}`));
}

/** The path parameter that takes the rest of the path, if the route has one. */
const wildcardParam = (route: Route) => compiled(route).wildcard;

/** What a route's path says of its parameters, worked out once per route: every request matches them (three times). */
const compiledRoutes = new WeakMap<Route, { wildcard: string | undefined; patterns: [string, RegExp][] }>();

function compiled(route: Route) {
	let known = compiledRoutes.get(route);
	if (!known) {
		const last = /\{(\w+)\}$/.exec(route.path)?.[1];
		const pattern = last && route.patterns?.[last];
		const wildcard = pattern && new RegExp(`^(?:${pattern})$`).test('a/b') ? last : undefined;
		const patterns = Object.entries(route.patterns ?? {}).map(([name, source]): [string, RegExp] => [name, new RegExp(`^(?:${source})$`)]);
		compiledRoutes.set(route, (known = { wildcard, patterns }));
	}
	return known;
}

/**
 * Validates one part of the request: gateway routes answer one sentence, site routes WordPress's
 * `data.params`. Whatever the input, the answer is the data or a 400.
 */
export function parse(schema: ZodType | undefined, input: unknown, where: string, gateway: boolean): unknown {
	if (!schema) return input;
	const result = safeParse(schema, input ?? {});
	if (result.success) return result.data;
	if ('field' in result) {
		const field = fieldName(result.field, where);
		const message = `${field} is invalid: an object must not have "toString" or "valueOf" fields`;
		const param = result.field.length ? String(result.field[0]) : where;
		throw gateway ? badRequest(message) : badRequest(`Invalid parameter(s): ${param}`, 'rest_invalid_param', { params: { [param]: message } });
	}
	throw gateway ? badRequest(validationMessage(result.error, result.input, where)) : invalidParams(result.error, result.input, where);
}

/**
 * A site route's body as WordPress takes it: the named fields of a JSON object. A JSON list or a single
 * value names none (PHP reads a list as fields `0`, `1`... that no route has), so a route that takes an
 * object gets no fields, and answers as for an empty body; a route that takes more (MCP's batches) gets it.
 */
function namedFields(route: Route, body: unknown): unknown {
	const objectOnly = route.body?.def.type === 'object';
	return objectOnly && body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body)) ? undefined : body;
}

/**
 * Runs a route on a request: authenticates the caller, validates path, query and body, and returns
 * what the handler returns (without the envelope). `POST /batch/v1` runs its requests through it too.
 */
export async function callRoute(route: Route, services: Services, request: FastifyRequest, reply: FastifyReply, gateway = usesEnvelope(route.path)) {
	matchParams(route, request);
	const { user, device, siteUser = null } = authenticateOnce(route.auth, request, services);
	const ctx = {
		params: parse(route.params, request.params, 'path', gateway),
		query: parse(route.query, request.query, 'query', gateway),
		body: parse(route.body, gateway ? request.body : namedFields(route, request.body), 'body', gateway),
		headers: parse(route.headers, request.headers, 'header', gateway),
		user,
		device,
		siteUser,
		services,
		request,
		reply,
	} as RouteContext<unknown, unknown, unknown>;
	if (typeof route.status === 'number') reply.code(route.status);
	return route.handler(ctx);
}

/**
 * The path parameters by the route's names (the router's wildcard is the parameter that takes the rest
 * of the path); a segment outside its pattern is no route at all, as in WordPress.
 */
export function matchParams(route: Route, request: FastifyRequest) {
	const wildcard = wildcardParam(route);
	if (wildcard) {
		const { '*': rest, ...params } = request.params as Record<string, string>;
		if (rest !== undefined) request.params = { ...params, [wildcard]: rest };
	}
	checkPatterns(route, request);
}

function checkPatterns(route: Route, request: FastifyRequest) {
	const params = request.params as Record<string, string>;
	for (const [name, pattern] of compiled(route).patterns) {
		if (!pattern.test(params[name] ?? '')) throw noRoute(request);
	}
}

const noRoute = (request: FastifyRequest) => {
	const path = request.url.split('?')[0].replace(REST_PREFIX, '') || '/';
	return new ApiError(404, `no route matches ${request.method} ${path}`, 'rest_no_route');
};

/**
 * The `Allow` header of an answer (`rest_send_allow_header`): the methods of the matched path, in the
 * table's order, less those whose `allowed` check says no for this caller (WordPress drops the methods
 * whose `permission_callback` fails). `group` is the path's routes.
 */
export function allowFor(group: Route[], services: Services, request: FastifyRequest, params: Record<string, string>): string {
	const methods: string[] = [];
	let caller: { siteUser: UserRow | null } | undefined;
	for (const r of group) {
		if (methods.includes(r.method)) continue;
		if (r.allowed) {
			try {
				caller ??= { siteUser: authenticate('site', request, services).siteUser ?? null };
				if (!r.allowed({ services, siteUser: caller.siteUser, params, request })) continue;
			} catch {
				continue;
			}
		}
		methods.push(r.method);
	}
	return methods.join(', ');
}

/** Sets the `Allow` header, or none when the caller may use no method (WordPress sends no empty one). */
export function setAllow(reply: FastifyReply, methods: string) {
	if (methods) reply.header('Allow', methods);
}

/** The routes of each path, in the table's order, for `allowFor`. */
export function routesByPath(routes: Route[]): Map<string, Route[]> {
	const byPath = new Map<string, Route[]>();
	for (const r of routes) {
		const group = byPath.get(r.path);
		if (group) group.push(r);
		else byPath.set(r.path, [r]);
	}
	return byPath;
}

/**
 * The raw request as the router will see it: the plain-permalink form rewritten onto `/wp-json`, and a
 * REST POST turned into the method it names (`X-HTTP-Method-Override`, `?_method=`).
 */
export function rewriteRequest(req: IncomingMessage): string {
	const url = rewriteRestRoute(req.url ?? '/');
	if (url.startsWith(`${REST_PREFIX}/`)) overrideMethod(req, url);
	return url;
}

/**
 * A GET of this site's REST API answered in process, as `outer`'s caller (same credentials), without
 * HTTP: the route's answer, or its error as the error object WordPress embeds. Undefined when the URL
 * is not one of this site's REST routes.
 */
async function getInProcess(routes: Route[], services: Services, outer: FastifyRequest, url: string): Promise<unknown> {
	const rewritten = rewriteRestRoute(url);
	if (!rewritten.startsWith(`${REST_PREFIX}/`)) return undefined;
	const { path, query } = splitPath(rewritten.slice(REST_PREFIX.length));
	const match = matchRoute(routes, 'GET', path);
	if (!match) return errorBody(rewritten, new ApiError(404, 'No route was found matching the URL and request method.', 'rest_no_route'));
	const headers: Record<string, string> = outer.headers.authorization ? { authorization: outer.headers.authorization } : {};
	const request = { method: 'GET', url: rewritten, headers, params: match.params, query, body: undefined, log: outer.log };
	const reply = new InProcessReply();
	try {
		const data = await callRoute(match.route, services, request as unknown as FastifyRequest, reply as unknown as FastifyReply);
		return data === reply ? reply.payload : data;
	} catch (error) {
		if (error instanceof ApiError) return errorBody(rewritten, error);
		outer.log.error({ err: error }, 'request failed');
		return errorBody(rewritten, new ApiError(500, 'internal server error', 'internal_error'));
	}
}

/**
 * Registers each route of the table on the Fastify instance: auth, validation, then the answer as the
 * REST server shapes it (`rest-server.ts`) for the site's namespaces, or in the gateway's envelope.
 */
export function registerRoutes(app: FastifyInstance, routes: Route[], services: Services, checkAnswer?: AnswerCheck) {
	const byPath = routesByPath(routes);
	for (const route of routes) {
		const gateway = usesEnvelope(route.path);
		// The indexes link whatever `_fields` asks (WordPress's `get_index` adds its links itself; the
		// controllers add theirs only when `_links` is asked for).
		const linksAlways = route.path === '/' || namespaceOf(route.path) === route.path.slice(1);
		const group = byPath.get(route.path) ?? [route];
		const options: RouteOptions = {
			method: route.method,
			url: fastifyPath(route),
			// For an answer made before the handler (a body that is no JSON): the route's `Allow`, as WordPress sends it.
			config: {
				allowOf: (request: FastifyRequest) => allowFor(group, services, request, request.params as Record<string, string>),
				// The matched route decides (`DELETE .../ai-api-proxy/settings` is the forwarding route, not the settings').
				openAi: speaksOpenAi(route.path),
			} as RouteOptions['config'],
			bodyLimit: routeBodyLimit(services.config, route),
			// Credentials first: a request whose credentials are wrong is refused before its body is read.
			// (Both hooks take a callback: an async hook costs every request a promise and a turn of the microtask queue.)
			onRequest: (request, _reply, done) => {
				try {
					matchParams(route, request);
					authenticateOnce(route.auth, request, services);
				} catch (error) {
					return done(error as Error);
				}
				done();
			},
			// Then the body's limit follows the caller: small without credentials, large only where media goes.
			preParsing: (request, _reply, payload, done) => {
				let limited;
				try {
					const caller = authenticateOnce(route.auth, request, services);
					limited = limitBody(services.config, route, request, payload, !caller.user && !caller.device && !caller.siteUser);
				} catch (error) {
					return done(error as Error);
				}
				done(null, limited);
			},
			handler: async (request, reply) => {
				matchParams(route, request);
				setAllow(reply, allowFor(group, services, request, request.params as Record<string, string>));
				const data = await callRoute(route, services, request, reply, gateway);
				// WordPress computes `Allow` after the callback: a write may change it (a deleted item allows nothing).
				if (route.method !== 'GET') {
					// A site write answers in the edit context unless the route said otherwise, as WordPress's controllers.
					if (!gateway && !answerContextSet(request)) setAnswerContext(request, 'edit');
					const allow = allowFor(group, services, request, request.params as Record<string, string>);
					// Written only when it changed: a removed header makes Fastify's header object slow for the rest of the answer.
					if (reply.getHeader('allow') !== (allow || undefined)) {
						if (allow) reply.header('Allow', allow);
						else reply.removeHeader('Allow');
					}
				}
				// A route that answered by itself returned the reply, which is a thenable: awaiting it gave `undefined`
				// once the answer was out. Nothing more to send.
				if (data === reply || reply.sent) {
					// A stream the route took over (`hijack`, the event streams) skips Fastify's hooks: checked here, by its head.
					if (checkAnswer && reply.raw.headersSent && !reply.raw.writableEnded) {
						const contentType = reply.raw.getHeader('content-type');
						checkAnswer({ route, request, status: reply.raw.statusCode, contentType: contentType === undefined ? undefined : String(contentType), payload: undefined });
					}
					return reply;
				}
				if (gateway) return { success: true, data: data ?? null };
				return shapeAnswer(data, request, reply, { baseUrl: services.baseUrl, get: (url) => getInProcess(routes, services, request, url) }, { linksAlways });
			},
		};
		if (checkAnswer) options.onSend = contractCheck(route, checkAnswer);
		if (route.rawBody) app.register(async (scope) => rawBodies(scope, services.config).route(options));
		else app.route(options);
	}
}

/**
 * The test suites' contract check on every answer of `route`: an answer that breaks it becomes a 500
 * naming why, so that the test that asked fails (a stream is already on its way: the check only records).
 */
function contractCheck(route: Route, check: AnswerCheck) {
	return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
		const contentType = reply.getHeader('content-type') as string | undefined;
		const broken = check({ route, request, status: reply.statusCode, contentType, payload });
		const streaming = payload !== null && typeof payload === 'object' && !Buffer.isBuffer(payload);
		if (!broken || streaming) return payload;
		reply.code(500).header('content-type', 'application/json; charset=utf-8');
		return JSON.stringify({ code: 'contract_violation', message: broken, data: { status: 500 } });
	};
}

/**
 * A scope where every body arrives unparsed, as a Buffer (a file upload), but a multipart form, read
 * with its files (`MultipartForm`); elsewhere bodies are JSON only.
 */
function rawBodies(scope: FastifyInstance, config: Config): FastifyInstance {
	scope.removeAllContentTypeParsers();
	scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
	scope.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload: IncomingMessage) =>
		multipartFields(payload, String(request.headers['content-type']), config, { maxBytes: request.routeOptions.bodyLimit }),
	);
	return scope;
}

function fromFastify(error: FastifyError, request: FastifyRequest, config: Config): ApiError {
	if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
		// Fastify's own check (the backstop of `limitBody`, and the routes outside the table): the setting of that limit.
		const limit = request.routeOptions?.bodyLimit ?? config.bodyLimit;
		return bodyTooLarge(limit, LIMIT_SETTINGS.find((setting) => config[setting] === limit) ?? 'bodyLimit');
	}
	switch (error.code) {
		case 'FST_ERR_CTP_INVALID_JSON_BODY':
		case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
			return new ApiError(400, `body is not valid JSON: ${error.message}`, 'rest_invalid_json');
		case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
			return new ApiError(415, `Content-Type ${request.headers['content-type'] ?? '(none)'} is not supported; send application/json`, 'rest_invalid_media_type');
	}
	if (error instanceof SyntaxError) return new ApiError(400, `body is not valid JSON: ${error.message}`, 'rest_invalid_json');
	const status = error.statusCode ?? 500;
	// A method the router does not know (`?_method=BREW`): no route has it.
	if (status === 404) return noRoute(request);
	return new ApiError(status, status < 500 ? error.message : 'internal server error', status < 500 ? 'rest_invalid_request' : 'internal_error');
}

/**
 * The routes that speak OpenAI's API, whose clients (the `openai` SDK, n8n's OpenAI nodes) read OpenAI's
 * error body: the sandbox's OpenAI-compatible service, and the AI proxy's forwarding routes (`models`
 * and `{api_path}`; its settings, key, model, response and conversation routes are the plugin's own).
 * `path` is the REST route, e.g. `/proxyext/v1/ai-api-proxy/chat/completions`.
 */
export const speaksOpenAi = (path: string) =>
	path.startsWith('/sandbox/v1/openai/') ||
	(path.startsWith('/proxyext/v1/ai-api-proxy/') && !/^\/proxyext\/v1\/ai-api-proxy\/(settings|key|model|response|clear-conversation)\/?$/.test(path));

const isOpenAiUrl = (url: string) => url.startsWith(`${REST_PREFIX}/`) && speaksOpenAi(url.slice(REST_PREFIX.length).split('?')[0]);

/** The error body of the namespace `url` (as rewritten) is in: OpenAI's, the gateway envelope or WordPress's. */
export function errorBody(url: string, error: ApiError, openAi = isOpenAiUrl(url)) {
	if (openAi) {
		// OpenAI names one parameter and says what is wrong with it; WordPress lists them all.
		const params = (error.data as { params?: Record<string, string> } | undefined)?.params;
		const [param, message] = params && typeof params === 'object' && !Array.isArray(params) ? (Object.entries(params)[0] ?? []) : [];
		return openAiError(error.status, typeof message === 'string' ? message : error.message, error.status === 401 ? 'invalid_api_key' : error.code, param ?? null);
	}
	if (isGatewayUrl(url)) return { success: false, message: error.message };
	const body = { code: error.code, message: error.message, data: { status: error.status, ...error.data } };
	return error.additionalData ? { ...body, additional_data: error.additionalData } : body;
}

/** An error answer; a site route's in an `_envelope` when asked (a 200 that carries the status). */
function send(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
	if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
	const body = errorBody(request.url, error, (request.routeOptions?.config as { openAi?: boolean } | undefined)?.openAi);
	if (!isGatewayUrl(request.url) && wantsEnvelope(request.query)) return reply.send(envelope(body, error.status, reply));
	return reply.code(error.status).send(body);
}

/**
 * For Fastify's `clientErrorHandler`: what Node refuses before there is a request (a URL or headers
 * over its 16 KB limit, a request that is not HTTP) is answered in the error format of the namespace
 * the request line names, read from the bytes Node kept (`rawPacket`).
 */
export function clientErrors(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) {
	if (error.code === 'ECONNRESET' || socket.destroyed) return;
	const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
	const url = /^[A-Z]+ (\/\S*)/.exec(packet)?.[1] ?? '/';
	const apiError =
		error.code === 'HPE_HEADER_OVERFLOW'
			? new ApiError(431, `the request line and headers must be at most ${maxHeaderSize} bytes`, 'rest_headers_too_large')
			: error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
				? new ApiError(408, 'the request was not received in time', 'rest_request_timeout')
				: new ApiError(400, 'the request is not valid HTTP', 'rest_bad_request');
	if (socket.writable) {
		const body = JSON.stringify(errorBody(rewriteRestRoute(url), apiError));
		socket.write(
			`HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
				`Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
		);
	}
	socket.destroy();
}

/** For Fastify's `frameworkErrors` option: a URL the router cannot read (`/devices/%`) gets the envelope too. */
export const frameworkErrors = (config: Config) => (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
	send(request, reply, fromFastify(error, request, config));

/** PHP's `json_last_error()` and its message for a body `JSON.parse` refused, as WordPress's `rest_invalid_json` data carries them. */
function phpJsonError(reason: string) {
	// PHP's parser meets the end of the input inside a string as a control character too.
	return /control character|unterminated string/i.test(reason)
		? { json_error_code: 3, json_error_message: 'Control character error, possibly incorrectly encoded' }
		: { json_error_code: 4, json_error_message: 'Syntax error' };
}

/** Errors become the envelope of the namespace asked for; nothing a client sends escapes as a crash. */
export function installErrorHandling(app: FastifyInstance, config: Config) {
	// Bodies are JSON only: text/plain would otherwise reach the routes as a string.
	app.removeContentTypeParser('text/plain');

	// An empty body is "no fields", so that a POST without a body still gets field-level messages.
	const json = app.getDefaultJsonParser('error', 'error');
	app.removeContentTypeParser('application/json');
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
		if ((body as string).trim() === '') return done(null, undefined);
		json(request, body as string, (error, value) => {
			if (!error) {
				const refused = checkJsonBody(value);
				return refused ? done(new ApiError(400, refused, 'rest_invalid_json')) : done(null, value);
			}
			// Fastify's parser drops the reason: say where the JSON breaks, or that it is refused on purpose.
			try {
				JSON.parse(body as string);
			} catch (syntax) {
				const reason = (syntax as Error).message;
				return done(new ApiError(400, `body is not valid JSON: ${reason}`, 'rest_invalid_json', phpJsonError(reason)));
			}
			done(new ApiError(400, 'body must not contain "__proto__" or "constructor.prototype" keys', 'rest_invalid_json'));
		});
	});

	// Form bodies, as WordPress reads `$_POST` (and `$_FILES`): on the site's routes only, the gateway takes JSON.
	const formsRefused = (request: FastifyRequest) =>
		isGatewayUrl(request.url) ? new ApiError(415, `Content-Type ${request.headers['content-type']} is not supported; send application/json`, 'rest_invalid_media_type') : undefined;
	// Any other type (text/plain...) WordPress does not read: the route gets no fields. The gateway refuses it.
	app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _body, done) => {
		const refused = formsRefused(request);
		if (refused) return done(refused);
		done(null, undefined);
	});
	app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
		const refused = formsRefused(request);
		if (refused) return done(refused);
		try {
			done(null, urlencodedFields(body as string, config));
		} catch (error) {
			done(error as Error);
		}
	});
	// Read as it arrives (Fastify's body limit is checked by the reader then). Files matter to the media upload
	// only, which keeps them in its own scope (`rawBodies`): here they are counted and dropped.
	app.addContentTypeParser('multipart/form-data', async (request: FastifyRequest, payload: IncomingMessage) => {
		const maxBytes = request.routeOptions.bodyLimit;
		const refused = formsRefused(request);
		if (refused) return refuseAfterBody(payload, maxBytes, refused);
		return (await multipartFields(payload, String(request.headers['content-type']), config, { keepFiles: false, maxBytes })).fields;
	});

	app.setErrorHandler((error: FastifyError, request, reply) => {
		// Fastify closes the connection after a body it stopped reading; `limitBody` reads the rest instead.
		if ((error as { keepConnection?: boolean }).keepConnection) reply.removeHeader('connection');
		const apiError = error instanceof ApiError ? error : fromFastify(error, request, config);
		if (apiError.status >= 500 && !(error instanceof ApiError)) request.log.error({ err: error }, 'request failed');
		// WordPress reads the JSON body once it has matched the route, so its refusal carries the route's `Allow`.
		const allowOf = (request.routeOptions.config as { allowOf?: (request: FastifyRequest) => string }).allowOf;
		if (apiError.code === 'rest_invalid_json' && allowOf && !reply.hasHeader('allow')) setAllow(reply, allowOf(request));
		return send(request, reply, apiError);
	});

	app.setNotFoundHandler((request, reply) => send(request, reply, noRoute(request)));
}
