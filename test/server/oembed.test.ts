import type { App } from '../../server/src/app';
import { SETTING_KEY } from '../../server/src/site/settings';
import { ADMIN_APP_PASSWORD, basicAuth, expectWpError, readReply, startServer, type Reply } from '../helpers/server';
import { siteUser } from '../helpers/content';
import { PNG } from '../helpers/files';

/** `GET /oembed/1.0/embed` and `GET /oembed/1.0/proxy` over the site's own posts and pages. */

let server: App;
const admin = basicAuth('admin', ADMIN_APP_PASSWORD);
let contributor: string;
let subscriber: string;

const signIn = (name: string, role: 'contributor' | 'subscriber') => siteUser(server, name, role).headers.authorization;

async function call(method: string, url: string, body?: unknown, authorization?: string): Promise<Reply> {
	const headers: Record<string, string> = {};
	if (authorization) headers.authorization = authorization;
	if (body !== undefined) headers['content-type'] = 'application/json';
	// XML answers stay text.
	return readReply(await fetch(`${server.url}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

const embed = (url: string, extra = '', authorization?: string) =>
	call('GET', `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(url)}${extra}`, undefined, authorization);
const proxy = (url: string, extra = '', authorization?: string) =>
	call('GET', `/wp-json/oembed/1.0/proxy?url=${encodeURIComponent(url)}${extra}`, undefined, authorization);

async function create(kind: 'posts' | 'pages', body: Record<string, unknown>) {
	const res = await call('POST', `/wp-json/cms/v2/${kind}`, body, admin);
	expect(res.status).toBe(201);
	return res.body as { id: number; link: string };
}

let post: { id: number; link: string };
let draft: { id: number; link: string };
let page: { id: number; link: string };

beforeAll(async () => {
	server = await startServer();
	contributor = signIn('carla', 'contributor');
	subscriber = signIn('sam', 'subscriber');
	post = await create('posts', { title: 'Fish & Chips <Friday>', content: 'Fresh every Friday.', status: 'publish' });
	draft = await create('posts', { title: 'Not yet', status: 'draft' });
	page = await create('pages', { title: 'About us', status: 'publish' });
});
afterAll(() => server.close());

describe('GET /oembed/1.0/embed', () => {
	test('a post with a featured image gives its thumbnail, as get_oembed_response_data_rich', async () => {
		const upload = await fetch(`${server.url}/wp-json/cms/v2/media`, {
			method: 'POST',
			headers: { authorization: admin, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="dot.png"' },
			body: new Uint8Array(PNG),
		});
		const media = (await upload.json()) as { id: number; source_url: string };
		const pictured = await create('posts', { title: 'Pictured', status: 'publish', featured_media: media.id });
		expect((await embed(pictured.link)).body).toMatchObject({ thumbnail_url: media.source_url, thumbnail_width: 1, thumbnail_height: 1 });
		expect((await embed(post.link)).body).not.toHaveProperty('thumbnail_url');
	});

	test("a published post's link gives the rich embed, with the post's author and the site as provider", async () => {
		const res = await embed(post.link);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			version: '1.0',
			provider_name: 'WDM reference site',
			provider_url: server.url,
			author_name: 'admin',
			author_url: `${server.url}/?author=1`,
			title: 'Fish & Chips <Friday>',
			type: 'rich',
			width: 600,
			height: 338,
			html: expect.any(String),
		});
		const { html } = res.body;
		expect(html).toContain(`<a href="${post.link}">Fish &amp; Chips &lt;Friday&gt;</a>`);
		expect(html).toMatch(/<iframe [^>]*src="[^"]*\?p=\d+&amp;embed=true#\?secret=\w{10}" width="600" height="338"/);
		expect(html).not.toContain('<Friday>');
		// The plain address answers the same.
		const plain = await call('GET', `/index.php?rest_route=/oembed/1.0/embed&url=${encodeURIComponent(post.link)}`);
		expect(plain.body).toEqual(res.body);
	});

	test('pages embed too, by ?page_id= and by ?p=, at the root or index.php', async () => {
		const byPageId = await embed(page.link);
		expect(byPageId.status).toBe(200);
		expect(byPageId.body).toMatchObject({ title: 'About us', type: 'rich' });
		expect((await embed(`${server.url}/?p=${page.id}`)).body).toEqual(byPageId.body);
		expect((await embed(`${server.url}/index.php?page_id=${page.id}`)).body).toEqual(byPageId.body);
		expect((await embed(`${server.url}/?page_id=${page.id}&embed=true#top`)).body).toEqual(byPageId.body);
	});

	test.each([
		[400, 400, 225],
		[320, 320, 200],
		[100, 200, 200],
		[0, 200, 200],
		[1000, 600, 338],
	])('maxwidth %d gives a %dx%d iframe', async (maxwidth, width, height) => {
		const res = await embed(post.link, `&maxwidth=${maxwidth}`);
		expect(res.body).toMatchObject({ width, height });
		expect(res.body.html).toContain(`width="${width}" height="${height}"`);
	});

	test('the answer follows the post: a new title shows, a trashed or drafted post is gone', async () => {
		const item = await create('posts', { title: 'Before', status: 'publish' });
		expect((await embed(item.link)).body.title).toBe('Before');
		await call('POST', `/wp-json/cms/v2/posts/${item.id}`, { title: 'After' }, admin);
		expect((await embed(item.link)).body.title).toBe('After');
		await call('POST', `/wp-json/cms/v2/posts/${item.id}`, { status: 'draft' }, admin);
		expect((await embed(item.link)).status).toBe(404);
		await call('POST', `/wp-json/cms/v2/posts/${item.id}`, { status: 'publish' }, admin);
		expect((await embed(item.link)).status).toBe(200);
		await call('DELETE', `/wp-json/cms/v2/posts/${item.id}`, undefined, admin);
		expect((await embed(item.link)).status).toBe(404);
	});

	test('the site name comes from the settings', async () => {
		server.services.store.meta.set(SETTING_KEY('name'), 'Corner Shop');
		try {
			const res = await embed(post.link);
			expect(res.body.provider_name).toBe('Corner Shop');
			expect(res.body.html).toContain('&#8212; Corner Shop"');
		} finally {
			server.services.store.db.prepare('DELETE FROM meta WHERE key = ?').run(SETTING_KEY('name'));
		}
	});

	test.each([
		['a draft', () => draft.link],
		['an id nobody has', () => `${server.url}/?p=999999`],
		['a revision', () => `${server.url}/?p=${revisionId}`],
		['another host', () => post.link.replace('127.0.0.1', 'localhost')],
		['another port', () => post.link.replace(/:(\d+)/, (_, port) => `:${Number(port) + 1}`)],
		['another path', () => post.link.replace('/?p=', '/blog/?p=')],
		['no id', () => `${server.url}/?p=`],
		['an id that is no number', () => `${server.url}/?p=1e3`],
		['the REST link of the post', () => `${server.url}/wp-json/cms/v2/posts/${post.id}`],
		['an outside site', () => 'https://example.com/?p=1'],
	])('%s is 404 oembed_invalid_url', async (_, url) => {
		const res = await embed(url());
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ code: 'oembed_invalid_url', message: expect.stringContaining('Not Found'), data: { status: 404 } });
	});

	let revisionId = 0;
	beforeAll(async () => {
		await call('POST', `/wp-json/cms/v2/posts/${post.id}`, { content: 'Fresh every Friday, and on Saturday.' }, admin);
		const revisions = await call('GET', `/wp-json/cms/v2/posts/${post.id}/revisions`, undefined, admin);
		revisionId = revisions.body[0].id;
		expect(revisionId).toBeGreaterThan(0);
	});

	test.each([
		['', 'rest_missing_callback_param', { params: ['url'] }],
		['?url=not-a-url', 'rest_invalid_param', { params: { url: expect.any(String) } }],
		['?url=http%3A%2F%2Fx&maxwidth=wide', 'rest_invalid_param', { params: { maxwidth: expect.any(String) } }],
		['?url=http%3A%2F%2Fx&maxwidth=-5', 'rest_invalid_param', { params: { maxwidth: expect.any(String) } }],
	])('bad parameters %s are a 400', async (query, code, data) => {
		const res = await call('GET', `/wp-json/oembed/1.0/embed${query}`);
		expect(res.status).toBe(400);
		// `rest_invalid_param` details each parameter too (rest-server.test.ts).
		const details = code === 'rest_invalid_param' ? { details: expect.any(Object) } : {};
		expect(res.body).toEqual({ code, message: expect.any(String), data: { status: 400, ...data, ...details } });
	});

	test('another format answers JSON, as WordPress\'s `wp_oembed_ensure_format`', async () => {
		const json = (await embed(post.link)).body;
		for (const format of ['html', 'yaml', 'JSON']) {
			const res = await embed(post.link, `&format=${format}`);
			expect(res.status).toBe(200);
			expect(res.body).toEqual(json);
		}
		expect((await embed(draft.link, '&format=html')).body).toMatchObject({ code: 'oembed_invalid_url', data: { status: 404 } });
	});

	test('format=xml answers WordPress\'s <oembed> document as text/xml', async () => {
		const json = (await embed(post.link, '&maxwidth=400')).body;
		const res = await embed(post.link, '&format=xml&maxwidth=400');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
		const xml = res.body as string;
		expect(xml.startsWith('<?xml version="1.0"?>\n<oembed><version>1.0</version>')).toBe(true);
		expect(xml).toContain('<title>Fish &amp; Chips &lt;Friday&gt;</title>');
		expect(xml).toContain('<type>rich</type><width>400</width><height>225</height>');
		// Every field of the JSON answer is an element, its text escaped.
		const fields = Object.fromEntries([...xml.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((m) => [m[1], m[2]]));
		const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
		expect(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, unescape(v)]))).toEqual(
			Object.fromEntries(Object.entries(json).map(([k, v]) => [k, String(v)])),
		);
	});

	test('format=xml: not found is an XML document too; bad parameters stay JSON', async () => {
		const res = await embed(draft.link, '&format=xml');
		expect(res.status).toBe(404);
		expect(res.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
		expect(res.body).toMatch(/^<\?xml version="1.0"\?>\n<oembed><code>oembed_invalid_url<\/code><message>Not Found[^<]*<\/message><data><status>404<\/status><\/data><\/oembed>\n$/);
		const bad = await call('GET', '/wp-json/oembed/1.0/embed?format=xml');
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: 'rest_missing_callback_param' });
	});

	test('anyone may ask; a wrong password is still a 401', async () => {
		expect((await embed(post.link, '', subscriber)).status).toBe(200);
		const wrong = await embed(post.link, '', basicAuth('admin', 'wrong'));
		expect(wrong.status).toBe(401);
		expect(wrong.body).toMatchObject({ code: 'incorrect_password' });
	});
});

