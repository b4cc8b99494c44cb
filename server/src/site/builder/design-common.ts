import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { phpQuery } from '../../http/query';
import type { Store } from '../../store';
import type { UserRow } from '../../store/types';
import { denied } from '../content/capabilities';
import { searchParam, wpInt } from '../content/params';
import { pagingHeaders } from '../content/query';
import { type Capability, can } from '../roles';

/**
 * What the design-system modules of the builder share: the store namespace, the capability check,
 * CSS-safe strings and the shared paging parameters.
 */

/** The store namespace of every builder object (`services.store.objects`). */
export const BUILDER = 'builder';

/**
 * Reading the builder's design data is for whoever edits content (`edit_posts`); design tokens that
 * style the whole site are theme options (`edit_theme_options`); builder settings are site options
 * (`manage_options`).
 */
export const CAN_READ: Capability = 'edit_posts';
export const CAN_STYLE: Capability = 'edit_theme_options';
export const CAN_CONFIGURE: Capability = 'manage_options';

/** WordPress's refusal: 401 `rest_forbidden` for an anonymous caller, 403 for a role without `capability`. */
export function requireCap(user: UserRow | null, capability: Capability): asserts user is UserRow {
	if (!can(user, capability)) throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

/**
 * Text that ends up in the generated stylesheet: anything that could close a declaration or a rule
 * (`;`, braces, angle brackets, backslashes, comments) is refused, so no value can inject CSS.
 */
export const cssText = (max: number) =>
	z
		.string()
		.trim()
		.min(1)
		.max(max)
		.refine((value) => !/[;{}<>\\]|\/\*|\*\//.test(value), { error: 'must not contain ; { } < > \\ or comments' });


/** An object of `value`s keyed by `key` (zod calls it a record; WordPress says object). */
export const objectOf = <K extends z.ZodType<string>, V extends z.ZodType>(key: K, value: V) =>
	z.record(key, value, { error: (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? 'must be an object' : undefined) });

/** The shared paging parameters of the spec (`context`, `page`, `per_page`, `search`). */
export const pagingQuery = phpQuery({
	context: z.string().optional(),
	page: wpInt(1).prefault(1),
	per_page: wpInt(1, 100).prefault(10),
	search: searchParam.optional(),
});

/** One page of `items`, with WordPress's `X-WP-Total`, `X-WP-TotalPages` and `Link` headers. */
export function pageOf<T>(
	items: T[],
	paging: { page: number; per_page: number },
	request: FastifyRequest,
	reply: FastifyReply,
	url: string,
): T[] {
	const totalPages = Math.ceil(items.length / paging.per_page);
	pagingHeaders(reply, request, url, paging.page, items.length, totalPages);
	return items.slice((paging.page - 1) * paging.per_page, paging.page * paging.per_page);
}

/** Removes the generated design-system stylesheet, so that the next request regenerates it from current data. */
export function clearDesignCss(store: Store): number {
	return store.objects.clear(BUILDER, 'css');
}
