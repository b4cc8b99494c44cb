import type { App } from '../../server/src/app';
import { activeTheme, siteConnection, sitePlugin } from '../../server/src/site/plugins';
import { builderOneSettings } from '../../server/src/site/builder-one/settings';
import { startSite } from '../helpers/content';
import { firstJson, runNode, siteHarness } from '../helpers/nodes';

/** WDM Builder Connect: every operation through n8n's engine against a live site, in both addressing styles. */

describe.each([
	['index.php?rest_route=', 'restRoute'],
	['/wp-json', 'wpJson'],
])('addressing %s', (_, addressing) => {
	let server: App;
	beforeAll(async () => {
		({ server } = await startSite());
	});
	afterAll(() => server.close());

	const run = (resource: string, operation: string, parameters: Record<string, unknown> = {}) =>
		runNode(siteHarness(server.url, addressing), 'CUSTOM.wdmBuilderConnect', { resource, operation, ...parameters } as never);
	const store = () => server.services.store;

	test('Connection: Authorize (start, complete, clear session), Switch Domain, Deactivate, Disconnect; refused transitions fail with the state', async () => {
		const started = firstJson(await run('connection', 'authorizeConnection'));
		expect(started).toMatchObject({ status: 'authorizing', authorize_url: expect.stringContaining('state=') });
		const restarted = firstJson(await run('connection', 'authorizeConnection', { clearSession: true }));
		expect(restarted.authorize_url).not.toBe(started.authorize_url);
		expect(firstJson(await run('connection', 'authorizeConnection'))).toMatchObject({ status: 'connected', domain: server.url });
		expect(siteConnection(store()).status).toBe('connected');

		const same = await run('connection', 'switchDomain');
		expect(same.error).toMatchObject({ httpCode: '409', message: `The connection is already registered for ${server.url}.` });
		const old = server.services.baseUrl;
		server.services.baseUrl = 'https://new-home.example';
		try {
			expect(firstJson(await run('connection', 'switchDomain'))).toMatchObject({ status: 'connected', domain: 'https://new-home.example' });
		} finally {
			server.services.baseUrl = old;
		}

		expect(firstJson(await run('connection', 'deactivateConnection')).status).toBe('deactivated');
		const again = await run('connection', 'deactivateConnection');
		expect(again.error).toMatchObject({ httpCode: '409', message: 'Cannot deactivate while the connection is deactivated; it must be connected.' });
		expect(firstJson(await run('connection', 'disconnect'))).toMatchObject({ status: 'disconnected', domain: null });
		const nothing = await run('connection', 'disconnect');
		expect(nothing.error?.description).toContain('builder_one_invalid_connection_state');
		expect(siteConnection(store()).status).toBe('disconnected');
	});

	test('Plugin: Get Many with filters, Install, Activate, Deactivate, Upgrade (and activate)', async () => {
		const all = await run('plugin', 'getPlugins');
		expect(all.error).toBeUndefined();
		expect(all.items.map((item) => item.json.slug)).toEqual(['assistant', 'manage', 'builder', 'builder-pro', 'site-mailer', 'image-optimization', 'accessibility']);

		const installed = firstJson(await run('plugin', 'installPlugin', { plugin: 'site-mailer', installStatus: 'active' }));
		expect(installed).toMatchObject({ slug: 'site-mailer', status: 'active', version: '1.2.7' });
		const active = await run('plugin', 'getPlugins', { pluginFilters: { status: ['active'], context: 'embed' } });
		expect(active.items.map((item) => item.json)).toEqual([
			{ plugin: 'builder/builder.php', slug: 'builder', name: 'Page Builder', status: 'active' },
			{ plugin: 'site-mailer/site-mailer.php', slug: 'site-mailer', name: 'Site Mailer', status: 'active' },
		]);
		const searched = await run('plugin', 'getPlugins', { pluginFilters: { search: 'pro' } });
		expect(searched.items.map((item) => item.json.slug)).toEqual(['builder-pro']);

		expect(firstJson(await run('plugin', 'deactivatePlugin', { pluginSlug: 'site-mailer' })).status).toBe('inactive');
		expect(sitePlugin(store(), 'site-mailer').status).toBe('inactive');
		expect(firstJson(await run('plugin', 'activatePlugin', { pluginSlug: 'site-mailer' })).status).toBe('active');
		const notInstalled = await run('plugin', 'activatePlugin', { pluginSlug: 'manage' });
		expect(notInstalled.error).toMatchObject({ httpCode: '409', message: 'Cannot activate manage: the plugin is not installed.' });

		firstJson(await run('plugin', 'deactivatePlugin', { pluginSlug: 'builder' }));
		const upgraded = firstJson(await run('plugin', 'upgradePlugin', { pluginSlug: 'builder', activate: true }));
		expect(upgraded).toMatchObject({ version: '3.31.2', status: 'active', update_available: false });
		const current = await run('plugin', 'upgradePlugin', { pluginSlug: 'builder' });
		expect(current.error).toMatchObject({ httpCode: '409', message: 'The plugin builder is already at its newest version (3.31.2).' });
		// Without Activate the status stays as it was.
		firstJson(await run('plugin', 'installPlugin', { plugin: 'manage' }));
		expect(sitePlugin(store(), 'manage')).toMatchObject({ status: 'inactive', version: '2.1.3' });
	});

	test('Plugin: Run Migration (force, or refused while connected) and Roll Back Migration', async () => {
		const none = await run('plugin', 'rollbackMigration', { migrationSlug: 'site-mailer' });
		expect(none.error).toMatchObject({ httpCode: '409', message: 'There is no migration of site-mailer to roll back.' });
		expect(firstJson(await run('plugin', 'runMigration', { migrationSlug: 'site-mailer' })).migrated).toBe(true);
		expect(sitePlugin(store(), 'site-mailer').migrated).toBe(true);
		expect(firstJson(await run('plugin', 'rollbackMigration', { migrationSlug: 'site-mailer' })).migrated).toBe(false);

		await run('connection', 'authorizeConnection');
		await run('connection', 'authorizeConnection');
		const refused = await run('plugin', 'runMigration', { migrationSlug: 'site-mailer', force: false });
		expect(refused.error?.message).toBe('The site is already connected to the builder cloud; send force=true to migrate site-mailer anyway.');
		expect(sitePlugin(store(), 'site-mailer').migrated).toBe(false);
		expect(firstJson(await run('plugin', 'runMigration', { migrationSlug: 'site-mailer', force: true })).migrated).toBe(true);
		await run('connection', 'disconnect');
	});

	test('Theme: Install and Activate (one active at a time)', async () => {
		expect(firstJson(await run('theme', 'installTheme', { theme: 'hello-theme' }))).toMatchObject({ stylesheet: 'hello-theme', status: 'inactive' });
		expect(activeTheme(store()).slug).toBe('twentytwentyfive');
		expect(firstJson(await run('theme', 'activateTheme', { themeSlug: 'hello-theme' })).status).toBe('active');
		expect(activeTheme(store()).slug).toBe('hello-theme');
		expect(firstJson(await run('theme', 'installTheme', { theme: 'hello-biz', installStatus: 'active' })).status).toBe('active');
		expect(activeTheme(store()).slug).toBe('hello-biz');
		const missing = await run('theme', 'activateTheme', { themeSlug: 'hello-commerce' });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'The theme hello-commerce is not installed.' });
	});

	test('Top Bar: Get Notifications (of what happened) and Send Feedback', async () => {
		const notices = await run('topBar', 'getNotifications', { appName: 'site-mailer', appVersion: '1.2.7' });
		expect(notices.error).toBeUndefined();
		expect(notices.items.map((item) => item.json.title)).toEqual(['Site Mailer 1.2.7 installed']);
		const badVersion = await run('topBar', 'getNotifications', { appName: 'builder', appVersion: 'latest' });
		expect(badVersion.error?.description).toContain('app_version must be a version such as 3.31.2');

		const sent = firstJson(await run('topBar', 'sendFeedback', { product: 'builder', subject: 'Editor', title: 'Slow', description: 'Saving is slow', feedbackOptions: { countryCode: 'pt' } }));
		expect(sent).toMatchObject({ success: true, feedback: { product: 'builder', country_code: 'PT' } });
		expect(store().objects.get('builder-one', 'feedback', String(sent.feedback.id))?.data).toEqual(sent.feedback);
	});

	test('Settings: Get and Update', async () => {
		expect(firstJson(await run('settings', 'getSettings'))).toEqual({
			top_bar_enabled: true,
			share_usage_data: false,
			auto_updates: false,
			beta_releases: false,
			connection_status: 'disconnected',
		});
		const updated = firstJson(await run('settings', 'updateSettings', { builderOneSettings: { share_usage_data: true, beta_releases: true } }));
		expect(updated).toMatchObject({ share_usage_data: true, beta_releases: true, top_bar_enabled: true });
		expect(builderOneSettings(store())).toMatchObject({ share_usage_data: true, beta_releases: true, auto_updates: false });
	});
});
