import crypto from 'node:crypto';
import { z } from 'zod';
import { contextTable } from '../item-schema';
import type { Services } from '../../services';
import type { AppPasswordRow, UserRow } from '../../store/types';
import { formatGmt } from '../content/dates';
import { ALL, type Context, type ContextTable, EDIT, VIEW_EDIT } from '../contexts';
import { contentBase } from '../content/views';
import { inContext } from '../content/views';
import { grantsOf } from '../roles';

const avatar = (size: number) => z.string().meta({ description: `Avatar URL with image size of ${size} pixels.`, format: 'uri', context: ALL });

const preferences = z.object({ _modified: z.string().meta({ description: 'The date and time the preferences were updated.', format: 'date-time', readonly: false }).optional() });
/**
 * The block editor's preferences, the one user meta field WordPress 6.1 registers (edit context only).
 * None kept is its default, PHP's empty map: `[]`.
 */
export const userMetaFields = z.object({
	persisted_preferences: z
		.union([preferences, z.tuple([])])
		.meta({ description: '', type: 'object', properties: z.toJSONSchema(preferences).properties, default: [], context: EDIT, additionalProperties: true })
		.optional(),
});

/** A user as WordPress's users controller answers it (its item schema, `user`); `password` never shows. */
export const userItem = z.object({
	id: z.int().meta({ description: 'Unique identifier for the user.', context: ALL, readonly: true }),
	username: z.string().meta({ description: 'Login name for the user.', context: EDIT, required: true }),
	name: z.string().meta({ description: 'Display name for the user.', context: ALL }),
	first_name: z.string().meta({ description: 'First name for the user.', context: EDIT }),
	last_name: z.string().meta({ description: 'Last name for the user.', context: EDIT }),
	email: z.string().meta({ description: 'The email address for the user.', format: 'email', context: EDIT, required: true }),
	url: z.string().meta({ description: 'URL of the user.', format: 'uri', context: ALL }),
	description: z.string().meta({ description: 'Description of the user.', context: ALL }),
	link: z.string().meta({ description: 'Author URL of the user.', format: 'uri', context: ALL, readonly: true }),
	locale: z.enum(['', 'en_US']).meta({ description: 'Locale for the user.', context: EDIT }),
	nickname: z.string().meta({ description: 'The nickname for the user.', context: EDIT }),
	slug: z.string().meta({ description: 'An alphanumeric identifier for the user.', context: ALL }),
	registered_date: z.string().meta({ description: 'Registration date for the user.', format: 'date-time', context: EDIT, readonly: true }),
	roles: z.array(z.string()).meta({ description: 'Roles assigned to the user.', context: EDIT }),
	password: z.string().optional().meta({ description: 'Password for the user (never included).', context: [], required: true }),
	capabilities: z.record(z.string(), z.boolean()).meta({ description: 'All capabilities assigned to the user.', context: EDIT, readonly: true }),
	extra_capabilities: z.record(z.string(), z.boolean()).meta({ description: 'Any extra capabilities assigned to the user.', context: EDIT, readonly: true }),
	avatar_urls: z.object({ 24: avatar(24), 48: avatar(48), 96: avatar(96) }).meta({ description: 'Avatar URLs for the user.', context: ALL, readonly: true }),
	// PHP's empty map is `[]`: a user without preferences answers an empty list.
	meta: z.union([userMetaFields, z.tuple([])]).meta({ description: 'Meta fields.', type: 'object', context: VIEW_EDIT, properties: z.toJSONSchema(userMetaFields).properties }),
});

/** Which contexts show each user field: the item schema's. */
const USER_FIELDS: ContextTable = contextTable(userItem);

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
		// context only (none are kept here: its default, PHP's empty map `[]`); otherwise an empty list.
		meta: context === 'edit' ? { persisted_preferences: [] } : [],
		_links: { self: [{ href: userUrl(services, user.id) }], collection: [{ href: usersUrl(services) }] },
	};
	return inContext(full, USER_FIELDS, context);
}

/** An application password as WordPress answers it (its item schema, `application-password`). */
export const appPasswordItem = z.object({
	uuid: z.string().meta({ description: 'The unique identifier for the application password.', format: 'uuid', context: ALL, readonly: true }),
	app_id: z.string().meta({ description: 'A UUID provided by the application to uniquely identify it.', format: 'uuid', context: ALL }),
	name: z.string().min(1).regex(/.*\S.*/).meta({ description: 'The name of the application password.', required: true, context: ALL }),
	password: z.string().optional().meta({ description: 'The generated password. Only available after adding an application.', context: EDIT, readonly: true }),
	created: z.string().meta({ description: 'The GMT date the application password was created.', format: 'date-time', context: VIEW_EDIT, readonly: true }),
	last_used: z.string().nullable().meta({ description: 'The GMT date the application password was last used.', format: 'date-time', context: VIEW_EDIT, readonly: true }),
	last_ip: z.string().nullable().meta({ description: 'The IP address the application password was last used by.', format: 'ip', context: VIEW_EDIT, readonly: true }),
});

const APP_PASSWORD_FIELDS: ContextTable = contextTable(appPasswordItem);

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
