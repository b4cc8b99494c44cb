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
 * - 400 and 413: a body that is no JSON, or too large: any request may carry one, whatever the route reads;
 * - 415: a body of another type than JSON, on the gateway (the site reads forms too, as WordPress);
 * - 401: credentials refused (wrong or missing), on every route that takes them;
 * - 404: a path parameter naming nothing.
 */
export function errorStatuses(route: Route): number[] {
	const statuses = new Set<number>([400, 413, ...(route.errors ?? [])]);
	if (usesEnvelope(route.path)) statuses.add(415);
	if (route.auth !== 'none') statuses.add(401);
	if (route.path.includes('{')) statuses.add(404);
	return [...statuses].sort((a, b) => a - b);
}

/** The reason phrase of a status, as the document describes it. */
export const reasonOf = (status: number) => STATUS_CODES[status] ?? `Status ${status}`;
