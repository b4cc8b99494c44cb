import type { App } from '../../server/src/app';
import { activeTheme, sitePlugin, siteThemes } from '../../server/src/site/plugins';
import { client, expectWpError, type Client } from '../helpers/server';
import { startSite, type SiteUser, type SiteUsers } from '../helpers/content';

/** `builder-one/v1`: the cloud connection's state machine, plugins, themes, top bar and settings. */

let server: App;
let u: SiteUsers;
let api: Client;

beforeAll(async () => {
	({ server, u } = await startSite());
	api = client(server.url, '/wp-json/builder-one/v1');
});
afterAll(() => server.close());

const as = (user: SiteUser) => ({ headers: user.headers });
const post = (path: string, user: SiteUser, body: unknown = {}) => api.post(path, body, as(user));
const get = (path: string, user: SiteUser) => api.get(path, as(user));

/** A WordPress error with extra `data` (the state it refers to). */
function expectConflict(res: { status: number; body: any }, code: string, message: string | RegExp, data: Record<string, unknown> = {}) {
	expect(res.status).toBe(409);
	expect(res.body).toMatchObject({ code, data: { status: 409, ...data } });
	if (typeof message === 'string') expect(res.body.message).toBe(message);
	else expect(res.body.message).toMatch(message);
}

/** WordPress's answer to absent required parameters. */
function expectMissing(res: { status: number; body: any }, params: string[]) {
	expect({ status: res.status, body: res.body }).toEqual({
		status: 400,
		body: { code: 'rest_missing_callback_param', message: `Missing parameter(s): ${params.join(', ')}`, data: { status: 400, params } },
	});
}

describe('connection state machine', () => {
	const settings = async () => (await get('/settings', u.admin)).body.connection_status;

	test('authorize starts (authorizing, with an authorize URL), authorize again completes (connected); refused transitions name the state', async () => {
		expect(await settings()).toBe('disconnected');
		// Nothing to disconnect, switch or deactivate yet.
		expectConflict(await post('/connect/disconnect', u.admin), 'builder_one_invalid_connection_state', 'Cannot disconnect while the connection is disconnected; it must be authorizing or connected or deactivated.', {
			connection_status: 'disconnected',
		});
		expectConflict(await post('/connect/switch-domain', u.admin), 'builder_one_invalid_connection_state', /switch domain while the connection is disconnected; it must be connected/);
		expectConflict(await post('/connect/deactivate', u.admin), 'builder_one_invalid_connection_state', /deactivate while the connection is disconnected/);

		const start = await post('/connect/authorize', u.admin);
		expect(start.status).toBe(200);
		expect(start.body).toMatchObject({ status: 'authorizing', domain: null, client_id: null, user: u.admin.id });
		expect(start.body.authorize_url).toMatch(new RegExp(`^${server.url}/wp-admin/admin\\.php\\?page=builder-one-connect&action=authorize&state=[0-9a-f]{32}$`));
		expect(await settings()).toBe('authorizing');
		expectConflict(await post('/connect/deactivate', u.admin), 'builder_one_invalid_connection_state', /while the connection is authorizing/, { connection_status: 'authorizing' });

		// clearSession while authorizing: a new session.
		const again = await post('/connect/authorize', u.admin, { clearSession: true });
		expect(again.body.status).toBe('authorizing');
		expect(again.body.authorize_url).not.toBe(start.body.authorize_url);

		const done = await post('/connect/authorize', u.admin, { clearSession: 'false' });
		expect(done.body).toMatchObject({ status: 'connected', domain: server.url, authorize_url: null });
		expect(done.body.client_id).toMatch(/^site_[0-9a-f]{16}$/);
		expect(await settings()).toBe('connected');

		// A live connection is not replaced unless asked.
		expectConflict(await post('/connect/authorize', u.admin), 'builder_one_invalid_connection_state', 'Cannot authorize while the connection is connected; it must be disconnected or authorizing or deactivated.');
		expectConflict(await post('/connect/switch-domain', u.admin), 'builder_one_same_domain', `The connection is already registered for ${server.url}.`, { connection_status: 'connected' });
	});

	test('switch-domain moves the connection to the new address; deactivate, then authorize reconnects; disconnect starts over', async () => {
		const old = server.services.baseUrl;
		server.services.baseUrl = 'https://moved.example';
		try {
			const moved = await post('/connect/switch-domain', u.admin);
			expect(moved.body).toMatchObject({ status: 'connected', domain: 'https://moved.example' });
		} finally {
			server.services.baseUrl = old;
		}
		const deactivated = await post('/connect/deactivate', u.admin);
		expect(deactivated.body).toMatchObject({ status: 'deactivated', domain: 'https://moved.example' });
		expectConflict(await post('/connect/deactivate', u.admin), 'builder_one_invalid_connection_state', /deactivate while the connection is deactivated/);
		expectConflict(await post('/connect/switch-domain', u.admin), 'builder_one_invalid_connection_state', /switch domain while the connection is deactivated/);
		expect((await post('/connect/authorize', u.admin)).body.status).toBe('authorizing');
		const gone = await post('/connect/disconnect', u.admin);
		expect(gone.body).toMatchObject({ status: 'disconnected', domain: null, client_id: null, authorize_url: null });
		expect(await settings()).toBe('disconnected');
		// clearSession from a live connection starts over.
		await post('/connect/authorize', u.admin);
		await post('/connect/authorize', u.admin);
		expect((await post('/connect/authorize', u.admin, { clearSession: true })).body.status).toBe('authorizing');
		await post('/connect/disconnect', u.admin);
	});

	test('only a manage_options user may change it; a bad clearSession is a 400', async () => {
		expectWpError(await post('/connect/authorize', u.editor), 403, 'builder_one_cannot_connect', 'Sorry, you are not allowed to manage the connection to the builder cloud.');
		expectWpError(await post('/connect/disconnect', u.anonymous), 401, 'builder_one_cannot_connect', 'Sorry, you are not allowed to manage the connection to the builder cloud.');
		const bad = await post('/connect/authorize', u.admin, { clearSession: 'maybe' });
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { clearSession: expect.any(String) } } });
		expect(await settings()).toBe('disconnected');
	});
});

