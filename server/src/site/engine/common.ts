import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { type Route, type RouteDef, route } from '../../http/route';
import type { Store } from '../../store';
import type { UserRow } from '../../store/types';
import { denied } from '../content/capabilities';
import { wpBool } from '../content/params';
import { siteTaxonomies, sitePostTypes } from '../registry';
import { can } from '../roles';
import { ENGINE, engineDoc } from './documents';
import { answerOf } from './query-common';

/** Shared by the engine's content-model routes (`engine/v2`). */

/** Path patterns of the spec: digits for post type, taxonomy and options-page ids; delete routes and others take keys. */
export const DIGITS = '[\\d]+';
export const KEY = '[a-z0-9_-]+';

/** The engine's configuration is the administrator's (`manage_options`), reading it too. */
function checkManage(user: UserRow | null) {
	if (!can(user, 'manage_options')) throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

/** An `engine/v2` route of the content model: signed in as a site user who may manage options. */
export function engineRoute<
	P extends z.ZodType | undefined = undefined,
	Q extends z.ZodType | undefined = undefined,
	B extends z.ZodType | undefined = undefined,
	A extends z.ZodType | undefined = undefined,
>(def: Omit<RouteDef<P, Q, B, A>, 'auth'>): Route {
	return route<P, Q, B, A>({
		...def,
		path: `/engine/v2/${def.path}`,
		auth: 'site',
		// A signed-in caller who may not manage options: 403.
		errors: [403, ...(def.errors ?? [])],
		handler: (ctx) => {
			checkManage(ctx.siteUser);
			return def.handler(ctx);
		},
	});
}

/** The plugin's answers (its REST controllers' `{success, data}`): a delete's `{success: true}`. */
export const okAnswer = z.object({ success: z.literal(true) });

/** An add or a copy: `{success: true, item_id, data}` with the new thing's id. */
export const addedAnswer = <T extends z.ZodType>(data: T) => answerOf(data, { item_id: z.number().int() });

/** A stored thing the path names that does not exist: 404 with the kind's own code (`rest_engine_post_type_invalid_id`). */
export const unknownItem = (what: string, code: string) => new ApiError(404, `${what} not found.`, `rest_engine_${code}_invalid_id`);

/** The numeric id a key route names, or the kind's 404 (delete routes also match keys that are not ids). */
export function storedId(id: string, what: string, code: string): string {
	if (!/^\d{1,15}$/.test(id)) throw unknownItem(what, code);
	return String(Number(id));
}

/** The stored thing of a kind under `key`, or the kind's 404 (`what`, `code` as for `unknownItem`). */
export function findDoc<T>(store: Store, kind: string, key: string, what: string, code: string) {
	const doc = engineDoc<T>(store, kind, key);
	if (!doc) throw unknownItem(what, code);
	return doc;
}

/** A value already used by another thing (a slug, a REST base): 409. */
export const taken = (param: string, message: string) => new ApiError(409, message, 'rest_engine_conflict', { params: { [param]: message } });

/** Labels: name -> text (`name`, `singular_name`, `add_new`, ...). */
export const labelsSchema = z.record(z.string(), z.string().max(200));

export const restBaseSchema = z.string().regex(/^[a-z0-9_-]{1,64}$/, { error: 'must be 1 to 64 lowercase letters, digits, hyphens or underscores' });

/** Settings whose known keys are checked; the others are kept as given (the plugin has many). */
export const advancedSettings = (extra: z.ZodRawShape = {}) =>
	z.looseObject({ public: wpBool.optional(), hierarchical: wpBool.optional(), rest_base: restBaseSchema.optional(), ...extra });

/** `My Books!` -> `my-books`, cut to `max` characters: a slug from a name, as the plugin's form suggests one. */
export const slugFromName = (name: string, max: number) =>
	name
		.toLowerCase()
		.normalize('NFKD')
		.replace(/[^a-z0-9_-]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, max)
		.replace(/-+$/, '');

/** `base`, `base-copy`, `base-copy-2`, ...: the first that `free` accepts, within `max` characters. */
export function copySlug(base: string, max: number, free: (slug: string) => boolean): string {
	for (let n = 1; ; n++) {
		const suffix = n === 1 ? '-copy' : `-copy-${n}`;
		const slug = `${base.slice(0, max - suffix.length)}${suffix}`;
		if (free(slug)) return slug;
	}
}

/**
 * The first path segments under `cms/v2` that WordPress's core routes use (or this site serves):
 * an added type's REST base must be none of them.
 */
const CORE_BASES = [
	'types', 'statuses', 'taxonomies', 'users', 'comments', 'search', 'settings', 'themes', 'plugins', 'blocks', 'block-types',
	'menus', 'menu-items', 'menu-locations', 'templates', 'template-parts', 'navigation', 'sidebars', 'widgets', 'widget-types',
	'global-styles', 'font-families', 'block-directory', 'block-renderer', 'pattern-directory', 'block-patterns', 'revisions',
];

/** Whether a REST base is free under `cms/v2`: no core route, no other post type's or taxonomy's collection. */
export function restBaseFree(store: Store, base: string, except?: { kind: 'post_type' | 'taxonomy'; id: number }): boolean {
	if (CORE_BASES.includes(base)) return false;
	const mine = (kind: string, id?: number) => except?.kind === kind && id === except.id;
	return (
		!sitePostTypes(store).some((t) => t.rest_base === base && !mine('post_type', t.id)) &&
		!siteTaxonomies(store).some((t) => t.rest_base === base && !mine('taxonomy', t.id))
	);
}

/** The next id of a kind; call inside the transaction that stores the thing. */
export const nextId = (store: Store, kind: string) => String(store.objects.nextId(ENGINE, kind));

/** Keys of `given` over `before`: an edit changes only what it names (each section merged). */
export const merged = <T extends object>(before: T, given: Partial<T> | undefined): T => ({ ...before, ...(given ?? {}) });
