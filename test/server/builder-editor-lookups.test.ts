import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { client, expectWpError } from '../helpers/server';

/** The builder's lookups (`/post`, `/term`, `/user`) and site navigation (recent posts, add new post) over the site's real state. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let api: ReturnType<typeof client>;
const ids: Record<string, number> = {};

const as = (user: SiteUser) => ({ headers: user.headers });
const qs = (query: Record<string, string | string[]>) => {
	const params = new URLSearchParams();
	for (const [k, v] of Object.entries(query)) for (const item of ([] as string[]).concat(v)) params.append(k, item);
	return `?${params.toString()}`;
};

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	api = client(server.url, '/wp-json/builder/v1');
	const news = await cms.create('/categories', u.admin, { name: 'News' });
	ids.news = news.id;
	ids.alpha = (await cms.create('/posts', u.editor, { title: 'Alpha lookup', status: 'publish', categories: [news.id], meta: { _builder_edit_mode: 'builder' } })).id;
	ids.beta = (await cms.create('/posts', u.editor, { title: 'Beta lookup', status: 'publish', meta: { _builder_template_type: 'section' } })).id;
	ids.draft = (await cms.create('/posts', u.editor, { title: 'Draft lookup', status: 'draft', meta: { _builder_edit_mode: 'builder' } })).id;
	ids.page = (await cms.create('/pages', u.editor, { title: 'Gamma lookup page', status: 'publish', meta: { _builder_edit_mode: 'builder' } })).id;
});
afterAll(() => server.close());

describe('/post', () => {
	test('published items of the public types, searched, with the default keys', async () => {
		const res = await api.get(`/post${qs({ term: 'lookup' })}`, as(u.contributor));
		expect(res.status).toBe(200);
		expect(res.body).toEqual([
			{ id: ids.page, label: 'Gamma lookup page', groupLabel: 'Pages' },
			{ id: ids.beta, label: 'Beta lookup', groupLabel: 'Posts' },
			{ id: ids.alpha, label: 'Alpha lookup', groupLabel: 'Posts' },
		]);
	});

	test('included and excluded types, items_count, keys_conversion_map as an object or JSON', async () => {
		const pages = await api.get(`/post${qs({ term: 'lookup', 'included_types[]': 'page' })}`, as(u.author));
		expect(pages.body.map((p: { id: number }) => p.id)).toEqual([ids.page]);
		const noPosts = await api.get(`/post${qs({ term: 'lookup', 'excluded_types[]': ['post', 'attachment'] })}`, as(u.author));
		expect(noPosts.body.map((p: { id: number }) => p.id)).toEqual([ids.page]);
		expect((await api.get(`/post${qs({ term: 'lookup', items_count: '1' })}`, as(u.author))).body).toHaveLength(1);
		const renamed = await api.get(`/post${qs({ term: 'Alpha', 'keys_conversion_map[ID]': 'value', 'keys_conversion_map[post_name]': 'slug' })}`, as(u.author));
		expect(renamed.body).toEqual([{ value: ids.alpha, slug: 'alpha-lookup' }]);
		const json = await api.get(`/post${qs({ term: 'Alpha', keys_conversion_map: '{"post_status":"status","post_type":"type"}' })}`, as(u.author));
		expect(json.body).toEqual([{ status: 'publish', type: 'Posts' }]);
	});

	test('meta_query and tax_query filter on the items’ real meta and terms', async () => {
		const builder = await api.get(`/post${qs({ term: 'lookup', 'meta_query[0][key]': '_builder_edit_mode', 'meta_query[0][value]': 'builder' })}`, as(u.author));
		expect(builder.body.map((p: { id: number }) => p.id)).toEqual([ids.page, ids.alpha]);
		const none = await api.get(`/post${qs({ term: 'lookup', 'meta_query[0][key]': '_builder_edit_mode', 'meta_query[0][compare]': 'NOT EXISTS' })}`, as(u.author));
		expect(none.body.map((p: { id: number }) => p.id)).toEqual([ids.beta]);
		const news = await api.get(`/post${qs({ term: 'lookup', 'tax_query[0][taxonomy]': 'category', 'tax_query[0][terms][]': String(ids.news) })}`, as(u.author));
		expect(news.body.map((p: { id: number }) => p.id)).toEqual([ids.alpha]);
		const bySlug = await api.get(`/post${qs({ term: 'lookup', 'tax_query[0][taxonomy]': 'category', 'tax_query[0][field]': 'slug', 'tax_query[0][terms]': 'news', 'tax_query[0][operator]': 'NOT IN', 'included_types[]': 'post' })}`, as(u.author));
		expect(bySlug.body.map((p: { id: number }) => p.id)).toEqual([ids.beta]);
	});

	test('a password-protected post: its content and excerpt only to who may edit it, as the content routes', async () => {
		const secret = await cms.create('/posts', u.author, { title: 'Locked entry', status: 'publish', password: 'pw', content: 'The hidden text', excerpt: 'Hidden summary', meta: { footnotes: 'hidden note' } });
		const map = { keys_conversion_map: '{"ID":"id","post_content":"content","post_excerpt":"excerpt"}', term: 'Locked' };
		const blank = { id: secret.id, content: '', excerpt: '' };
		const shown = { id: secret.id, content: 'The hidden text', excerpt: 'Hidden summary' };
		expect((await api.get(`/post${qs(map)}`, as(u.contributor))).body).toEqual([blank]);
		expect((await api.get(`/post${qs(map)}`, as(u.author2))).body).toEqual([blank]);
		// Its author and the editors may edit it: they see it, as `context=edit` shows it to them.
		expect((await api.get(`/post${qs(map)}`, as(u.author))).body).toEqual([shown]);
		expect((await api.get(`/post${qs(map)}`, as(u.editor))).body).toEqual([shown]);
		expect((await cms.get(`/posts/${secret.id}`, u.contributor)).body.content.rendered).toBe('');
		// A search (or a meta clause) looks behind the password only for who may edit: no match tells the text.
		const byText = { ...map, term: 'hidden text' };
		const byMeta = { ...map, 'meta_query[0][key]': 'footnotes', 'meta_query[0][value]': 'hidden', 'meta_query[0][compare]': 'LIKE' };
		for (const query of [byText, byMeta]) {
			expect((await api.get(`/post${qs(query)}`, as(u.contributor))).body).toEqual([]);
			expect((await api.get(`/post${qs(query)}`, as(u.author))).body).toEqual([shown]);
		}
	});

	test('bad parameters name the parameter and the rule; reading needs edit_posts', async () => {
		const tax = await api.get(`/post${qs({ 'tax_query[0][taxonomy]': 'genre', 'tax_query[0][terms]': '1' })}`, as(u.author));
		expect(tax.body).toEqual({
			code: 'rest_invalid_param',
			message: 'Invalid parameter(s): tax_query',
			data: {
				status: 400,
				params: { tax_query: "tax_query[0].taxonomy must be one of the site's taxonomies: category, post_tag" },
				details: { tax_query: expect.objectContaining({ message: "tax_query[0].taxonomy must be one of the site's taxonomies: category, post_tag" }) },
			},
		});
		const noTax = await api.get(`/post${qs({ 'tax_query[0][terms]': '1' })}`, as(u.author));
		expect(noTax.body.data.params.tax_query).toBe('tax_query[0].taxonomy is required');
		const compare = await api.get(`/post${qs({ 'meta_query[0][key]': 'x', 'meta_query[0][compare]': 'REGEXP' })}`, as(u.author));
		expect(compare.body.data.params.meta_query).toMatch(/^meta_query\[0\]\.compare must be one of: "=", "!="/);
		const key = await api.get(`/post${qs({ 'meta_query[0][key]': 'a b' })}`, as(u.author));
		expect(key.body.data.params.meta_query).toBe('meta_query[0].key must be a meta key (letters, digits, _ and -)');
		const count = await api.get(`/post${qs({ items_count: 'many' })}`, as(u.author));
		expect(count.body.data.params.items_count).toBe('items_count must be an integer');
		const map = await api.get(`/post${qs({ keys_conversion_map: 'not json' })}`, as(u.author));
		expect(map.body.data.params.keys_conversion_map).toBe('keys_conversion_map must be an object mapping source keys to answer keys (or that object as JSON)');
		const isPublic = await api.get(`/post${qs({ is_public: 'maybe' })}`, as(u.author));
		expect(isPublic.status).toBe(400);
		expectWpError(await api.get('/post'), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await api.get('/post', as(u.subscriber)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	});
});

describe('/term and /user', () => {
	test('terms of the taxonomies, searched, hide_empty counts published items', async () => {
		await cms.create('/tags', u.admin, { name: 'Lookup tag' });
		const all = await api.get(`/term${qs({ term: 'n' })}`, as(u.author));
		expect(all.body).toEqual(expect.arrayContaining([{ id: ids.news, label: 'News', groupLabel: 'Categories' }]));
		const tags = await api.get(`/term${qs({ 'included_types[]': 'post_tag' })}`, as(u.author));
		expect(tags.body.map((t: { label: string }) => t.label)).toEqual(['Lookup tag']);
		const used = await api.get(`/term${qs({ hide_empty: 'true', 'keys_conversion_map[name]': 'name', 'keys_conversion_map[count]': 'count' })}`, as(u.author));
		// Alpha is published in News; Uncategorized holds Beta; the tag holds nothing.
		expect(used.body).toEqual(expect.arrayContaining([{ name: 'News', count: 1 }]));
		expect(used.body.map((t: { name: string }) => t.name)).not.toContain('Lookup tag');
		const existing = await api.get(`/term${qs({ 'meta_query[0][key]': 'color', 'meta_query[0][compare]': 'EXISTS' })}`, as(u.author));
		expect(existing.body).toEqual([]);
		expectWpError(await api.get('/term', as(u.subscriber)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	});

	test('users by name, roles as labels; emails only for who may list users; keys map as JSON text', async () => {
		const found = await api.get(`/user${qs({ term: 'edn' })}`, as(u.author));
		expect(found.body).toEqual([{ id: u.editor.id, label: 'edna', groupLabel: 'Editor' }]);
		const mapped = await api.get(`/user${qs({ term: 'edna', keys_conversion_map: '{"user_login":"login","user_email":"email"}' })}`, as(u.author));
		expect(mapped.body).toEqual([{ login: 'edna' }]);
		const byAdmin = await api.get(`/user${qs({ term: 'edna', keys_conversion_map: '{"user_email":"email"}' })}`, as(u.admin));
		expect(byAdmin.body).toEqual([{ email: '' }]);
		// Nor does a match on the address tell it.
		server.services.store.users.update(u.editor.id, { email: 'edna.private@example.test' });
		expect((await api.get(`/user${qs({ term: 'private@example' })}`, as(u.author))).body).toEqual([]);
		expect((await api.get(`/user${qs({ term: 'private@example' })}`, as(u.admin))).body).toEqual([{ id: u.editor.id, label: 'edna', groupLabel: 'Editor' }]);
		expect((await api.get(`/user${qs({ items_count: '2' })}`, as(u.admin))).body).toHaveLength(2);
		expectWpError(await api.get('/user'), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	});
});

describe('site navigation', () => {
	test('add-new-post creates a real draft edited with the builder, which recent-posts lists first', async () => {
		const res = await api.post('/site-navigation/add-new-post', { post_type: 'page' }, as(u.editor));
		expect(res.status).toBe(201);
		const id = res.body.id;
		expect(res.body).toEqual({ id, title: `Builder #${id}`, post_type: 'page', status: 'draft', edit_url: `${server.url}/wp-admin/post.php?post=${id}&action=builder` });
		expect(res.headers.get('location')).toBe(`${server.url}/wp-json/cms/v2/pages/${id}`);
		const page = (await cms.get(`/pages/${id}`, u.editor, { context: 'edit' })).body;
		expect(page).toMatchObject({ status: 'draft', title: { raw: `Builder #${id}` }, author: u.editor.id, meta: { _builder_edit_mode: 'builder', _builder_template_type: 'cms-page' } });

		const post = await api.post('/site-navigation/add-new-post', {}, as(u.author));
		expect(post.body.post_type).toBe('post');
		expect((await cms.get(`/posts/${post.body.id}`, u.author, { context: 'edit' })).body.categories).toEqual([1]);

		const recent = await api.get(`/site-navigation/recent-posts${qs({ posts_per_page: '10' })}`, as(u.editor));
		expect(recent.body.map((p: { id: number }) => p.id).slice(0, 2)).toEqual([post.body.id, id]);
		expect(recent.body.find((p: { id: number }) => p.id === id)).toMatchObject({ type: { post_type: 'page', doc_type: 'cms-page', label: 'Page' }, status: 'draft' });
		// Only items edited with the builder.
		expect(recent.body.map((p: { id: number }) => p.id)).not.toContain(ids.beta);
		expect(recent.body.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([ids.alpha, ids.draft, ids.page]));
	});

	test('recent-posts: post types, exclusions, count, and only what the caller may edit', async () => {
		const pages = await api.get(`/site-navigation/recent-posts${qs({ posts_per_page: '5', 'post_type[]': 'page' })}`, as(u.editor));
		expect(pages.body.every((p: { type: { post_type: string } }) => p.type.post_type === 'page')).toBe(true);
		const without = await api.get(`/site-navigation/recent-posts${qs({ posts_per_page: '50', 'post__not_in[]': String(ids.alpha) })}`, as(u.editor));
		expect(without.body.map((p: { id: number }) => p.id)).not.toContain(ids.alpha);
		expect((await api.get(`/site-navigation/recent-posts${qs({ posts_per_page: '1' })}`, as(u.editor))).body).toHaveLength(1);
		// Another author's items are not the author's to edit.
		const other = await api.get(`/site-navigation/recent-posts${qs({ posts_per_page: '50' })}`, as(u.author2));
		expect(other.body).toEqual([]);
		const missing = await api.get('/site-navigation/recent-posts', as(u.editor));
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['posts_per_page'] } });
		const big = await api.get(`/site-navigation/recent-posts${qs({ posts_per_page: '101' })}`, as(u.editor));
		expect(big.body.data.params.posts_per_page).toBe('posts_per_page must be at most 100');
	});

	test('add-new-post: unknown types, media, roles', async () => {
		const unknown = await api.post('/site-navigation/add-new-post', { post_type: 'book' }, as(u.editor));
		expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { post_type: "post_type must be one of the site's post types: post, page" } } });
		expect((await api.post('/site-navigation/add-new-post', { post_type: 'attachment' }, as(u.editor))).status).toBe(400);
		const typed = await api.post('/site-navigation/add-new-post', { post_type: 5 }, as(u.editor));
		expect(typed.body.data.params.post_type).toBe('post_type must be a string (got number 5)');
		expectWpError(await api.post('/site-navigation/add-new-post', { post_type: 'page' }, as(u.author)), 403, 'rest_cannot_create', 'Sorry, you are not allowed to create posts in this post type.');
		expectWpError(await api.post('/site-navigation/add-new-post', {}, as(u.subscriber)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await api.post('/site-navigation/add-new-post', {}), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	});
});

describe('post types added by the engine', () => {
	test('appear in the /post lookup, and add-new-post creates a real draft of them served at cms/v2', async () => {
		const engine = client(server.url, '/wp-json/engine/v2');
		const added = await engine.post('/add-post-type', { general_settings: { name: 'Recipes', slug: 'recipe' }, advanced_settings: { rest_base: 'recipes' } }, as(u.admin));
		expect(added.status).toBe(200);
		const recipe = await cms.create('/recipes', u.admin, { title: 'Soup lookup', status: 'publish' });

		const found = await api.get(`/post${qs({ term: 'Soup', 'included_types[]': 'recipe' })}`, as(u.editor));
		expect(found.body).toEqual([{ id: recipe.id, label: 'Soup lookup', groupLabel: 'Recipes' }]);

		const draft = await api.post('/site-navigation/add-new-post', { post_type: 'recipe' }, as(u.admin));
		expect(draft.status).toBe(201);
		expect(draft.headers.get('location')).toBe(`${server.url}/wp-json/cms/v2/recipes/${draft.body.id}`);
		expect((await cms.get(`/recipes/${draft.body.id}`, u.admin, { context: 'edit' })).body).toMatchObject({ type: 'recipe', status: 'draft' });
	});
});
