import { z } from 'zod';
import { ApiError, badRequest } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import { restBase } from '../content/views';
import { BUILDER, CAN_READ, pageOf, pagingQuery, requireCap } from './design-common';

/**
 * `builder/v1/favorites`: each user's favourites by type (`widgets`: widget names, `templates`:
 * template ids), as the builder's panel stars them. One stored object per user (kind `favorites`):
 * `{type: [slugs]}`, in the order they were starred. The list is paged over `{type, favorite}` entries.
 */

export const FAVORITE_TYPES = ['widgets', 'templates'] as const;
export type FavoriteType = (typeof FAVORITE_TYPES)[number];

const KIND = 'favorites';
type Favorites = Partial<Record<FavoriteType, string[]>>;

/** A user's favourites by type. */
export function builderFavorites(store: Store, userId: number): Favorites {
	return store.objects.get<Favorites>(BUILDER, KIND, String(userId))?.data ?? {};
}

const slug = z.string().trim().regex(/^[\w-]{1,100}$/, { error: 'must be a slug: letters, digits, hyphens, underscores (at most 100)' });
const typeParams = z.object({ id: z.enum(FAVORITE_TYPES) });
const TYPE_PATTERN = { id: '[\\w-]+' };
const PATH = '/builder/v1/favorites';

/** One favourite of the list; a type's favourites after a change. */
const entryAnswer = z.object({ type: z.enum(FAVORITE_TYPES), favorite: z.string() });
const typeAnswer = z.object({ type: z.enum(FAVORITE_TYPES), favorites: z.array(z.string()) });

/** Adds or removes a favourite of the caller in one transaction; the type's favourites after it. */
function change(store: Store, userId: number, type: FavoriteType, edit: (list: string[]) => string[]) {
	return store.tx(() => {
		const favorites = builderFavorites(store, userId);
		const list = edit(favorites[type] ?? []);
		store.objects.put(BUILDER, KIND, String(userId), { ...favorites, [type]: list });
		return { type, favorites: list };
	});
}

export const favoritesRoutes: Route[] = [
	route({
		method: 'GET',
		path: PATH,
		auth: 'site',
		summary: "The caller's favourites, one `{type, favorite}` entry each, paged (X-WP-Total); `search` filters by slug",
		query: pagingQuery,
		answer: z.array(entryAnswer),
		errors: [403],
		handler: ({ services, siteUser, query, request, reply }) => {
			requireCap(siteUser, CAN_READ);
			const favorites = builderFavorites(services.store, siteUser.id);
			const search = query.search?.toLowerCase();
			const entries = FAVORITE_TYPES.flatMap((type) => (favorites[type] ?? []).map((favorite) => ({ type, favorite }))).filter(
				(entry) => !search || entry.favorite.toLowerCase().includes(search),
			);
			return pageOf(entries, query, request, reply, `${restBase(services)}${PATH}`);
		},
	}),
	route({
		method: 'POST',
		path: `${PATH}/{id}`,
		auth: 'site',
		summary: 'Star a favourite of the type (`id`) for the caller',
		params: typeParams,
		patterns: TYPE_PATTERN,
		body: z.object({ favorite: slug }),
		answer: typeAnswer,
		errors: [403],
		handler: ({ services, siteUser, params, body }) => {
			requireCap(siteUser, CAN_READ);
			return change(services.store, siteUser.id, params.id, (list) => (list.includes(body.favorite) ? list : [...list, body.favorite]));
		},
	}),
	route({
		method: 'DELETE',
		path: `${PATH}/{id}`,
		auth: 'site',
		summary: 'Unstar a favourite of the type (`id`) for the caller; `favorite` in the query or the body',
		params: typeParams,
		patterns: TYPE_PATTERN,
		// WordPress reads parameters from the query and the body alike.
		query: phpQuery({ favorite: slug.optional() }),
		body: z.object({ favorite: slug.optional() }),
		answer: typeAnswer,
		errors: [403],
		handler: ({ services, siteUser, params, query, body }) => {
			requireCap(siteUser, CAN_READ);
			const favorite = query.favorite ?? body.favorite;
			if (favorite === undefined) throw badRequest('Missing parameter(s): favorite', 'rest_missing_callback_param', { params: ['favorite'] });
			return change(services.store, siteUser.id, params.id, (list) => {
				if (!list.includes(favorite)) throw new ApiError(404, `"${favorite}" is not one of your ${params.id} favorites.`, 'rest_favorite_not_found');
				return list.filter((f) => f !== favorite);
			});
		},
	}),
];
