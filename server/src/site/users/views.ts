import crypto from 'node:crypto';
import type { Services } from '../../services';
import type { AppPasswordRow, UserRow } from '../../store/types';
import { formatGmt } from '../content/dates';
import type { Context } from '../content/params';
import { contentBase } from '../content/views';
import { ALL, type ContextTable, EDIT, inContext, VIEW_EDIT } from '../content/views';
import { grantsOf } from '../roles';

/** Which contexts show each user field, as WordPress's user schema says (`password` never shows). */
const USER_FIELDS: ContextTable = {
	id: ALL,
	username: EDIT,
	name: ALL,
	first_name: EDIT,
	last_name: EDIT,
	email: EDIT,
	url: ALL,
	description: ALL,
	link: ALL,
	locale: EDIT,
	nickname: EDIT,
	slug: ALL,
	roles: EDIT,
	registered_date: EDIT,
	capabilities: EDIT,
	extra_capabilities: EDIT,
	avatar_urls: ALL,
	meta: VIEW_EDIT,
};

export const usersUrl = (services: Services) => `${contentBase(services)}/users`;
export const userUrl = (services: Services, id: number) => `${usersUrl(services)}/${id}`;

/** The display name: `name` when set, else the login (WordPress fills `display_name` at creation). */
export const displayName = (user: UserRow) => user.display_name ?? user.name;

/** Gravatar's URLs for the email address, in WordPress's three sizes (`rest_get_avatar_urls`). */
function avatarUrls(user: UserRow): Record<string, string> {
	const hash = crypto
		.createHash('md5')
		.update((user.email ?? '').trim().toLowerCase())
		.digest('hex');
	return Object.fromEntries([24, 48, 96].map((size) => [String(size), `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`]));
}

/** A user as WordPress's users controller answers it, in the given context. */
export function userView(services: Services, user: UserRow, context: Context): Record<string, unknown> {
	const full = {
		id: user.id,
		username: user.name,
		name: displayName(user),
		first_name: user.first_name,
		last_name: user.last_name,
		email: user.email ?? '',
		url: user.url,
		description: user.description,
		// Plain permalinks: the author archive is `?author=ID`.
		link: `${services.baseUrl}/?author=${user.id}`,
		locale: user.locale || 'en_US',
		nickname: user.nickname || user.name,
		slug: user.slug,
		roles: [user.role],
		registered_date: `${formatGmt(user.created_at)}+00:00`,
		capabilities: grantsOf(user.role),
		extra_capabilities: { [user.role]: true },
		avatar_urls: avatarUrls(user),
		// WordPress 6.1+ registers one user meta field, the block editor's preferences, for the edit
		// context only (none are kept here: an empty object); otherwise an empty list.
		meta: context === 'edit' ? { persisted_preferences: {} } : [],
		_links: { self: [{ href: userUrl(services, user.id) }], collection: [{ href: usersUrl(services) }] },
	};
	return inContext(full, USER_FIELDS, context);
}

const APP_PASSWORD_FIELDS: ContextTable = {
	uuid: ALL,
	app_id: ALL,
	name: ALL,
	created: VIEW_EDIT,
	last_used: VIEW_EDIT,
	last_ip: VIEW_EDIT,
	password: EDIT,
};

export const appPasswordUrl = (services: Services, userId: number, uuid: string) => `${userUrl(services, userId)}/application-passwords/${uuid}`;

/** An application password as WordPress answers it; `password` only when just created (edit context). */
export function appPasswordView(services: Services, row: AppPasswordRow, context: Context, password?: string): Record<string, unknown> {
	const full = {
		uuid: row.uuid,
		app_id: row.app_id,
		name: row.name,
		created: formatGmt(row.created_at),
		last_used: row.last_used ? formatGmt(row.last_used) : null,
		last_ip: row.last_ip || null,
		...(password !== undefined ? { password } : {}),
		_links: { self: [{ href: appPasswordUrl(services, row.user_id, row.uuid) }] },
	};
	return inContext(full, APP_PASSWORD_FIELDS, context);
}
