import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { phpQuery } from '../../http/query';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { denied } from '../content/capabilities';
import { searchParam, wpInt } from '../content/params';
import { checkPage, pagingHeaders } from '../content/query';
import { restBase } from '../content/views';
import { type Capability, can } from '../roles';

/** What the editor-side route groups of the page builder share: capabilities, paging, their store namespace. */

/** Where builder state lives in `services.store.objects` (kinds are named after the route group). */
export const BUILDER = 'builder';

/**
 * The builder's permission callbacks (`current_user_can(...)`): WordPress answers a refused one with
 * `rest_forbidden`, 401 for an anonymous caller and 403 for a signed-in one.
 */
export function requireCap(user: UserRow | null, ...capabilities: Capability[]): asserts user is UserRow {
	if (!user || !capabilities.every((capability) => can(user, capability))) {
		throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	}
}


/** The spec's shared paging parameters (`/checklist`, `/onboarding`, GET `/send-event`). */
export const pagingQuery = phpQuery({
	context: z.string().optional(),
	page: wpInt(1).prefault(1),
	per_page: wpInt(1, 100).prefault(10),
	search: searchParam.optional(),
});
export type PagingQuery = z.output<typeof pagingQuery>;

/** Whether `text` contains the search (ignoring case); an empty search matches everything. */
export const matches = (search: string | undefined, ...texts: unknown[]) =>
	!search?.trim() || texts.some((text) => typeof text === 'string' && text.toLowerCase().includes(search.trim().toLowerCase()));

/**
 * One page of an in-memory list, with `X-WP-Total`, `X-WP-TotalPages` and `Link` as WordPress's
 * collections answer them; a page past the last is a 400.
 */
export function pageOf<T>(items: T[], query: PagingQuery, route: string, services: Services, request: FastifyRequest, reply: FastifyReply): T[] {
	const totalPages = Math.ceil(items.length / query.per_page);
	checkPage(query.page, totalPages, items.length, 'rest_invalid_page_number');
	pagingHeaders(reply, request, `${restBase(services)}${route}`, query.page, items.length, totalPages);
	return items.slice((query.page - 1) * query.per_page, query.page * query.per_page);
}

/** One parameter's problem, as WordPress reports invalid parameters (400 `rest_invalid_param`). */
export { invalidParam } from '../content/write';

/** ISO date-time in GMT without a zone, as WordPress's `*_gmt` fields. */
export { formatGmt } from '../content/dates';