describe('plugins', () => {
	test('GET lists the seven plugins with status and versions; search, status and context filter', async () => {
		const all = await get('/plugins', u.admin);
		expect(all.status).toBe(200);
		expect(all.body.map((p: any) => p.slug)).toEqual(['assistant', 'manage', 'builder', 'builder-pro', 'site-mailer', 'image-optimization', 'accessibility']);
		expect(all.body[2]).toEqual({
			plugin: 'builder/builder.php',
			slug: 'builder',
			name: 'Page Builder',
			status: 'active',
			version: '3.30.0',
			latest_version: '3.31.2',
			update_available: true,
			migrated: false,
		});
		expect(all.body[0]).toMatchObject({ status: 'not-installed', version: '', update_available: false });
		expect((await get('/plugins?status[]=active', u.admin)).body.map((p: any) => p.slug)).toEqual(['builder']);
		expect((await get('/plugins?status=inactive', u.admin)).body).toEqual([]);
		expect((await get('/plugins?search=MAIL', u.admin)).body.map((p: any) => p.slug)).toEqual(['site-mailer']);
		expect((await get('/plugins?context=embed&search=builder-pro', u.admin)).body).toEqual([
			{ plugin: 'builder-pro/builder-pro.php', slug: 'builder-pro', name: 'Page Builder Pro', status: 'not-installed' },
		]);
		const bad = await get('/plugins?status[]=broken&context=full', u.admin);
		expect(bad.status).toBe(400);
		expect(Object.keys(bad.body.data.params).sort()).toEqual(['context', 'status']);
		expectWpError(await get('/plugins', u.editor), 403, 'rest_cannot_view_plugins', 'Sorry, you are not allowed to manage plugins for this site.');
		expectWpError(await get('/plugins', u.anonymous), 401, 'rest_cannot_view_plugins', 'Sorry, you are not allowed to manage plugins for this site.');
	});

	test('install (inactive by default, or active), activate, deactivate; the shared plugin state reads each change', async () => {
		const installed = await post('/plugins', u.admin, { slug: 'site-mailer' });
		expect(installed.status).toBe(201);
		expect(installed.body).toMatchObject({ slug: 'site-mailer', status: 'inactive', version: '1.2.7', update_available: false });
		expect(sitePlugin(server.services.store, 'site-mailer')).toMatchObject({ status: 'inactive', version: '1.2.7' });
		expectConflict(await post('/plugins', u.admin, { slug: 'site-mailer', status: 'active' }), 'builder_one_plugin_installed', 'The plugin site-mailer is already installed (inactive, version 1.2.7).');

		expect((await post('/plugins/site-mailer/activate', u.admin)).body).toMatchObject({ status: 'active' });
		expect((await get('/plugins?status[]=active', u.admin)).body.map((p: any) => p.slug)).toEqual(['builder', 'site-mailer']);
		// Activating an active plugin changes nothing (as WordPress).
		expect((await post('/plugins/site-mailer/activate', u.admin)).body.status).toBe('active');
		expect((await post('/plugins/site-mailer/deactivate', u.admin)).body.status).toBe('inactive');
		expect(sitePlugin(server.services.store, 'site-mailer').status).toBe('inactive');

		expect((await post('/plugins', u.admin, { slug: 'accessibility', status: 'active' })).body).toMatchObject({ status: 'active', version: '3.5.0' });
		expectConflict(await post('/plugins/manage/activate', u.admin), 'builder_one_plugin_not_installed', 'Cannot activate manage: the plugin is not installed.', { plugin_status: 'not-installed' });
		expectConflict(await post('/plugins/manage/deactivate', u.admin), 'builder_one_plugin_not_installed', /Cannot deactivate manage/);
	});

	test('upgrade raises the version to the newest release (status=active activates); a current one is refused', async () => {
		await post('/plugins/builder/deactivate', u.admin);
		const upgraded = await post('/plugins/builder/upgrade', u.admin, { status: 'active' });
		expect(upgraded.status).toBe(200);
		expect(upgraded.body).toMatchObject({ slug: 'builder', status: 'active', version: '3.31.2', update_available: false });
		expect(sitePlugin(server.services.store, 'builder').version).toBe('3.31.2');
		expectConflict(await post('/plugins/builder/upgrade', u.admin), 'builder_one_plugin_up_to_date', 'The plugin builder is already at its newest version (3.31.2).');
		expectConflict(await post('/plugins/manage/upgrade', u.admin), 'builder_one_plugin_not_installed', /Cannot upgrade manage/);
		const bad = await post('/plugins/builder/upgrade', u.admin, { status: 'inactive' });
		expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { status: 'status must be one of: "active"' } } });
		expectWpError(await post('/plugins/builder/upgrade', u.editor), 403, 'rest_cannot_update_plugin', 'Sorry, you are not allowed to update plugins on this site.');
	});

	test('migration: run (force by default), refused without force while connected; rollback only after a run', async () => {
		expectConflict(await post('/plugins/site-mailer/migration/rollback', u.admin), 'builder_one_no_migration', 'There is no migration of site-mailer to roll back.');
		expect((await post('/plugins/site-mailer/migration/run', u.admin)).body).toMatchObject({ slug: 'site-mailer', migrated: true });
		expect(sitePlugin(server.services.store, 'site-mailer').migrated).toBe(true);
		expect((await post('/plugins/site-mailer/migration/rollback', u.admin)).body.migrated).toBe(false);
		expectConflict(await post('/plugins/site-mailer/migration/rollback', u.admin), 'builder_one_no_migration', /no migration of site-mailer/);
		expectConflict(await post('/plugins/manage/migration/run', u.admin), 'builder_one_plugin_not_installed', /Cannot migrate manage/);

		await post('/connect/authorize', u.admin);
		await post('/connect/authorize', u.admin);
		try {
			expectConflict(
				await post('/plugins/site-mailer/migration/run', u.admin, { force: false }),
				'builder_one_already_connected',
				'The site is already connected to the builder cloud; send force=true to migrate site-mailer anyway.',
				{ connection_status: 'connected' },
			);
			expect(sitePlugin(server.services.store, 'site-mailer').migrated).toBe(false);
			expect((await post('/plugins/site-mailer/migration/run', u.admin, { force: true })).body.migrated).toBe(true);
		} finally {
			await post('/connect/disconnect', u.admin);
		}
		// `assistant` has no migration: the enum without it.
		const assistant = await post('/plugins/assistant/migration/run', u.admin);
		expect(assistant.status).toBe(400);
		expect(assistant.body.data.params.slug).toMatch(/^slug must be one of: "manage", "builder"/);
		expectWpError(await post('/plugins/site-mailer/migration/run', u.editor), 403, 'builder_one_cannot_migrate', 'Sorry, you are not allowed to migrate plugin connections.');
	});

	test('slugs: outside the enum a 400, outside the pattern no route; capabilities per action', async () => {
		const unknown = await post('/plugins/unknown/activate', u.admin);
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { slug: expect.stringMatching(/^slug must be one of: "assistant"/) } } });
		expectWpError(await post('/plugins/bad.slug/activate', u.admin), 404, 'rest_no_route', 'no route matches POST /builder-one/v1/plugins/bad.slug/activate');
		expectMissing(await post('/plugins', u.admin, {}), ['slug']);
		expectWpError(await post('/plugins', u.editor, { slug: 'manage' }), 403, 'rest_cannot_install_plugin', 'Sorry, you are not allowed to install plugins on this site.');
		expectWpError(await post('/plugins/builder/deactivate', u.author), 403, 'rest_cannot_activate_plugin', 'Sorry, you are not allowed to activate plugins on this site.');
		expectWpError(await post('/plugins/builder/deactivate', u.anonymous), 401, 'rest_cannot_activate_plugin', 'Sorry, you are not allowed to activate plugins on this site.');
		expect(sitePlugin(server.services.store, 'manage').status).toBe('not-installed');
		expect(sitePlugin(server.services.store, 'builder').status).toBe('active');
	});
});

