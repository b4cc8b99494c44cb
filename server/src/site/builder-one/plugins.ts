import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { route, type Route } from '../../http/route';
import type { Services } from '../../services';
import { contextParam, list, searchParam, wpBool } from '../content/params';
import {
	installPlugin,
	MIGRATABLE_SLUGS,
	olderVersion,
	PLUGIN_CATALOG,
	PLUGIN_SLUGS,
	type PluginSlug,
	type PluginStatus,
	savePlugin,
	type SitePlugin,
	siteConnection,
	sitePlugin,
	sitePlugins,
	upgradePlugin,
} from '../plugins';
import { requireCap } from './access';

/**
 * The plugins the builder connection manages, over the site's one plugin state (`site/plugins.ts`),
 * as WordPress's plugins controller: list (`activate_plugins`), install (`install_plugins`), activate
 * and deactivate (`activate_plugins`), upgrade (`update_plugins`); plus the migration of a plugin's own
 * cloud connection to the builder connection (`manage_options`).
 */

/** Path segments as WordPress declares them (`[\w-]+`); the slug's enum is then a 400, not a 404. */
const SLUG_PATTERN = { slug: '[\\w-]+' };
const slugParams = z.object({ slug: z.enum(PLUGIN_SLUGS) });
const migratableParams = z.object({ slug: z.enum(MIGRATABLE_SLUGS) });

const base = '/builder-one/v1/plugins';

/** WordPress's `plugin` field: the plugin's main file. */
const pluginFile = (slug: string) => `${slug}/${slug}.php`;

/** A plugin as WordPress's plugins controller names its fields; the embed context has the first four only. */
export const pluginAnswer = z.object({
	plugin: z.string().meta({ description: "The plugin's main file" }),
	slug: z.enum(PLUGIN_SLUGS),
	name: z.string(),
	status: z.enum(['active', 'inactive', 'not-installed'] satisfies PluginStatus[]),
	version: z.string().optional().meta({ context: ['view', 'edit'], description: "The installed version ('' when not installed)" }),
	latest_version: z.string().optional().meta({ context: ['view', 'edit'] }),
	update_available: z.boolean().optional().meta({ context: ['view', 'edit'] }),
	migrated: z.boolean().optional().meta({ context: ['view', 'edit'], description: "Whether its cloud connection was migrated to the builder connection" }),
});

function pluginView(plugin: SitePlugin, context: 'view' | 'embed' | 'edit'): z.output<typeof pluginAnswer> {
	const embed = { plugin: pluginFile(plugin.slug), slug: plugin.slug, name: plugin.name, status: plugin.status };
	if (context === 'embed') return embed;
	const latest = PLUGIN_CATALOG[plugin.slug].latest;
	return {
		...embed,
		version: plugin.version,
		latest_version: latest,
		update_available: plugin.status !== 'not-installed' && olderVersion(plugin.version, latest),
		migrated: plugin.migrated ?? false,
	};
}

/** The plugin of the path, which must be installed for anything but an install. */
function installed(services: Services, slug: PluginSlug, action: string): SitePlugin {
	const plugin = sitePlugin(services.store, slug);
	if (plugin.status === 'not-installed') {
		throw new ApiError(409, `Cannot ${action} ${slug}: the plugin is not installed.`, 'builder_one_plugin_not_installed', { plugin_status: plugin.status });
	}
	return plugin;
}

const canActivate = (services: Services, user: Parameters<typeof requireCap>[0]) =>
	requireCap(user, 'activate_plugins', 'rest_cannot_activate_plugin', 'Sorry, you are not allowed to activate plugins on this site.');

/** activate and deactivate: set the status of an installed plugin (already in it: answered as is, as WordPress does). */
const setStatus = (status: 'active' | 'inactive', verb: string) =>
	route({
		method: 'POST',
		path: `${base}/{slug}/${verb}`,
		auth: 'site',
		summary: `${verb === 'activate' ? 'Activate' : 'Deactivate'} an installed plugin`,
		params: slugParams,
		patterns: SLUG_PATTERN,
		answer: pluginAnswer,
		// 409: the plugin is not installed.
		errors: [403, 409],
		handler: ({ services, siteUser, params }) => {
			canActivate(services, siteUser);
			const store = services.store;
			return store.tx(() => pluginView(savePlugin(store, { ...installed(services, params.slug, verb), status }), 'edit'));
		},
	});

