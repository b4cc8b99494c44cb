import apiFetch, { type APIFetchMiddleware } from '@wordpress/api-fetch';
import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUsers, startSite } from '../helpers/content';
import { PNG } from '../helpers/files';

/**
 * The block editor's `@wordpress/api-fetch` (7.x) against the site, with its default middlewares as they
 * come (user locale, namespace endpoint, `httpV1` method override, `fetchAllMiddleware`) plus the root
 * URL middleware and an application password, as a headless client uses it. PUT, PATCH and DELETE
 * travel as a POST with `X-HTTP-Method-Override`. Each write is read back through `cms/v2`.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
const used: APIFetchMiddleware[] = [];

/** Points api-fetch at one addressing style of the site (the two styles WordPress's root URL can have). */
function useRoot(root: string) {
	for (const middleware of used.splice(0)) apiFetch.unregister(middleware);
	const signIn: APIFetchMiddleware = (options, next) => next({ ...options, headers: { ...options.headers, Authorization: u.admin.headers.authorization } });
	const rootUrl = apiFetch.createRootURLMiddleware(root);
	apiFetch.use(signIn);
	apiFetch.use(rootUrl);
	used.push(signIn, rootUrl);
}

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

type Post = { id: number; status: string; title: { raw?: string; rendered: string }; [key: string]: any };