describe('themes', () => {
	test('install a theme of the directory (inactive, or active), activate one at a time', async () => {
		const hello = await post('/themes', u.admin, { slug: 'hello-theme' });
		expect(hello.status).toBe(201);
		expect(hello.body).toEqual({ stylesheet: 'hello-theme', template: 'hello-theme', name: 'Hello Theme', status: 'inactive', version: '3.4.4' });
		expect(activeTheme(server.services.store).slug).toBe('twentytwentyfive');
		expectConflict(await post('/themes', u.admin, { slug: 'hello-theme' }), 'builder_one_theme_installed', 'The theme hello-theme is already installed (inactive).');

		const activated = await post('/themes/hello-theme/activate', u.admin);
		expect(activated.body).toMatchObject({ stylesheet: 'hello-theme', status: 'active' });
		expect(siteThemes(server.services.store).map((t) => [t.slug, t.status])).toEqual([
			['twentytwentyfive', 'inactive'],
			['hello-theme', 'active'],
		]);
		// Installed active: the previous one steps down.
		expect((await post('/themes', u.admin, { slug: 'hello-biz', status: 'active' })).body.status).toBe('active');
		expect(siteThemes(server.services.store).filter((t) => t.status === 'active').map((t) => t.slug)).toEqual(['hello-biz']);
		expect((await post('/themes/twentytwentyfive/activate', u.admin)).body.status).toBe('active');
		expect(activeTheme(server.services.store).slug).toBe('twentytwentyfive');
	});

	test('errors: unknown theme, not installed, slug rules, capabilities', async () => {
		const unknown = await post('/themes', u.admin, { slug: 'no-such-theme' });
		expect(unknown.status).toBe(404);
		expect(unknown.body.code).toBe('builder_one_theme_not_found');
		expectWpError(await post('/themes/hello-commerce/activate', u.admin), 404, 'builder_one_theme_not_installed', 'The theme hello-commerce is not installed.');
		expectWpError(await post('/themes/bad.slug/activate', u.admin), 404, 'rest_no_route', 'no route matches POST /builder-one/v1/themes/bad.slug/activate');
		const bad = await post('/themes', u.admin, { slug: 'bad slug!', status: 'on' });
		expect(bad.body).toMatchObject({
			code: 'rest_invalid_param',
			data: { params: { slug: 'slug must contain only letters, digits, underscores and hyphens', status: 'status must be one of: "inactive", "active"' } },
		});
		expectWpError(await post('/themes', u.editor, { slug: 'hello-commerce' }), 403, 'rest_cannot_install_theme', 'Sorry, you are not allowed to install themes on this site.');
		expectWpError(await post('/themes/hello-theme/activate', u.anonymous), 401, 'rest_cannot_switch_theme', 'Sorry, you are not allowed to switch themes on this site.');
		expect(siteThemes(server.services.store).some((t) => t.slug === 'hello-commerce')).toBe(false);
	});
});

