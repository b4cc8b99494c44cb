import { ApiError } from '../../http/errors';
import type { Sql } from '../../store/content';
import type { ContentRow, UserRow } from '../../store/types';
import { can } from '../roles';
import type { PostType } from './types';

/**
 * WordPress's meta capabilities (`read_post`, `edit_post`, `delete_post`) over the role's primitive
 * ones: an author works on their own items, others' need the `*_others_*` capabilities, published and
 * private items need their own, and pages have a set of their own (authors cannot edit pages).
 * A revision's rights are its post's: callers pass the post.
 */

/** WordPress's `rest_authorization_required_code`: 401 for an anonymous caller, 403 for a signed-in one. */
export const authCode = (user: UserRow | null) => (user ? 403 : 401);

/** A refusal with WordPress's code and message, 401 or 403 by the caller. */
export const denied = (user: UserRow | null, code: string, message: string) => new ApiError(authCode(user), message, code);

const isOwn = (user: UserRow | null, row: ContentRow): user is UserRow => !!user && row.author !== 0 && row.author === user.id;

/** Published or scheduled (a trashed item counts as what it was before the trash). */
function published(row: ContentRow): boolean {
	const status = row.status === 'trash' ? row.trashed_status : row.status;
	return status === 'publish' || status === 'future';
}

export function canRead(user: UserRow | null, def: PostType, row: ContentRow): boolean {
	if (row.status === 'publish') return true;
	if (isOwn(user, row)) return can(user, 'read');
	if (row.status === 'private') return can(user, def.caps.read_private_posts);
	return canEdit(user, def, row);
}

/** `edit_post` and `delete_post`, which WordPress maps alike, each onto its own set of capabilities. */
function mayChange(action: 'edit' | 'delete', user: UserRow | null, def: PostType, row: ContentRow): boolean {
	const caps = def.caps;
	if (isOwn(user, row)) return can(user, published(row) ? caps[`${action}_published_posts`] : caps[`${action}_posts`]);
	if (!can(user, caps[`${action}_others_posts`])) return false;
	if (row.status === 'publish' || row.status === 'future') return can(user, caps[`${action}_published_posts`]);
	if (row.status === 'private') return can(user, caps[`${action}_private_posts`]);
	return true;
}

export const canEdit = (user: UserRow | null, def: PostType, row: ContentRow) => mayChange('edit', user, def, row);
export const canDelete = (user: UserRow | null, def: PostType, row: ContentRow) => mayChange('delete', user, def, row);

/** Creating items of the type (WordPress's `create_posts`, which is `edit_posts`). */
export const canCreate = (user: UserRow | null, def: PostType) => can(user, def.caps.edit_posts);

/** `context=edit` on a collection is for whoever may create items of the type. */
export function checkListContext(user: UserRow | null, def: PostType, context: string) {
	if (context === 'edit' && !canCreate(user, def)) {
		throw denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
	}
}

/** `context=edit` on an item is for whoever may edit it. */
export function checkItemContext(user: UserRow | null, def: PostType, row: ContentRow, context: string) {
	if (context === 'edit' && !canEdit(user, def, row)) throw denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
}

/** Terms are edited and deleted by editors and administrators (WordPress maps every taxonomy's `edit_terms` and `delete_terms` to `manage_categories`). */
export const canManageTerms = (user: UserRow | null) => can(user, 'manage_categories');

/**
 * `canRead` as SQL over `content c` (or another alias), for queries: the engine's, and the REST
 * collections, whose totals count only what the caller may read.
 */
export function readableSql(user: UserRow | null, def: PostType, alias = 'c'): Sql {
	const caps = def.caps;
	const parts = [`${alias}.status = 'publish'`];
	const params: unknown[] = [];
	if (user && can(user, 'read')) {
		parts.push(`(${alias}.author = ? AND ${alias}.author <> 0)`);
		params.push(user.id);
	}
	if (can(user, caps.read_private_posts)) parts.push(`${alias}.status = 'private'`);
	if (can(user, caps.edit_others_posts)) {
		parts.push(can(user, caps.edit_published_posts) ? `${alias}.status NOT IN ('publish', 'private')` : `${alias}.status NOT IN ('publish', 'private', 'future')`);
	}
	return { sql: `(${parts.join(' OR ')})`, params };
}

/** `canEdit` as SQL over `content c`: what a query may look into behind a password or in `_` meta. */
export function editableSql(user: UserRow | null, def: PostType): Sql {
	if (!user) return { sql: '0', params: [] };
	const caps = def.caps;
	const pick = (conditions: [boolean, string][]) => conditions.filter(([ok]) => ok).map(([, sql]) => sql).join(' OR ') || '0';
	// `published` as mayChange reads it: a trashed item counts as what it was.
	const published = "coalesce(CASE WHEN c.status = 'trash' THEN c.trashed_status ELSE c.status END, '') IN ('publish', 'future')";
	const own = pick([
		[can(user, caps.edit_published_posts), published],
		[can(user, caps.edit_posts), `NOT ${published}`],
	]);
	const others = can(user, caps.edit_others_posts)
		? pick([
				[true, "c.status NOT IN ('publish', 'future', 'private')"],
				[can(user, caps.edit_published_posts), "c.status IN ('publish', 'future')"],
				[can(user, caps.edit_private_posts), "c.status = 'private'"],
			])
		: '0';
	return { sql: `(CASE WHEN c.author = ? AND c.author <> 0 THEN (${own}) ELSE (${others}) END)`, params: [user.id] };
}
