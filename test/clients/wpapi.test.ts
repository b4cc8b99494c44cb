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

describe('users, settings, search and comments', () => {
	test('users: me, create, update, list by role, delete with reassign', async () => {
		expect(await wp.users().me().get()).toMatchObject({ id: u.admin.id, slug: 'admin' });
		const user = await wp.users().create({ username: 'wpapi-user', email: 'wpapi@example.com', password: 'secret words', roles: ['author'] });
		expect(user).toMatchObject({ username: 'wpapi-user', roles: ['author'] });
		const renamed = await wp.users().id(user.id).update({ name: 'Renamed by wpapi' });
		expect(renamed.name).toBe('Renamed by wpapi');
		const authors = await wp.users().param('roles', 'author').get();
		expect(authors.map((a: { id: number }) => a.id)).toContain(user.id);

		const post = await wp.posts().create({ title: 'By the new author', status: 'publish', author: user.id });
		const embedded = await wp.posts().id(post.id).embed().get();
		expect(embedded._embedded.author[0]).toMatchObject({ id: user.id, name: 'Renamed by wpapi' });
		const gone = await wp.users().id(user.id).param({ force: true, reassign: u.admin.id }).delete();
		expect(gone).toMatchObject({ deleted: true, previous: { id: user.id } });
		expect((await cms.get(`/posts/${post.id}`, u.admin)).body.author).toBe(u.admin.id);
	});

	test('settings: read and update the site title', async () => {
		const before = await wp.settings().get();
		expect(typeof before.title).toBe('string');
		const after = await wp.settings().update({ title: 'Set by wpapi' });
		expect(after.title).toBe('Set by wpapi');
		const index = (await fetch(`${server.url}/wp-json/`).then((r) => r.json())) as { name: string };
		expect(index.name).toBe('Set by wpapi');
		await wp.settings().update({ title: before.title });
	});

	test('search finds a post by its title, and a term', async () => {
		const post = await wp.posts().create({ title: 'Searchable wpapi zebra', status: 'publish' });
		const hits = await wp.search().search('zebra').get();
		expect([...hits]).toEqual([expect.objectContaining({ id: post.id, type: 'post', subtype: 'post' })]);
		await wp.tags().create({ name: 'zebra-tag' });
		const terms = await wp.search().search('zebra').param('type', 'term').get();
		// As WordPress's term search handler: `type` is the taxonomy.
		expect([...terms]).toEqual([expect.objectContaining({ title: 'zebra-tag', type: 'post_tag' })]);
	});

	test('comments: create on a post, moderate, list by post, delete', async () => {
		const post = await wp.posts().create({ title: 'Commented', status: 'publish' });
		const comment = await wp.comments().create({ post: post.id, content: 'First!' });
		expect(comment).toMatchObject({ post: post.id, status: 'approved' });
		const held = await wp.comments().id(comment.id).update({ status: 'hold' });
		expect(held.status).toBe('hold');
		const listed = await wp.comments().param({ post: post.id, status: 'hold' }).get();
		expect(listed.map((c: { id: number }) => c.id)).toEqual([comment.id]);
		expect((await wp.comments().id(comment.id).param('force', true).delete()).deleted).toBe(true);
		expect((await cms.get(`/comments/${comment.id}`, u.admin)).status).toBe(404);
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
