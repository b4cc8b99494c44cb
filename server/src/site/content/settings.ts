import { z } from 'zod';
import { type Method, type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { can } from '../roles';
import { type SettingName, SETTING_KEY, saveSettings, siteSettings, validZone } from '../settings';
import { denied } from './capabilities';
import { wpBool, wpInt } from './params';
import { FORMATS } from './types';
import { invalidParam } from './write';

/**
 * `/cms/v2/settings`, WordPress's settings controller: the registered settings WordPress 6.x shows in
 * REST, read and written by administrators (`manage_options`). They are the site's one settings state
 * (`site/settings.ts`): the index, the content routes and the theme core read the same values.
 */

/** REST name -> stored setting: WordPress's `title` is its `blogname` (the index's `name`). */
const STORED: Record<string, SettingName> = { title: 'name' };
const storedName = (field: string) => STORED[field] ?? (field as SettingName);

const text = z.string().nullable().optional();
const int = (min?: number, max?: number) => wpInt(min, max).nullable().optional();
const status = z.enum(['open', 'closed']).nullable().optional();

/** The writable settings, as WordPress's schema types them; `null` resets one to its default. */
const settingsBody = z.object({
	title: text,
	description: text,
	url: text,
	email: text,
	timezone: text,
	date_format: text,
	time_format: text,
	start_of_week: int(0, 6),
	language: text,
	use_smilies: wpBool.nullable().optional(),
	default_category: int(1),
	default_post_format: text,
	posts_per_page: int(1),
	show_on_front: z.enum(['posts', 'page']).nullable().optional(),
	page_on_front: int(0),
	page_for_posts: int(0),
	default_ping_status: status,
	default_comment_status: status,
	site_logo: int(0),
	site_icon: int(0),
});
type SettingsBody = z.infer<typeof settingsBody>;

/** The settings as WordPress answers them, in its order. */
export function settingsView(services: Services) {
	const s = siteSettings(services.store);
	return {
		title: s.name,
		description: s.description,
		url: services.baseUrl,
		email: s.email,
		timezone: s.timezone,
		date_format: s.date_format,
		time_format: s.time_format,
		start_of_week: s.start_of_week,
		language: s.language,
		use_smilies: s.use_smilies,
		default_category: s.default_category,
		default_post_format: s.default_post_format,
		posts_per_page: s.posts_per_page,
		show_on_front: s.show_on_front,
		page_on_front: s.page_on_front,
		page_for_posts: s.page_for_posts,
		default_ping_status: s.default_ping_status,
		default_comment_status: s.default_comment_status,
		// A fresh WordPress has no `site_logo` option (null) but a `site_icon` of 0.
		site_logo: services.store.meta.get(SETTING_KEY('site_logo')) === undefined ? null : s.site_logo,
		site_icon: s.site_icon,
	};
}

function checkManage(user: UserRow | null) {
	if (!can(user, 'manage_options')) throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Post formats a site may default to (`0` is the standard format). */
const DEFAULT_FORMATS = ['0', ...FORMATS.filter((f) => f !== 'standard')];

/**
 * The checks WordPress's `sanitize_option` makes (where it silently keeps the old value, the server
 * says why instead), and those of ids that must name something of the site.
 */
function checkValues(services: Services, body: SettingsBody) {
	const { store } = services;
	const isPage = (id: number) => store.content.get(id)?.type === 'page';
	const isMedia = (id: number) => store.content.get(id)?.type === 'attachment';
	if (body.url != null && body.url.replace(/\/+$/, '') !== services.baseUrl) {
		throw invalidParam('url', `url is the server's own address (${services.baseUrl}): it is set in the server's configuration (baseUrl), not here`);
	}
	if (body.email != null && !EMAIL.test(body.email)) throw invalidParam('email', 'email must be an email address, e.g. admin@example.com', 'rest_invalid_email');
	if (body.timezone != null && (body.timezone === '' || !validZone(body.timezone))) {
		throw invalidParam('timezone', 'timezone must be a time zone name, e.g. Europe/Berlin or UTC');
	}
	if (body.language != null && !['', 'en_US'].includes(body.language)) {
		throw invalidParam('language', 'language must be a language installed on the site: en_US');
	}
	if (body.default_post_format != null && !DEFAULT_FORMATS.includes(body.default_post_format)) {
		throw invalidParam('default_post_format', `default_post_format must be one of: ${DEFAULT_FORMATS.join(', ')}`);
	}
	if (body.default_category != null && !store.terms.get(body.default_category, 'category')) {
		throw invalidParam('default_category', `default_category must be the id of a category: ${body.default_category} is none`);
	}
	for (const field of ['page_on_front', 'page_for_posts'] as const) {
		const id = body[field];
		if (id && !isPage(id)) throw invalidParam(field, `${field} must be 0 or the id of a page: ${id} is none`);
	}
	for (const field of ['site_logo', 'site_icon'] as const) {
		const id = body[field];
		if (id && !isMedia(id)) throw invalidParam(field, `${field} must be 0 or the id of a media item: ${id} is none`);
	}
}

const update = (method: Method) =>
	route({
		method,
		path: '/cms/v2/settings',
		auth: 'site',
		summary: "Update the site's settings (administrators); null resets a setting to its default",
		allowed: ({ siteUser }) => can(siteUser, 'manage_options'),
		body: settingsBody,
		handler: ({ services, siteUser, body }) => {
			// WordPress 6.1 checks a write as a read (`get_item_permissions_check`); the per-option refusal came later.
			checkManage(siteUser);
			checkValues(services, body);
			const changes: Partial<Record<SettingName, string | number | boolean | null>> = {};
			for (const [field, value] of Object.entries(body)) {
				// The address is the server's configuration; English is stored as WordPress stores it.
				if (field === 'url' || value === undefined) continue;
				changes[storedName(field)] = field === 'language' && value === '' ? 'en_US' : (value as string | number | boolean | null);
			}
			services.store.tx(() => saveSettings(services.store, changes));
			return settingsView(services);
		},
	});

export const settingsRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/cms/v2/settings',
		auth: 'site',
		summary: "Get the site's settings: title, tagline, time zone, formats, reading and discussion defaults (administrators)",
		allowed: ({ siteUser }) => can(siteUser, 'manage_options'),
		handler: ({ services, siteUser }) => {
			checkManage(siteUser);
			return settingsView(services);
		},
	}),
	update('POST'),
	update('PUT'),
	update('PATCH'),
];
