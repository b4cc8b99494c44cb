import type { App } from '../../server/src/app';
import { namespaceOf } from '../../server/src/http/route';
import { routes } from '../../server/src/routes';
import { type CmsClient, cmsClient, type SiteUsers, startSite } from '../helpers/content';
import { client, expectWpError } from '../helpers/server';

/**
 * Stock WordPress's `wp/v2`: every `cms/v2` route answers there too, on the same store, with the URLs
 * of its answers in the namespace asked.
 */

let server: App;
let cms: CmsClient;
let wp: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	wp = cmsClient(server.url, 'wp/v2');
});
afterAll(() => server.close());

test('every cms/v2 route of the table has its wp/v2 twin, and wp/v2 has no other route', () => {
	const shape = (r: (typeof routes)[number]) => `${r.method} ${r.path.replace(/^\/(cms|wp)\/v2/, '')}`;
	const cmsRoutes = routes.filter((r) => namespaceOf(r.path) === 'cms/v2' && r.path !== '/cms/v2').map(shape);
	const wpRoutes = routes.filter((r) => namespaceOf(r.path) === 'wp/v2' && r.path !== '/wp/v2').map(shape);
	expect(wpRoutes).toEqual(cmsRoutes);
	expect(wpRoutes).toEqual(expect.arrayContaining(['GET /posts', 'POST /posts/{id}', 'GET /pages/{parent}/revisions', 'POST /media', 'GET /tags/{id}']));
});

