import type { Store } from '../store';

/**
 * The site's reading and general settings as the index shows them. They live in the store's `meta`
 * table (`site.<name>`); no route of the spec changes them, so a fresh store has the defaults.
 */
export interface SiteSettings {
	name: string;
	description: string;
	/** IANA time zone; post dates (`date`) are shown in it. */
	timezone: string;
	show_on_front: 'posts' | 'page';
	page_on_front: number;
	page_for_posts: number;
}

const DEFAULTS: SiteSettings = {
	name: 'WDM reference site',
	description: 'Reference server for the WDM gateway',
	timezone: 'UTC',
	show_on_front: 'posts',
	page_on_front: 0,
	page_for_posts: 0,
};

export const SETTING_KEY = (name: keyof SiteSettings) => `site.${name}`;

const validZone = (zone: string) => {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
};

const id = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : 0);

/** Reads the settings, each falling back to its default when unset or unusable. */
export function siteSettings(store: Store): SiteSettings {
	const get = (name: keyof SiteSettings) => store.meta.get(SETTING_KEY(name));
	const zone = get('timezone');
	return {
		name: get('name') ?? DEFAULTS.name,
		description: get('description') ?? DEFAULTS.description,
		timezone: zone && validZone(zone) ? zone : DEFAULTS.timezone,
		show_on_front: get('show_on_front') === 'page' ? 'page' : 'posts',
		page_on_front: id(get('page_on_front')),
		page_for_posts: id(get('page_for_posts')),
	};
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
