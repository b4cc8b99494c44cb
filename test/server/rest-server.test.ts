import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUsers, startSite } from '../helpers/content';
import { PNG } from '../helpers/files';
import { ADMIN_APP_PASSWORD, ADMIN_KEY, basicAuth, readReply, type Reply, startServer, storedDevice } from '../helpers/server';

/**
 * What WordPress's REST server does for every route, done once in the dispatch: method override, form
 * bodies, OPTIONS, `Allow`, `_fields`, `_envelope`, `_embed`, the API root's `Link`, a doubled leading
 * slash, error details. Each on posts (`cms/v2` and its `wp/v2` twin) and on an extension route
 * (engine/v2 meta boxes), in both addressing styles.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

type Style = 'pretty' | 'plain';
const STYLES: Style[] = ['pretty', 'plain'];

/** The URL of a REST route (with its query) in one addressing style. */
function at(style: Style, route: string): string {
	if (style === 'pretty') return `${server.url}/wp-json${route}`;
	const [path, query] = route.split('?');
	return `${server.url}/index.php?rest_route=${encodeURIComponent(path)}${query ? `&${query}` : ''}`;
}

async function call(style: Style, method: string, route: string, init: { headers?: Record<string, string>; body?: RequestInit['body']; json?: unknown } = {}): Promise<Reply> {
	const headers = { ...init.headers };
	let body = init.body;
	if (init.json !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(init.json);
	}
	return readReply(await fetch(at(style, route), { method, headers, body }));
}

const admin = () => u.admin.headers;
const newPost = (body: Record<string, unknown> = {}) => cms.create('/posts', u.admin, { title: 'A post', status: 'publish', ...body });
const postStatus = async (id: number) => {
	const res = await cms.get(`/posts/${id}`, u.admin, { context: 'edit' });
	return res.status === 404 ? 'gone' : res.body.status;
};

/** An engine/v2 meta box (the extension route), by id; null once deleted. */
async function metaBox(id: number) {
	const res = await call('pretty', 'GET', `/engine/v2/get-meta-box/${id}`, { headers: admin() });
	return res.status === 404 ? null : res.body.data;
}
async function addMetaBox(name: string): Promise<number> {
	const res = await call('pretty', 'POST', '/engine/v2/add-meta-box', { headers: admin(), json: { args: { name } } });
	if (res.status !== 200) throw new Error(JSON.stringify(res.body));
	return res.body.item_id;
}

