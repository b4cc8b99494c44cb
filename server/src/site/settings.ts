import type { Store } from '../store';

/**
 * The site's general, reading, writing and discussion settings: ONE state, in the store's `meta` table
 * (`site.<name>`), read by the site index, the content routes (time zone, default category, default
 * comment status), the theme core's reading options and `GET /cms/v2/settings`; written by
 * `POST /cms/v2/settings` only. An unset or unusable value reads as its default (WordPress's fresh
 * install), so a fresh store has the defaults.
 */
export interface SiteSettings {
	/** The site title (WordPress's `blogname`, `title` in `/settings`). */
	name: string;
	/** The tagline (`blogdescription`). */
	description: string;
	/** The administration email address (`admin_email`). */
	email: string;
	/** IANA time zone; post dates (`date`) are shown in it. */
	timezone: string;
	date_format: string;
	time_format: string;
	/** 0 (Sunday) to 6. */
	start_of_week: number;
	/** Locale code (`WPLANG`). */
	language: string;
	use_smilies: boolean;
	/** The category a post gets when it is given none. */
	default_category: number;
	/** `0` (standard) or a post format. */
	default_post_format: string;
	posts_per_page: number;
	show_on_front: 'posts' | 'page';
	page_on_front: number;
	page_for_posts: number;
	default_ping_status: 'open' | 'closed';
	default_comment_status: 'open' | 'closed';
	/** Media ids, 0 for none. */
	site_logo: number;
	site_icon: number;
}

export type SettingName = keyof SiteSettings;

export const SETTING_DEFAULTS: SiteSettings = {
	name: 'WDM reference site',
	description: 'Reference server for the WDM gateway',
	email: 'admin@example.com',
	timezone: 'UTC',
	date_format: 'F j, Y',
	time_format: 'g:i a',
	start_of_week: 1,
	language: 'en_US',
	use_smilies: true,
	default_category: 1,
	default_post_format: '0',
	posts_per_page: 10,
	show_on_front: 'posts',
	page_on_front: 0,
	page_for_posts: 0,
	default_ping_status: 'open',
	default_comment_status: 'open',
	site_logo: 0,
	site_icon: 0,
};

export const SETTING_KEY = (name: SettingName) => `site.${name}`;

export const validZone = (zone: string) => {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
};

const id = (value: string | undefined, fallback: number) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : fallback);
const oneOf = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T =>
	allowed.includes(value as T) ? (value as T) : fallback;

/** Reads the settings, each falling back to its default when unset or unusable. */
export function siteSettings(store: Store): SiteSettings {
	const get = (name: SettingName) => store.meta.get(SETTING_KEY(name));
	const d = SETTING_DEFAULTS;
	const zone = get('timezone');
	const text = (name: 'name' | 'description' | 'email' | 'date_format' | 'time_format' | 'language' | 'default_post_format') => get(name) ?? d[name];
	const perPage = id(get('posts_per_page'), d.posts_per_page);
	const week = id(get('start_of_week'), d.start_of_week);
	return {
		name: text('name'),
		description: text('description'),
		email: text('email'),
		timezone: zone && validZone(zone) ? zone : d.timezone,
		date_format: text('date_format'),
		time_format: text('time_format'),
		start_of_week: week <= 6 ? week : d.start_of_week,
		language: text('language'),
		use_smilies: get('use_smilies') === undefined ? d.use_smilies : get('use_smilies') === '1',
		default_category: id(get('default_category'), d.default_category),
		default_post_format: text('default_post_format'),
		posts_per_page: perPage >= 1 ? perPage : d.posts_per_page,
		show_on_front: oneOf(get('show_on_front'), ['posts', 'page'] as const, d.show_on_front),
		page_on_front: id(get('page_on_front'), d.page_on_front),
		page_for_posts: id(get('page_for_posts'), d.page_for_posts),
		default_ping_status: oneOf(get('default_ping_status'), ['open', 'closed'] as const, d.default_ping_status),
		default_comment_status: oneOf(get('default_comment_status'), ['open', 'closed'] as const, d.default_comment_status),
		site_logo: id(get('site_logo'), d.site_logo),
		site_icon: id(get('site_icon'), d.site_icon),
	};
}

/**
 * Writes settings (already checked by the caller): a value is stored as text, `null` removes the
 * stored value so that the default applies again (WordPress's `delete_option`).
 */
export function saveSettings(store: Store, changes: Partial<Record<SettingName, string | number | boolean | null>>) {
	for (const [name, value] of Object.entries(changes) as [SettingName, string | number | boolean | null | undefined][]) {
		if (value === undefined) continue;
		if (value === null) store.db.prepare('DELETE FROM meta WHERE key = ?').run(SETTING_KEY(name));
		else store.meta.set(SETTING_KEY(name), typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
	}
}

/** The zone's offset from GMT at `at`, in whole hours towards zero (the spec's integer: +05:30 is 5). */
export function gmtOffsetHours(zone: string, at = new Date()): number {
	const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
		.formatToParts(at)
		.find((part) => part.type === 'timeZoneName')?.value;
	const match = name?.match(/GMT([+-])(\d{2}):(\d{2})/);
	if (!match) return 0; // "GMT" alone: no offset
	const minutes = Number(match[2]) * 60 + Number(match[3]);
	return (match[1] === '-' ? -1 : 1) * Math.trunc(minutes / 60);
}
