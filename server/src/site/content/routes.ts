import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type AllowContext, type Method, type Route, requestContext, route } from '../../http/route';
import { hashSecret, sameDigest } from '../../security';
import { canCreate, canDelete, canEdit, canRead, checkItemContext, checkListContext, denied } from './capabilities';
import { DIGITS, type CollectionParams, collectionParams, contextParam, type ItemBody, itemBody, wpBool, wpInt } from './params';
import { checkOrderby, checkStatuses, collectionWhere, pagingHeaders, pathId, runCollection } from './query';
import { postAnswer, postItemSchema } from './post-schema';
import { trashOrDeleteAnswer } from '../item-schema';
import type { PostType } from './types';
import type { ContentRow } from '../../store/types';
import { alternateLink, collectionUrl, contentView, itemUrl, viewEnv } from './views';
import { checkCreate, checkUpdate, contentEnv, deleteItem, getItem, writeItem } from './write';

const idParams = z.object({ id: z.string() });

const samePassword = (given: string, actual: string) => sameDigest(hashSecret(given), hashSecret(actual));

/**
 * The collection and item routes of a post type (`/cms/v2/posts`, `/cms/v2/posts/{id}`), WordPress's
 * posts controller: GET lists and reads, POST creates, POST/PUT/PATCH update, DELETE trashes or, with
 * `force`, deletes. All may run inside `POST /batch/v1`.
 */
export function postTypeRoutes(def: PostType): Route[] {
	const base = `/cms/v2/${def.base}`;
	const body = itemBody(def);
	const noun = def.type;
	const answer = postAnswer(def);

	/** For the `Allow` header: what the caller may do to the item, as WordPress's permission callbacks (`read_post`, `edit_post`, `delete_post`). */
	const onItem = (may: typeof canEdit) => ({ services, siteUser, params, request }: AllowContext) => may(siteUser, def, getItem(services, def, pathId(request, params.id)));

	const update = (method: Method) =>
		route({
			method,
			path: `${base}/{id}`,
			auth: 'site',
			batch: true,
			summary: `Update a ${noun}; a change of title, content or excerpt keeps a revision`,
			allowed: onItem(canEdit),
			params: idParams,
			patterns: { id: DIGITS },
			body,
			answer,
			errors: [403],
			handler: ({ services, siteUser, params, body, request }) => {
				const id = pathId(request, params.id);
				const env = contentEnv(services, siteUser, def);
				const row = services.store.tx(() => {
					const before = getItem(services, def, id);
					checkUpdate(env, before, body as ItemBody);
					return writeItem(env, before, body as ItemBody, { revision: true });
				});
				return contentView(viewEnv(services, siteUser, def, 'edit'), row);
			},
		});

	return [
		route({
			method: 'GET',
			path: base,
			auth: 'site',
			batch: true,
			summary: `List ${def.base}, filtered, searched and paged (X-WP-Total, X-WP-TotalPages, Link)`,
			schema: (services) => postItemSchema(def, services),
			query: phpQuery(collectionParams(def)),
			allowed: ({ siteUser, request }) => requestContext(request) !== 'edit' || canCreate(siteUser, def),
			answer: z.array(answer),
			errors: [403],
			handler: ({ services, siteUser: user, query, request, reply }) => {
				const params = query as CollectionParams;
				const env = contentEnv(services, user, def);
				checkStatuses(user, def, params.status);
				checkListContext(user, def, params.context);
				checkOrderby(params);
				const visible = (row: ContentRow) => (params.context === 'edit' ? canEdit(user, def, row) : canRead(user, def, row));
				const page = runCollection(services, def, collectionWhere(services, user, def, params, env.zone), params, visible);
				pagingHeaders(reply, request, collectionUrl(services, def), page.page, page.total, page.totalPages);
				const view = viewEnv(services, user, def, params.context);
				return page.items.map((row) => contentView(view, row));
			},
		}),

		route({
			method: 'POST',
			path: base,
			auth: 'site',
			batch: true,
			summary: `Create a ${noun} (201, Location); a draft unless a status is given`,
			// WordPress's `create_item_permissions_check` on the request as sent (an id, another author, sticky).
			allowed: ({ services, siteUser, request }) => {
				const raw = request.body && typeof request.body === 'object' ? (request.body as ItemBody) : ({} as ItemBody);
				checkCreate(contentEnv(services, siteUser, def), raw, raw);
				return true;
			},
			body,
			answer,
			status: 201,
			errors: [403],
			handler: ({ services, siteUser, body, request, reply }) => {
				const env = contentEnv(services, siteUser, def);
				checkCreate(env, body as ItemBody, request.body);
				const row = services.store.tx(() => writeItem(env, undefined, body as ItemBody, { revision: false }));
				reply.header('Location', itemUrl(services, def, row.id));
				return contentView(viewEnv(services, siteUser, def, 'edit'), row);
			},
		}),

		route({
			method: 'GET',
			path: `${base}/{id}`,
			auth: 'site',
			batch: true,
			summary: `Get a ${noun}; \`password\` opens protected content`,
			schema: (services) => postItemSchema(def, services),
			// WordPress's `get_item_permissions_check`: readable, editable for `context=edit`, the right password.
			allowed: (ctx) =>
				onItem((user, d, row) => {
					const password = (ctx.request.query as { password?: unknown }).password;
					if (typeof password === 'string' && password !== '' && row.password !== '' && !samePassword(password, row.password)) return false;
					return canRead(user, d, row) && (requestContext(ctx.request) !== 'edit' || canEdit(user, d, row));
				})(ctx),
			params: idParams,
			patterns: { id: DIGITS },
			query: phpQuery({ context: contextParam, excerpt_length: wpInt(1).optional(), password: z.string().optional() }),
			answer,
			errors: [403],
			handler: ({ services, siteUser: user, params, query, request, reply }) => {
				const id = pathId(request, params.id);
				contentEnv(services, user, def);
				const row = getItem(services, def, id);
				checkItemContext(user, def, row, query.context);
				if (query.password && !samePassword(query.password, row.password)) {
					throw new ApiError(403, 'Incorrect post password.', 'rest_post_incorrect_password');
				}
				if (!canRead(user, def, row)) throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
				reply.header('Link', alternateLink(services, def, row.id));
				const view = viewEnv(services, user, def, query.context, { password: query.password, excerptLength: query.excerpt_length });
				return contentView(view, row);
			},
		}),

		update('POST'),
		update('PUT'),
		update('PATCH'),

		route({
			method: 'DELETE',
			path: `${base}/{id}`,
			auth: 'site',
			batch: true,
			summary: def.trash
				? `Move a ${noun} to the trash, or with force=true delete it for good with its revisions`
				: `Delete a ${noun} (force=true is required: it has no trash)`,
			allowed: onItem(canDelete),
			params: idParams,
			patterns: { id: DIGITS },
			query: phpQuery({ force: wpBool.prefault(false) }),
			// WordPress reads parameters from the body too.
			body: z.object({ force: wpBool.optional() }),
			answer: trashOrDeleteAnswer(answer),
			// 410: already in the trash.
			errors: [403, 410],
			handler: ({ services, siteUser: user, params, query, body, request }) => {
				const id = pathId(request, params.id);
				const env = contentEnv(services, user, def);
				const view = viewEnv(services, user, def, 'edit');
				return services.store.tx(() => {
					const row = getItem(services, def, id);
					const previous = contentView(view, row);
					const trashed = deleteItem(env, row, query.force || body.force === true);
					return trashed ? contentView(view, trashed) : { deleted: true, previous };
				});
			},
		}),
	];
}
