import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { callRoute } from '../../http/dispatch';
import { type Method, type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { Store } from '../../store';
import { type SitePostType, type SiteTaxonomy, sitePostTypes, siteTaxonomies } from '../registry';
import { contentNamespace, originalOf, wpTwin } from './namespace';
import { DIGITS } from './params';
import { postTypeRoutes } from './routes';
import { termItem, termRoutes } from './terms';
import { postAnswer } from './post-schema';
import { deletedAnswer, itemAnswer, withLinks } from '../item-schema';
import { customPostType, POST, type PostType, type Taxonomy } from './types';

/**
 * The `cms/v2` collections of the post types and taxonomies the engine adds. The route table is built
 * once, so they are served by parametric routes (`/cms/v2/{base}`, `/cms/v2/{base}/{id}`; the router
 * prefers the static `/cms/v2/posts`) that find the type in the registry at each request and run the
 * route `postTypeRoutes` (or `termRoutes`) builds for it. The site index lists those concrete routes
 * in their place (`expandEngineRoutes`).
 */

/** An engine taxonomy as the content routes see it. */
export const taxonomyDef = (tax: SiteTaxonomy): Taxonomy => ({
	name: tax.slug,
	base: tax.rest_base,
	hierarchical: tax.hierarchical,
	noun: tax.singular_name.toLowerCase(),
});

/**
 * An engine post type as the content routes see it: a custom post type of WordPress's defaults (the
 * posts' capabilities, no formats, sticky or revisions, comments closed), with the engine taxonomies
 * assigned to it.
 */
export function postTypeDef(type: SitePostType, taxonomies: SiteTaxonomy[]): PostType {
	return customPostType(type.slug, type.rest_base, {
		hierarchical: type.hierarchical,
		supports: type.supports,
		taxonomies: taxonomies.filter((tax) => !tax.builtin && tax.object_types.includes(type.slug)).map(taxonomyDef),
	});
}

const ID_PATTERN = { id: DIGITS };

/**
 * What the parametric routes answer (the contract): the item of any engine post type (every feature it may
 * support, its taxonomies' term ids under their REST bases) or the term of any engine taxonomy, as the
 * concrete route they run answers it.
 */
const ENGINE_FEATURES = ['title', 'editor', 'author', 'excerpt', 'thumbnail', 'comments', 'page-attributes', 'custom-fields'];
const enginePost = withLinks(postAnswer(customPostType('engine_type', 'engine_types', { hierarchical: true, supports: ENGINE_FEATURES })).catchall(z.array(z.int())));
const engineTerm = withLinks(
	itemAnswer(termItem({ name: 'engine_taxonomy', base: 'engine_taxonomies', hierarchical: true, noun: 'term' }).extend({ taxonomy: z.string().meta({ description: 'Type attribution for the term.' }) })),
);
const deletedPost = deletedAnswer(enginePost);
const deletedTerm = deletedAnswer(engineTerm);
type ForwardAnswer = z.output<typeof enginePost | typeof engineTerm | typeof deletedPost | typeof deletedTerm> | z.output<typeof enginePost | typeof engineTerm>[];
const forwardAnswer = (method: Method, item: boolean): z.ZodType<ForwardAnswer> =>
	!item && method === 'GET'
		? z.union([z.array(enginePost), z.array(engineTerm)])
		: method === 'DELETE'
			? z.union([enginePost, deletedPost, deletedTerm])
			: z.union([enginePost, engineTerm]);

/** Routes built per REST base, rebuilt when the type's definition changes (building converts schemas). */
const built = new Map<string, { definition: string; routes: Route[] }>();

function cached(base: string, definition: object, build: () => Route[]): Route[] {
	const key = JSON.stringify(definition);
	const known = built.get(base);
	if (known?.definition === key) return known.routes;
	const routes = build();
	built.set(base, { definition: key, routes });
	return routes;
}

/** The concrete routes of the added post types and taxonomies (those of one REST base when given), in the registry's order. */
function engineCollections(store: Store, base?: string): Route[] {
	const types = sitePostTypes(store);
	const taxonomies = siteTaxonomies(store);
	const wanted = (t: { builtin: boolean; rest_base: string }) => !t.builtin && (base === undefined || t.rest_base === base);
	const out: Route[] = [];
	for (const type of types.filter(wanted)) {
		const def = postTypeDef(type, taxonomies);
		out.push(...cached(def.base, def, () => postTypeRoutes(def)));
	}
	for (const tax of taxonomies.filter(wanted)) {
		const def = taxonomyDef(tax);
		const owner = types.find((t) => !t.builtin && tax.object_types.includes(t.slug));
		const objectDef = owner ? postTypeDef(owner, taxonomies) : POST;
		out.push(...cached(def.base, { def, objectDef }, () => termRoutes(def, objectDef)));
	}
	return out;
}

const noRoute = (method: string, path: string) => new ApiError(404, `no route matches ${method} ${path}`, 'rest_no_route');

/** The parametric routes, so that the index can replace them. */
const parametric = new WeakSet<Route>();

function forward(method: Method, item: boolean): Route {
	const path = item ? '/cms/v2/{base}/{id}' : '/cms/v2/{base}';
	const r = route({
		method,
		path,
		// The route it forwards to signs the caller in and checks its rights.
		auth: 'none',
		summary: `${method} on the ${item ? 'items' : 'collection'} of a post type or taxonomy the engine added (found by its REST base)`,
		params: z.object({ base: z.string(), ...(item ? { id: z.string() } : {}) }),
		patterns: { base: '[\\w-]+', ...(item ? ID_PATTERN : {}) },
		answer: forwardAnswer(method, item),
		...(!item && method === 'POST' ? { status: 201 as const } : {}),
		// The target's errors: its credentials (401), rights (403), an item already in the trash (410), a body
		// too large (413); a term's delete without force is a 501.
		errors: [401, 403, 410, 413],
		// The target's own check; a base of no engine type is no route, which allows nothing.
		allowed: (ctx) => {
			const concrete = `/cms/v2/${ctx.params.base}${item ? '/{id}' : ''}`;
			const target = engineCollections(ctx.services.store, ctx.params.base).find((r) => r.method === method && r.path === concrete);
			return target !== undefined && (target.allowed?.(ctx) ?? true);
		},
		handler: ({ services, params, request, reply }) => {
			const concrete = `/cms/v2/${params.base}${item ? '/{id}' : ''}`;
			const target = engineCollections(services.store, params.base).find((r) => r.method === method && r.path === concrete);
			const shown = `/${contentNamespace(services)}/${params.base}${item ? `/${(params as { id?: string }).id}` : ''}`;
			if (!target) throw noRoute(method, shown);
			// The target's handler is held to its own answer, one of this route's (`forwardAnswer`).
			return callRoute(target, services as Services, request, reply, false) as Promise<ForwardAnswer>;
		},
	});
	parametric.add(r);
	return r;
}

const ITEM_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const engineTypeRoutes: Route[] = [forward('GET', false), forward('POST', false), ...ITEM_METHODS.map((m) => forward(m, true))];

/**
 * The table with the parametric routes replaced by the concrete routes of the engine's types (for the
 * site index); their `wp/v2` twins likewise by the twins of the concrete routes.
 */
export function expandEngineRoutes(routes: Route[], store: Store): Route[] {
	const isTwin = (r: Route) => {
		const original = originalOf(r);
		return original !== undefined && parametric.has(original);
	};
	if (!routes.some((r) => parametric.has(r) || isTwin(r))) return routes;
	const concrete = engineCollections(store);
	const out: Route[] = [];
	let placed = false;
	let twinsPlaced = false;
	for (const r of routes) {
		if (parametric.has(r)) {
			if (!placed) out.push(...concrete);
			placed = true;
		} else if (isTwin(r)) {
			if (!twinsPlaced) out.push(...concrete.map(wpTwin));
			twinsPlaced = true;
		} else out.push(r);
	}
	return out;
}
