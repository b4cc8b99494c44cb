import type { App } from '../../server/src/app';
import { siteSuite, type CmsClient, type SiteUsers } from '../helpers/content';
import { client, type Client, expectWpError } from '../helpers/server';
import { SETTING_DEFAULTS } from '../../server/src/site/settings';

/** `cms/v2/settings` (and its `wp/v2` twin): WordPress's settings controller over the site's one settings state. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let themecore: Client;
siteSuite('themecore/v2', (site) => ({ server, cms, u, api: themecore } = site));

/** Puts every setting back to its default (null deletes the stored value, as WordPress's delete_option). */
afterEach(async () => {
	const reset = Object.fromEntries(Object.keys((await cms.get('/settings', u.admin)).body).filter((k) => k !== 'url').map((k) => [k, null]));
	expect((await cms.post('/settings', u.admin, reset)).status).toBe(200);
});

const readingOptions = async () => (await themecore.post('/get-wp-options', {}, { headers: u.admin.headers })).body;

test("a fresh site's settings, in WordPress's order and types", async () => {
	const res = await cms.get('/settings', u.admin);
	expect(res.status).toBe(200);
	// WordPress 6.1's order of the settings, stated on purpose (the answer's order is part of the contract).
	expect(Object.keys(res.body)).toEqual([
		'title', 'description', 'url', 'email', 'timezone', 'date_format', 'time_format', 'start_of_week', 'language', 'use_smilies',
		'default_category', 'default_post_format', 'posts_per_page', 'show_on_front', 'page_on_front', 'page_for_posts',
		'default_ping_status', 'default_comment_status', 'site_logo', 'site_icon',
	]);
	// The server's defaults as WordPress answers them: `name` is `title`, the URL is the site's, an unset logo is null.
	const { name, ...defaults } = SETTING_DEFAULTS;
	expect(res.body).toEqual({ ...defaults, title: name, url: server.url, site_logo: null });
});

test('administrators only: 401 anonymous, 403 for every other role, on reads and writes', async () => {
	expectWpError(await cms.get('/settings', u.anonymous), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	for (const user of [u.editor, u.author, u.contributor, u.subscriber]) {
		expectWpError(await cms.get('/settings', user), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		// As WordPress 6.1: a write is refused as a read is (`manage_options`), whatever settings it names.
		const res = await cms.post('/settings', user, { timezone: 'UTC', title: 'Mine' });
		expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } } });
		expectWpError(await cms.post('/settings', user, {}), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	}
	expectWpError(await cms.post('/settings', u.anonymous, { description: 'Mine' }), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	expect((await cms.get('/settings', u.admin)).body).toMatchObject({ title: 'WDM reference site', description: 'Reference server for the WDM gateway' });
});

test('POST, PUT and PATCH write what they are given; the rest stays; the answer is read back', async () => {
	const page = await cms.create('/pages', u.admin, { title: 'Home', status: 'publish' });
	const res = await cms.post('/settings', u.admin, {
		title: 'Corner Shop',
		description: 'Fresh every day',
		email: 'owner@shop.example',
		timezone: 'Europe/Berlin',
		start_of_week: '0',
		use_smilies: 'false',
		posts_per_page: 5,
		show_on_front: 'page',
		page_on_front: page.id,
	});
	expect(res.status).toBe(200);
	expect(res.body).toMatchObject({
		title: 'Corner Shop',
		description: 'Fresh every day',
		email: 'owner@shop.example',
		timezone: 'Europe/Berlin',
		start_of_week: 0,
		use_smilies: false,
		posts_per_page: 5,
		show_on_front: 'page',
		page_on_front: page.id,
		date_format: 'F j, Y',
	});
	expect((await cms.get('/settings', u.admin)).body).toEqual(res.body);
	expect((await cms.put('/settings', u.admin, { date_format: 'Y-m-d' })).body).toMatchObject({ date_format: 'Y-m-d', title: 'Corner Shop' });
	expect((await cms.patch('/settings', u.admin, { time_format: 'H:i' })).body).toMatchObject({ time_format: 'H:i', date_format: 'Y-m-d' });
	// The wp/v2 twin is the same state.
	const wp = (await client(server.url, '/wp-json/wp/v2').get('/settings', { headers: u.admin.headers })).body;
	expect(wp).toEqual((await cms.get('/settings', u.admin)).body);
});

test('null resets a setting to its default', async () => {
	await cms.post('/settings', u.admin, { title: 'Temporary', posts_per_page: 3 });
	const res = await cms.post('/settings', u.admin, { title: null });
	expect(res.body).toMatchObject({ title: 'WDM reference site', posts_per_page: 3 });
});

