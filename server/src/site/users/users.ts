import { z } from 'zod';
import { ApiError, badRequest } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Method, type Route, requestContext, route } from '../../http/route';
import { randomSecret } from '../../security';
import type { Services } from '../../services';
import type { Sql } from '../../store/content';
import type { UserProfile } from '../../store/users';
import { loginSlug } from '../../store/users';
import type { SiteRole, UserRow } from '../../store/types';
import { authCode } from '../content/capabilities';
import { contextParam, idList, list, searchParam, wpBool, wpInt } from '../content/params';
import { type Context } from '../contexts';
import { inList, pagingHeaders, Where } from '../content/query';
import { filterDescription } from '../content/kses';
import { sanitizeTitle } from '../content/render';
import { can, grantsOf, SITE_ROLES } from '../roles';
import { sitePostTypes } from '../registry';
import { canEditUser, denied, hasPublishedPosts, invalidParam, signedIn, userById } from './access';
import { userItem, userMetaFields, userUrl, usersUrl, userView } from './views';
import { deletedAnswer, itemAnswer, wpItemSchema } from '../item-schema';

/**
 * WordPress's users controller (`/cms/v2/users`, `/users/{id}`, `/users/me`). The site's users are the
 * server's users (one store): a user created here has a login password and a role, and no gateway API
 * key anyone knows until `wdm-server users key NAME` issues one.
 */

const ORDERBY = ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'] as const;

/** `true`/`false`, or a list of post types (WordPress 6.x's `has_published_posts`). */
const publishedPostsParam = z.preprocess((value) => {
	if (value === true || value === 'true' || value === '1') return true;
	if (value === false || value === 'false' || value === '0' || value === '') return false;
	return typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : value;
}, z.union([z.boolean(), z.array(z.string())])).meta({
	type: ['boolean', 'array'],
	// The site's post types (checked by `checkPublishedTypes`), keyed by name as WordPress's enum is.
	items: (services: Services) => ({ type: 'string', enum: Object.fromEntries(postTypeNames(services).map((name) => [name, name])) }),
});
const postTypeNames = (services: Services) => sitePostTypes(services.store).map((t) => t.slug);

/** Each type `has_published_posts` names must be a post type of the site, as WordPress's enum says. */
function checkPublishedTypes(services: Services, value: boolean | string[] | undefined) {
	if (!Array.isArray(value)) return;
	const names = postTypeNames(services);
	const at = value.findIndex((name) => !names.includes(name));
	if (at >= 0) throw invalidParam('has_published_posts', `has_published_posts[${at}] is not one of ${names.join(', ')}.`);
}

const collectionQuery = phpQuery({
	context: contextParam,
	page: wpInt(1).prefault(1),
	per_page: wpInt(1, 100).prefault(10),
	search: searchParam.optional(),
	exclude: idList().prefault([]),
	include: idList().prefault([]),
	offset: wpInt().optional(),
	order: z.enum(['asc', 'desc']).default('asc'),
	orderby: z.enum(ORDERBY).default('name'),
	slug: list(z.string()).optional(),
	roles: list(z.string()).optional(),
	capabilities: list(z.string()).optional().meta({ description: 'Limit result set to users matching at least one specific capability provided. Accepts csv list or single capability.' }),
	who: z.enum(['authors']).optional(),
	has_published_posts: publishedPostsParam.optional(),
});
type CollectionQuery = z.output<typeof collectionQuery>;

/** WordPress's `sanitize_text_field`, short: tags dropped, white space folded, trimmed. */
const textField = z.string().transform((text) =>
	text
		.replace(/<[^>]*>/g, '')
		.replace(/\s+/g, ' ')
		.trim(),
);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const isUrl = (text: string) => {
	try {
		return ['http:', 'https:'].includes(new URL(text).protocol);
	} catch {
		return false;
	}
};

