import { STATUS_CODES } from 'node:http';
import type { Route } from './route';
import { usesEnvelope } from './dispatch';

/**
 * The statuses a route answers, from its declaration: the contract the OpenAPI document publishes and the
 * test suites hold every answer to.
 */

/** Its success statuses: 200 unless the route says (a create's 201, a notification's 202). */
export function successStatuses(route: Route): number[] {
	return route.status === undefined ? [200] : ([] as number[]).concat(route.status);
}

/**
 * Its error statuses: those every route of its kind can answer, and the route's own.
 * - 400: input refused (a site route reads a JSON body whatever its method, as WordPress's REST server does);
 * - 401: credentials refused (wrong or missing), on every route that takes them;
 * - 404: a path parameter naming nothing;
 * - 413 and 415: a body too large, or of a type the route does not read.
 */
export function errorStatuses(route: Route): number[] {
	const site = !usesEnvelope(route.path);
	const takesBody = !!(route.body || route.rawBody);
	const statuses = new Set<number>(route.errors ?? []);
	if (site || route.params || route.query || takesBody) statuses.add(400);
	if (route.auth !== 'none') statuses.add(401);
	if (route.path.includes('{')) statuses.add(404);
	if (takesBody) statuses.add(413);
	if (takesBody && !site) statuses.add(415);
	return [...statuses].sort((a, b) => a - b);
}

/** The reason phrase of a status, as the document describes it. */
export const reasonOf = (status: number) => STATUS_CODES[status] ?? `Status ${status}`;