test("validation per WordPress's schema, field and rule named; nothing half-written", async () => {
	const before = (await cms.get('/settings', u.admin)).body;
	const bad: [Record<string, unknown>, string, RegExp][] = [
		[{ title: 5 }, 'title', /title must be a string/],
		[{ start_of_week: 7 }, 'start_of_week', /at most 6/],
		[{ start_of_week: 'monday' }, 'start_of_week', /integer/],
		[{ posts_per_page: 0 }, 'posts_per_page', /at least 1/],
		[{ use_smilies: 'maybe' }, 'use_smilies', /./],
		[{ show_on_front: 'blog' }, 'show_on_front', /"posts", "page"/],
		[{ default_comment_status: 'maybe' }, 'default_comment_status', /"open", "closed"/],
		[{ email: 'not an email' }, 'email', /email address/],
		[{ timezone: 'Mars/Olympus_Mons' }, 'timezone', /time zone/],
		[{ language: 'xx_XX' }, 'language', /en_US/],
		[{ default_post_format: 'poem' }, 'default_post_format', /aside/],
		[{ default_category: 999 }, 'default_category', /999 is none/],
		[{ page_on_front: 999 }, 'page_on_front', /999 is none/],
		[{ site_logo: 999 }, 'site_logo', /999 is none/],
		[{ url: 'https://elsewhere.example' }, 'url', /configuration/],
	];
	for (const [body, field, sentence] of bad) {
		const res = await cms.post('/settings', u.admin, { title: 'Half', ...body });
		expect({ field, status: res.status, code: res.body.code }).toEqual({ field, status: 400, code: 'rest_invalid_param' });
		expect(res.body.data.params[field]).toMatch(sentence);
	}
	expect((await cms.get('/settings', u.admin)).body).toEqual(before);
	// The server's own address is accepted as it is.
	expect((await cms.post('/settings', u.admin, { url: `${server.url}/` })).status).toBe(200);
});

test("the theme core's reading options are the same values, both ways", async () => {
	const home = await cms.create('/pages', u.admin, { title: 'Welcome', status: 'publish' });
	const blog = await cms.create('/pages', u.admin, { title: 'News', status: 'publish' });
	await cms.post('/settings', u.admin, { title: 'Bakery', description: 'Bread', show_on_front: 'page', page_on_front: home.id, page_for_posts: blog.id });
	expect(await readingOptions()).toEqual({ blogname: 'Bakery', blogdescription: 'Bread', show_on_front: 'page', page_on_front: home.id, page_for_posts: blog.id });
	// The index shows them too, with the time zone.
	await cms.post('/settings', u.admin, { timezone: 'Asia/Kolkata' });
	const index = (await client(server.url, '/wp-json').get('/', {})).body;
	expect(index).toMatchObject({ name: 'Bakery', description: 'Bread', timezone_string: 'Asia/Kolkata', gmt_offset: 5, show_on_front: 'page', page_on_front: home.id });
	// And what the theme core reads is what /settings answers after a reset.
	await cms.post('/settings', u.admin, { show_on_front: null, page_on_front: null, page_for_posts: null });
	const settings = (await cms.get('/settings', u.admin)).body;
	const options = await readingOptions();
	expect({ show_on_front: options.show_on_front, page_on_front: options.page_on_front, page_for_posts: options.page_for_posts }).toEqual({
		show_on_front: settings.show_on_front,
		page_on_front: settings.page_on_front,
		page_for_posts: settings.page_for_posts,
	});
	expect(options.show_on_front).toBe('posts');
});

test('the writing and discussion defaults apply to new posts; the time zone to their dates', async () => {
	const news = await cms.create('/categories', u.admin, { name: 'News' });
	await cms.post('/settings', u.admin, { default_category: news.id, default_comment_status: 'closed', default_ping_status: 'closed', timezone: 'Europe/Berlin' });
	const post = await cms.create('/posts', u.admin, { title: 'Defaults', status: 'publish', date: '2024-01-15T10:00:00' });
	expect(post).toMatchObject({ categories: [news.id], comment_status: 'closed', ping_status: 'closed', date: '2024-01-15T10:00:00', date_gmt: '2024-01-15T09:00:00' });
	// Pages keep theirs (closed), whatever the posts' default.
	await cms.post('/settings', u.admin, { default_comment_status: 'open' });
	expect((await cms.create('/pages', u.admin, { title: 'P' })).comment_status).toBe('closed');
});
