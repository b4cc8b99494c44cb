import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z, ZodType } from 'zod';
import type { Services } from '../services';
import type { DeviceRow, UserRow } from '../store/types';
import { NAMESPACES_LONGEST_FIRST, SERVER_ROUTES } from '../site/namespaces';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type SuccessStatus = 200 | 201 | 202 | 204 | 207;

/**
 * How a route authenticates its caller:
 * - `user`: `Authorization: Bearer <user API key>` (device and sandbox routes)
 * - `instance`: header `token: <instance token>` (every other gateway route)
 * - `site`: the site's routes: `Authorization: Basic <user>:<application password>` when given
 *   (a wrong one is a 401), anonymous otherwise; the route checks capabilities
 * - `none`: public
 */
export type AuthScheme = 'none' | 'user' | 'instance' | 'site';

export interface RouteContext<P, Q, B, H = unknown> {
	params: P;
	query: Q;
	body: B;
	/** The request headers the route declares (lower-case names), validated. */
	headers: H;
	/** Set for `user` routes. */
	user: UserRow;
	/** Set for `instance` routes. */
	device: DeviceRow;
	/** For `site` routes: the signed-in site user, or null for an anonymous caller. */
	siteUser: UserRow | null;
	services: Services;
	request: FastifyRequest;
	reply: FastifyReply;
}

/** What an `allowed` check sees: the caller (signed in as the site's scheme) and the path's parameters. */
export interface AllowContext {
	services: Services;
	siteUser: UserRow | null;
	params: Record<string, string>;
	request: FastifyRequest;
}

/** The context a write answered in (WordPress's `$request->set_param('context', ...)` before answering). */
const answerContexts = new WeakMap<FastifyRequest, 'view' | 'edit'>();

/**
 * The `context` a request asks for, for `allowed` checks: WordPress runs each permission callback on the
 * request itself, so `?context=edit` takes GET out of `Allow` for a caller who may not edit. After a
 * write, the context the write answered in.
 */
export function requestContext(request: FastifyRequest): string {
	const answered = answerContexts.get(request);
	if (answered) return answered;
	const context = (request.query as Record<string, unknown> | undefined)?.context;
	return typeof context === 'string' ? context : 'view';
}

/**
 * The context a write answers in. WordPress's controllers answer a create, an update or a delete in the
 * edit context, which the dispatcher sets after every site write for the `Allow` it computes then; a
 * route whose WordPress twin answers otherwise says so here (a term's delete, a comment by a non-moderator).
 */
export function setAnswerContext(request: FastifyRequest, context: 'view' | 'edit') {
	answerContexts.set(request, context);
}

/** Whether the route already said which context its write answers in. */
export const answerContextSet = (request: FastifyRequest) => answerContexts.has(request);

type Infer<S> = S extends ZodType ? z.output<S> : undefined;

/**
 * What a handler returns: the route's declared answer (so the compiler holds the code to the contract),
 * or the reply for a route that answers by itself.
 */
type Answer<A> = A extends ZodType ? z.output<A> | FastifyReply | Promise<z.output<A> | FastifyReply> : unknown;

export interface RouteDef<
	P extends ZodType | undefined,
	Q extends ZodType | undefined,
	B extends ZodType | undefined,
	A extends ZodType | undefined = undefined,
	H extends ZodType | undefined = undefined,
