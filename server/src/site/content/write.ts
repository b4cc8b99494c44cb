import { ApiError, badRequest, notFound } from '../../http/errors';
import type { Services } from '../../services';
import type { ContentRow, UserRow } from '../../store/types';
import { can } from '../roles';
import { siteSettings } from '../settings';
import { canCreate, canDelete, canEdit, denied } from './capabilities';
import { parseDateTime, wholeSeconds } from './dates';
import { applyChanges, checkValues as checkFieldValues } from '../engine/fields';
import { metaFieldsOf } from '../engine/documents';
import { type ItemBody, META_DEFAULTS } from './params';
import { filterItemText } from './kses';
import { sanitizeTitle } from './render';
import { DEFAULT_CATEGORY, type PostType } from './types';

/** Who writes, and where. */
export interface WriteEnv {
	services: Services;
	user: UserRow | null;
	def: PostType;
	zone: string;
}

/** Every content request first publishes the scheduled items whose time has come (WordPress's cron does it). */
export function contentEnv(services: Services, user: UserRow | null, def: PostType): WriteEnv {
	services.store.content.publishDue(Date.now());
	return { services, user, def, zone: siteSettings(services.store).timezone };
}

/** Statuses whose items have no slug or date of their own until published (WordPress's `date_floating` statuses). */
const UNPUBLISHED = ['draft', 'pending', 'auto-draft'];

/** One parameter's problem, as WordPress reports invalid parameters. */
export const invalidParam = (name: string, sentence: string, code = 'rest_invalid_param') =>
	badRequest(`Invalid parameter(s): ${name}`, 'rest_invalid_param', { params: { [name]: sentence }, details: { [name]: { code, message: sentence, data: null } } });

/** The item of the type with this id, or WordPress's 404. */
export function getItem(services: Services, def: PostType, id: number): ContentRow {
	const row = id > 0 ? services.store.content.get(id) : undefined;
	if (!row || row.type !== def.type) throw notFound('Invalid post ID.', 'rest_post_invalid_id');
	return row;
}

