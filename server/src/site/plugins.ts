import type { Store } from '../store';
import { notify } from './builder-one/notifications';

/**
 * The site's plugins, themes and builder-cloud connection: ONE state that the builder connection
 * (`builder-one/v1` installs, activates, upgrades, connects), the builder's onboarding (install-pro,
 * install-theme) and the theme core read and change. Stored as site objects (namespace `site`), seeded
 * on first read. The functions below check nothing: callers check capabilities and transitions.
 */

/** The plugins the builder connection manages (the spec's slug enum, in its order). */
export const PLUGIN_SLUGS = ['assistant', 'manage', 'builder', 'builder-pro', 'site-mailer', 'image-optimization', 'accessibility'] as const;
export type PluginSlug = (typeof PLUGIN_SLUGS)[number];

/** The plugins whose own cloud connection can be migrated to the builder connection (all but `assistant`). */
export const MIGRATABLE_SLUGS = PLUGIN_SLUGS.filter((slug) => slug !== 'assistant') as Exclude<PluginSlug, 'assistant'>[];

export type PluginStatus = 'active' | 'inactive' | 'not-installed';

export interface SitePlugin {
	slug: PluginSlug;
	name: string;
	status: PluginStatus;
	/** Installed version; '' while not installed. */
	version: string;
	/** Whether its connection was migrated to the builder connection (`migration/run`, undone by `rollback`). */
	migrated?: boolean;
}

export interface SiteTheme {
	slug: string;
	name: string;
	status: 'active' | 'inactive';
	version: string;
}

const NAMESPACE = 'site';

/**
 * The plugin directory as the simulated builder cloud serves it: each plugin's name and newest
 * release. An install gets the newest release; an upgrade moves an older one to it.
 */
export const PLUGIN_CATALOG: Record<PluginSlug, { name: string; latest: string }> = {
	assistant: { name: 'Builder Assistant', latest: '1.4.0' },
	manage: { name: 'Builder Manage', latest: '2.1.3' },
	builder: { name: 'Page Builder', latest: '3.31.2' },
	'builder-pro': { name: 'Page Builder Pro', latest: '3.31.1' },
	'site-mailer': { name: 'Site Mailer', latest: '1.2.7' },
	'image-optimization': { name: 'Image Optimization', latest: '1.6.9' },
	accessibility: { name: 'Accessibility', latest: '3.5.0' },
};

/** The themes the simulated directory can install, by slug. */
export const THEME_CATALOG: Record<string, { name: string; version: string }> = {
	'hello-theme': { name: 'Hello Theme', version: '3.4.4' },
	'hello-biz': { name: 'Hello Biz', version: '1.2.0' },
	'hello-commerce': { name: 'Hello Commerce', version: '1.0.1' },
	twentytwentyfour: { name: 'Twenty Twenty-Four', version: '1.3' },
	twentytwentyfive: { name: 'Twenty Twenty-Five', version: '1.2' },
};

/** A fresh site: the page builder runs (its namespaces are served), one release behind; the rest can be installed. */
const SEED_PLUGINS: SitePlugin[] = PLUGIN_SLUGS.map((slug) =>
	slug === 'builder'
		? { slug, name: PLUGIN_CATALOG[slug].name, status: 'active', version: '3.30.0' }
		: { slug, name: PLUGIN_CATALOG[slug].name, status: 'not-installed', version: '' },
);

const SEED_THEMES: SiteTheme[] = [{ slug: 'twentytwentyfive', name: 'Twenty Twenty-Five', status: 'active', version: '1.2' }];

function seeded<T>(store: Store, kind: string, seed: T[], key: (item: T) => string): T[] {
	const stored = store.objects.list<T>(NAMESPACE, kind);
	if (stored.length) return stored.map((object) => object.data);
	for (const item of seed) store.objects.put(NAMESPACE, kind, key(item), item);
	return [...seed];
}

export const sitePlugins = (store: Store): SitePlugin[] => seeded(store, 'plugin', SEED_PLUGINS, (p) => p.slug);

export function sitePlugin(store: Store, slug: PluginSlug): SitePlugin {
	return sitePlugins(store).find((plugin) => plugin.slug === slug)!;
}

/** Writes a plugin's new status and version (callers check the transition and the capability). */
export function savePlugin(store: Store, plugin: SitePlugin): SitePlugin {
	sitePlugins(store);
	return store.objects.put(NAMESPACE, 'plugin', plugin.slug, plugin).data;
}

