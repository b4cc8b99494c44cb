import { z } from 'zod';
import { badRequest, notFound } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { ContentRow } from '../../store/types';
import { wholeSeconds } from './dates';
import { DIGITS, contextParam, type ItemBody, itemBody, wpInt } from './params';
import { canEdit } from './capabilities';
import { filterItemText } from './kses';
import { pathId } from './query';
import { readableParent } from './revisions';
import type { PostType } from './types';
import { revisionView, viewEnv } from './views';
import { revisionAnswer, revisionItemSchema } from './post-schema';
import { checkUpdate, contentEnv, getItem, type WriteEnv, writeItem } from './write';

const autosaveSlug = (postId: number) => `${postId}-autosave-v1`;

const sameText = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

const TEXT_FIELDS = ['title', 'content', 'excerpt'] as const;

/**
 * WordPress's `create_post_autosave`: one autosave per user and post, holding the title, content and
 * excerpt sent (`_wp_post_revision_data` of the request: a new autosave has '' for those not sent, an
 * existing one keeps its own). When the user already has one and what was sent matches the post, the
 * autosave is deleted and nothing is returned (the route then refuses, 400 `rest_autosave_no_changes`).
 */
function saveAutosave(env: WriteEnv, post: ContentRow, body: ItemBody): ContentRow | undefined {
	const store = env.services.store;
	// Kses, as `wp_create_post_autosave` filters the text (`_wp_put_post_revision` through `wp_insert_post`).
	body = filterItemText(env.user, body);
	const sent: Partial<Record<(typeof TEXT_FIELDS)[number], string>> = {};
	for (const field of TEXT_FIELDS) if (body[field] !== undefined) sent[field] = body[field];
	const userId = env.user?.id ?? 0;
	const existing = latestAutosave(env.services.store, post.id, userId);
	const now = wholeSeconds(Date.now());
	if (existing) {
		const different = TEXT_FIELDS.some((field) => sent[field] !== undefined && !sameText(sent[field], post[field]));
		if (!different) {
			store.content.delete(existing.id);
			return undefined;
		}
		return store.content.save({ ...existing, ...sent, author: userId, date_gmt: now, modified_gmt: now });
	}
	return store.content.insert({
		type: 'revision',
		status: 'inherit',
		parent: post.id,
		author: userId,
		slug: autosaveSlug(post.id),
		title: '',
		content: '',
		excerpt: '',
		...sent,
		date_gmt: now,
		modified_gmt: now,
	});
}

/**
 * WordPress's `wp_get_post_autosave`: the latest autosave of the post (by date), the user's own when a
 * user is given. Ties by date go by id ascending, MariaDB's storage order.
 */
function latestAutosave(store: Services['store'], postId: number, userId?: number): ContentRow | undefined {
	const autosaves = store.content
		.revisions(postId)
		.filter((r) => r.slug === autosaveSlug(postId) && r.status === 'inherit' && (userId === undefined || r.author === userId));
	return autosaves.sort((a, b) => (a.date_gmt === b.date_gmt ? a.id - b.id : a.date_gmt < b.date_gmt ? 1 : -1))[0];
}

/**
 * `/cms/v2/{posts|pages}/{id}/autosaves` and `/{parent}/autosaves/{id}`: the editor's unsaved changes.
 * For a draft by the same user, an autosave updates the draft itself (without a revision), as in
 * WordPress; otherwise it is kept apart as the user's autosave revision.
 */
export function autosaveRoutes(def: PostType): Route[] {
	const base = `/cms/v2/${def.base}/{id}/autosaves`;
	// Beside the post's writable fields, the route takes `parent` (pages have it as a field already).
	const answer = revisionAnswer(def, true);
	const body = def.hierarchical ? itemBody(def) : itemBody(def).extend({ parent: wpInt(0).optional() });

	return [
		route({
			method: 'GET',
			path: base,
			auth: 'site',
			schema: () => revisionItemSchema(def, true),
			summary: `List the autosaves of a ${def.type}`,
			allowed: ({ services, siteUser, params, request }) => readableParent(services, siteUser, def, pathId(request, params.id), 'autosaves') !== undefined,
			params: z.object({ id: z.string().meta({ argument: false }) }),
			patterns: { id: DIGITS },
			query: phpQuery({ parent: wpInt().optional(), context: contextParam }),
			answer: z.array(answer),
			errors: [403],
			handler: ({ services, siteUser: user, params, query, request }) => {
				const parent = readableParent(services, user, def, pathId(request, params.id), 'autosaves');
				const view = viewEnv(services, user, def, query.context);
				return services.store.content
					.revisions(parent.id)
					.filter((r) => r.slug === autosaveSlug(parent.id))
					.map((row) => revisionView(view, row, { autosave: true }));
			},
		}),

		route({
			method: 'POST',
			path: base,
			auth: 'site',
			summary: `Autosave a ${def.type}: updates your own draft, else keeps your autosave of it`,
			allowed: ({ services, siteUser, params, request }) => canEdit(siteUser, def, getItem(services, def, pathId(request, params.id))),
			// The path's item; WordPress's route names it `id` in the pattern but declares `parent` as its argument.
			params: z.object({ id: z.string().meta({ argument: false }) }),
			patterns: { id: DIGITS },
			body,
			answer,
			errors: [403],
			handler: ({ services, siteUser: user, params, body, request }) => {
				const id = pathId(request, params.id);
				const env = contentEnv(services, user, def);
				const fields = body as ItemBody;
				const row = services.store.tx(() => {
					const post = getItem(services, def, id);
					checkUpdate(env, post, fields);
					const ownDraft = (post.status === 'draft' || post.status === 'auto-draft') && user !== null && post.author === user.id;
					return ownDraft ? writeItem(env, post, fields, { revision: false }) : saveAutosave(env, post, fields);
				});
				// The deleted autosave stays deleted: the refusal comes after the write, as in WordPress.
				if (!row) throw badRequest('There is nothing to save. The autosave and the post content are the same.', 'rest_autosave_no_changes');
				return revisionView(viewEnv(services, user, def, 'edit'), row, { autosave: true });
			},
		}),

		route({
			method: 'GET',
			path: `/cms/v2/${def.base}/{parent}/autosaves/{id}`,
			auth: 'site',
			schema: () => revisionItemSchema(def, true),
			summary: `Get the latest autosave of a ${def.type} (whichever autosave id is named, as WordPress 6.1)`,
			allowed: ({ services, siteUser, params, request }) => readableParent(services, siteUser, def, pathId(request, params.parent)) !== undefined,
			params: z.object({ parent: z.string(), id: z.string() }),
			patterns: { parent: DIGITS, id: DIGITS },
			query: phpQuery({ context: contextParam }),
			answer,
			errors: [403],
			handler: ({ services, siteUser: user, params, query, request }) => {
				pathId(request, params.id);
				const parent = readableParent(services, user, def, pathId(request, params.parent));
				// As WordPress 6.1's `get_item`: the post's latest autosave, whichever id the path names.
				const autosave = latestAutosave(services.store, parent.id);
				if (!autosave) throw notFound('There is no autosave revision for this post.', 'rest_post_no_autosave');
				return revisionView(viewEnv(services, user, def, query.context), autosave, { autosave: true });
			},
		}),
	];
}