> {
	method: Method;
	/** REST route as the spec writes it, e.g. `/wdm/v1/devices/{name}`. */
	path: string;
	auth: AuthScheme;
	summary: string;
	params?: P;
	/**
	 * Regular expressions (source, unanchored) that path segments must match, as WordPress declares its
	 * routes (`(?P<id>[\\d]+)`): a segment that does not match is no route at all (404 `rest_no_route`),
	 * and the site index shows the pattern.
	 */
	patterns?: Record<string, string>;
	query?: Q;
	body?: B;
	/** Request headers the route reads (an object schema, lower-case names): validated and published like the query. */
	headers?: H;
	/**
	 * Whether `POST /batch/v1` may run this route as one of its requests (WordPress's `allow_batch`):
	 * the posts and pages collections and items.
	 */
	batch?: boolean;
	/**
	 * The body is a file (WordPress's media upload): every Content-Type reaches the handler unparsed,
	 * as a Buffer (undefined for no body). Other routes take JSON only.
	 */
	rawBody?: boolean;
	/**
	 * The body carries a file (Base64 media): it may be as large as `--body-limit` for a signed-in
	 * caller; other routes take `--json-body-limit` (`http/limits.ts`). A `rawBody` route takes media too.
	 */
	media?: boolean;
	/**
	 * Whether the caller may use this route, as WordPress's `permission_callback` tells before the
	 * handler runs; it only decides whether the `Allow` header lists the method (the handler still
	 * checks, and refuses with its own error). Without it the method is always listed. A throw is a no.
	 */
	allowed?: (ctx: AllowContext) => boolean;
	/**
	 * The JSON Schema of what the route's resource answers (WordPress's `get_public_item_schema`), shown with
	 * the route's entry in `OPTIONS` and in the index's `?context=help`. One route of a pattern declares it.
	 */
	schema?: (services: Services) => Record<string, unknown>;
	/**
	 * What the route answers on success (the contract: the OpenAPI document publishes it, and the test
	 * suites check every answer against it): the gateway envelope's `data`, or the site's JSON as WordPress
	 * gives it (the REST server adds `_links` and `_embedded` to a site item itself). Object fields are
	 * closed: a field the handler adds must be declared. Fields with a `context` meta are optional.
	 */
	answer?: A;
	/**
	 * The answer's media type when it is not JSON (a file, an event stream): its body is not described.
	 * With an `answer` too, the route answers JSON or this type (oEmbed's XML on request).
	 */
	produces?: string;
	/**
	 * The success statuses when not 200 (201 for a create, 202 for an accepted notification). A single one
	 * is the answer's status unless the handler sets another. None (`[]`) for a route that refuses everyone,
	 * as WordPress's revision delete.
	 */
	status?: SuccessStatus | SuccessStatus[];
	/**
	 * The 4XX (and 5XX) statuses the route answers besides those its declaration implies (`http/statuses.ts`):
	 * 400 for a route that takes input, 401 for one that takes credentials, 404 for one with a path parameter.
	 */
	errors?: number[];
	/** Returns the `data` of the envelope; a route that answers by itself returns the reply. */
	handler: (ctx: RouteContext<Infer<P>, Infer<Q>, Infer<B>, Infer<H>>) => Answer<A>;
}

/**
 * A check of one answer against the route's contract (the test suites'): the reason it breaks the
 * contract, or undefined. `payload` is what Fastify sends (a JSON string, a Buffer or a stream).
 */
export type AnswerCheck = (answer: { route: Route; request: FastifyRequest; status: number; contentType: string | undefined; payload: unknown }) => string | undefined;

export type Route = RouteDef<ZodType | undefined, ZodType | undefined, ZodType | undefined, ZodType | undefined, ZodType | undefined>;

/** Declares a route with its schemas; the handler's arguments are typed from them. */
export function route<
	P extends ZodType | undefined = undefined,
	Q extends ZodType | undefined = undefined,
	B extends ZodType | undefined = undefined,
	A extends ZodType | undefined = undefined,
	H extends ZodType | undefined = undefined,
>(def: RouteDef<P, Q, B, A, H>): Route {
	return def as unknown as Route;
}

/**
 * The namespace a route belongs to, e.g. `wdm/v1` for `/wdm/v1/send/text`: the longest listed
 * namespace the path is in (`builder/v1/documents` has three segments), else its first two segments;
 * `''` for the REST server's own routes (`/`, `/batch/v1`).
 */
export function namespaceOf(path: string): string {
	if (SERVER_ROUTES.includes(path)) return '';
	const listed = NAMESPACES_LONGEST_FIRST.find((ns) => path === `/${ns}` || path.startsWith(`/${ns}/`));
	return listed ?? path.split('/').slice(1, 3).join('/');
}