describe('GET /oembed/1.0/proxy', () => {
	test('needs a user who can edit posts: 401 anonymous, 403 a subscriber', async () => {
		const anonymous = await proxy(post.link);
		expectWpError(anonymous, 401, 'rest_forbidden', 'Sorry, you are not allowed to make proxied oEmbed requests.');
		const reader = await proxy(post.link, '', subscriber);
		expect(reader.status).toBe(403);
		expect(reader.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
	});

	test("resolves the site's own posts and pages like the embed route, for a contributor and an admin", async () => {
		for (const auth of [contributor, admin]) {
			for (const item of [post, page]) {
				const res = await proxy(item.link, '&maxwidth=400&maxheight=100&discover=false', auth);
				expect(res.status).toBe(200);
				expect(res.body).toEqual((await embed(item.link, '&maxwidth=400')).body);
			}
		}
	});

	test('always answers JSON, as WordPress (only the embed route speaks XML)', async () => {
		const res = await proxy(post.link, '&format=xml', admin);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(res.body).toMatchObject({ type: 'rich' });
	});

	test('what it cannot resolve without an outside network is 404 oembed_invalid_url', async () => {
		for (const url of ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', draft.link, `${server.url}/?p=999999`, 'not a url']) {
			const res = await proxy(url, '', admin);
			expect(res.status).toBe(404);
			expect(res.body).toMatchObject({ code: 'oembed_invalid_url', data: { status: 404 } });
		}
	});

	test.each([
		['', 'rest_missing_callback_param'],
		['?url=', 'rest_invalid_param'],
		['?url=http%3A%2F%2Fx&format=yaml', 'rest_invalid_param'],
		['?url=http%3A%2F%2Fx&maxheight=tall', 'rest_invalid_param'],
		['?url=http%3A%2F%2Fx&discover=maybe', 'rest_invalid_param'],
	])('bad parameters %s are a 400, before the rights are checked', async (query, code) => {
		const res = await call('GET', `/wp-json/oembed/1.0/proxy${query}`);
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code, data: { status: 400 } });
	});
});