describe.each(STYLES)('%s URLs', (style) => {
	describe('method override', () => {
		test('X-HTTP-Method-Override: DELETE on a POST deletes the post (trash, then for good with force)', async () => {
			const post = await newPost();
			const trashed = await call(style, 'POST', `/cms/v2/posts/${post.id}`, { headers: { ...admin(), 'X-HTTP-Method-Override': 'DELETE' } });
			expect(trashed.status).toBe(200);
			expect(trashed.body).toMatchObject({ id: post.id, status: 'trash' });
			expect(await postStatus(post.id)).toBe('trash');
			const gone = await call(style, 'POST', `/wp/v2/posts/${post.id}?force=true`, { headers: { ...admin(), 'x-http-method-override': 'delete' } });
			expect(gone.body).toMatchObject({ deleted: true, previous: { id: post.id } });
			expect(await postStatus(post.id)).toBe('gone');
		});

		test('?_method= wins over the header; PUT and PATCH run the update', async () => {
			const post = await newPost();
			const put = await call(style, 'POST', `/cms/v2/posts/${post.id}?_method=PUT`, { headers: { ...admin(), 'X-HTTP-Method-Override': 'DELETE' }, json: { title: 'Put' } });
			expect(put.status).toBe(200);
			expect(await postStatus(post.id)).toBe('publish');
			expect((await cms.get(`/posts/${post.id}`, u.admin)).body.title.rendered).toBe('Put');
			await call(style, 'POST', `/cms/v2/posts/${post.id}?_method=delete&force=1`, { headers: admin() });
			expect(await postStatus(post.id)).toBe('gone');
		});

		test('as WordPress, whatever the request method: a GET with ?_method=DELETE deletes; a method no route has is no route', async () => {
			const post = await newPost();
			const deleted = await call(style, 'GET', `/cms/v2/posts/${post.id}?_method=DELETE&force=true`, { headers: admin() });
			expect(deleted.body).toMatchObject({ deleted: true, previous: { id: post.id } });
			expect(await postStatus(post.id)).toBe('gone');
			const other = await newPost();
			const brewed = await call(style, 'POST', '/cms/v2/posts?_method=BREW', { headers: admin(), json: { title: 'Never' } });
			expect(brewed.status).toBe(404);
			expect(brewed.body).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
			expect(await postStatus(other.id)).toBe('publish');
		});

		test('a method no route has is no route (404), and nothing is written', async () => {
			const post = await newPost();
			const res = await call(style, 'POST', `/cms/v2/posts?_method=DELETE`, { headers: admin(), json: { title: 'x' } });
			expect(res.status).toBe(404);
			expect(res.body.code).toBe('rest_no_route');
			expect(await postStatus(post.id)).toBe('publish');
		});

		test('on the extension route: DELETE through the header', async () => {
			const id = await addMetaBox('Override');
			const res = await call(style, 'POST', `/engine/v2/delete-meta-box/${id}`, { headers: { ...admin(), 'X-HTTP-Method-Override': 'DELETE' } });
			expect(res.status).toBe(200);
			expect(await metaBox(id)).toBeNull();
		});

		test('on the gateway: a device deleted through the header, its answer still the envelope', async () => {
			const name = `override-${style}`;
			const key = { authorization: `Bearer ${ADMIN_KEY}` };
			expect((await call(style, 'POST', '/wdm/v1/devices', { headers: key, json: { name } })).status).toBe(201);
			const res = await call(style, 'POST', `/wdm/v1/devices/${name}`, { headers: { ...key, 'X-HTTP-Method-Override': 'DELETE' } });
			expect(res.status).toBe(200);
			expect(res.body.success).toBe(true);
			expect(storedDevice(server.services.store, name)).toBeUndefined();
		});
	});

	describe('form bodies', () => {
		test('application/x-www-form-urlencoded creates a post, nested as PHP reads it', async () => {
			const body = new URLSearchParams({ title: 'From a form', status: 'draft', 'categories[]': '1', 'meta[footnotes]': 'note', sticky: 'true' });
			const res = await call(style, 'POST', '/cms/v2/posts', { headers: admin(), body });
			expect(res.status).toBe(201);
			const read = await cms.get(`/posts/${res.body.id}`, u.admin, { context: 'edit' });
			expect(read.body).toMatchObject({ title: { raw: 'From a form' }, status: 'draft', categories: [1], sticky: true, meta: { footnotes: 'note' } });
		});

		test('multipart/form-data fields update a post; a bad field is the same 400 as in JSON', async () => {
			const post = await newPost();
			const form = new FormData();
			form.append('title', 'Multipart');
			form.append('tags[0]', '');
			form.append('excerpt', 'Short');
			const bad = await call(style, 'POST', `/wp/v2/posts/${post.id}`, { headers: admin(), body: form });
			expect(bad.status).toBe(400);
			expect(bad.body.data.params).toEqual({ tags: 'tags[0] must be an integer' });
			form.delete('tags[0]');
			const res = await call(style, 'POST', `/wp/v2/posts/${post.id}`, { headers: admin(), body: form });
			expect(res.status).toBe(200);
			const read = await cms.get(`/posts/${post.id}`, u.admin, { context: 'edit' });
			expect(read.body).toMatchObject({ title: { raw: 'Multipart' }, excerpt: { raw: 'Short' } });
		});

		test('on the extension route: args[...] nesting', async () => {
			const body = new URLSearchParams([
				['args[name]', 'Form box'],
				['args[allowed_post_type][]', 'post'],
				['args[allowed_post_type][]', 'page'],
			]);
			const res = await call(style, 'POST', '/engine/v2/add-meta-box', { headers: admin(), body });
			expect(res.status).toBe(200);
			expect(await metaBox(res.body.item_id)).toMatchObject({ args: { name: 'Form box', allowed_post_type: ['post', 'page'] } });
		});

		test('the gateway still takes JSON only', async () => {
			// (With valid credentials: without them the answer is the 401, given before the body is read.)
			const res = await call(style, 'POST', '/wdm/v1/devices', { headers: { authorization: `Bearer ${ADMIN_KEY}` }, body: new URLSearchParams({ name: 'form' }) });
			expect(res.status).toBe(415);
			expect(res.body).toEqual({ success: false, message: 'Content-Type application/x-www-form-urlencoded;charset=UTF-8 is not supported; send application/json' });
		});
	});

	describe('OPTIONS and Allow', () => {
		test('OPTIONS answers the route: namespace, methods, endpoints with args, self link, Allow', async () => {
			const res = await call(style, 'OPTIONS', '/cms/v2/posts', { headers: admin() });
			expect(res.status).toBe(200);
			expect(res.headers.get('allow')).toBe('GET, POST');
			expect(res.body).toMatchObject({
				namespace: 'cms/v2',
				methods: ['GET', 'POST'],
				endpoints: [
					{ methods: ['GET'], allow_batch: { v1: true }, args: { per_page: expect.objectContaining({ type: 'integer' }) } },
					{ methods: ['POST'], allow_batch: { v1: true }, args: { title: expect.anything() } },
				],
				_links: { self: [{ href: `${server.url}/wp-json/cms/v2/posts` }] },
			});
			// The same as the route's entry in the namespace index with `context=help` (which shows the item schema too).
			const index = await call(style, 'GET', '/wp/v2?context=help');
			const twin = await call(style, 'OPTIONS', '/wp/v2/posts');
			expect(twin.body).toEqual(index.body.routes['/wp/v2/posts']);
		});

		test('OPTIONS on an item; on no route, 404', async () => {
			const post = await newPost();
			const res = await call(style, 'OPTIONS', `/cms/v2/posts/${post.id}`, { headers: admin() });
			expect(res.status).toBe(200);
			expect(res.body.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
			expect(res.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
			const none = await call(style, 'OPTIONS', '/cms/v2/posts/1/nothing/here');
			expect({ status: none.status, code: none.body.code }).toEqual({ status: 404, code: 'rest_no_route' });
			// An id is digits, as WordPress's `(?P<id>[\d]+)`: another segment is no route.
			const word = await call(style, 'OPTIONS', '/cms/v2/posts/abc');
			expect({ status: word.status, code: word.body.code }).toEqual({ status: 404, code: 'rest_no_route' });
			expect((await call(style, 'GET', '/wp/v2/posts/abc')).body.code).toBe('rest_no_route');
			expect(Object.keys((await call(style, 'GET', '/wp/v2')).body.routes)).toContain('/wp/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)');
		});

		test('OPTIONS on a segment the engine\'s types could name but none does: an empty list, as WordPress', async () => {
			const res = await call(style, 'OPTIONS', '/wp/v2/no-such-route');
			expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [] });
		});

		test('OPTIONS on the extension route and on a gateway route (bare, not the envelope)', async () => {
			const ext = await call(style, 'OPTIONS', '/engine/v2/get-meta-box/1');
			expect(ext.status).toBe(200);
			expect(ext.body).toMatchObject({ namespace: 'engine/v2', methods: ['GET'], endpoints: [{ methods: ['GET'] }] });
			const gateway = await call(style, 'OPTIONS', '/wdm/v1/send/text');
			expect(gateway.body).toMatchObject({ namespace: 'wdm/v1', methods: ['POST'] });
			expect(gateway.headers.get('allow')).toBe('POST');
		});

		test('every answer carries Allow: the methods of the matched route, errors too', async () => {
			expect((await call(style, 'GET', '/cms/v2/posts', { headers: admin() })).headers.get('allow')).toBe('GET, POST');
			expect((await call(style, 'GET', '/engine/v2/get-meta-boxes', { headers: admin() })).headers.get('allow')).toBe('GET');
			const post = await newPost();
			const refused = await call(style, 'DELETE', `/cms/v2/posts/${post.id}`);
			expect(refused.status).toBe(401);
			expect(refused.headers.get('allow')).toBe('GET');
		});

		test('Allow leaves out what the caller may not do, as WordPress drops a method whose permission check fails', async () => {
			const allow = async (route: string, headers: Record<string, string>) => (await call(style, 'OPTIONS', route, { headers })).headers.get('allow');
			// Creating: anonymous and subscribers may only read; contributors may write drafts.
			expect(await allow('/cms/v2/posts', u.anonymous.headers)).toBe('GET');
			expect(await allow('/wp/v2/posts', u.subscriber.headers)).toBe('GET');
			expect(await allow('/cms/v2/posts', u.contributor.headers)).toBe('GET, POST');
			// An item: its author may change their draft; another author may not touch an admin's published post.
			const draft = await cms.create('/posts', u.author, { title: 'Mine' });
			expect(await allow(`/cms/v2/posts/${draft.id}`, u.author.headers)).toBe('GET, POST, PUT, PATCH, DELETE');
			// None allowed: no header at all, as WordPress sends no empty one.
			expect(await allow(`/cms/v2/posts/${draft.id}`, u.author2.headers)).toBeNull();
			const published = await newPost();
			expect(await allow(`/wp/v2/posts/${published.id}`, u.author.headers)).toBe('GET');
			expect(await allow(`/wp/v2/posts/${published.id}`, u.editor.headers)).toBe('GET, POST, PUT, PATCH, DELETE');
			// Authors have no page rights; a missing item allows nothing.
			expect(await allow('/cms/v2/pages', u.author.headers)).toBe('GET');
			expect(await allow('/cms/v2/posts/999999', admin())).toBeNull();
			// Media: uploading needs upload_files; terms: categories are the editors', tags anyone's who may write.
			expect(await allow('/cms/v2/media', u.contributor.headers)).toBe('GET');
			expect(await allow('/wp/v2/media', u.author.headers)).toBe('GET, POST');
			expect(await allow('/cms/v2/categories', u.author.headers)).toBe('GET');
			expect(await allow('/cms/v2/categories', u.editor.headers)).toBe('GET, POST');
			expect(await allow('/cms/v2/tags', u.contributor.headers)).toBe('GET, POST');
			// Routes without a declared check list every method.
			expect(await allow('/engine/v2/delete-meta-box/1', u.anonymous.headers)).toBe('DELETE');
		});
	});

	describe('_fields', () => {
		test('a comma list on a list and an item, nested paths, _links only when asked', async () => {
			const post = await newPost({ title: 'Fields' });
			const list = await call(style, 'GET', '/cms/v2/posts?_fields=id,title.rendered&per_page=1', { headers: admin() });
			expect(list.body).toEqual([{ id: post.id, title: { rendered: 'Fields' } }]);
			const item = await call(style, 'GET', `/wp/v2/posts/${post.id}?_fields=id,slug,_links`, { headers: admin() });
			expect(Object.keys(item.body)).toEqual(['id', 'slug', '_links']);
			expect(item.body._links.self[0].href).toBe(`${server.url}/wp-json/wp/v2/posts/${post.id}`);
		});

		test('the array form (_fields[]=), a parent wins over its sub-field, unknown fields give nothing', async () => {
			const post = await newPost({ title: 'Array' });
			const res = await call(style, 'GET', `/cms/v2/posts/${post.id}?_fields[]=title&_fields[]=title.raw&_fields[]=nope`, { headers: admin() });
			expect(res.body).toEqual({ title: { rendered: 'Array' } });
		});

		test('on a write: the answer is filtered, the write is whole', async () => {
			const res = await call(style, 'POST', '/cms/v2/posts?_fields=id', { headers: admin(), json: { title: 'Written', content: 'Body' } });
			expect(res.status).toBe(201);
			expect(res.body).toEqual({ id: expect.any(Number) });
			expect((await cms.get(`/posts/${res.body.id}`, u.admin, { context: 'edit' })).body.content.raw).toBe('Body');
		});

		test('on the extension route; errors are not filtered', async () => {
			const id = await addMetaBox('Filtered');
			const res = await call(style, 'GET', `/engine/v2/get-meta-box/${id}?_fields=success,data.id`, { headers: admin() });
			expect(res.body).toEqual({ success: true, data: { id } });
			const missing = await call(style, 'GET', '/engine/v2/get-meta-box/999999?_fields=code', { headers: admin() });
			expect(Object.keys(missing.body)).toEqual(['code', 'message', 'data']);
		});
	});

	describe('_envelope', () => {
		test('an item: 200 with body, status and the headers the answer set', async () => {
			const post = await newPost();
			const res = await call(style, 'GET', `/cms/v2/posts/${post.id}?_envelope`, { headers: admin() });
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({ status: 200, body: { id: post.id }, headers: { Allow: 'GET, POST, PUT, PATCH, DELETE' } });
			expect(res.headers.get('allow')).toBeNull();
		});

		test('a creation (201 and Location), a list (X-WP-Total), an error (404)', async () => {
			const created = await call(style, 'POST', '/wp/v2/posts?_envelope=1', { headers: admin(), json: { title: 'Enveloped' } });
			expect(created.status).toBe(200);
			expect(created.body).toMatchObject({ status: 201, body: { title: { raw: 'Enveloped' } }, headers: { Location: `${server.url}/wp-json/wp/v2/posts/${created.body.body.id}` } });
			const list = await call(style, 'GET', '/cms/v2/posts?_envelope&per_page=1&_fields=id', { headers: admin() });
			// As WordPress's response object holds them: the totals as integers, the links as one string.
			expect(list.body.headers).toMatchObject({ 'X-WP-Total': expect.any(Number), 'X-WP-TotalPages': expect.any(Number), Link: expect.stringContaining('rel="next"') });
			expect(list.body.headers['X-WP-TotalPages']).toBe(list.body.headers['X-WP-Total']);
			expect(list.body.body).toEqual([{ id: expect.any(Number) }]);
			const missing = await call(style, 'GET', '/cms/v2/posts/999999?_envelope');
			expect(missing.status).toBe(200);
			expect(missing.body).toEqual({ status: 404, body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } }, headers: [] });
		});

		test('on the extension route; the gateway keeps its own envelope', async () => {
			const res = await call(style, 'GET', '/engine/v2/get-meta-boxes?_envelope', { headers: admin() });
			expect(res.body).toMatchObject({ status: 200, body: { success: true } });
			const gateway = await call(style, 'GET', '/wdm/v1/devices?_envelope');
			expect(gateway.status).toBe(401);
			expect(gateway.body.success).toBe(false);
		});
	});

	describe('_embed', () => {
		let mediaId: number;
		beforeAll(async () => {
			const res = await readReply(
				await fetch(`${server.url}/wp-json/cms/v2/media`, {
					method: 'POST',
					headers: { ...admin(), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="cover.png"' },
					body: PNG,
				}),
			);
			mediaId = res.body.id;
		});

		test('all embeddable links: author, featured media and terms, in the embed context, keyed by relation', async () => {
			const post = await newPost({ featured_media: mediaId, tags: [] });
			const res = await call(style, 'GET', `/wp/v2/posts/${post.id}?_embed`, { headers: admin() });
			expect(res.status).toBe(200);
			const embedded = res.body._embedded;
			expect(Object.keys(embedded).sort()).toEqual(['author', 'wp:featuredmedia', 'wp:term']);
			expect(embedded['wp:featuredmedia']).toEqual([expect.objectContaining({ id: mediaId, source_url: expect.any(String) })]);
			// The embed context: no edit or view-only fields.
			expect(embedded['wp:featuredmedia'][0]).not.toHaveProperty('description');
			// One entry per link: categories (the default category), tags (none).
			expect(embedded['wp:term']).toEqual([[expect.objectContaining({ id: 1, taxonomy: 'category' })], []]);
		});

		test('a list of relations, a list of posts, and _fields asking for _embedded', async () => {
			const post = await newPost({ featured_media: mediaId, title: 'Embedded list' });
			const one = await call(style, 'GET', `/cms/v2/posts/${post.id}?_embed=wp:term`, { headers: admin() });
			expect(Object.keys(one.body._embedded)).toEqual(['wp:term']);
			const list = await call(style, 'GET', `/cms/v2/posts?_embed=wp:featuredmedia&_fields=id,_embedded&include[]=${post.id}`, { headers: admin() });
			expect(list.body).toEqual([{ id: post.id, _links: expect.any(Object), _embedded: { 'wp:featuredmedia': [expect.objectContaining({ id: mediaId })] } }]);
			// _fields without _links or _embedded: nothing is embedded.
			const bare = await call(style, 'GET', `/cms/v2/posts/${post.id}?_embed&_fields=id`, { headers: admin() });
			expect(bare.body).toEqual({ id: post.id });
		});

		test('as the caller: what the caller may not read is embedded as its error', async () => {
			const secret = await readReply(
				await fetch(`${server.url}/wp-json/cms/v2/media?status=private`, {
					method: 'POST',
					headers: { ...admin(), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="secret.png"' },
					body: PNG,
				}),
			);
			const post = await newPost({ featured_media: secret.body.id });
			const asAdmin = await call(style, 'GET', `/cms/v2/posts/${post.id}?_embed=wp:featuredmedia`, { headers: admin() });
			expect(asAdmin.body._embedded['wp:featuredmedia'][0].id).toBe(secret.body.id);
			const anonymous = await call(style, 'GET', `/cms/v2/posts/${post.id}?_embed=wp:featuredmedia`);
			expect(anonymous.body._embedded['wp:featuredmedia']).toEqual([{ code: expect.stringMatching(/^rest_/), message: expect.any(String), data: { status: expect.any(Number) } }]);
		});

		test('up: the parent page, the parent category', async () => {
			const parent = await cms.create('/pages', u.admin, { title: 'Parent', status: 'publish' });
			const child = await cms.create('/pages', u.admin, { title: 'Child', status: 'publish', parent: parent.id });
			const page = await call(style, 'GET', `/wp/v2/pages/${child.id}?_embed=up`);
			expect(page.body._embedded).toEqual({ up: [expect.objectContaining({ id: parent.id, title: { rendered: 'Parent' } })] });
			const news = await cms.create('/categories', u.admin, { name: `News ${style}` });
			const local = await cms.create('/categories', u.admin, { name: `Local ${style}`, parent: news.id });
			const term = await call(style, 'GET', `/cms/v2/categories/${local.id}?_embed`);
			expect(term.body._embedded).toEqual({ up: [expect.objectContaining({ id: news.id, name: `News ${style}` })] });
		});

		test('inside an _envelope', async () => {
			const post = await newPost({ featured_media: mediaId });
			const res = await call(style, 'GET', `/cms/v2/posts/${post.id}?_embed&_envelope`, { headers: admin() });
			expect(res.body.body._embedded['wp:featuredmedia'][0].id).toBe(mediaId);
		});
	});

	describe('Link and addressing', () => {
		test('every REST answer without links of its own links the API root: posts, errors, the extension route, the gateway', async () => {
			const root = `<${server.url}/wp-json/>; rel="https://api.w.org/"`;
			for (const route of ['/cms/v2/posts?per_page=100', '/cms/v2/posts/999999', '/engine/v2/get-meta-boxes', '/wdm/v1/devices', '/no/such/route']) {
				const res = await call(style, 'GET', route);
				expect(res.headers.get('link')).toBe(root);
			}
			// A collection's pagination links replace it, as in WordPress.
			await newPost();
			await newPost();
			const page = await call(style, 'GET', '/cms/v2/posts?per_page=1');
			expect(page.headers.get('link')).toMatch(/^<[^>]+page=2>; rel="next"$/);
		});
	});
});

