import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { client, expectWpError } from '../helpers/server';

/** `cms/v2/search`, `/types`, `/taxonomies` and `/statuses` (WordPress's controllers) over the site registry. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let engine: ReturnType<typeof client>;
let rest: string;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	engine = client(server.url, '/wp-json/engine/v2');
	rest = `${server.url}/wp-json/cms/v2`;
});
afterAll(() => server.close());

const as = (user = u.admin) => ({ headers: user.headers });
const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

describe('types', () => {
	test("every post type, keyed by slug, with WordPress's view fields and links", async () => {
		const res = await cms.get('/types', u.anonymous);
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['post', 'page', 'attachment']);
		expect(res.body.post).toEqual({
			description: '',
			hierarchical: false,
			has_archive: false,
			name: 'Posts',
			icon: 'dashicons-admin-post',
			slug: 'post',
			taxonomies: ['category', 'post_tag'],
			rest_base: 'posts',
			rest_namespace: 'cms/v2',
			_links: { collection: [{ href: `${rest}/types` }], 'wp:items': [{ href: `${rest}/posts` }], curies: CURIES },
		});
		expect(res.body.page).toMatchObject({ hierarchical: true, rest_base: 'pages', taxonomies: [] });
		expect(res.body.attachment).toMatchObject({ name: 'Media', rest_base: 'media', icon: 'dashicons-admin-media' });
		expect((await cms.get('/types/post', u.admin, { context: 'edit' })).body.labels).toMatchObject({ item_published: 'Post published.', item_link: 'Post Link' });
		expect((await cms.get('/types/page', u.admin, { context: 'edit' })).body.labels).toMatchObject({ insert_into_item: 'Insert into page' });
		// The icon shows in every context, as WordPress 6.1's schema says (and its answer has it).
		expect((await cms.get('/types', u.anonymous, { context: 'embed' })).body.post).toEqual({
			name: 'Posts',
			slug: 'post',
			icon: 'dashicons-admin-post',
			rest_base: 'posts',
			rest_namespace: 'cms/v2',
			_links: expect.any(Object),
		});
	});

	test('edit context: supports, labels and capabilities, only to those who may edit, per type', async () => {
		const post = (await cms.get('/types/post', u.contributor, { context: 'edit' })).body;
		expect(post).toMatchObject({
			viewable: true,
			visibility: { show_in_nav_menus: true, show_ui: true },
			supports: { title: true, editor: true, author: true, comments: true, revisions: true, 'post-formats': true },
			labels: { name: 'Posts', singular_name: 'Post', add_new_item: 'Add New Post' },
			capabilities: { edit_post: 'edit_post', edit_posts: 'edit_posts', publish_posts: 'publish_posts', create_posts: 'edit_posts' },
		});
		expect((await cms.get('/types/page', u.editor, { context: 'edit' })).body.capabilities).toMatchObject({ edit_page: 'edit_page', edit_posts: 'edit_pages' });
		// An author cannot edit pages: the type is refused in edit context, and left out of the list.
		expectWpError(await cms.get('/types/page', u.author, { context: 'edit' }), 403, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
		expect(Object.keys((await cms.get('/types', u.author, { context: 'edit' })).body)).toEqual(['post', 'attachment']);
		expect(Object.keys((await cms.get('/types', u.contributor, { context: 'edit' })).body)).toEqual(['post', 'attachment']);
		expect(Object.keys((await cms.get('/types', u.editor, { context: 'edit' })).body)).toEqual(['post', 'page', 'attachment']);
		for (const user of [u.subscriber, u.anonymous]) {
			const res = await cms.get('/types', user, { context: 'edit' });
			expectWpError(res, user === u.anonymous ? 401 : 403, 'rest_cannot_view', 'Sorry, you are not allowed to edit posts in this post type.');
		}
		expect((await cms.get('/types/post', u.subscriber)).body).not.toHaveProperty('supports');
	});

	test('an unknown type is 404; a slug outside the pattern is no route', async () => {
		expectWpError(await cms.get('/types/nothing', u.anonymous), 404, 'rest_type_invalid', 'Invalid post type.');
		expect((await cms.get('/types/a.b', u.anonymous)).body.code).toBe('rest_no_route');
	});
});

describe('taxonomies', () => {
	test('every taxonomy keyed by slug; `type` keeps those of a post type', async () => {
		const res = await cms.get('/taxonomies', u.anonymous);
		expect(Object.keys(res.body)).toEqual(['category', 'post_tag']);
		expect(res.body.category).toEqual({
			description: '',
			hierarchical: true,
			name: 'Categories',
			slug: 'category',
			types: ['post'],
			rest_base: 'categories',
			rest_namespace: 'cms/v2',
			_links: { collection: [{ href: `${rest}/taxonomies` }], 'wp:items': [{ href: `${rest}/categories` }], curies: CURIES },
		});
		expect((await cms.get('/taxonomies', u.anonymous, { type: 'page' })).body).toEqual({});
		expect(Object.keys((await cms.get('/taxonomies', u.anonymous, { type: 'post' })).body)).toEqual(['category', 'post_tag']);
		expect((await cms.get('/taxonomies/post_tag', u.anonymous)).body).toMatchObject({ name: 'Tags', hierarchical: false, rest_base: 'tags' });
		expectWpError(await cms.get('/taxonomies/genre', u.anonymous), 404, 'rest_taxonomy_invalid', 'Invalid taxonomy.');
	});

	test('edit context for those who can assign terms', async () => {
		const tag = (await cms.get('/taxonomies/post_tag', u.contributor, { context: 'edit' })).body;
		// WordPress 6.1's own capabilities and labels (`create_initial_taxonomies`, `WP_Taxonomy::get_default_labels`).
		expect(tag.capabilities).toEqual({ manage_terms: 'manage_post_tags', edit_terms: 'edit_post_tags', delete_terms: 'delete_post_tags', assign_terms: 'assign_post_tags' });
		expect(tag.labels).toMatchObject({
			singular_name: 'Tag',
			popular_items: 'Popular Tags',
			name_field_description: 'The name is how it appears on your site.',
			slug_field_description:
				'The &#8220;slug&#8221; is the URL-friendly version of the name. It is usually all lowercase and contains only letters, numbers, and hyphens.',
			parent_field_description: null,
			desc_field_description: 'The description is not prominent by default; however, some themes may show it.',
			filter_by_item: null,
			most_used: 'Most Used',
			item_link: 'Tag Link',
			item_link_description: 'A link to a tag.',
			name_admin_bar: 'post_tag',
		});
		const category = (await cms.get('/taxonomies/category', u.contributor, { context: 'edit' })).body;
		expect(category.capabilities).toEqual({ manage_terms: 'manage_categories', edit_terms: 'edit_categories', delete_terms: 'delete_categories', assign_terms: 'assign_categories' });
		expect(category.labels).toMatchObject({
			parent_field_description: 'Assign a parent term to create a hierarchy. The term Jazz, for example, would be the parent of Bebop and Big Band.',
			filter_by_item: 'Filter by category',
			item_link: 'Category Link',
			item_link_description: 'A link to a category.',
			name_admin_bar: 'category',
		});
		// The capabilities map as WordPress's `map_meta_cap` maps them: a contributor assigns, only editors manage.
		expect((await cms.post('/tags', u.contributor, { name: 'Contributed' })).status).toBe(201);
		expect((await cms.post('/categories', u.contributor, { name: 'Contributed' })).status).toBe(403);
		expectWpError(await cms.get('/taxonomies/category', u.subscriber, { context: 'edit' }), 403, 'rest_forbidden_context', 'Sorry, you are not allowed to manage terms in this taxonomy.');
		expectWpError(await cms.get('/taxonomies', u.anonymous, { context: 'edit' }), 401, 'rest_cannot_view', 'Sorry, you are not allowed to manage terms in this taxonomy.');
	});
});

describe('statuses', () => {
	test('all six to whoever can edit posts, publish alone to others', async () => {
		const all = (await cms.get('/statuses', u.contributor)).body;
		expect(Object.keys(all)).toEqual(['publish', 'future', 'draft', 'pending', 'private', 'trash']);
		expect(all.draft).toEqual({
			name: 'Draft',
			public: false,
			queryable: false,
			slug: 'draft',
			date_floating: true,
			_links: { archives: [{ href: `${rest}/posts?status=draft` }] },
		});
		expect(all.publish._links.archives[0].href).toBe(`${rest}/posts`);
		for (const user of [u.subscriber, u.anonymous]) expect(Object.keys((await cms.get('/statuses', user)).body)).toEqual(['publish']);
		expect((await cms.get('/statuses/private', u.editor, { context: 'edit' })).body).toEqual({
			name: 'Private',
			private: true,
			protected: false,
			public: false,
			queryable: false,
			show_in_list: true,
			slug: 'private',
			date_floating: false,
			_links: expect.any(Object),
		});
		expect((await cms.get('/statuses/trash', u.author, { context: 'edit' })).body).toMatchObject({ show_in_list: false });
	});

	test('a status the caller may not see, an unknown one, and edit context for readers', async () => {
		expectWpError(await cms.get('/statuses/draft', u.anonymous), 401, 'rest_cannot_read_status', 'Cannot view status.');
		expectWpError(await cms.get('/statuses/draft', u.subscriber), 403, 'rest_cannot_read_status', 'Cannot view status.');
		expect((await cms.get('/statuses/publish', u.anonymous)).body.name).toBe('Published');
		expectWpError(await cms.get('/statuses/bogus', u.admin), 404, 'rest_status_invalid', 'Invalid status.');
		// An internal status exists, but no one may read it.
		expectWpError(await cms.get('/statuses/inherit', u.admin), 403, 'rest_cannot_read_status', 'Cannot view status.');
		expectWpError(await cms.get('/statuses/auto-draft', u.anonymous), 401, 'rest_cannot_read_status', 'Cannot view status.');
		expectWpError(await cms.get('/statuses', u.subscriber, { context: 'edit' }), 403, 'rest_cannot_view', 'Sorry, you are not allowed to manage post statuses.');
	});
});

describe('search', () => {
	let hello: { id: number };
	let page: { id: number };
	beforeAll(async () => {
		hello = await cms.create('/posts', u.admin, { title: 'Hello search', content: 'sourdough', status: 'publish' });
		await cms.create('/posts', u.admin, { title: 'Hidden search draft', content: 'sourdough' });
		await cms.create('/posts', u.admin, { title: 'Private search', status: 'private', content: 'sourdough' });
		page = await cms.create('/pages', u.admin, { title: 'About the sourdough', status: 'publish' });
		await cms.create('/posts', u.admin, { title: 'An aside', status: 'publish', format: 'aside' });
	});

	test('published items of the public post types: id, title, url, type, subtype and links', async () => {
		const res = await cms.get('/search', u.anonymous, { search: 'sourdough' });
		expect(res.status).toBe(200);
		expect(res.headers.get('x-wp-total')).toBe('2');
		expect(res.headers.get('x-wp-totalpages')).toBe('1');
		// The title match ranks first (WordPress's relevance).
		expect(res.body).toEqual([
			{
				id: page.id,
				title: 'About the sourdough',
				url: `${server.url}/?page_id=${page.id}`,
				type: 'post',
				subtype: 'page',
				_links: {
					self: [{ embeddable: true, href: `${rest}/pages/${page.id}` }],
					about: [{ href: `${rest}/types/page` }],
					collection: [{ href: `${rest}/search` }],
				},
			},
			expect.objectContaining({ id: hello.id, subtype: 'post', url: `${server.url}/?p=${hello.id}` }),
		]);
		// Private and draft items are never found, not even by their authors.
		expect((await cms.get('/search', u.admin, { search: 'sourdough' })).body).toHaveLength(2);
		expect((await cms.get('/search', u.anonymous, { search: 'sourdough', subtype: 'post' })).body.map((r: { id: number }) => r.id)).toEqual([hello.id]);
		expect((await cms.get('/search', u.anonymous, { search: 'sourdough', subtype: 'page,any' })).body).toHaveLength(2);
		expect((await cms.get('/search', u.anonymous, { search: 'sourdough', exclude: String(page.id) })).body).toHaveLength(1);
	});

	test('paging headers and links; a page past the last one is 400', async () => {
		const res = await cms.get('/search', u.anonymous, { search: 'sourdough', per_page: 1, page: 2 });
		expect(res.body).toHaveLength(1);
		expect(res.headers.get('x-wp-totalpages')).toBe('2');
		expect(res.headers.get('link')).toContain('rel="prev"');
		expectWpError(
			await cms.get('/search', u.anonymous, { search: 'sourdough', page: 3 }),
			400,
			'rest_search_invalid_page_number',
			'The page number requested is larger than the number of pages available.',
		);
	});

	test('terms (type: their taxonomy, as WordPress) and post formats in use', async () => {
		const cat = await cms.create('/categories', u.admin, { name: 'Sourdough Breads' });
		const terms = (await cms.get('/search', u.anonymous, { type: 'term', search: 'sourdough' })).body;
		expect(terms).toEqual([
			{
				id: cat.id,
				title: 'Sourdough Breads',
				url: `${server.url}/?cat=${cat.id}`,
				type: 'category',
				_links: {
					self: [{ embeddable: true, href: `${rest}/categories/${cat.id}` }],
					about: [{ href: `${rest}/taxonomies/category` }],
					collection: [{ href: `${rest}/search` }],
				},
			},
		]);
		expect((await cms.get('/search', u.anonymous, { type: 'term', search: 'sourdough', subtype: 'post_tag' })).body).toEqual([]);
		const formats = (await cms.get('/search', u.anonymous, { type: 'post-format' })).body;
		expect(formats).toEqual([{ id: 'aside', title: 'Aside', url: `${server.url}/?post_format=aside`, type: 'post-format', _links: { collection: [{ href: `${rest}/search` }] } }]);
	});

	test('bad parameters are named', async () => {
		const type = await cms.get('/search', u.anonymous, { type: 'user' });
		expect(type.status).toBe(400);
		expect(type.body.data.params.type).toMatch(/"post", "term", "post-format"/);
		const subtype = await cms.get('/search', u.anonymous, { subtype: 'book' });
		expect(subtype.body.data.params.subtype).toMatch(/"book".*post, page/);
		expect((await cms.get('/search', u.anonymous, { context: 'edit' })).status).toBe(400);
	});
});

describe('an engine-added post type and taxonomy', () => {
	test('appear in /types, /taxonomies and /search, with their own labels; the wp/v2 twin names its namespace', async () => {
		const added = await engine.post('/add-post-type', { general_settings: { name: 'Books' }, labels: { singular_name: 'Book' } }, as());
		expect(added.status).toBe(200);
		const tax = await engine.post('/add-taxonomy', { general_settings: { name: 'Genres', object_type: ['books'] } }, as());
		expect(tax.status).toBe(200);
		const types = (await cms.get('/types', u.anonymous)).body;
		expect(Object.keys(types)).toEqual(['post', 'page', 'attachment', 'books']);
		expect(types.books).toMatchObject({ name: 'Books', slug: 'books', rest_base: 'books', taxonomies: ['genres'] });
		expect((await cms.get('/types/books', u.admin, { context: 'edit' })).body).toMatchObject({
			labels: { singular_name: 'Book' },
			supports: { title: true, editor: true },
		});
		expect((await cms.get('/taxonomies', u.anonymous, { type: 'books' })).body.genres).toMatchObject({ types: ['books'], rest_base: 'genres' });

		const book = await cms.create('/books', u.admin, { title: 'Sourdough Book', status: 'publish' });
		const found = (await cms.get('/search', u.anonymous, { search: 'Sourdough Book' })).body;
		expect(found[0]).toMatchObject({ id: book.id, subtype: 'books', _links: { self: [{ embeddable: true, href: `${rest}/books/${book.id}` }], about: [{ href: `${rest}/types/books` }] } });
		expect((await cms.get('/search', u.anonymous, { search: 'sourdough', subtype: 'books' })).body.map((r: { id: number }) => r.id)).toEqual([book.id]);

		const wp = client(server.url, '/wp-json/wp/v2');
		const twin = (await wp.get('/types/books', as())).body;
		expect(twin).toMatchObject({ rest_namespace: 'wp/v2', _links: { 'wp:items': [{ href: `${server.url}/wp-json/wp/v2/books` }] } });
	});
});