describe.each([
	['pretty', () => `${server.url}/wp-json/`],
	['plain', () => `${server.url}/index.php?rest_route=/`],
])('%s root URL', (_, root) => {
	beforeAll(() => useRoot(root()));

	test('create, update (PUT and PATCH through the override), trash and delete a post', async () => {
		const post = await apiFetch<Post>({ path: '/wp/v2/posts', method: 'POST', data: { title: 'From api-fetch', status: 'publish' } });
		expect(post.title.raw).toBe('From api-fetch');

		const put = await apiFetch<Post>({ path: `/wp/v2/posts/${post.id}`, method: 'PUT', data: { title: 'Put' } });
		expect(put.title.raw).toBe('Put');
		const patched = await apiFetch<Post>({ path: `/wp/v2/posts/${post.id}`, method: 'PATCH', data: { excerpt: 'Patched' } });
		expect(patched.excerpt.raw).toBe('Patched');
		expect((await cms.get(`/posts/${post.id}`, u.admin, { context: 'edit' })).body).toMatchObject({ title: { raw: 'Put' }, excerpt: { raw: 'Patched' } });

		// The bug this fixes: a DELETE sent as POST was an empty update (200, nothing deleted).
		const trashed = await apiFetch<Post>({ path: `/wp/v2/posts/${post.id}`, method: 'DELETE' });
		expect(trashed.status).toBe('trash');
		expect((await cms.get(`/posts/${post.id}`, u.admin, { context: 'edit' })).body.status).toBe('trash');
		const deleted = await apiFetch<{ deleted: boolean }>({ path: `/wp/v2/posts/${post.id}?force=true`, method: 'DELETE' });
		expect(deleted.deleted).toBe(true);
		expect((await cms.get(`/posts/${post.id}`, u.admin)).status).toBe(404);
	});

	test('per_page=-1: fetchAllMiddleware follows the Link rel="next" pages to the end', async () => {
		// It asks for 100 a page: more than 100 pages make it walk to page 2.
		const total = Number((await cms.get('/pages', u.admin, { per_page: 1 })).headers.get('x-wp-total'));
		for (let i = total; i <= 100; i++) await cms.create('/pages', u.admin, { title: `All ${i}`, status: 'publish' });
		const seen: string[] = [];
		const spy: APIFetchMiddleware = (options, next) => {
			seen.push(options.url ?? options.path ?? '');
			return next(options);
		};
		apiFetch.use(spy);
		try {
			const all = await apiFetch<Post[]>({ path: '/wp/v2/pages?per_page=-1&_fields=id' });
			const stored = await cms.get('/pages', u.admin, { per_page: 1 });
			expect(all).toHaveLength(Number(stored.headers.get('x-wp-total')));
			expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
			expect(seen.some((url) => /[?&]page=2\b/.test(url))).toBe(true);
		} finally {
			apiFetch.unregister(spy);
		}
	});

	test('_fields and _embed in the path', async () => {
		const post = await apiFetch<Post>({ path: '/wp/v2/posts', method: 'POST', data: { title: 'Fields', status: 'publish' } });
		expect(await apiFetch({ path: `/wp/v2/posts/${post.id}?_fields=id,title.rendered` })).toEqual({ id: post.id, title: { rendered: 'Fields' } });
		const embedded = await apiFetch<Post>({ path: `/wp/v2/posts/${post.id}?_embed=wp:term` });
		expect(embedded._embedded['wp:term'][0]).toEqual([expect.objectContaining({ id: 1 })]);
	});

	test('media upload (FormData body), then its deletion through the override', async () => {
		const form = new FormData();
		form.append('file', new Blob([PNG], { type: 'image/png' }), 'api-fetch.png');
		form.append('title', 'Uploaded');
		form.append('alt_text', 'alt');
		const media = await apiFetch<Post>({ path: '/wp/v2/media', method: 'POST', body: form });
		expect(media).toMatchObject({ title: { raw: 'Uploaded' }, alt_text: 'alt', mime_type: 'image/png' });
		expect((await cms.get(`/media/${media.id}`, u.admin)).status).toBe(200);
		await apiFetch({ path: `/wp/v2/media/${media.id}?force=true`, method: 'DELETE' });
		expect((await cms.get(`/media/${media.id}`, u.admin)).status).toBe(404);
	});

	test('terms and an extension namespace', async () => {
		const tag = await apiFetch<{ id: number; name: string }>({ path: '/wp/v2/tags', method: 'POST', data: { name: `fetched ${root().length}` } });
		expect((await cms.get(`/tags/${tag.id}`, u.admin)).body.name).toBe(tag.name);
		const added = await apiFetch<{ item_id: number }>({ path: '/engine/v2/add-meta-box', method: 'POST', data: { args: { name: 'Fetched' } } });
		await apiFetch({ path: `/engine/v2/delete-meta-box/${added.item_id}`, method: 'DELETE' });
		await expect(apiFetch({ path: `/engine/v2/get-meta-box/${added.item_id}` })).rejects.toMatchObject({ code: 'rest_engine_meta_box_invalid_id' });
	});

	test('users, settings and search; _embed=author', async () => {
		const me = await apiFetch<{ id: number }>({ path: '/wp/v2/users/me?context=edit' });
		expect(me.id).toBe(u.admin.id);
		const user = await apiFetch<{ id: number }>({ path: '/wp/v2/users', method: 'POST', data: { username: `fetch-${root().length}`, email: `fetch-${root().length}@example.com`, password: 'secret words' } });
		const patched = await apiFetch<{ name: string }>({ path: `/wp/v2/users/${user.id}`, method: 'PATCH', data: { name: 'Patched user' } });
		expect(patched.name).toBe('Patched user');
		const post = await apiFetch<Post>({ path: '/wp/v2/posts', method: 'POST', data: { title: `Quokka ${root().length}`, status: 'publish', author: user.id } });
		const embedded = await apiFetch<Post>({ path: `/wp/v2/posts/${post.id}?_embed=author` });
		expect(embedded._embedded).toEqual({ author: [expect.objectContaining({ id: user.id, name: 'Patched user' })] });
		const hits = await apiFetch<{ id: number }[]>({ path: `/wp/v2/search?search=Quokka ${root().length}` });
		expect(hits.map((h) => h.id)).toEqual([post.id]);

		const settings = await apiFetch<{ posts_per_page: number }>({ path: '/wp/v2/settings', method: 'PUT', data: { posts_per_page: 7 } });
		expect(settings.posts_per_page).toBe(7);
		expect((await apiFetch<{ posts_per_page: number }>({ path: '/wp/v2/settings' })).posts_per_page).toBe(7);
		// A DELETE through the override, with `reassign` as WordPress asks for a user.
		await apiFetch({ path: `/wp/v2/users/${user.id}?force=true&reassign=${u.admin.id}`, method: 'DELETE' });
		expect((await cms.get(`/users/${user.id}`, u.admin)).status).toBe(404);
		expect((await cms.get(`/posts/${post.id}`, u.admin)).body.author).toBe(u.admin.id);
	});

	test("the block editor's canUser: OPTIONS with parse: false, then the Allow header", async () => {
		const post = await apiFetch<Post>({ path: '/wp/v2/posts', method: 'POST', data: { title: 'Can I?', status: 'publish' } });
		const asAdmin = await apiFetch<unknown, false>({ path: `/wp/v2/posts/${post.id}`, method: 'OPTIONS', parse: false });
		expect(asAdmin.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
		// Anonymous: read only.
		const bare = await globalThis.fetch(`${server.url}/wp-json/wp/v2/posts/${post.id}`, { method: 'OPTIONS' });
		expect(bare.headers.get('allow')).toBe('GET');
	});

	test('a WordPress error is thrown as its body', async () => {
		await expect(apiFetch({ path: '/wp/v2/posts/999999' })).rejects.toMatchObject({ code: 'rest_post_invalid_id', data: { status: 404 } });
		await expect(apiFetch({ path: '/wp/v2/posts', method: 'POST', data: { status: 'bogus' } })).rejects.toMatchObject({
			code: 'rest_invalid_param',
			data: { params: { status: expect.any(String) }, details: { status: { code: 'rest_not_in_enum' } } },
		});
	});
});