test('a doubled slash after the site URL is routed as one', async () => {
	const post = await newPost({ title: 'Slashes' });
	const res = await readReply(await fetch(`${server.url}//wp-json/wp/v2/posts/${post.id}?_fields=id`));
	expect(res).toMatchObject({ status: 200, body: { id: post.id } });
	const plain = await readReply(await fetch(`${server.url}//index.php?rest_route=/wp/v2/posts/${post.id}&_fields=id`));
	expect(plain.body).toEqual({ id: post.id });
});

test('rest_invalid_param has data.details per parameter, beside data.params', async () => {
	const res = await call('pretty', 'POST', '/wp/v2/posts', { headers: admin(), json: { title: 'x', status: 'bogus', author: 'me', slug: 'x'.repeat(2000) } });
	expect(res.status).toBe(400);
	expect(res.body.data.details).toEqual({
		status: { code: 'rest_not_in_enum', message: res.body.data.params.status, data: null },
		author: { code: 'rest_invalid_type', message: 'author must be an integer', data: { param: 'author' } },
		slug: { code: 'rest_too_long', message: res.body.data.params.slug, data: null },
	});
	// A route's own check, without its own details: each sentence is a rest_invalid_param.
	const search = await call('pretty', 'GET', `/cms/v2/posts?search=${'x'.repeat(1001)}`);
	expect(search.body.data.details).toEqual({ search: { code: 'rest_too_long', message: 'search must be at most 1000 characters long', data: null } });
});