/** The writable fields; WordPress's column sizes bound them. Unknown fields (n8n sends `id`) are ignored. */
const fields = {
	username: z.string().max(60, { error: 'must be at most 60 characters (Username may not be longer than 60 characters.)' }),
	name: textField.pipe(z.string().max(250)),
	first_name: textField,
	last_name: textField,
	email: z
		.string()
		.trim()
		.max(100)
		.refine((text) => EMAIL.test(text), { error: 'must be an email address', params: { wpCode: 'rest_invalid_email' } }),
	url: z
		.string()
		.trim()
		.max(100)
		.refine((text) => text === '' || isUrl(text), { error: 'must be an http(s) URL' }),
	description: z.string(),
	locale: z.enum(['', 'en_US']),
	nickname: textField,
	slug: z.string(),
	roles: list(z.string()),
	password: z.string(),
	// The one registered user meta field (the block editor's preferences) is accepted and not kept; other
	// meta is ignored, as WordPress ignores unregistered meta.
	meta: userMetaFields,
};
const updateBody = z.object(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]> });
const createBody = updateBody.extend({ username: fields.username, email: fields.email, password: fields.password });
type UpdateBody = z.output<typeof updateBody>;

const idParams = z.object({ id: z.string() });
const ID = { id: '[\\d]+' };
const contextQuery = phpQuery({ context: contextParam });

/** `reassign`: a user id, or `false` (or empty) to delete the user's content with it. */
function reassignOf(value: unknown): number | null {
	if (value === undefined) throw badRequest('Missing parameter(s): reassign', 'rest_missing_callback_param', { params: ['reassign'] });
	if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value || null;
	if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value) || null;
	if (value === false || value === '' || value === 'false' || value === null) return null;
	throw invalidParam('reassign', 'reassign must be a user ID or false (Invalid user parameter(s).)');
}
// `reassign` is required (checked by `reassignOf`, which also takes `false`), an integer as WordPress declares it.
const reassignParam = z.unknown().optional().meta({ type: 'integer', required: true });
const forceParam = wpBool.prefault(false).meta({ description: 'Required to be true, as users do not support trashing.' });
const deleteQuery = phpQuery({ force: forceParam, reassign: reassignParam });
const deleteBody = z.object({ force: forceParam, reassign: reassignParam });

// ---- checks ----

/** WordPress's `validate_username`: letters, digits, spaces, `_ . - @`. */
function checkUsername(username: string) {
	if (username.trim() === '' || !/^[A-Za-z0-9 _.\-@]+$/.test(username)) {
		throw new ApiError(400, 'This username is invalid because it uses illegal characters. Please enter a valid username.', 'rest_user_invalid_username');
	}
}

function checkPassword(password: string | undefined) {
	if (password === undefined) return;
	if (password === '') throw new ApiError(400, 'Passwords cannot be empty.', 'rest_user_invalid_password');
	if (password.includes('\\')) throw new ApiError(400, 'Passwords cannot contain the "\\" character.', 'rest_user_invalid_password');
}

/**
 * The roles a write gives (WordPress's `check_role_update`): known roles only, and nobody takes from
 * themselves the power to edit users. A site user has one role here: a list of several is refused.
 */
function roleOf(caller: UserRow | null, targetId: number, roles: string[] | undefined): SiteRole | undefined {
	if (!roles?.length) return undefined;
	for (const role of roles) {
		if (!(SITE_ROLES as readonly string[]).includes(role)) throw new ApiError(400, `The role ${role} does not exist.`, 'rest_user_invalid_role');
		if (caller?.id === targetId && !grantsOf(role as SiteRole).edit_users) {
			throw new ApiError(authCode(caller), 'Sorry, you are not allowed to give users that role.', 'rest_user_invalid_role');
		}
	}
	if (new Set(roles).size > 1) throw invalidParam('roles', 'roles must hold one role: a site user has one role');
	return roles[0] as SiteRole;
}

/** The profile columns a body writes. */
function profileOf(body: UpdateBody): UserProfile & { password?: string } {
	return {
		display_name: body.name,
		first_name: body.first_name,
		last_name: body.last_name,
		email: body.email,
		url: body.url,
		description: body.description === undefined ? undefined : filterDescription('user', body.description),
		locale: body.locale,
		nickname: body.nickname,
		password: body.password,
	};
}

/** WordPress's `sanitize_title` for user slugs, within `user_nicename`'s 50 characters. */
const userSlug = (slug: string) => sanitizeTitle(slug).slice(0, 50).replace(/-$/, '');

// ---- collection ----