describe('posts and pages', () => {
	test('a post created at wp/v2 is the cms/v2 post; its answer links to wp/v2', async () => {
		const res = await wp.post('/posts', u.admin, { title: 'Hello WordPress', content: 'Body', status: 'publish', categories: [1] });
		expect(res.status).toBe(201);
		const id = res.body.id as number;
		const rest = `${server.url}/wp-json/wp/v2`;
		expect(res.headers.get('location')).toBe(`${rest}/posts/${id}`);
		expect(res.body._links).toMatchObject({
			self: [{ href: `${rest}/posts/${id}` }],
			collection: [{ href: `${rest}/posts` }],
			'wp:attachment': [{ href: `${rest}/media?parent=${id}` }],
			'wp:term': [
				{ taxonomy: 'category', href: `${rest}/categories?post=${id}` },
				{ taxonomy: 'post_tag', href: `${rest}/tags?post=${id}` },
			],
		});
		expect(JSON.stringify(res.body)).not.toContain('/cms/v2');

		const viaCms = await cms.get(`/posts/${id}`, u.admin, { context: 'edit' });
		expect(viaCms.body).toMatchObject({ id, title: { raw: 'Hello WordPress' }, status: 'publish', categories: [1] });
		expect(viaCms.body._links.self).toEqual([{ href: `${server.url}/wp-json/cms/v2/posts/${id}` }]);

		// The same item, but for its links.
		const viaWp = await wp.get(`/posts/${id}`, u.admin, { context: 'edit' });
		const { _links: a, ...wpItem } = viaWp.body;
		const { _links: b, ...cmsItem } = viaCms.body;
		expect(wpItem).toEqual(cmsItem);
		expect(JSON.stringify(a).replaceAll('/wp/v2/', '/cms/v2/')).toBe(JSON.stringify(b));
	});

	test('update, revisions, trash and delete at wp/v2 act on the one store', async () => {
		const { id } = await wp.create('/pages', u.admin, { title: 'About', status: 'draft' });
		const updated = await wp.post(`/pages/${id}`, u.admin, { title: 'About us' });
		expect(updated.status).toBe(200);
		expect((await cms.get(`/pages/${id}`, u.admin, { context: 'edit' })).body.title.raw).toBe('About us');

		const revisions = await wp.get(`/pages/${id}/revisions`, u.admin);
		expect(revisions.status).toBe(200);
		expect(revisions.body.length).toBeGreaterThan(0);
		expect(revisions.body[0]._links.parent[0].href).toBe(`${server.url}/wp-json/wp/v2/pages/${id}`);

		expect((await wp.delete(`/pages/${id}`, u.admin)).body.status).toBe('trash');
		expect((await cms.get(`/pages/${id}`, u.admin, { context: 'edit' })).body.status).toBe('trash');
		expect((await wp.delete(`/pages/${id}`, u.admin, { force: 'true' })).body).toMatchObject({ deleted: true, previous: { id } });
		expectWpError(await wp.get(`/pages/${id}`, u.admin), 404, 'rest_post_invalid_id', 'Invalid post ID.');
	});

	test('collections page with Link headers in wp/v2; the rest_route= style reaches wp/v2 too', async () => {
		for (let i = 0; i < 3; i++) await wp.create('/posts', u.admin, { title: `Paged ${i}`, status: 'publish', slug: `paged-${i}` });
		const res = await wp.get('/posts', u.anonymous, { per_page: '1', page: '2', search: 'Paged' });
		expect(res.headers.get('x-wp-total')).toBe('3');
		expect(res.headers.get('link')).toContain(`<${server.url}/wp-json/wp/v2/posts?`);
		expect(res.headers.get('link')).not.toContain('cms/v2');

		const plain = await fetch(`${server.url}/index.php?rest_route=/wp/v2/posts&search=Paged`);
		expect(plain.status).toBe(200);
		expect(((await plain.json()) as unknown[]).length).toBe(3);
	});

	test('bad input is refused at wp/v2 as at cms/v2, nothing written', async () => {
		const before = (await cms.get('/posts', u.admin, { per_page: 100, status: 'any' })).headers.get('x-wp-total');
		const bad = await wp.post('/posts', u.admin, { title: 'x', status: 'shouting' });
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('rest_invalid_param');
		expect((await cms.get('/posts', u.admin, { per_page: 100, status: 'any' })).headers.get('x-wp-total')).toBe(before);
		expectWpError(await wp.post('/posts', u.anonymous, { title: 'x' }), 401, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
	});
});

test('categories and tags at wp/v2 link to wp/v2', async () => {
	const tag = await wp.create('/tags', u.admin, { name: 'News' });
	const rest = `${server.url}/wp-json/wp/v2`;
	expect(tag._links).toMatchObject({
		self: [{ href: `${rest}/tags/${tag.id}` }],
		collection: [{ href: `${rest}/tags` }],
		about: [{ href: `${rest}/taxonomies/post_tag` }],
		'wp:post_type': [{ href: `${rest}/posts?tags=${tag.id}` }],
	});
	expect((await cms.get(`/tags/${tag.id}`, u.anonymous)).body.name).toBe('News');
});

test('media uploaded at wp/v2 is in the one library', async () => {
	const res = await fetch(`${server.url}/wp-json/wp/v2/media`, {
		method: 'POST',
		headers: { ...u.admin.headers, 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="notes.txt"' },
		body: 'hello',
	});
	expect(res.status).toBe(201);
	const item = (await res.json()) as { id: number; _links: { self: Array<{ href: string }> } };
	expect(res.headers.get('location')).toBe(`${server.url}/wp-json/wp/v2/media/${item.id}`);
	expect(item._links.self[0].href).toBe(`${server.url}/wp-json/wp/v2/media/${item.id}`);
	expect((await cms.get(`/media/${item.id}`, u.admin)).status).toBe(200);
});

test("an engine post type's collection answers at wp/v2, and the indexes list it there", async () => {
	const engine = client(server.url, '/wp-json/engine/v2');
	const added = await engine.post('/add-post-type', { general_settings: { name: 'Books' } }, { headers: u.admin.headers });
	expect(added.status).toBe(200);
	const book = await wp.create('/books', u.admin, { title: 'Dune', status: 'publish' });
	expect(book._links.self[0].href).toBe(`${server.url}/wp-json/wp/v2/books/${book.id}`);
	expect((await cms.get(`/books/${book.id}`, u.anonymous)).body.title.rendered).toBe('Dune');
	expectWpError(await wp.get('/no-such-type', u.anonymous), 404, 'rest_no_route', 'no route matches GET /wp/v2/no-such-type');

	const index = (await client(server.url, '/wp-json').get('/')).body;
	expect(index.namespaces).toContain('wp/v2');
	expect(index.routes['/wp/v2/books']).toMatchObject({ namespace: 'wp/v2', methods: ['GET', 'POST'] });
	const postItem = Object.keys(index.routes).find((r) => r.startsWith('/wp/v2/posts/(?P<id>'));
	expect(index.routes[postItem!]).toMatchObject({ namespace: 'wp/v2', methods: expect.arrayContaining(['GET', 'POST', 'DELETE']) });
	// The parametric routes that serve added types are replaced by the types' own, as in cms/v2.
	expect(Object.keys(index.routes).filter((r) => r.includes('(?P<base>'))).toEqual([]);

	const wpIndex = (await wp.get('', u.anonymous)).body;
	const cmsIndex = (await cms.get('', u.anonymous)).body;
	expect(wpIndex.namespace).toBe('wp/v2');
	expect(Object.keys(wpIndex.routes)).toEqual(Object.keys(cmsIndex.routes).map((r) => r.replace('/cms/v2', '/wp/v2')));
	expect(wpIndex.routes['/wp/v2/posts']._links.self[0].href).toBe(`${server.url}/wp-json/wp/v2/posts`);
});

test('a batch runs wp/v2 requests', async () => {
	const res = await fetch(`${server.url}/wp-json/batch/v1`, {
		method: 'POST',
		headers: { ...u.admin.headers, 'content-type': 'application/json' },
		body: JSON.stringify({ requests: [{ path: '/wp/v2/posts', body: { title: 'Batched', status: 'publish' } }] }),
	});
	expect(res.status).toBe(207);
	const { responses } = (await res.json()) as { responses: Array<{ status: number; body: { id: number; _links: { self: Array<{ href: string }> } } }> };
	expect(responses[0].status).toBe(201);
	expect(responses[0].body._links.self[0].href).toBe(`${server.url}/wp-json/wp/v2/posts/${responses[0].body.id}`);
	expect((await cms.get(`/posts/${responses[0].body.id}`, u.anonymous)).body.title.rendered).toBe('Batched');
});