describe('top bar', () => {
	test('notifications of an app, newest first, up to its version; none while the top bar is off', async () => {
		await post('/plugins', u.admin, { slug: 'image-optimization' });
		const list = await get('/top-bar/notifications?app_name=builder&app_version=3.31.2', u.editor);
		expect(list.status).toBe(200);
		expect(list.body).toEqual([expect.objectContaining({ app_name: 'builder', app_version: '3.31.2', title: 'Page Builder updated to 3.31.2' })]);
		// An older app version does not see what is about a newer one.
		expect((await get('/top-bar/notifications?app_name=builder&app_version=3.30.0', u.contributor)).body).toEqual([]);
		const images = (await get('/top-bar/notifications?app_name=image-optimization&app_version=9', u.admin)).body;
		expect(images.map((n: any) => n.title)).toEqual(['Image Optimization 1.6.9 installed']);

		// Newest first: two notices of one app.
		await post('/plugins/image-optimization/activate', u.admin);
		await post('/plugins', u.admin, { slug: 'builder-pro' });
		await post('/plugins', u.admin, { slug: 'manage' });
		const cloud = (await get('/top-bar/notifications?app_name=builder-one&app_version=1.0.0', u.admin)).body;
		expect(cloud.length).toBeGreaterThanOrEqual(2);
		expect(cloud.map((n: any) => n.id)).toEqual([...cloud.map((n: any) => n.id)].sort((a: number, b: number) => b - a));

		expect((await post('/settings', u.admin, { top_bar_enabled: false })).body.top_bar_enabled).toBe(false);
		expect((await get('/top-bar/notifications?app_name=builder&app_version=3.31.2', u.admin)).body).toEqual([]);
		await post('/settings', u.admin, { top_bar_enabled: true });

		expectMissing(await get('/top-bar/notifications?app_name=builder', u.admin), ['app_version']);
		const bad = await get('/top-bar/notifications?app_name=&app_version=x', u.admin);
		expect(Object.keys(bad.body.data.params).sort()).toEqual(['app_name', 'app_version']);
		expectWpError(await get('/top-bar/notifications?app_name=a&app_version=1', u.subscriber), 403, 'rest_forbidden', 'Sorry, you are not allowed to use the top bar.');
	});

	test('feedback is stored with its author; required fields are checked', async () => {
		const sent = await post('/top-bar/feedback', u.author, { product: 'builder', subject: 'Editor', title: 'Slow save', description: 'Saving takes 5 s', countryCode: 'br' });
		expect(sent.status).toBe(201);
		expect(sent.body).toMatchObject({ success: true, feedback: { product: 'builder', title: 'Slow save', country_code: 'BR', author: u.author.id } });
		const stored = server.services.store.objects.get('builder-one', 'feedback', String(sent.body.feedback.id));
		expect(stored?.data).toEqual(sent.body.feedback);

		expectMissing(await post('/top-bar/feedback', u.author, { product: 'builder' }), ['subject', 'title', 'description']);
		const bad = await post('/top-bar/feedback', u.author, { product: ' ', subject: 's', title: 't', description: 'd', countryCode: 'Brazil' });
		expect(bad.body.data.params).toEqual({ product: 'product must be at least 1 characters long', countryCode: 'countryCode must be a two-letter country code such as BR' });
		expectWpError(await post('/top-bar/feedback', u.anonymous, { product: 'p', subject: 's', title: 't', description: 'd' }), 401, 'rest_forbidden', 'Sorry, you are not allowed to use the top bar.');
	});
});