function checkListAccess(caller: UserRow | null, query: CollectionQuery) {
	const lists = can(caller, 'list_users');
	if (query.roles?.length && !lists) throw denied(caller, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.');
	if (query.capabilities?.length && !lists) throw denied(caller, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by capability.');
	if (query.context === 'edit' && !lists) throw denied(caller, 'rest_forbidden_context', 'Sorry, you are not allowed to list users.');
	if ((query.orderby === 'email' || query.orderby === 'registered_date') && !lists) {
		throw denied(caller, 'rest_forbidden_orderby', 'Sorry, you are not allowed to order users by this parameter.');
	}
	if (query.who === 'authors' && !can(caller, 'edit_posts')) {
		throw denied(caller, 'rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.');
	}
}

const likeEscape = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const publishedBy = (types: readonly string[]) => ({
	sql: "EXISTS (SELECT 1 FROM content c WHERE c.author = u.id AND c.status = 'publish' AND c.type IN (SELECT value FROM json_each(?)))",
	params: [JSON.stringify(types)],
});

function usersWhere(caller: UserRow | null, query: CollectionQuery): Where {
	const where = new Where();
	const lists = can(caller, 'list_users');
	if (query.include.length) where.addSql(inList('u.id', query.include));
	if (query.exclude.length) where.addSql(inList('u.id', query.exclude, true));
	if (query.slug?.length) where.addSql(inList('u.slug', query.slug));
	if (query.roles?.length) where.addSql(inList('u.role', query.roles));
	if (query.capabilities?.length) {
		const roles = SITE_ROLES.filter((role) => query.capabilities!.some((cap) => grantsOf(role)[cap]));
		where.addSql(inList('u.role', roles));
	}
	// Who is an author: any role above subscriber (WordPress's `user_level` > 0).
	if (query.who === 'authors') where.add("u.role <> 'subscriber'");
	// Without `list_users`, only authors of published content are listed (WordPress's default).
	else if (!lists) where.addSql(publishedBy(['post', 'page']));
	if (query.has_published_posts === true) where.addSql(publishedBy(['post', 'page']));
	else if (Array.isArray(query.has_published_posts) && query.has_published_posts.length) where.addSql(publishedBy(query.has_published_posts));
	const search = query.search?.replace(/^\*|\*$/g, '').trim();
	if (search) {
		// Login, slug and name for all; email and URL too for whoever may list users.
		const columns = ['u.name', 'u.slug', 'COALESCE(u.display_name, u.name)', ...(lists ? ['u.email', 'u.url'] : [])];
		where.add(`(${columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`, ...columns.map(() => likeEscape(search)));
	}
	return where;
}

function usersOrder(query: CollectionQuery): Sql {
	const dir = query.order === 'desc' ? 'DESC' : 'ASC';
	// `include` and `include_slugs`: the order of the given list.
	const byList = (column: string, values: unknown[]) => ({
		sql: `(SELECT key FROM json_each(?) WHERE value = ${column}) ${dir}, u.id ${dir}`,
		params: [JSON.stringify(values)],
	});
	if (query.orderby === 'include' && query.include.length) return byList('u.id', query.include);
	if (query.orderby === 'include_slugs' && query.slug?.length) return byList('u.slug', query.slug);
	const column = {
		id: 'u.id',
		include: 'u.id',
		include_slugs: 'u.id',
		name: 'COALESCE(u.display_name, u.name) COLLATE NOCASE',
		registered_date: 'u.created_at',
		slug: 'u.slug',
		email: 'u.email COLLATE NOCASE',
		url: 'u.url',
	}[query.orderby];
	return { sql: `${column} ${dir}, u.id ${dir}`, params: [] };
}

// ---- writes ----

function createUser(services: Services, caller: UserRow | null, body: z.output<typeof createBody>): UserRow {
	if (!can(caller, 'create_users')) throw denied(caller, 'rest_cannot_create_user', 'Sorry, you are not allowed to create new users.');
	const users = services.store.users;
	const role = roleOf(caller, 0, body.roles) ?? 'subscriber';
	checkUsername(body.username);
	checkPassword(body.password);
	if (users.byName(body.username)) throw new ApiError(400, 'Sorry, that username already exists!', 'existing_user_login');
	if (users.byEmail(body.email)) throw new ApiError(400, 'Sorry, that email address is already used!', 'existing_user_email');
	const profile = profileOf(body);
	// WordPress's display name when none is given: first and last name, either, or the login.
	profile.display_name ||= [body.first_name, body.last_name].filter(Boolean).join(' ') || body.username;
	profile.nickname ||= body.username;
	const slug = body.slug ? userSlug(body.slug) : '';
	// Its API key is shown to nobody (see the module's comment).
	return users.create(body.username, randomSecret('wdm_'), role, { ...profile, slug: slug || loginSlug(body.username) }).user;
}

function updateUser(services: Services, caller: UserRow | null, target: UserRow, body: UpdateBody, raw: unknown): UserRow {
	const users = services.store.users;
	const given = Object.keys(raw && typeof raw === 'object' ? raw : {}).filter((key) => key !== 'id');
	if (body.roles?.length) {
		if (!can(caller, 'promote_users')) throw denied(caller, 'rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.');
	}
	const rolesOnly = !!body.roles?.length && given.length === 1;
	if (!rolesOnly && !canEditUser(caller, target)) throw denied(caller, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this user.');
	const owner = body.email ? users.byEmail(body.email) : undefined;
	if (owner && owner.id !== target.id) throw new ApiError(400, 'Invalid email address.', 'rest_user_invalid_email');
	if (body.username && body.username !== target.name) throw new ApiError(400, "Username isn't editable.", 'rest_user_invalid_argument');
	const slug = body.slug ? userSlug(body.slug) : undefined;
	if (slug && slug !== target.slug && users.bySlug(slug)) throw new ApiError(400, 'Invalid slug.', 'rest_user_invalid_slug');
	const role = roleOf(caller, target.id, body.roles);
	checkPassword(body.password);
	const profile = profileOf(body);
	// An emptied display name is the login again (WordPress's `wp_insert_user` on update).
	if (profile.display_name === '') profile.display_name = target.name;
	return users.update(target.id, { ...profile, slug: slug || undefined, role });
}

function deleteUser(services: Services, caller: UserRow | null, target: UserRow, force: boolean, reassignValue: unknown) {
	if (!can(caller, 'delete_users')) throw denied(caller, 'rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.');
	const reassign = reassignOf(reassignValue);
	if (!force) throw new ApiError(501, "Users do not support trashing. Set 'force=true' to delete.", 'rest_trash_not_supported');
	if (reassign && (reassign === target.id || !services.store.users.byId(reassign))) {
		throw new ApiError(400, 'Invalid user ID for reassignment.', 'rest_user_invalid_reassign');
	}
	const previous = userView(services, target, 'edit');
	services.store.users.delete(target.id, reassign);
	return { deleted: true as const, previous };
}

/** The user of a `me` write: the caller; an anonymous caller names no user (WordPress's 404). */
const meTarget = (services: Services, caller: UserRow | null) => userById(services, caller?.id ?? 0);

function readUser(services: Services, caller: UserRow | null, target: UserRow, context: Context) {
	if (caller?.id !== target.id) {
		const lists = can(caller, 'list_users');
		if (context === 'edit' && !lists) throw denied(caller, 'rest_forbidden_context', 'Sorry, you are not allowed to list users.');
		if (!lists && !canEditUser(caller, target) && !hasPublishedPosts(services, target.id)) {
			throw denied(caller, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
		}
	}
	return userView(services, target, context);
}

const userSchema = () => wpItemSchema('user', userItem);

/** What the user routes answer (the contract). */
const USER_ANSWER = itemAnswer(userItem);

export function userRoutes(): Route[] {
	const base = '/cms/v2/users';
	const update = (method: Method, me: boolean) =>
		route({
			method,
			path: me ? `${base}/me` : `${base}/{id}`,
			auth: 'site',
			summary: me ? 'Update the signed-in user' : 'Update a user (roles need promote_users; the username cannot change)',
			allowed: ({ services, siteUser, params, request }) => {
				const roles = (request.body as { roles?: unknown } | undefined)?.roles;
				if (roles !== undefined && !can(siteUser, 'promote_users')) return false;
				return canEditUser(siteUser, me ? signedIn(siteUser) : userById(services, Number(params.id)));
			},
			...(me ? {} : { params: idParams, patterns: ID }),
			body: updateBody,
			answer: USER_ANSWER,
			// 404 also for `me`: a user deleted while signed in.
			errors: [403, 404],
			handler: ({ services, siteUser: caller, params, body, request }) => {
				const user = services.store.tx(() => {
					const target = me ? meTarget(services, caller) : userById(services, Number((params as { id: string }).id));
					return updateUser(services, caller, target, body, request.body);
				});
				return userView(services, user, 'edit');
			},
		});
	const remove = (me: boolean) =>
		route({
			method: 'DELETE',
			path: me ? `${base}/me` : `${base}/{id}`,
			auth: 'site',
			summary: me
				? "Delete the signed-in user (force=true; reassign: the user that gets its posts, or false to delete them)"
				: "Delete a user (force=true; reassign: the user that gets its posts, or false to delete them)",
			...(me ? {} : { params: idParams, patterns: ID }),
			allowed: ({ services, siteUser, params }) => can(siteUser, 'delete_users') && (me ? signedIn(siteUser) : userById(services, Number(params.id))) !== undefined,
			query: deleteQuery,
			body: deleteBody,
			answer: deletedAnswer(USER_ANSWER),
			// 404 also for `me` (a user deleted while signed in); 501: users have no trash (force=true is required).
			errors: [403, 404],
			handler: ({ services, siteUser: caller, params, query, body }) =>
				services.store.tx(() => {
					const target = me ? meTarget(services, caller) : userById(services, Number((params as { id: string }).id));
					return deleteUser(services, caller, target, query.force || body.force, query.reassign ?? body.reassign);
				}),
		});

	return [
		route({
			method: 'GET',
			path: base,
			auth: 'site',
			summary: 'List users, filtered, searched and paged (X-WP-Total, X-WP-TotalPages, Link); the public sees authors of published posts only',
			query: collectionQuery,
			schema: userSchema,
			// WordPress's `get_items_permissions_check` on the request's own parameters (a throw is a no).
			allowed: ({ siteUser, request }) => {
				const query = collectionQuery.safeParse(request.query);
				if (query.success) checkListAccess(siteUser, query.data);
				return true;
			},
			answer: z.array(USER_ANSWER),
			errors: [403],
			handler: ({ services, siteUser: caller, query, request, reply }) => {
				checkPublishedTypes(services, query.has_published_posts);
				checkListAccess(caller, query);
				const offset = query.offset !== undefined ? Math.abs(query.offset) : (query.page - 1) * query.per_page;
				const { rows, total } = services.store.users.find(usersWhere(caller, query).sql(), usersOrder(query), query.per_page, offset);
				const page = Math.ceil(offset / query.per_page) + 1;
				pagingHeaders(reply, request, usersUrl(services), page, total, Math.ceil(total / query.per_page));
				return rows.map((user) => userView(services, user, query.context));
			},
		}),
		route({
			method: 'POST',
			path: base,
			auth: 'site',
			summary: 'Create a user (201, Location): username, email and password required; a subscriber unless roles say otherwise',
			body: createBody,
			allowed: ({ siteUser }) => can(siteUser, 'create_users'),
			answer: USER_ANSWER,
			status: 201,
			errors: [403],
			handler: ({ services, siteUser: caller, body, reply }) => {
				const user = services.store.tx(() => createUser(services, caller, body));
				reply.header('Location', userUrl(services, user.id));
				return userView(services, user, 'edit');
			},
		}),
		route({
			method: 'GET',
			path: `${base}/me`,
			auth: 'site',
			summary: 'Get the signed-in user',
			// WordPress's route has no permission callback: the answer itself says who may not.
			allowed: () => true,
			query: contextQuery,
			schema: userSchema,
			answer: USER_ANSWER,
			errors: [403],
			handler: ({ services, siteUser: caller, query }) => userView(services, signedIn(caller), query.context),
		}),
		update('POST', true),
		update('PUT', true),
		update('PATCH', true),
		remove(true),
		route({
			method: 'GET',
			path: `${base}/{id}`,
			auth: 'site',
			summary: 'Get a user; others than oneself need list_users, or published posts of theirs',
			params: idParams,
			patterns: ID,
			query: contextQuery,
			schema: userSchema,
			allowed: ({ services, siteUser, params, request }) => readUser(services, siteUser, userById(services, Number(params.id)), requestContext(request) === 'edit' ? 'edit' : 'view') !== undefined,
			answer: USER_ANSWER,
			errors: [403],
			handler: ({ services, siteUser: caller, params, query }) => readUser(services, caller, userById(services, Number(params.id)), query.context),
		}),
		update('POST', false),
		update('PUT', false),
		update('PATCH', false),
		remove(false),
	];
}

