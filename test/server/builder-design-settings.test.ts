import { type SiteUser, type SiteUsers, siteSuite } from '../helpers/content';
import { type Client, expectWpError } from '../helpers/server';

/** builder/v1: settings by key, kit element defaults, favorites (per user, paged) and user data. */

let u: SiteUsers;
let api: Client;
siteSuite('builder/v1', (site) => ({ u, api: api } = site));

const get = (route: string, user: SiteUser = u.admin) => api.get(route, { headers: user.headers });
const send = (method: string, route: string, body: unknown, user: SiteUser = u.admin) => api.call(method, route, body, { headers: user.headers });
const del = (route: string, user: SiteUser = u.admin, body?: unknown) => api.call('DELETE', route, body, { headers: user.headers });

const FORBIDDEN = 'Sorry, you are not allowed to do that.';

describe('settings', () => {
	test('a known setting reads its default, then what POST, PUT and PATCH wrote', async () => {
		expect((await get('/settings/font_display', u.contributor)).body).toEqual({ key: 'font_display', value: 'auto', default: 'auto' });
		expect((await send('POST', '/settings/font_display', { value: 'swap' })).body).toEqual({ key: 'font_display', value: 'swap', default: 'auto' });
		expect((await get('/settings/font_display')).body.value).toBe('swap');
		expect((await send('PUT', '/settings/container_width', { value: 1280 })).body.value).toBe(1280);
		expect((await send('PATCH', '/settings/disable_color_schemes', { value: true })).body.value).toBe(true);
		expect((await get('/settings/container_width')).body.value).toBe(1280);
		expect((await get('/settings/disable_color_schemes')).body.value).toBe(true);
	});

	test('cpt_support names post types the site registry has', async () => {
		expect((await get('/settings/cpt_support')).body.value).toEqual(['post', 'page']);
		expect((await send('POST', '/settings/cpt_support', { value: ['page'] })).body.value).toEqual(['page']);
		const bad = await send('POST', '/settings/cpt_support', { value: ['page', 'book', 'attachment'] });
		expect(bad.status).toBe(400);
		expect(bad.body.data.params.value).toBe('value names post types the site does not have: book, attachment (known: post, page)');
		expect((await get('/settings/cpt_support')).body.value).toEqual(['page']);
	});

	test('unknown keys are 404, writes are validated against the key', async () => {
		expectWpError(
			await get('/settings/no_such'),
			404,
			'rest_setting_invalid_key',
			'There is no builder setting "no_such". Known settings: cpt_support, disable_color_schemes, disable_typography_schemes, css_print_method, font_display, unfiltered_files_upload, editor_break_lines, global_image_lightbox, container_width.',
		);
		expect((await send('POST', '/settings/no_such', { value: 1 })).status).toBe(404);
		expect((await get('/settings/bad.key')).body.code).toBe('rest_no_route');
		const missing = await send('POST', '/settings/font_display', {});
		expect(missing.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): value', data: { status: 400, params: ['value'] } });
		const wrongEnum = await send('POST', '/settings/font_display', { value: 'fast' });
		expect(wrongEnum.body.data.params.value).toBe('value must be one of: "auto", "block", "swap", "fallback", "optional"');
		const wrongType = await send('POST', '/settings/disable_color_schemes', { value: 'yes' });
		expect(wrongType.body.data.params.value).toBe('value must be a boolean (got string "yes")');
		const tooSmall = await send('POST', '/settings/container_width', { value: 20 });
		expect(tooSmall.body.data.params.value).toBe('value must be at least 300');
		expect((await get('/settings/font_display')).body.value).toBe('swap');
	});

	test('roles: reading needs edit_posts, writing manage_options', async () => {
		expectWpError(await get('/settings/font_display', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await get('/settings/font_display', u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await send('POST', '/settings/font_display', { value: 'block' }, u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await send('PUT', '/settings/font_display', { value: 'block' }, u.editor), 403, 'rest_forbidden', FORBIDDEN);
	});
});

describe('kit element defaults', () => {
	test('set (POST, PUT, PATCH replace), list and delete the defaults of an element type', async () => {
		expect((await get('/kit-elements-defaults', u.contributor)).body).toEqual({});
		const heading = { title_color: '#333', align: 'center' };
		expect((await send('POST', '/kit-elements-defaults/heading', { settings: heading })).body).toEqual({ type: 'heading', settings: heading });
		await send('PUT', '/kit-elements-defaults/e-button', { settings: { text: 'Go' } });
		await send('PATCH', '/kit-elements-defaults/e-button', { settings: { text: 'Buy' } });
		expect((await get('/kit-elements-defaults')).body).toEqual({ heading, 'e-button': { text: 'Buy' } });

		expect((await del('/kit-elements-defaults/heading')).body).toEqual({ deleted: true, previous: { type: 'heading', settings: heading } });
		expect((await get('/kit-elements-defaults')).body).toEqual({ 'e-button': { text: 'Buy' } });
		expectWpError(await del('/kit-elements-defaults/heading'), 404, 'rest_kit_defaults_not_found', 'The element type "heading" has no default settings.');
	});

	test('settings object required; the type must be an element of the builder', async () => {
		expect((await send('POST', '/kit-elements-defaults/heading', {})).body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['settings'] } });
		const notObject = await send('POST', '/kit-elements-defaults/heading', { settings: ['a'] });
		expect(notObject.body.data.params.settings).toBe('settings must be an object');
		const unknown = await send('POST', '/kit-elements-defaults/marquee', { settings: {} });
		expect(unknown.body.code).toBe('rest_invalid_param');
		expect(unknown.body.data.params.type).toMatch(/^type must be one of: "container"/);
		expect((await get('/kit-elements-defaults')).body).toEqual({ 'e-button': { text: 'Buy' } });
	});

	test('roles: reading needs edit_posts, writing edit_theme_options', async () => {
		expectWpError(await get('/kit-elements-defaults', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await get('/kit-elements-defaults', u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await send('POST', '/kit-elements-defaults/heading', { settings: {} }, u.editor), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await del('/kit-elements-defaults/e-button', u.editor), 403, 'rest_forbidden', FORBIDDEN);
	});
});

describe('favorites', () => {
	test('favorites are added and removed per user and type, listed paged with X-WP-Total', async () => {
		for (const name of ['heading', 'e-button', 'image']) {
			expect((await send('POST', '/favorites/widgets', { favorite: name }, u.author)).status).toBe(200);
		}
		const again = await send('POST', '/favorites/widgets', { favorite: 'heading' }, u.author);
		expect(again.body).toEqual({ type: 'widgets', favorites: ['heading', 'e-button', 'image'] });
		await send('POST', '/favorites/templates', { favorite: '42' }, u.author);

		const page1 = await get('/favorites?per_page=3', u.author);
		expect(page1.body).toEqual([
			{ type: 'widgets', favorite: 'heading' },
			{ type: 'widgets', favorite: 'e-button' },
			{ type: 'widgets', favorite: 'image' },
		]);
		expect(page1.headers.get('x-wp-total')).toBe('4');
		expect(page1.headers.get('x-wp-totalpages')).toBe('2');
		expect((await get('/favorites?per_page=3&page=2', u.author)).body).toEqual([{ type: 'templates', favorite: '42' }]);
		expect((await get('/favorites?search=BUTTON', u.author)).body).toEqual([{ type: 'widgets', favorite: 'e-button' }]);
		// Another user has their own.
		expect((await get('/favorites', u.author2)).body).toEqual([]);

		expect((await del('/favorites/widgets?favorite=heading', u.author)).body).toEqual({ type: 'widgets', favorites: ['e-button', 'image'] });
		expect((await del('/favorites/widgets', u.author, { favorite: 'image' })).body).toEqual({ type: 'widgets', favorites: ['e-button'] });
		expect((await get('/favorites', u.author)).headers.get('x-wp-total')).toBe('2');
		expectWpError(await del('/favorites/widgets?favorite=heading', u.author), 404, 'rest_favorite_not_found', '"heading" is not one of your widgets favorites.');
	});

	test('bad input: the type, the favorite slug, paging', async () => {
		expect((await send('POST', '/favorites/widgets', {}, u.author)).body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['favorite'] } });
		expect((await del('/favorites/widgets', u.author)).body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['favorite'] } });
		const badType = await send('POST', '/favorites/fonts', { favorite: 'x' }, u.author);
		expect(badType.body.data.params.id).toBe('id must be one of: "widgets", "templates"');
		const badSlug = await send('POST', '/favorites/widgets', { favorite: 'a b' }, u.author);
		expect(badSlug.body.data.params.favorite).toBe('favorite must be a slug: letters, digits, hyphens, underscores (at most 100)');
		expect((await get('/favorites?per_page=101', u.author)).body.data.params.per_page).toBe('per_page must be at most 100');
		expect((await get('/favorites?page=0', u.author)).body.data.params.page).toBe('page must be at least 1');
	});

	test('roles: a user with edit_posts', async () => {
		expectWpError(await get('/favorites', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await send('POST', '/favorites/widgets', { favorite: 'heading' }, u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		expect((await send('POST', '/favorites/widgets', { favorite: 'heading' }, u.contributor)).status).toBe(200);
	});
});

describe('user data', () => {
	test("the caller's suppressed messages are read and replaced, per user", async () => {
		expect((await get('/user-data/current-user', u.editor)).body).toEqual({ id: u.editor.id, name: 'edna', role: 'editor', suppressedMessages: [] });
		const patched = await send('PATCH', '/user-data/current-user', { suppressedMessages: ['image_optimization', 'announcement-2', 'image_optimization'] }, u.editor);
		expect(patched.body.suppressedMessages).toEqual(['image_optimization', 'announcement-2']);
		expect((await get('/user-data/current-user', u.editor)).body.suppressedMessages).toEqual(['image_optimization', 'announcement-2']);
		expect((await get('/user-data/current-user', u.author)).body.suppressedMessages).toEqual([]);
	});

	test('bad input and roles', async () => {
		const bad = await send('PATCH', '/user-data/current-user', { suppressedMessages: 'all' }, u.editor);
		expect(bad.body.data.params.suppressedMessages).toBe('suppressedMessages must be an array (got string "all")');
		expect((await send('PATCH', '/user-data/current-user', {}, u.editor)).body.code).toBe('rest_missing_callback_param');
		expectWpError(await get('/user-data/current-user', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await send('PATCH', '/user-data/current-user', { suppressedMessages: [] }, u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		expect((await get('/user-data/current-user', u.editor)).body.suppressedMessages).toEqual(['image_optimization', 'announcement-2']);
	});
});

test('the namespace index describes the design routes with their arguments', async () => {
	const index = await api.get('', { headers: u.admin.headers });
	expect(index.status).toBe(200);
	const routes = index.body.routes as Record<string, { methods: string[]; endpoints: { args: Record<string, { required: boolean }> }[] }>;
	expect(routes['/builder/v1/globals/colors/(?P<id>\\w{1,64})'].methods).toEqual(['GET', 'POST', 'DELETE']);
	expect(routes['/builder/v1/variables/batch'].endpoints[0].args).toMatchObject({ watermark: { required: true }, operations: { required: true } });
	expect(routes['/builder/v1/global-classes'].methods).toEqual(['GET', 'PUT']);
	expect(routes['/builder/v1/settings/(?P<key>[\\w-]{1,64})'].methods).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
});
