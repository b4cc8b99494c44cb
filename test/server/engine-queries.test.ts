import type { App } from '../../server/src/app';
import { client, expectWpError, type Client } from '../helpers/server';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';

/** engine/v2 queries (stored, previewed, run as options and tables) and search, through real HTTP. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let api: Client;

const as = (user: SiteUser) => ({ headers: user.headers });
const get = (path: string, user: SiteUser) => api.get(path, as(user));
const post = (path: string, body: unknown, user: SiteUser) => api.post(path, body, as(user));
const del = (path: string, user: SiteUser) => api.delete(path, as(user));

const FORBIDDEN = 'Sorry, you are not allowed to do that.';

let news: number;
let sport: number;
const posts: Record<string, number> = {};

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	api = client(server.url, '/wp-json/engine/v2');
	news = (await cms.create('/categories', u.admin, { name: 'News' })).id;
	sport = (await cms.create('/categories', u.admin, { name: 'Sport', parent: news })).id;
	const make = async (key: string, user: SiteUser, body: Record<string, unknown>) => {
		posts[key] = (await cms.create('/posts', user, body)).id;
	};
	await make('apple', u.admin, { title: 'Apple harvest', status: 'publish', categories: [news], meta: { footnotes: 'fruit' } });
	await make('banana', u.admin, { title: 'Banana split', status: 'publish', categories: [sport] });
	await make('cherry', u.admin, { title: 'Cherry draft', status: 'draft' });
	await make('date', u.contributor, { title: 'Date by connie', status: 'draft' });
	await make('secret', u.admin, { title: 'Secret plans', status: 'private' });
	posts.page = (await cms.create('/pages', u.admin, { title: 'About apples', status: 'publish' })).id;
});
afterAll(() => server.close());

const titles = (rows: { post_title: string }[]) => rows.map((row) => row.post_title);

describe('stored queries', () => {
	test('add, get (by id and slug), list, edit and delete a query; each change reads back', async () => {
		const added = await post('/add-query', { name: 'Latest news', query_type: 'posts', args: { post_type: 'post', per_page: 5 } }, u.admin);
		expect(added.status).toBe(200);
		expect(added.body).toMatchObject({ success: true, item_id: expect.any(Number) });
		const id = added.body.item_id;
		expect(added.body.data).toMatchObject({
			id,
			name: 'Latest news',
			slug: 'latest-news',
			description: '',
			query_type: 'posts',
			args: { post_type: ['post'], post_status: ['publish'], orderby: 'date', order: 'DESC', per_page: 5, offset: 0, tax_query: [] },
		});

		expect((await get(`/get-query/${id}`, u.editor)).body).toEqual({ success: true, data: added.body.data });
		expect((await get('/get-query/latest-news', u.editor)).body.data.id).toBe(id);
		expect((await get('/get-queries', u.author)).body.data.map((q: { id: number }) => q.id)).toContain(id);

		const edited = await post(`/edit-query/${id}`, { name: 'Fruit', description: 'by title', args: { orderby: 'title', order: 'asc' } }, u.admin);
		expect(edited.status).toBe(200);
		// The slug stays; the args are replaced (left-out ones take their defaults).
		expect(edited.body.data).toMatchObject({ id, name: 'Fruit', slug: 'latest-news', description: 'by title', args: { orderby: 'title', order: 'ASC', per_page: 10 } });
		expect((await get(`/get-query/${id}`, u.admin)).body.data).toEqual(edited.body.data);

		// Another type starts from its own defaults.
		const retyped = await post('/edit-query/latest-news', { query_type: 'terms', slug: 'fruit-terms' }, u.admin);
		expect(retyped.body.data).toMatchObject({ slug: 'fruit-terms', query_type: 'terms', args: { taxonomy: ['category'], orderby: 'name' } });

		// Only the name: the definition stays as stored.
		const renamed = await post('/edit-query/fruit-terms', { name: 'Renamed' }, u.admin);
		expect(renamed.body.data).toEqual({ ...retyped.body.data, name: 'Renamed' });

		const deleted = await del('/delete-query/fruit-terms', u.admin);
		expect(deleted.status).toBe(200);
		expect(deleted.body).toEqual({ success: true, data: { deleted: true, previous: renamed.body.data } });
		expectWpError(await get(`/get-query/${id}`, u.admin), 404, 'rest_query_invalid_id', `No query has the id or slug "${id}".`);
		expectWpError(await del(`/delete-query/${id}`, u.admin), 404, 'rest_query_invalid_id', `No query has the id or slug "${id}".`);
	});

	test('slugs are unique: a made one is numbered, a given one that is taken is a 409', async () => {
		const one = await post('/add-query', { name: 'Twin', query_type: 'users' }, u.admin);
		const two = await post('/add-query', { name: 'Twin', query_type: 'users' }, u.admin);
		expect([one.body.data.slug, two.body.data.slug]).toEqual(['twin', 'twin-2']);
		expectWpError(await post('/add-query', { name: 'Other', slug: 'twin', query_type: 'users' }, u.admin), 409, 'rest_query_slug_exists', 'Another query already has the slug "twin".');
		expectWpError(await post(`/edit-query/${two.body.item_id}`, { slug: 'twin' }, u.admin), 409, 'rest_query_slug_exists', 'Another query already has the slug "twin".');
		expect((await get(`/get-query/${two.body.item_id}`, u.admin)).body.data.slug).toBe('twin-2');
	});

	test('bad input: missing, invalid and unknown fields name the parameter; nothing is stored', async () => {
		const before = (await get('/get-queries', u.admin)).body.data.length;
		const missing = await post('/add-query', {}, u.admin);
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['name', 'query_type'] } });

		const bad = await post('/add-query', { name: 'x', query_type: 'posts', args: { per_page: 1000, colour: 'red' } }, u.admin);
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('rest_invalid_param');
		expect(bad.body.data.params.args).toContain('args.per_page must be at most 100');

		const type = await post('/add-query', { name: 'x', query_type: 'posts', args: { post_type: ['post', 'book'] } }, u.admin);
		expect(type.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { args: 'args.post_type names no post type of the site: book' } } });
		const tax = await post('/add-query', { name: 'x', query_type: 'posts', args: { tax_query: [{ taxonomy: 'genre', terms: [1] }] } }, u.admin);
		expect(tax.body.data.params.args).toBe('args.tax_query names no taxonomy of the site: genre');
		const relevance = await post('/add-query', { name: 'x', query_type: 'posts', args: { orderby: 'relevance' } }, u.admin);
		expect(relevance.body.data.params.args).toBe('args.orderby "relevance" needs args.search');
		const kind = await post('/add-query', { name: 'x', query_type: 'sql' }, u.admin);
		expect(kind.body.data.params.query_type).toContain('query_type must be one of');
		const slug = await post('/add-query', { name: 'x', slug: '123', query_type: 'users' }, u.admin);
		expect(slug.body.data.params.slug).toBe('slug must not be only digits (digits are query ids)');

		expect((await get('/get-queries', u.admin)).body.data.length).toBe(before);
	});

	test('ids and slugs outside the pattern are no route', async () => {
		expectWpError(await del('/delete-query/Bad.Id', u.admin), 404, 'rest_no_route', 'no route matches DELETE /engine/v2/delete-query/Bad.Id');
		expectWpError(await get('/get-query/UPPER', u.admin), 404, 'rest_no_route', 'no route matches GET /engine/v2/get-query/UPPER');
		expectWpError(await post('/edit-query/a%20b', {}, u.admin), 404, 'rest_no_route', 'no route matches POST /engine/v2/edit-query/a%20b');
	});

	test('roles: managing needs manage_options, reading edit_posts; anonymous callers get 401', async () => {
		const body = { name: 'Role test', query_type: 'posts' };
		expectWpError(await post('/add-query', body, u.editor), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await post('/add-query', body, u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		const { item_id: id } = (await post('/add-query', body, u.admin)).body;
		expectWpError(await post(`/edit-query/${id}`, { name: 'No' }, u.editor), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await del(`/delete-query/${id}`, u.editor), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await get(`/get-query/${id}`, u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await get('/get-queries', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expect((await get(`/get-query/${id}`, u.contributor)).status).toBe(200);
		expect((await get(`/get-query/${id}`, u.admin)).body.data.name).toBe('Role test');
		expectWpError(await post('/convert-query-advanced', { query_id: id }, u.editor), 403, 'rest_forbidden', FORBIDDEN);
	});
});

test('the namespace index shows the routes with their patterns and arguments', async () => {
	const index = await client(server.url, '/wp-json').get('/engine/v2');
	expect(index.status).toBe(200);
	expect(index.body.routes['/engine/v2/delete-query/(?P<id>[a-z0-9_-]+)']).toMatchObject({ methods: ['DELETE'] });
	expect(index.body.routes['/engine/v2/search-query-field-options'].endpoints[0].args).toMatchObject({ query_id: { required: true }, q: { required: false } });
	expect(index.body.routes['/engine/v2/add-query'].endpoints[0].args).toMatchObject({ name: { required: true }, query_type: { enum: ['posts', 'terms', 'users'] } });
});

describe('previews run against the site', () => {
	test('a posts query: filters, order and limit, and what the caller may read', async () => {
		const all = await post('/update-query-preview', { query_type: 'posts', args: { post_status: 'any', orderby: 'title', order: 'ASC' } }, u.admin);
		expect(all.status).toBe(200);
		expect(all.body).toMatchObject({ success: true, count: 5 });
		expect(titles(all.body.data)).toEqual(['Apple harvest', 'Banana split', 'Cherry draft', 'Date by connie', 'Secret plans']);
		expect(all.body.data[0]).toMatchObject({ ID: posts.apple, post_type: 'post', post_status: 'publish', post_name: 'apple-harvest', meta: { footnotes: 'fruit' } });

		// A contributor reads published items and their own drafts only.
		const mine = await post('/update-query-preview', { query_type: 'posts', args: { post_status: 'any', orderby: 'title', order: 'ASC' } }, u.contributor);
		expect(titles(mine.body.data)).toEqual(['Apple harvest', 'Banana split', 'Date by connie']);

		const limited = await post('/update-query-preview', { query_type: 'posts', args: { orderby: 'title', order: 'DESC' }, limit: 1 }, u.author);
		expect(limited.body).toMatchObject({ count: 2, data: [{ post_title: 'Banana split' }] });

		// A category with its children, pages by post type, search and meta.
		const children = await post('/update-query-preview', { query_type: 'posts', args: { tax_query: [{ taxonomy: 'category', terms: [news], include_children: true }], orderby: 'title', order: 'ASC' } }, u.editor);
		expect(titles(children.body.data)).toEqual(['Apple harvest', 'Banana split']);
		const own = await post('/update-query-preview', { query_type: 'posts', args: { tax_query: [{ taxonomy: 'category', terms: [news] }] } }, u.editor);
		expect(titles(own.body.data)).toEqual(['Apple harvest']);
		const notIn = await post('/update-query-preview', { query_type: 'posts', args: { tax_query: [{ taxonomy: 'category', terms: [news, sport], operator: 'NOT IN' }], post_status: ['publish', 'private'] } }, u.editor);
		expect(titles(notIn.body.data)).toEqual(['Secret plans']);
		const pages = await post('/update-query-preview', { query_type: 'posts', args: { post_type: ['page'], search: 'apples' } }, u.editor);
		expect(titles(pages.body.data)).toEqual(['About apples']);
		const meta = await post('/update-query-preview', { query_type: 'posts', args: { meta_query: [{ key: 'footnotes', value: 'fru', compare: 'LIKE' }] } }, u.editor);
		expect(titles(meta.body.data)).toEqual(['Apple harvest']);
		const flag = await post('/update-query-preview', { query_type: 'posts', args: { meta_query: [{ key: 'featured', value: true }, { key: 'footnotes', compare: 'EXISTS' }], meta_relation: 'OR' } }, u.editor);
		expect(titles(flag.body.data)).toEqual(['Apple harvest']);
		const far = await post('/table-fetch-data', { query_id: 'nothing', page: 1e12 }, u.editor);
		expect(far.body.data.params.page).toBe('page must be at most 1000000000');
	});

	test('terms and users queries; users need list_users', async () => {
		const terms = await post('/update-query-preview', { query_type: 'terms', args: { taxonomy: 'category', orderby: 'name' } }, u.author);
		expect(terms.body.data.map((t: { name: string }) => t.name)).toEqual(['News', 'Sport', 'Uncategorized']);
		expect(terms.body.data[0]).toMatchObject({ term_id: news, slug: 'news', taxonomy: 'category', count: 1, parent: 0 });
		const children = await post('/update-query-preview', { query_type: 'terms', args: { parent: news } }, u.author);
		expect(children.body.data.map((t: { term_id: number }) => t.term_id)).toEqual([sport]);

		const users = await post('/update-query-preview', { query_type: 'users', args: { role: ['author'], orderby: 'login' } }, u.admin);
		expect(users.body).toMatchObject({ count: 2, data: [{ user_login: 'ada', roles: ['author'] }, { user_login: 'arthur' }] });
		// Editors cannot list users either (WordPress gives `list_users` to administrators only).
		expectWpError(await post('/update-query-preview', { query_type: 'users' }, u.editor), 403, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
	});

	test('a stored query by id, with replaced args; errors name the parameter', async () => {
		const { item_id: id } = (await post('/add-query', { name: 'Published', query_type: 'posts', args: { orderby: 'title', order: 'ASC' } }, u.admin)).body;
		const stored = await post('/update-query-preview', { query_id: id }, u.author);
		expect(titles(stored.body.data)).toEqual(['Apple harvest', 'Banana split']);
		const replaced = await post('/update-query-preview', { query_id: String(id), args: { search: 'banana' } }, u.author);
		expect(titles(replaced.body.data)).toEqual(['Banana split']);

		const none = await post('/update-query-preview', {}, u.author);
		expect(none.body).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['query_type'] } });
		expectWpError(await post('/update-query-preview', { query_id: 'nope' }, u.author), 404, 'rest_query_invalid_id', 'No query has the id or slug "nope".');
		expect((await post('/update-query-preview', { query_type: 'posts', limit: 0 }, u.author)).body.data.params.limit).toBe('limit must be at least 1');
		expectWpError(await post('/update-query-preview', { query_type: 'posts' }, u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await post('/update-query-preview', { query_type: 'posts' }, u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
	});

	test('search-query-preview finds readable posts and pages by title', async () => {
		const found = await get('/search-query-preview?_s=apple', u.editor);
		expect(found.body).toEqual({ success: true, data: [{ id: posts.page, text: 'About apples' }, { id: posts.apple, text: 'Apple harvest' }] });
		const drafts = await get('/search-query-preview?_s=draft', u.contributor);
		expect(drafts.body.data).toEqual([]);
		expect((await get('/search-query-preview?_s=draft', u.editor)).body.data).toEqual([{ id: posts.cherry, text: 'Cherry draft' }]);
		expectWpError(await get('/search-query-preview', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
	});

	test('convert-query-advanced: every argument with its default and the SQL it runs', async () => {
		const converted = await post('/convert-query-advanced', { query_type: 'terms', args: { taxonomy: 'post_tag', hide_empty: true } }, u.admin);
		expect(converted.status).toBe(200);
		expect(converted.body.data).toMatchObject({
			query_type: 'terms',
			args: { taxonomy: ['post_tag'], hide_empty: true, include: [], exclude: [], orderby: 'name', order: 'ASC', per_page: 10, offset: 0 },
			sql: expect.stringMatching(/^SELECT t\.\* FROM terms t WHERE .* ORDER BY t\.name COLLATE NOCASE ASC, t\.id ASC LIMIT \? OFFSET \?$/),
			params: ['["post_tag"]', 10, 0],
		});
		const bad = await post('/convert-query-advanced', { query_type: 'terms', args: { hide_empty: 'perhaps' } }, u.admin);
		expect(bad.body.data.params.args).toContain('args.hide_empty');
	});
});

describe('stored queries as options and tables', () => {
	let id: number;
	beforeAll(async () => {
		id = (await post('/add-query', { name: 'Options', slug: 'options', query_type: 'posts', args: { post_status: ['publish', 'draft'], orderby: 'title', order: 'ASC' } }, u.admin)).body.item_id;
	});

	test('search-query-field-options: rows as {value, label}, searched or picked', async () => {
		const all = await get(`/search-query-field-options?query_id=${id}`, u.editor);
		expect(all.body).toEqual([
			{ value: posts.apple, label: 'Apple harvest' },
			{ value: posts.banana, label: 'Banana split' },
			{ value: posts.cherry, label: 'Cherry draft' },
			{ value: posts.date, label: 'Date by connie' },
		]);
		expect((await get('/search-query-field-options?query_id=options&q=BAN', u.editor)).body).toEqual([{ value: posts.banana, label: 'Banana split' }]);
		const picked = await get(`/search-query-field-options?query_id=${id}&values=${posts.cherry},${posts.apple}`, u.editor);
		expect(picked.body.map((o: { value: number }) => o.value)).toEqual([posts.apple, posts.cherry]);
		// Drafts have no slug yet (WordPress gives one when they are published).
		const other = await get(`/search-query-field-options?query_id=${id}&value_field=post_name&label_field=post_status&q=draft`, u.editor);
		expect(other.body).toEqual([{ value: '', label: 'draft' }, { value: '', label: 'draft' }]);
		const slugs = await get(`/search-query-field-options?query_id=${id}&value_field=post_name&label_field=post_title&q=split`, u.editor);
		expect(slugs.body).toEqual([{ value: 'banana-split', label: 'Banana split' }]);
		// A contributor sees what they may read.
		expect((await get(`/search-query-field-options?query_id=${id}`, u.contributor)).body).toHaveLength(3);
	});

	test('search-query-field-options: errors', async () => {
		const missing = await get('/search-query-field-options', u.editor);
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['query_id'] } });
		const field = await get(`/search-query-field-options?query_id=${id}&value_field=colour`, u.editor);
		expect(field.status).toBe(400);
		expect(field.body.data.params.value_field).toMatch(/^value_field must name fields of posts rows \(ID, post_title, .*\); unknown: colour$/);
		expectWpError(await get('/search-query-field-options?query_id=999', u.editor), 404, 'rest_query_invalid_id', 'No query has the id or slug "999".');
		expectWpError(await get(`/search-query-field-options?query_id=${id}`, u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
	});

	test('table-fetch-data: a page of rows with the chosen columns, the total and the pages', async () => {
		const first = await post('/table-fetch-data', { query_id: id, per_page: 3, columns: ['ID', 'post_title'] }, u.editor);
		expect(first.status).toBe(200);
		expect(first.body.data).toEqual({
			columns: ['ID', 'post_title'],
			rows: [
				{ ID: posts.apple, post_title: 'Apple harvest' },
				{ ID: posts.banana, post_title: 'Banana split' },
				{ ID: posts.cherry, post_title: 'Cherry draft' },
			],
			total: 4,
			total_pages: 2,
			page: 1,
		});
		const second = await post('/table-fetch-data', { query_id: 'options', per_page: 3, page: 2, columns: 'post_title' }, u.editor);
		expect(second.body.data).toMatchObject({ columns: ['post_title'], rows: [{ post_title: 'Date by connie' }], total: 4, page: 2 });
		const whole = await post('/table-fetch-data', { query_id: id }, u.editor);
		expect(Object.keys(whole.body.data.rows[0])).toEqual(whole.body.data.columns);
		expect(whole.body.data.columns).toContain('post_content');

		const bad = await post('/table-fetch-data', { query_id: id, columns: ['ID', 'nope'], page: 0 }, u.editor);
		expect(bad.body.data.params.page).toBe('page must be at least 1');
		expect((await post('/table-fetch-data', { query_id: id, columns: ['nope'] }, u.editor)).body.data.params.columns).toContain('unknown: nope');
		expect((await post('/table-fetch-data', {}, u.editor)).body.data.params).toEqual(['query_id']);
		expectWpError(await post('/table-fetch-data', { query_id: id }, u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
	});
});

describe('search', () => {
	test('search-posts: published posts by title, by ids, of a type', async () => {
		expect((await get('/search-posts?query=an', u.editor)).body).toEqual([{ value: String(posts.banana), label: 'Banana split' }]);
		const byIds = await get(`/search-posts?ids=${posts.apple},${posts.cherry},${posts.page}`, u.editor);
		// Drafts are not offered.
		expect(byIds.body.map((o: { label: string }) => o.label).sort()).toEqual(['About apples', 'Apple harvest']);
		expect((await get('/search-posts?query=apple&post_type=page', u.editor)).body).toEqual([{ value: String(posts.page), label: 'About apples' }]);
		const unknown = await get('/search-posts?post_type=book', u.editor);
		expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { post_type: 'post_type names no post type of the site: book' } } });
		expectWpError(await get('/search-posts', u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
	});

	test('search-posts with search_terms: terms of a taxonomy by name or ids', async () => {
		expect((await get('/search-posts?search_terms=true&tax=category&query=spo', u.author)).body).toEqual([{ value: String(sport), label: 'Sport' }]);
		expect((await get(`/search-posts?search_terms=1&tax=category&ids=${news}`, u.author)).body).toEqual([{ value: String(news), label: 'News' }]);
		const noTax = await get('/search-posts?search_terms=true', u.author);
		expect(noTax.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { tax: 'tax is required when search_terms is true' } } });
		expect((await get('/search-posts?search_terms=maybe&tax=category', u.author)).body.code).toBe('rest_invalid_param');
	});

	test('search-glossary-fields: a glossary’s options, searched or picked', async () => {
		// A glossary as the engine's generic items store it.
		server.services.store.objects.put('engine', 'item', '7', {
			id: 7,
			name: 'Colours',
			fields: [
				{ value: 'red', label: 'Red' },
				{ value: 'green', label: 'Green' },
				{ value: 'blue', label: 'Deep blue' },
			],
		});
		expect((await get('/search-glossary-fields?glossary_id=7&query=BLUE', u.editor)).body).toEqual([{ value: 'blue', label: 'Deep blue' }]);
		expect((await get('/search-glossary-fields?glossary_id=7&query=re', u.editor)).body).toEqual([
			{ value: 'red', label: 'Red' },
			{ value: 'green', label: 'Green' },
		]);
		expect((await get('/search-glossary-fields?glossary_id=7&values=green,red', u.editor)).body).toEqual([
			{ value: 'red', label: 'Red' },
			{ value: 'green', label: 'Green' },
		]);
		expectWpError(await get('/search-glossary-fields?glossary_id=8', u.editor), 404, 'rest_glossary_invalid_id', 'No glossary has the id "8".');
		expect((await get('/search-glossary-fields', u.editor)).body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['glossary_id'] } });
		expectWpError(await get('/search-glossary-fields?glossary_id=7', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
	});
});