/** Installs a plugin at its newest release, inactive or active; a top-bar notification tells of it. */
export function installPlugin(store: Store, slug: PluginSlug, status: 'active' | 'inactive'): SitePlugin {
	const { name, latest } = PLUGIN_CATALOG[slug];
	return store.tx(() => {
		notify(store, { app_name: slug, app_version: latest, title: `${name} ${latest} installed`, description: `${name} was installed${status === 'active' ? ' and activated' : ''}.` });
		return savePlugin(store, { ...sitePlugin(store, slug), status, version: latest });
	});
}

/** Upgrades an installed plugin to its newest release (`status: 'active'` activates it too). */
export function upgradePlugin(store: Store, slug: PluginSlug, status?: 'active'): SitePlugin {
	const plugin = sitePlugin(store, slug);
	const { latest } = PLUGIN_CATALOG[slug];
	return store.tx(() => {
		notify(store, { app_name: slug, app_version: latest, title: `${plugin.name} updated to ${latest}`, description: `${plugin.name} was updated from ${plugin.version} to ${latest}.` });
		return savePlugin(store, { ...plugin, version: latest, status: status ?? plugin.status });
	});
}

/** Whether `a` is an older version than `b` (`3.30.0` < `3.31.2`, numerically by segment). */
export function olderVersion(a: string, b: string): boolean {
	const pa = a.split('.').map((n) => parseInt(n, 10) || 0);
	const pb = b.split('.').map((n) => parseInt(n, 10) || 0);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) < (pb[i] ?? 0);
	}
	return false;
}

export const siteThemes = (store: Store): SiteTheme[] => seeded(store, 'theme', SEED_THEMES, (t) => t.slug);

export const siteTheme = (store: Store, slug: string): SiteTheme | undefined => siteThemes(store).find((theme) => theme.slug === slug);

export const activeTheme = (store: Store): SiteTheme => siteThemes(store).find((theme) => theme.status === 'active')!;

/** Writes a theme; activating one makes the previously active theme inactive (one active theme at a time). */
export function saveTheme(store: Store, theme: SiteTheme): SiteTheme {
	return store.tx(() => {
		for (const other of siteThemes(store)) {
			if (theme.status === 'active' && other.slug !== theme.slug && other.status === 'active') {
				store.objects.put(NAMESPACE, 'theme', other.slug, { ...other, status: 'inactive' });
			}
		}
		return store.objects.put(NAMESPACE, 'theme', theme.slug, theme).data;
	});
}

/** Installs a theme of the directory (callers check it is there and not installed yet). */
export function installTheme(store: Store, slug: string, status: 'active' | 'inactive'): SiteTheme {
	const { name, version } = THEME_CATALOG[slug];
	return store.tx(() => {
		notify(store, { app_name: 'theme', app_version: version, title: `${name} ${version} installed`, description: `The theme ${name} was installed${status === 'active' ? ' and activated' : ''}.` });
		return saveTheme(store, { slug, name, status, version });
	});
}

/**
 * The site's connection to the builder cloud account:
 * `disconnected` -> (authorize) `authorizing` -> (authorize) `connected` -> (deactivate) `deactivated`;
 * `disconnect` from any state but `disconnected` goes back to the start.
 */
export type ConnectionStatus = 'disconnected' | 'authorizing' | 'connected' | 'deactivated';

export interface SiteConnection {
	status: ConnectionStatus;
	/** The site address the connection is registered for (`switch-domain` moves it). */
	domain: string | null;
	/** The cloud's id of this site, given when the connection completes. */
	client_id: string | null;
	/** The pending authorization's session (`state` of the authorize URL), while `authorizing`. */
	session: string | null;
	/** Site user id who connected it. */
	user: number | null;
	connected_at: string | null;
	updated_at: string | null;
}

const DISCONNECTED: SiteConnection = { status: 'disconnected', domain: null, client_id: null, session: null, user: null, connected_at: null, updated_at: null };

export const siteConnection = (store: Store): SiteConnection => store.objects.get<SiteConnection>(NAMESPACE, 'connection', 'builder-cloud')?.data ?? DISCONNECTED;

export function saveConnection(store: Store, connection: SiteConnection): SiteConnection {
	return store.objects.put(NAMESPACE, 'connection', 'builder-cloud', { ...connection, updated_at: new Date().toISOString() }).data;
}
