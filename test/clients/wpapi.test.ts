import WPAPI from 'wpapi';
import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUsers, startSite } from '../helpers/content';
import { PNG } from '../helpers/files';

/**
 * The stock `wpapi` client (1.2, superagent underneath) against the site's `wp/v2`, as a WordPress site
 * would serve it: discovery by the API root's `Link` header, then posts, pages, media upload, terms,
 * `_embed`, `_fields` and deletes. Each write is read back through the site's own `cms/v2`.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let wp: any;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	wp = new WPAPI({ endpoint: `${server.url}/wp-json`, username: 'admin', password: u.admin.password, auth: true });
});
afterAll(() => server.close());

describe('discovery', () => {
	test('WPAPI.discover on the API root finds it by its Link header and learns every route of the index', async () => {
		const site = await WPAPI.discover(`${server.url}/wp-json/`);
		expect(site._options.endpoint).toBe(`${server.url}/wp-json/`);
		// Routes of the index became methods: core ones and an extension's namespace.
		const posts = await site.posts().get();
		expect(Array.isArray(posts)).toBe(true);
		expect(typeof site.namespace('engine/v2')).toBe('object');
	});

	test('on the plain-permalink address too', async () => {
		const site = await WPAPI.discover(`${server.url}/index.php?rest_route=/`);
		expect(site._options.endpoint).toBe(`${server.url}/wp-json/`);
	});
});

describe('posts and pages', () => {
	test('create, read, update, list with paging, trash and delete a post', async () => {
		const created = await wp.posts().create({ title: 'From wpapi', content: 'Hello', status: 'publish' });
		expect(created).toMatchObject({ title: { raw: 'From wpapi' }, status: 'publish' });
		const read = await wp.posts().id(created.id).get();
		expect(read.content.rendered).toBe('<p>Hello</p>\n');

		const updated = await wp.posts().id(created.id).update({ title: 'Renamed' });
		expect(updated.title.raw).toBe('Renamed');
		expect((await cms.get(`/posts/${created.id}`, u.admin)).body.title.rendered).toBe('Renamed');

		await wp.posts().create({ title: 'Second', status: 'publish' });
		const page = await wp.posts().perPage(1).page(2).get();
		expect(page).toHaveLength(1);
		expect(page._paging).toMatchObject({ total: expect.any(Number), totalPages: expect.any(Number) });
		expect(page._paging.prev).toBeDefined();

		const trashed = await wp.posts().id(created.id).delete();
		expect(trashed.status).toBe('trash');
		expect((await cms.get(`/posts/${created.id}`, u.admin, { context: 'edit' })).body.status).toBe('trash');
		const gone = await wp.posts().id(created.id).param('force', true).delete();
		expect(gone).toMatchObject({ deleted: true, previous: { id: created.id } });
		expect((await cms.get(`/posts/${created.id}`, u.admin)).status).toBe(404);
	});

	test('pages: a child page, listed by parent', async () => {
		const parent = await wp.pages().create({ title: 'Parent', status: 'publish' });
		const child = await wp.pages().create({ title: 'Child', status: 'publish', parent: parent.id });
		const children = await wp.pages().param('parent', parent.id).get();
		expect(children.map((p: { id: number }) => p.id)).toEqual([child.id]);
		expect((await cms.get(`/pages/${child.id}`, u.admin)).body.parent).toBe(parent.id);
	});

	test('_fields through .param, _embed through .embed()', async () => {
		const post = await wp.posts().create({ title: 'Embedded', status: 'publish' });
		const slim = await wp.posts().id(post.id).param('_fields', 'id,title').get();
		expect(slim).toEqual({ id: post.id, title: { rendered: 'Embedded' } });
		const withTerms = await wp.posts().id(post.id).embed().get();
		expect(withTerms._embedded['wp:term'][0]).toEqual([expect.objectContaining({ id: 1, taxonomy: 'category' })]);
	});
});

describe('media and terms', () => {
	test('upload a file with fields (multipart), set it as featured media and embed it', async () => {
		const media = await wp.media().file(PNG, 'cover.png').create({ title: 'Cover', alt_text: 'A cover' });
		expect(media).toMatchObject({ title: { raw: 'Cover' }, alt_text: 'A cover', mime_type: 'image/png', media_type: 'image' });
		const stored = await fetch(media.source_url);
		expect(Buffer.from(await stored.arrayBuffer()).equals(PNG)).toBe(true);

		const post = await wp.posts().create({ title: 'Featured', status: 'publish', featured_media: media.id });
		const embedded = await wp.posts().id(post.id).embed().get();
		expect(embedded._embedded['wp:featuredmedia'][0]).toMatchObject({ id: media.id, source_url: media.source_url });

		const deleted = await wp.media().id(media.id).param('force', true).delete();
		expect(deleted.deleted).toBe(true);
		expect((await cms.get(`/media/${media.id}`, u.admin)).status).toBe(404);
	});

	test('categories and tags: create, assign, filter posts by them', async () => {
		const category = await wp.categories().create({ name: 'News' });
		const tag = await wp.tags().create({ name: 'wpapi' });
		const post = await wp.posts().create({ title: 'Tagged', status: 'publish', categories: [category.id], tags: [tag.id] });
		expect((await wp.posts().categories(category.id).get()).map((p: { id: number }) => p.id)).toEqual([post.id]);
		expect((await wp.posts().tags(tag.id).get()).map((p: { id: number }) => p.id)).toEqual([post.id]);
		expect((await wp.tags().param('post', post.id).get()).map((t: { name: string }) => t.name)).toEqual(['wpapi']);
		expect((await cms.get(`/tags/${tag.id}`, u.admin)).body).toMatchObject({ name: 'wpapi', count: 1 });
	});
});

describe('errors', () => {
	test('a WordPress error reaches the caller as its body', async () => {
		await expect(wp.posts().id(999999).get()).rejects.toMatchObject({ code: 'rest_post_invalid_id', data: { status: 404 } });
		await expect(wp.posts().create({ title: 'x', status: 'bogus' })).rejects.toMatchObject({
			code: 'rest_invalid_param',
			data: { details: { status: { code: 'rest_not_in_enum' } } },
		});
	});
});
