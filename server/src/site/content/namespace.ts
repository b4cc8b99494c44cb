import { namespaceOf, type Route } from '../../http/route';
import type { Services } from '../../services';

/**
 * The core content (posts, pages, media, revisions, autosaves, categories, tags, the engine's added
 * types) lives in `cms/v2`; a stock WordPress serves the same routes in `wp/v2`. The server answers
 * both, with the same handlers: every `cms/v2` route of the table has a `wp/v2` twin (`wpAliases`),
 * which runs the original handler with the services seen through `wp/v2`, so that the URLs in its
 * answers (`_links`, `Location`, `Link`) name the namespace the caller asked in.
 */
export const CORE_NAMESPACE = 'cms/v2';
export const WP_NAMESPACE = 'wp/v2';

const NAMESPACE = Symbol('core content namespace');
type Namespaced = Services & { [NAMESPACE]?: string };

/** The namespace the caller addressed the core content in: `cms/v2`, or `wp/v2` through a twin. */
export const contentNamespace = (services: Services) => (services as Namespaced)[NAMESPACE] ?? CORE_NAMESPACE;

/** The same services (same store, same everything), whose content URLs name `namespace`. */
const servicesIn = (services: Services, namespace: string): Services => Object.create(services, { [NAMESPACE]: { value: namespace } }) as Services;

/** `/cms/v2/posts/{id}` -> `/wp/v2/posts/{id}`. */
const toWp = (path: string) => `/${WP_NAMESPACE}${path.slice(CORE_NAMESPACE.length + 1)}`;

/** Twin by original: built once each (the site index caches each route's arguments by identity). */
const twins = new WeakMap<Route, Route>();
/** Original by twin. */
const originals = new WeakMap<Route, Route>();

/** The `wp/v2` twin of a `cms/v2` route: same method, schemas, auth and handler. */
export function wpTwin(original: Route): Route {
	const known = twins.get(original);
	if (known) return known;
	const twin: Route = {
		...original,
		path: toWp(original.path),
		handler: (ctx) => original.handler({ ...ctx, services: servicesIn(ctx.services, WP_NAMESPACE) }),
		...(original.schema ? { schema: (services: Services) => original.schema!(servicesIn(services, WP_NAMESPACE)) } : {}),
	};
	twins.set(original, twin);
	originals.set(twin, original);
	return twin;
}

/** The `cms/v2` route a `wp/v2` twin stands for (undefined for any other route). */
export const originalOf = (r: Route) => originals.get(r);

/** The `wp/v2` twins of the table's `cms/v2` routes, in the table's order. */
export const wpAliases = (table: Route[]): Route[] => table.filter((r) => namespaceOf(r.path) === CORE_NAMESPACE).map(wpTwin);