describe('settings', () => {
	test('GET reads them with the connection state; POST, PUT, PATCH change the fields given', async () => {
		const initial = await get('/settings', u.admin);
		expect(initial.body).toEqual({ top_bar_enabled: true, share_usage_data: false, auto_updates: false, beta_releases: false, connection_status: 'disconnected' });
		expect((await api.call('PUT', '/settings', { share_usage_data: true }, as(u.admin))).body.share_usage_data).toBe(true);
		expect((await api.call('PATCH', '/settings', { auto_updates: true }, as(u.admin))).body).toMatchObject({ share_usage_data: true, auto_updates: true });
		expect((await get('/settings', u.admin)).body).toMatchObject({ share_usage_data: true, auto_updates: true, beta_releases: false });

		const bad = await post('/settings', u.admin, { beta_releases: 'yes', colour: 'red' });
		expect(bad.status).toBe(400);
		expect((await get('/settings', u.admin)).body.beta_releases).toBe(false);
		expectWpError(await get('/settings', u.editor), 403, 'rest_forbidden', 'Sorry, you are not allowed to manage the builder connection settings.');
		expectWpError(await post('/settings', u.anonymous, {}), 401, 'rest_forbidden', 'Sorry, you are not allowed to manage the builder connection settings.');
	});
});