/** WordPress's `create_item_permissions_check`. */
export function checkCreate(env: WriteEnv, body: ItemBody, rawBody: unknown) {
	const { user, def } = env;
	if (rawBody && typeof rawBody === 'object' && (rawBody as { id?: unknown }).id) throw badRequest('Cannot create existing post.', 'rest_post_exists');
	if (body.author && body.author !== user?.id && !can(user, def.caps.edit_others_posts)) {
		throw denied(user, 'rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.');
	}
	checkSticky(env, body);
	if (!canCreate(user, def)) throw denied(user, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
}

/** WordPress's `update_item_permissions_check` (also for autosaves). */
export function checkUpdate(env: WriteEnv, row: ContentRow, body: ItemBody) {
	const { user, def } = env;
	if (!canEdit(user, def, row)) throw denied(user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
	if (body.author && body.author !== user?.id && !can(user, def.caps.edit_others_posts)) {
		throw denied(user, 'rest_cannot_edit_others', 'Sorry, you are not allowed to update posts as this user.');
	}
	checkSticky(env, body);
}

function checkSticky({ user, def }: WriteEnv, body: ItemBody) {
	if (body.sticky && !can(user, def.caps.edit_others_posts) && !can(user, def.caps.publish_posts)) {
		throw denied(user, 'rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.');
	}
}

/** WordPress's `handle_status_param`: publishing (also privately or scheduled) needs the publish capability. */
function checkStatus({ user, def }: WriteEnv, status: string) {
	if (can(user, def.caps.publish_posts)) return;
	if (status === 'private') throw denied(user, 'rest_cannot_publish', 'Sorry, you are not allowed to create private posts in this post type.');
	if (status === 'publish' || status === 'future') {
		throw denied(user, 'rest_cannot_publish', 'Sorry, you are not allowed to publish posts in this post type.');
	}
}

/** The term ids a body gives for a taxonomy's field (`categories`, `tags`, an engine taxonomy's REST base). */
const termIdsOf = (body: ItemBody, base: string) => (body as Record<string, unknown>)[base] as number[] | undefined;

/** The checks of the values themselves (ids that must exist, combinations WordPress refuses); 400s. */
function checkValues(env: WriteEnv, before: ContentRow | undefined, body: ItemBody) {
	const { services, def } = env;
	const store = services.store;
	if (body.author && body.author !== env.user?.id && !store.users.byId(body.author)) throw badRequest('Invalid author ID.', 'rest_invalid_author');
	if (body.featured_media) {
		// WordPress 6.1's `set_post_thumbnail`: an image is set, any other item of the site removes the featured
		// image, an unknown id changes nothing; create and update alike ignore what `handle_featured_media` answers.
		const media = store.content.get(body.featured_media);
		if (!media) body.featured_media = undefined;
		else if (media.type !== 'attachment' || !media.mime_type.startsWith('image/')) body.featured_media = 0;
	}
	// An item as its own parent has none (`wp_check_post_hierarchy_for_loops`).
	if (def.hierarchical && before && body.parent === before.id) body.parent = 0;
	if (def.hierarchical && body.parent) {
		const parent = store.content.get(body.parent);
		if (!parent || parent.type !== def.type) throw badRequest('Invalid post parent ID.', 'rest_post_invalid_id');
		if (before && store.content.inSubtreeOf(body.parent, before.id)) {
			throw badRequest(`Invalid post parent ID: ${def.type} ${body.parent} is this ${def.type} or one below it.`, 'rest_post_invalid_id');
		}
	}
	// Term ids the taxonomy does not have are left out, as `wp_set_object_terms` skips them.
	for (const tax of def.taxonomies) {
		const ids = termIdsOf(body, tax.base);
		const unknown = ids ? store.terms.unknown(tax.name, ids) : [];
		if (unknown.length) (body as Record<string, unknown>)[tax.base] = ids!.filter((id) => !unknown.includes(id));
	}
	const password = body.password ?? before?.password ?? '';
	const sticky = body.sticky ?? before?.sticky === 1;
	if (def.sticky && password !== '' && sticky) {
		const message =
			body.password && body.sticky
				? 'A post can not be sticky and have a password.'
				: body.password
					? 'A sticky post can not be password protected.'
					: 'A password protected post can not be set to sticky.';
		throw badRequest(message, 'rest_invalid_field');
	}
}

/**
 * The item's meta after the body's changes: the site's own keys as given (`null` back to their default,
 * not stored), the engine's fields of the type checked by field type; other keys are ignored.
 */
function mergedMeta(env: WriteEnv, before: ContentRow | undefined, body: ItemBody): string {
	const meta: Record<string, unknown> = before ? { ...(JSON.parse(before.meta) as object) } : {};
	const given: Record<string, unknown> = body.meta ?? {};
	for (const key of Object.keys(META_DEFAULTS)) {
		const value = given[key];
		if (value === undefined) continue;
		if (value === null) delete meta[key];
		else meta[key] = value;
	}
	const fields = metaFieldsOf(env.services.store, 'post', env.def.type);
	if (!fields.length) return JSON.stringify(meta);
	const checked = checkFieldValues(fields, given, { creating: !before, store: env.services.store, prefix: 'meta.' });
	if ('sentence' in checked) throw invalidParam('meta', checked.sentence);
	return JSON.stringify(applyChanges(meta, checked.changes));
}

/** A slug no other item of the type's slug scope has: `slug`, `slug-2`, `slug-3`, ... */
export function uniqueSlug(env: WriteEnv, slug: string, id: number, parent: number): string {
	const { store } = env.services;
	const scope = env.def.hierarchical ? parent : undefined;
	let candidate = slug;
	for (let n = 2; store.content.slugTaken(candidate, env.def.slugTypes, id, scope); n++) candidate = `${slug}-${n}`;
	return candidate;
}

interface Dates {
	date_gmt: number;
	date_floating: number;
}

/**
 * The item's date after the body: a given `date`/`date_gmt` is the item's own; `null` resets it; an
 * item without its own date takes the time of each save until it is published.
 */
function datesAfter(env: WriteEnv, before: ContentRow | undefined, body: ItemBody, status: string, now: number): Dates {
	let dates: Dates = before ? { date_gmt: before.date_gmt, date_floating: before.date_floating } : { date_gmt: now, date_floating: 1 };
	if (body.date) dates = { date_gmt: wholeSeconds(parseDateTime(body.date, env.zone)), date_floating: 0 };
	else if (body.date_gmt) dates = { date_gmt: wholeSeconds(parseDateTime(body.date_gmt, env.zone, true)), date_floating: 0 };
	else if (body.date === null || body.date_gmt === null) dates = { date_gmt: now, date_floating: 1 };
	if (dates.date_floating) dates = { date_gmt: now, date_floating: UNPUBLISHED.includes(status) ? 1 : 0 };
	return dates;
}

/** WordPress moves a post between `publish` and `future` by its date (a minute's grace). */
function scheduled(status: string, dateGmt: number, now: number): string {
	if (status === 'publish' && dateGmt - now >= 60000) return 'future';
	if (status === 'future' && dateGmt - now < 60000) return 'publish';
	return status;
}

/**
 * What a new item gets when the body says nothing: posts take the site's discussion settings and
 * default category (WordPress's `get_default_comment_status` and `default_category`), other types
 * their own default.
 */
function siteDefaults({ services, def }: WriteEnv) {
	const settings = siteSettings(services.store);
	const post = def.type === 'post';
	return {
		comment_status: post ? settings.default_comment_status : def.discussion,
		ping_status: post ? settings.default_ping_status : def.discussion,
		// A category deleted since it was made the default falls back to "Uncategorized".
		category: services.store.terms.get(settings.default_category, 'category') ? settings.default_category : DEFAULT_CATEGORY,
	};
}

export interface WriteOptions {
	/** Keep a revision when title, content or excerpt change (not for autosaves, as WordPress). */
	revision: boolean;
}

/**
 * Creates (`before` undefined) or updates an item from a write body, after the permission checks:
 * checks the values, works out status, dates and slug, writes the row, its terms and (updates) a
 * revision. Runs in the caller's transaction.
 */
export function writeItem(env: WriteEnv, before: ContentRow | undefined, given: ItemBody, options: WriteOptions): ContentRow {
	const { services, def, user } = env;
	// Kses, as `wp_insert_post` filters what a user without `unfiltered_html` writes.
	const body = filterItemText(user, given);
	const store = services.store;
	if (body.status) checkStatus(env, body.status);
	checkValues(env, before, body);
	// `wp_insert_post`'s `empty_content`, for the types that support a title, an editor and an excerpt.
	const full = ['title', 'editor', 'excerpt'].every((feature) => def.supports.includes(feature));
	if (!before && full && def.type !== 'attachment' && !body.title && !body.content && !body.excerpt) {
		throw badRequest('Content, title, and excerpt are empty.', 'empty_content');
	}
	const meta = mergedMeta(env, before, body);

	const now = wholeSeconds(Date.now());
	let status: string = body.status ?? before?.status ?? 'draft';
	const dates = datesAfter(env, before, body, status, now);
	const defaults = siteDefaults(env);
	status = scheduled(status, dates.date_gmt, now);
	const restoring = before?.status === 'trash' && status !== 'trash';
	const base = before ?? store.content.insert({ type: def.type, status, date_gmt: now, modified_gmt: now, author: user?.id ?? 0 });
	const next: ContentRow = {
		...base,
		status,
		...dates,
		modified_gmt: now,
		author: body.author || base.author,
		title: body.title ?? base.title,
		content: body.content ?? base.content,
		excerpt: body.excerpt ?? base.excerpt,
		password: body.password ?? base.password,
		comment_status: body.comment_status ?? (before ? base.comment_status : defaults.comment_status),
		ping_status: body.ping_status ?? (before ? base.ping_status : defaults.ping_status),
		format: def.formats ? (body.format ?? base.format) : base.format,
		sticky: def.sticky && body.sticky !== undefined ? (body.sticky ? 1 : 0) : base.sticky,
		template: body.template ?? base.template,
		featured_media: body.featured_media ?? base.featured_media,
		parent: def.hierarchical ? (body.parent ?? base.parent) : base.parent,
		menu_order: def.hierarchical ? (body.menu_order ?? base.menu_order) : base.menu_order,
		meta,
		trashed_status: restoring ? null : base.trashed_status,
		trashed_slug: restoring ? null : base.trashed_slug,
	};
	next.slug = slugAfter(env, base, next, body, restoring);
	const row = store.content.save(next);

	for (const tax of def.taxonomies) {
		let ids = termIdsOf(body, tax.base);
		// As WordPress: `wp_insert_post` gives a post the default category when it has none (a new post, or an
		// update of one left without), then the REST route sets the categories given, exactly: `[]`, or ids
		// none of which exists, leave the post with none.
		if (ids === undefined && tax.name === 'category' && def.type === 'post' && row.status !== 'auto-draft') {
			if (!before || store.content.termIds(row.id, tax.name).length === 0) ids = [defaults.category];
		}
		if (ids) store.content.setTermIds(row.id, tax.name, ids);
	}
	if (before && options.revision && def.revisions) keepRevision(env, row);
	return row;
}

/**
 * The slug after a write: a given slug (made unique, also for drafts, as the REST routes do); else the
 * current one; an item being published without one gets one from its title (or its id).
 */
function slugAfter(env: WriteEnv, base: ContentRow, next: ContentRow, body: ItemBody, restoring: boolean): string {
	if (next.status === 'trash') return base.slug;
	let slug = body.slug !== undefined ? sanitizeTitle(body.slug) : restoring ? (base.trashed_slug ?? '') : base.slug;
	const unpublished = UNPUBLISHED.includes(next.status);
	if (slug === '' && !unpublished) slug = sanitizeTitle(next.title) || String(next.id);
	if (slug === '') return '';
	// Drafts keep a slug as it is (WordPress makes it unique when they are published), unless it was just given.
	return body.slug !== undefined || !unpublished ? uniqueSlug(env, slug, next.id, next.parent) : slug;
}

/** The fields a revision keeps. */
const REVISIONED = ['title', 'content', 'excerpt'] as const;

/**
 * WordPress's `wp_save_post_revision`, run on every update (`post_updated`, a move to the trash
 * included): a copy of the item as saved, by the user who saved it, when its title, content or excerpt
 * differ from the latest revision, or whatever changed when it has no revision yet.
 */
function keepRevision(env: WriteEnv, row: ContentRow) {
	const store = env.services.store;
	if (row.status === 'auto-draft') return;
	const latest = store.content.revisions(row.id).find((r) => r.slug === `${row.id}-revision-v1`);
	if (latest && REVISIONED.every((field) => row[field] === latest[field])) return;
	store.content.insert({
		type: 'revision',
		status: 'inherit',
		parent: row.id,
		author: env.user?.id ?? 0,
		slug: `${row.id}-revision-v1`,
		title: row.title,
		content: row.content,
		excerpt: row.excerpt,
		date_gmt: row.modified_gmt,
		modified_gmt: row.modified_gmt,
	});
}

/**
 * DELETE of an item: to the trash (its status and slug kept for a restore; the slug freed with
 * `__trashed`), or with `force` for good with its revisions (a page's children move up to its parent).
 * Returns the item as trashed, or null when deleted.
 */
export function deleteItem(env: WriteEnv, row: ContentRow, force: boolean): ContentRow | null {
	const { services, def, user } = env;
	if (!canDelete(user, def, row)) throw denied(user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
	const store = services.store;
	if (force) {
		if (def.hierarchical) store.content.reparent(def.type, row.id, row.parent);
		// Its media stay, attached one level up (WordPress's `wp_delete_post`).
		store.content.reparent('attachment', row.id, row.parent);
		store.content.delete(row.id);
		return null;
	}
	if (!def.trash) throw new ApiError(501, "The post does not support trashing. Set 'force=true' to delete.", 'rest_trash_not_supported');
	if (row.status === 'trash') throw new ApiError(410, 'The post has already been deleted.', 'rest_already_trashed');
	const trashed = store.content.save({
		...row,
		status: 'trash',
		trashed_status: row.status,
		trashed_slug: row.slug,
		// As `wp_add_trashed_suffix_to_post_name_for_post`: a draft without a slug gets the suffix alone.
		slug: `${row.slug}__trashed`,
		modified_gmt: wholeSeconds(Date.now()),
	});
	// `wp_trash_post` is an update (`wp_update_post`): it keeps a revision as any update does.
	if (def.revisions) keepRevision(env, trashed);
	return trashed;
}