test('batch: sub-answers name their headers as WordPress does; an unknown route is rest_no_route', async () => {
	const res = await call('pretty', 'POST', '/batch/v1', {
		headers: admin(),
		json: { requests: [{ path: '/cms/v2/posts', body: { title: 'Batched' } }, { path: '/cms/v2/nothing' }, { method: 'DELETE', path: '/cms/v2/posts/abc' }] },
	});
	expect(res.status).toBe(207);
	const [created, unknown, badId] = res.body.responses;
	expect(created.status).toBe(201);
	expect(created.headers).toEqual({ Allow: 'GET, POST', Location: `${server.url}/wp-json/cms/v2/posts/${created.body.id}` });
	const noRoute = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };
	expect(unknown).toEqual({ status: 404, headers: [], body: noRoute });
	// A segment the route's handler refuses (posts take numeric ids) is no route too.
	expect({ status: badId.status, code: badId.body.code }).toEqual({ status: 404, code: 'rest_no_route' });
});

test('form bodies keep the body limit (413) and a broken multipart body is a 400, in WordPress form', async () => {
	const small = await startServer({ bodyLimit: 4096 });
	try {
		const headers = { authorization: basicAuth('admin', ADMIN_APP_PASSWORD) };
		const big = await readReply(
			await fetch(`${small.url}/wp-json/wp/v2/posts`, { method: 'POST', headers, body: new URLSearchParams({ title: 'x', content: 'y'.repeat(5000) }) }),
		);
		expect({ status: big.status, code: big.body.code }).toEqual({ status: 413, code: 'rest_body_too_large' });
		const form = new FormData();
		form.append('content', 'z'.repeat(5000));
		const bigForm = await readReply(await fetch(`${small.url}/wp-json/wp/v2/posts`, { method: 'POST', headers, body: form }));
		expect(bigForm.status).toBe(413);
		const broken = await readReply(
			await fetch(`${small.url}/wp-json/wp/v2/posts`, { method: 'POST', headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' }, body: '--xyz\r\nno headers end' }),
		);
		expect(broken.status).toBe(400);
		expect(broken.body).toMatchObject({ code: 'rest_upload_invalid_multipart', data: { status: 400 } });
		expect(small.services.store.db.prepare('SELECT count(*) AS n FROM content').get()).toEqual({ n: 0 });
	} finally {
		await small.close();
	}
});

describe('multipart bodies are read as they arrive (busboy\'s parser), by the same rules', () => {
	/** `body` sent chunked (no Content-Length), `size` bytes at a time. */
	const arriving = (body: string | Buffer, size: number) => {
		const bytes = Buffer.from(body);
		return new ReadableStream({
			start(controller) {
				for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.subarray(at, at + size));
				controller.close();
			},
		});
	};
	const MULTIPART = { 'content-type': 'multipart/form-data; boundary=b' };
	const part = (name: string, value: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
	const post = async (route: string, headers: Record<string, string>, body: RequestInit['body']) =>
		readReply(await fetch(`${server.url}/wp-json${route}`, { method: 'POST', headers: { ...headers, ...MULTIPART }, body, duplex: 'half' } as RequestInit));

	test('an upload in 7-byte pieces (boundaries and headers cut anywhere) is the same upload; a file part without Content-Type is sniffed', async () => {
		const body = Buffer.concat([
			Buffer.from(`${part('title', 'In pieces')}--b\r\nContent-Disposition: form-data; name="file"; filename="dot.png"\r\n\r\n`),
			PNG,
			Buffer.from('\r\n--b--\r\n'),
		]);
		const res = await post('/cms/v2/media', admin(), arriving(body, 7));
		expect(res.status).toBe(201);
		// busboy itself would call a part without Content-Type text/plain (RFC 2046's default); PHP leaves it empty.
		expect(res.body).toMatchObject({ title: { raw: 'In pieces' }, mime_type: 'image/png', media_details: { width: 1, height: 1 } });
		expect(Buffer.from(await (await fetch(res.body.source_url)).arrayBuffer()).equals(PNG)).toBe(true);
	});

	test('chunked past the body limit is a 413; a refusal 8 MiB before the end reaches the client still sending; a part without headers is a 400', async () => {
		const big = await post('/cms/v2/comments', {}, arriving(`${part('content', 'x'.repeat(2 << 20))}--b--\r\n`, 65536));
		expect({ status: big.status, code: big.body.code }).toEqual({ status: 413, code: 'rest_body_too_large' });
		const fields = Array.from({ length: 1001 }, (_, i) => part(`f${i}`, '')).join('');
		const over = await post('/cms/v2/posts', admin(), arriving(`${fields}${part('content', 'y'.repeat(8 << 20))}--b--\r\n`, 65536));
		expect({ status: over.status, code: over.body.code }).toEqual({ status: 400, code: 'rest_too_many_input_vars' });
		// The parser drops a part whose headers never end (a delimiter right after a delimiter): it would go uncounted.
		const headless = await post('/cms/v2/comments', {}, `--b\r\n--b\r\n${part('content', 'x')}--b--\r\n`);
		expect(headless.body).toMatchObject({ code: 'rest_upload_invalid_multipart', message: expect.stringContaining('a part has no end of headers') });
	});
});

describe('what WordPress reads from a request, and what it says back (the differential suite, test/wordpress)', () => {
	const as = (user: { headers: Record<string, string> }, extra: Record<string, string> = {}) => ({ ...user.headers, ...extra });

	test('a text body or a JSON list names no fields (400 empty_content); the gateway still takes JSON only', async () => {
		for (const [type, body] of [['text/plain', 'title=x'], ['application/json', '[1, 2]'], ['application/json', '"a title"']]) {
			const res = await call('pretty', 'POST', '/wp/v2/posts', { headers: as(u.admin, { 'content-type': type }), body });
			expect({ type, status: res.status, code: res.body.code }).toEqual({ type, status: 400, code: 'empty_content' });
		}
		const gateway = await call('pretty', 'POST', '/wdm/v1/devices', { headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'text/plain' }, body: 'name' });
		expect(gateway.status).toBe(415);
	});

	test("a body that is no JSON: PHP's json_last_error in the data, and the route's Allow", async () => {
		const cut = await call('pretty', 'POST', '/wp/v2/posts', { headers: as(u.admin, { 'content-type': 'application/json' }), body: '{"title": "broken' });
		expect(cut.status).toBe(400);
		expect(cut.body).toMatchObject({ code: 'rest_invalid_json', data: { status: 400, json_error_code: 3, json_error_message: 'Control character error, possibly incorrectly encoded' } });
		expect(cut.headers.get('allow')).toBe('GET, POST');
		const bad = await call('pretty', 'POST', '/wp/v2/posts', { headers: as(u.admin, { 'content-type': 'application/json' }), body: '{"title": }' });
		expect(bad.body.data).toMatchObject({ json_error_code: 4, json_error_message: 'Syntax error' });
	});

	test("each refused parameter carries rest_validate_value_from_schema's code in data.details", async () => {
		const detail = async (method: string, route: string, user: { headers: Record<string, string> }, json?: unknown) => {
			const res = await call('pretty', method, route, { headers: as(user), json });
			expect(res.body.code).toBe('rest_invalid_param');
			return res.body.data.details;
		};
		expect((await detail('GET', '/wp/v2/posts?after=yesterday', u.anonymous)).after).toMatchObject({ code: 'rest_invalid_date', data: null });
		const post = await newPost();
		expect((await detail('DELETE', `/wp/v2/posts/${post.id}?force=yes`, u.admin)).force).toMatchObject({ code: 'rest_invalid_type', data: { param: 'force' } });
		expect(await postStatus(post.id)).toBe('publish');
		expect((await detail('POST', '/wp/v2/users', u.admin, { username: 'detailed', email: 'not-an-email', password: 'x' })).email.code).toBe('rest_invalid_email');
		expect((await detail('POST', '/wp/v2/settings', u.admin, { email: 'nope' })).email.code).toBe('rest_invalid_email');
		expect((await detail('GET', '/wp/v2/search?subtype=nonsense', u.anonymous)).subtype.code).toBe('rest_not_in_enum');
		// An array parameter given as text is a list, as WordPress reads it: `nope` is one request, not an object.
		expect((await detail('POST', '/batch/v1', u.admin, { requests: 'nope' })).requests).toMatchObject({ code: 'rest_invalid_type', data: { param: 'requests[0]' } });
	});

	test('_fields on the index keeps its links (get_index adds them itself)', async () => {
		const index = await call('pretty', 'GET', '/?_fields=name');
		expect(index.body).toEqual({ name: expect.any(String), _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] } });
	});

	test("Allow runs each method's permission callback on the request, after the handler set the context", async () => {
		// An upload naming a post that does not exist: no one may edit it, so POST is not allowed.
		const upload = await call('pretty', 'POST', '/wp/v2/media?post=999999', { headers: as(u.admin, { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="a.png"' }), body: PNG });
		expect(upload.status).toBe(403);
		expect(upload.headers.get('allow')).toBe('GET');
		// Post-processing someone else's image: no method is allowed, so no header at all.
		const media = await call('pretty', 'POST', '/wp/v2/media', { headers: as(u.admin, { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="b.png"' }), body: PNG });
		const processed = await call('pretty', 'POST', `/wp/v2/media/${media.body.id}/post-process`, { headers: as(u.contributor), json: { action: 'create-image-subsizes' } });
		expect(processed.status).toBe(403);
		expect(processed.headers.get('allow')).toBeNull();
		// An author's new tag: created, then the request's context is edit, which authors may not list tags in.
		const tag = await call('pretty', 'POST', '/wp/v2/tags', { headers: as(u.author), json: { name: 'allowed-after' } });
		expect(tag.status).toBe(201);
		expect(tag.headers.get('allow')).toBe('POST');
		// A contributor's new comment is answered in the view context (it does not moderate): GET stays allowed.
		const published = await cms.create('/posts', u.admin, { title: 'Open for comments', status: 'publish' });
		const contributed = await call('pretty', 'POST', '/wp/v2/comments', { headers: as(u.contributor), json: { post: published.id, content: 'From a contributor' } });
		expect(contributed.status).toBe(201);
		expect(contributed.headers.get('allow')).toBe('GET, POST');
		// A comment on a draft: refused, and POST is not allowed for that request.
		const draft = await cms.create('/posts', u.admin, { title: 'Draft', status: 'draft' });
		const comment = await call('pretty', 'POST', '/wp/v2/comments', { headers: as(u.admin), json: { post: draft.id, content: 'On a draft' } });
		expect(comment.body.code).toBe('rest_comment_draft_post');
		expect(comment.headers.get('allow')).toBe('GET');
	});
});