export const pluginRoutes: Route[] = [
	route({
		method: 'GET',
		path: base,
		auth: 'site',
		summary: 'List the managed plugins (installed or not) with their status and versions; filter by search and status',
		query: phpQuery({ context: contextParam, search: searchParam.optional(), status: list(z.enum(['inactive', 'active'])).optional() }),
		answer: z.array(pluginAnswer),
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, 'activate_plugins', 'rest_cannot_view_plugins', 'Sorry, you are not allowed to manage plugins for this site.');
			const search = query.search?.toLowerCase();
			return sitePlugins(services.store)
				.filter((plugin) => !query.status?.length || (query.status as string[]).includes(plugin.status))
				.filter((plugin) => !search || plugin.slug.includes(search) || plugin.name.toLowerCase().includes(search))
				.map((plugin) => pluginView(plugin, query.context));
		},
	}),

	route({
		method: 'POST',
		path: base,
		auth: 'site',
		summary: 'Install a plugin at its newest release, inactive or active (201)',
		// A string first: an absent slug is then "missing" (rest_missing_callback_param), not "not one of".
		body: z.object({ slug: z.string().pipe(z.enum(PLUGIN_SLUGS)), status: z.enum(['inactive', 'active']).default('inactive') }),
		answer: pluginAnswer,
		status: 201,
		// 409: already installed.
		errors: [403, 409],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'install_plugins', 'rest_cannot_install_plugin', 'Sorry, you are not allowed to install plugins on this site.');
			if (body.status === 'active') canActivate(services, siteUser);
			const store = services.store;
			const plugin = store.tx(() => {
				const current = sitePlugin(store, body.slug);
				if (current.status !== 'not-installed') {
					throw new ApiError(409, `The plugin ${body.slug} is already installed (${current.status}, version ${current.version}).`, 'builder_one_plugin_installed', {
						plugin_status: current.status,
					});
				}
				return installPlugin(store, body.slug, body.status);
			});
			return pluginView(plugin, 'edit');
		},
	}),

	setStatus('active', 'activate'),
	setStatus('inactive', 'deactivate'),

	route({
		method: 'POST',
		path: `${base}/{slug}/upgrade`,
		auth: 'site',
		summary: 'Upgrade an installed plugin to its newest release; status=active activates it too',
		params: slugParams,
		patterns: SLUG_PATTERN,
		body: z.object({ status: z.enum(['active']).optional() }),
		answer: pluginAnswer,
		// 409: not installed, or already at its newest release.
		errors: [403, 409],
		handler: ({ services, siteUser, params, body }) => {
			requireCap(siteUser, 'update_plugins', 'rest_cannot_update_plugin', 'Sorry, you are not allowed to update plugins on this site.');
			if (body.status) canActivate(services, siteUser);
			const store = services.store;
			return store.tx(() => {
				const plugin = installed(services, params.slug, 'upgrade');
				const latest = PLUGIN_CATALOG[params.slug].latest;
				if (!olderVersion(plugin.version, latest)) {
					throw new ApiError(409, `The plugin ${params.slug} is already at its newest version (${plugin.version}).`, 'builder_one_plugin_up_to_date', {
						plugin_status: plugin.status,
					});
				}
				return pluginView(upgradePlugin(store, params.slug, body.status), 'edit');
			});
		},
	}),

	route({
		method: 'POST',
		path: `${base}/{slug}/migration/run`,
		auth: 'site',
		summary: "Migrate an installed plugin's own cloud connection to the builder connection; without force, refused while the site is connected",
		params: migratableParams,
		patterns: SLUG_PATTERN,
		body: z.object({ force: wpBool.prefault(true) }),
		answer: pluginAnswer,
		// 409: not installed, or the site already connected (without force).
		errors: [403, 409],
		handler: ({ services, siteUser, params, body }) => {
			requireCap(siteUser, 'manage_options', 'builder_one_cannot_migrate', 'Sorry, you are not allowed to migrate plugin connections.');
			const store = services.store;
			return store.tx(() => {
				const plugin = installed(services, params.slug, 'migrate');
				const connection = siteConnection(store).status;
				if (connection === 'connected' && !body.force) {
					throw new ApiError(409, `The site is already connected to the builder cloud; send force=true to migrate ${params.slug} anyway.`, 'builder_one_already_connected', {
						connection_status: connection,
					});
				}
				return pluginView(savePlugin(store, { ...plugin, migrated: true }), 'edit');
			});
		},
	}),

	route({
		method: 'POST',
		path: `${base}/{slug}/migration/rollback`,
		auth: 'site',
		summary: "Undo a plugin's migration (refused when none was run)",
		params: migratableParams,
		patterns: SLUG_PATTERN,
		answer: pluginAnswer,
		// 409: no migration to roll back.
		errors: [403, 409],
		handler: ({ services, siteUser, params }) => {
			requireCap(siteUser, 'manage_options', 'builder_one_cannot_migrate', 'Sorry, you are not allowed to migrate plugin connections.');
			const store = services.store;
			return store.tx(() => {
				const plugin = sitePlugin(store, params.slug);
				if (!plugin.migrated) {
					throw new ApiError(409, `There is no migration of ${params.slug} to roll back.`, 'builder_one_no_migration', { plugin_status: plugin.status });
				}
				return pluginView(savePlugin(store, { ...plugin, migrated: false }), 'edit');
			});
		},
	}),
];
