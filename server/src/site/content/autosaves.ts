import { z } from 'zod';
import { notFound } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { ContentRow } from '../../store/types';
import { wholeSeconds } from './dates';
import { DIGITS, contextParam, type ItemBody, itemBody, wpInt } from './params';
import { canEdit } from './capabilities';
import { pathId } from './query';
import { readableParent } from './revisions';
import type { PostType } from './types';
import { revisionView, viewEnv } from './views';
import { checkUpdate, contentEnv, getItem, type WriteEnv, writeItem } from './write';

const autosaveSlug = (postId: number) => `${postId}-autosave-v1`;

const sameText = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * WordPress's `create_post_autosave`: one autosave per user and post, holding title, content and excerpt
 * (those not sent are the post's). An autosave that matches the post changes nothing when the user
 * already has one.
 */
function saveAutosave(env: WriteEnv, post: ContentRow, body: ItemBody): ContentRow {
	const store = env.services.store;
	const text = { title: body.title ?? post.title, content: body.content ?? post.content, excerpt: body.excerpt ?? post.excerpt };
	const userId = env.user?.id ?? 0;
	const existing = store.content.revisions(post.id).find((r) => r.slug === autosaveSlug(post.id) && r.author === userId);
	const different = (['title', 'content', 'excerpt'] as const).some((field) => !sameText(text[field], post[field]));
	if (existing && !different) return existing;
	const now = wholeSeconds(Date.now());
	if (existing) return store.content.save({ ...existing, ...text, date_gmt: now, modified_gmt: now });
	return store.content.insert({
		type: 'revision',
		status: 'inherit',
		parent: post.id,
		author: userId,
		slug: autosaveSlug(post.id),
		...text,
		date_gmt: now,
		modified_gmt: now,
	});
}

/**
 * `/cms/v2/{posts|pages}/{id}/autosaves` and `/{parent}/autosaves/{id}`: the editor's unsaved changes.
 * For a draft by the same user, an autosave updates the draft itself (without a revision), as in
 * WordPress; otherwise it is kept apart as the user's autosave revision.
 */
export function autosaveRoutes(def: PostType): Route[] {
	const base = `/cms/v2/${def.base}/{id}/autosaves`;
	// Beside the post's writable fields, the route takes `parent` (pages have it as a field already).
	const body = def.hierarchical ? itemBody(def) : itemBody(def).extend({ parent: wpInt(0).optional() });

	return [
		route({
			method: 'GET',
			path: base,
			auth: 'site',
			summary: `List the autosaves of a ${def.type}`,
			allowed: ({ services, siteUser, params, request }) => readableParent(services, siteUser, def, pathId(request, params.id), 'autosaves') !== undefined,
			params: z.object({ id: z.string() }),
			patterns: { id: DIGITS },
			query: phpQuery({ parent: wpInt().optional(), context: contextParam }),
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
			params: z.object({ id: z.string() }),
			patterns: { id: DIGITS },
			body,
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
				return revisionView(viewEnv(services, user, def, 'edit'), row, { autosave: true });
			},
		}),

		route({
			method: 'GET',
			path: `/cms/v2/${def.base}/{parent}/autosaves/{id}`,
			auth: 'site',
			summary: `Get an autosave of a ${def.type}`,
			allowed: ({ services, siteUser, params, request }) => readableParent(services, siteUser, def, pathId(request, params.parent)) !== undefined,
			params: z.object({ parent: z.string(), id: z.string() }),
			patterns: { parent: DIGITS, id: DIGITS },
			query: phpQuery({ context: contextParam }),
			handler: ({ services, siteUser: user, params, query, request }) => {
				const parentId = pathId(request, params.parent);
				const id = pathId(request, params.id);
				const parent = readableParent(services, user, def, parentId);
				const autosave = services.store.content.get(id);
				if (!autosave || autosave.type !== 'revision' || autosave.parent !== parent.id || autosave.slug !== autosaveSlug(parent.id)) {
					throw notFound('There is no autosave revision for this post.', 'rest_post_no_autosave');
				}
				return revisionView(viewEnv(services, user, def, query.context), autosave, { autosave: true });
			},
		}),
	];
}
