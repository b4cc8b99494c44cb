import { z, type ZodType } from 'zod';
import { type Method, type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { can } from '../roles';
import { type SettingName, SETTING_KEY, saveSettings, siteSettings, validZone } from '../settings';
import { denied } from './capabilities';
import { wpBool, wpInt } from './params';
import { FORMATS } from './types';
import { invalidParam } from './write';
import { wpItemSchema } from '../item-schema';

/**
 * `/cms/v2/settings`, WordPress's settings controller: the registered settings WordPress 6.x shows in
 * REST, read and written by administrators (`manage_options`). They are the site's one settings state
 * (`site/settings.ts`): the index, the content routes and the theme core read the same values.
 */

/** REST name -> stored setting: WordPress's `title` is its `blogname` (the index's `name`). */
const STORED: Record<string, SettingName> = { title: 'name' };
const storedName = (field: string) => STORED[field] ?? (field as SettingName);

/**
 * WordPress's settings registered for REST (`register_initial_settings`, and the site logo and icon
 * blocks' own): each setting's answer as WordPress's registered schema types, describes and defaults it
 * (`value`, with meta), and what a write takes (`input`, the server's checks). Both the settings' item
 * schema and the update's arguments come from this one list, as WordPress's `get_registered_settings()`.
 */
const registered = <V extends ZodType, I extends ZodType>(value: V, input: I) => ({ value, input });
const str = (description: string, extra: Record<string, unknown> = {}) => z.string().meta({ description, default: null, ...extra });
const int = (description: string, dflt: number | null = null) => z.int().meta({ description, default: dflt });
const status = (description: string) => z.enum(['open', 'closed']).meta({ description, default: null });
const text = z.string();
const REGISTERED = {
	title: registered(str('Site title.'), text),
	description: registered(str('Site tagline.'), text),
	url: registered(str('Site URL.', { format: 'uri' }), text),
	email: registered(str('This address is used for admin purposes, like new user notification.', { format: 'email' }), text),
	timezone: registered(str('A city in the same timezone as you.'), text),
	date_format: registered(str('A date format for all date strings.'), text),
	time_format: registered(str('A time format for all time strings.'), text),
	start_of_week: registered(int('A day number of the week that the week should start on.'), wpInt(0, 6)),
	language: registered(str('WordPress locale code.', { default: 'en_US' }), text),
	use_smilies: registered(z.boolean().meta({ description: 'Convert emoticons like :-) and :-P to graphics on display.', default: true }), wpBool),
	default_category: registered(int('Default post category.'), wpInt(1)),
	default_post_format: registered(str('Default post format.'), text),
	posts_per_page: registered(int('Blog pages show at most.', 10), wpInt(1)),
	show_on_front: registered(str('What to show on the front page'), z.enum(['posts', 'page'])),
	page_on_front: registered(int('The ID of the page that should be displayed on the front page'), wpInt(0)),
	page_for_posts: registered(int('The ID of the page that should display the latest posts'), wpInt(0)),
	default_ping_status: registered(status('Allow link notifications from other blogs (pingbacks and trackbacks) on new articles.'), z.enum(['open', 'closed'])),
	default_comment_status: registered(status('Allow people to submit comments on new posts.'), z.enum(['open', 'closed'])),
	// A fresh WordPress has no `site_logo` option: it answers null until one is set.
	site_logo: registered(z.int().nullable().meta({ type: 'integer', description: 'Site logo.', default: null }), wpInt(0)),
	site_icon: registered(int('Site icon.'), wpInt(0)),
};
type SettingField = keyof typeof REGISTERED;
const FIELDS = Object.keys(REGISTERED) as SettingField[];
type Registered = typeof REGISTERED;

/** The settings' answer: WordPress's `settings` item schema. */
export const settingsItem = z.object(Object.fromEntries(FIELDS.map((name) => [name, REGISTERED[name].value])) as { [K in SettingField]: Registered[K]['value'] });

/**
 * An argument as WordPress shows the setting (its registered type, format and enum, no default: an
 * update's): `null` resets a setting to its default, which WordPress's sanitize callback lets through
 * untyped.
 */
function argOf<I extends ZodType>(value: ZodType, input: I) {
	const { type, description, format, enum: values } = z.toJSONSchema(value, { io: 'output' }) as Record<string, unknown>;
	const shown = Object.fromEntries(Object.entries({ type, description, format, enum: values }).filter(([, v]) => v !== undefined));
	return input.nullable().optional().meta(shown);
}

/** The writable settings; `null` resets one to its default. */
const settingsBody = z.object(
	Object.fromEntries(FIELDS.map((name) => [name, argOf(REGISTERED[name].value, REGISTERED[name].input as ZodType)])) as unknown as {
		[K in SettingField]: z.ZodOptional<z.ZodNullable<Registered[K]['input']>>;
	},
);
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
		answer: settingsItem,
		errors: [403],
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
		schema: () => wpItemSchema('settings', settingsItem),
		answer: settingsItem,
		errors: [403],
		handler: ({ services, siteUser }) => {
			checkManage(siteUser);
			return settingsView(services);
		},
	}),
	update('POST'),
	update('PUT'),
	update('PATCH'),
];
