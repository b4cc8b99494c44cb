import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import type { Route } from './route';
import { allowFor, fastifyPath, matchParams, REST_PREFIX, setAllow } from './dispatch';
import { routesMap, wpPattern } from '../site/index';
import { expandEngineRoutes } from '../site/content/engine-types';

/** Whether the route's pattern (as the index shows it) matches the whole path, as WordPress matches a route. */
const matches = (r: Route, path: string) => new RegExp(`^${wpPattern(r.path, r.patterns).replace(/\(\?P</g, '(?<')}$`, 'i').test(path);

/**
 * `OPTIONS` on every REST route, as WordPress's `rest_handle_options_request`: 200 with the route's
 * entry of the index (namespace, methods, endpoints with their arguments, a `self` link for a route
 * without parameters) and the `Allow` header, which says what the caller may do (how block-editor
 * clients ask `canUser`). The answer itself needs no permission, as in WordPress, and OPTIONS is not a
 * route of the table: the table's routes are the API itself.
 */
export function serveOptions(app: FastifyInstance, routes: Route[], services: Services) {
	// Paths the router cannot tell apart (`/x/{id}` and `/x/{parent}`) are one route, as one pattern in WordPress.
	const byUrl = new Map<string, Route[]>();
	for (const route of routes) {
		const url = fastifyPath(route).replace(/:\w+/g, ':');
		byUrl.set(url, [...(byUrl.get(url) ?? []), route]);
	}
	for (const group of byUrl.values()) {
		const [first] = group;
		app.route({
			method: 'OPTIONS',
			url: fastifyPath(first),
			handler: async (request, reply) => {
				matchParams(first, request);
				setAllow(reply, allowFor(group, services, request, request.params as Record<string, string>));
				// A route the engine serves by REST base stands for the concrete routes of its types: the one of the path, or none.
				const path = decodeURIComponent(request.url.split('?')[0].slice(REST_PREFIX.length));
				const concrete = expandEngineRoutes(group, services.store).filter((r) => matches(r, path));
				// WordPress answers an empty list when no route matches.
				if (!concrete.length) return [];
				const [entry, ...others] = Object.values(routesMap(concrete, services, { help: true }));
				for (const other of others) {
					entry.methods.push(...other.methods);
					entry.endpoints.push(...other.endpoints);
				}
				return entry;
			},
		});
	}
}
