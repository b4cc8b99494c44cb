import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUsers, siteSuite } from '../helpers/content';
import { client, type Client, expectWpError } from '../helpers/server';

/** engine/v2 post types: their lifecycle, and their reality for the site (cms/v2 collections, the index, delete actions). */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let engine: Client;
siteSuite('engine/v2', (site) => ({ server, cms, u, api: engine } = site));

const as = (user = u.admin) => ({ headers: user.headers });
const add = async (body: object) => {
	const res = await engine.post('/add-post-type', body, as());
	if (res.status !== 200) throw new Error(`add-post-type: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body.item_id as number;
};

test('add, get, list and edit a post type; its defaults come from the name and slug', async () => {
	const res = await engine.post('/add-post-type', { general_settings: { name: 'Books' } }, as());
	expect(res.status).toBe(200);
	expect(res.body).toMatchObject({
		success: true,
		item_id: expect.any(Number),
		data: {
			general_settings: { name: 'Books', slug: 'books' },
			labels: { name: 'Books', singular_name: 'Books' },
			advanced_settings: { public: true, hierarchical: false, rest_base: 'books', supports: ['title', 'editor'] },
			meta_fields: [],
		},
	});
	const id = res.body.item_id;
	const got = await engine.get(`/get-post-type/${id}`, as());
	expect(got.body).toEqual({ success: true, data: res.body.data });

	const edited = await engine.post(`/edit-post-type/${id}`, { labels: { singular_name: 'Book' }, advanced_settings: { menu_icon: 'dashicons-book' } }, as());
	expect(edited.status).toBe(200);
	expect(edited.body.data.labels).toEqual({ name: 'Books', singular_name: 'Book' });
	// Unknown settings are kept as given; known ones keep their values.
	expect(edited.body.data.advanced_settings).toMatchObject({ menu_icon: 'dashicons-book', rest_base: 'books', public: true });

	const list = await engine.get('/get-post-types', as());
	expect(list.body.data.map((t: { id: number }) => t.id)).toContain(id);
	expect((await engine.get(`/get-post-type/${id}`, as())).body.data.labels.singular_name).toBe('Book');
	await engine.call('DELETE', `/delete-post-type/${id}`, undefined, as());
});

test('an added post type is a cms/v2 collection with the posts behaviour, listed in the index', async () => {
	const id = await add({ general_settings: { name: 'Movies', slug: 'movie' }, advanced_settings: { rest_base: 'movies', hierarchical: true } });
	const created = await cms.create('/movies', u.author, { title: 'Alien', status: 'publish' });
	expect(created).toMatchObject({ type: 'movie', title: { raw: 'Alien' }, status: 'publish', parent: 0 });
	expect(created._links.self[0].href).toBe(`${server.url}/wp-json/cms/v2/movies/${created.id}`);

	const list = await cms.get('/movies', u.anonymous);
	expect(list.status).toBe(200);
	expect(list.headers.get('x-wp-total')).toBe('1');
	expect(list.body.map((p: { id: number }) => p.id)).toEqual([created.id]);

	const child = await cms.create('/movies', u.editor, { title: 'Aliens', parent: created.id });
	expect(child).toMatchObject({ parent: created.id, status: 'draft' });
	const updated = await cms.post(`/movies/${created.id}`, u.author, { title: 'Alien (1979)' });
	expect(updated.body.title.raw).toBe('Alien (1979)');
	expect((await cms.get(`/movies/${created.id}`, u.anonymous)).body.title.rendered).toBe('Alien (1979)');
	// PUT and PATCH update as POST does.
	expect((await cms.put(`/movies/${created.id}`, u.author, { excerpt: 'In space' })).body).toMatchObject({ title: { raw: 'Alien (1979)' }, excerpt: { raw: 'In space' } });
	expect((await cms.patch(`/movies/${created.id}`, u.author, { menu_order: 2 })).body.menu_order).toBe(2);
	expect((await cms.get(`/movies/${created.id}`, u.author, { context: 'edit' })).body).toMatchObject({ excerpt: { raw: 'In space' }, menu_order: 2 });
	// Posts of the type are not posts.
	expectWpError(await cms.get(`/posts/${created.id}`, u.admin), 404, 'rest_post_invalid_id', 'Invalid post ID.');
	// Rights are the posts' rights: a subscriber may not create, an author may not edit another's.
	expectWpError(await cms.post('/movies', u.subscriber, { title: 'x' }), 403, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
	expectWpError(await cms.post('/movies', u.anonymous, { title: 'x' }), 401, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
	expectWpError(await cms.post(`/movies/${created.id}`, u.author2, { title: 'x' }), 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
	// Bad ids: a non-digit id is no route.
	expect((await cms.get('/movies/abc', u.admin)).body.code).toBe('rest_no_route');

	const trashed = await cms.delete(`/movies/${child.id}`, u.editor);
	expect(trashed.body.status).toBe('trash');
	const gone = await cms.delete(`/movies/${child.id}`, u.editor, { force: true });
	expect(gone.body).toMatchObject({ deleted: true, previous: { id: child.id } });

	const index = await client(server.url, '/wp-json').get('/cms/v2', as());
	expect(Object.keys(index.body.routes)).toEqual(expect.arrayContaining(['/cms/v2/movies', '/cms/v2/movies/(?P<id>[\\d]+)']));
	expect(index.body.routes['/cms/v2/movies'].methods).toEqual(['GET', 'POST']);
	expect(Object.keys(index.body.routes).some((r) => r.includes('(?P<base>'))).toBe(false);
	await engine.call('DELETE', `/delete-post-type/${id}`, undefined, as());
	expect(Object.keys((await client(server.url, '/wp-json').get('/', as())).body.routes)).not.toContain('/cms/v2/movies');
});

test('an unknown collection is no route; after a REST base change the old one is gone', async () => {
	expectWpError(await cms.get('/nothing-here', u.admin), 404, 'rest_no_route', 'no route matches GET /cms/v2/nothing-here');
	const id = await add({ general_settings: { name: 'Games', slug: 'game' } });
	expect((await cms.get('/game', u.admin)).status).toBe(200);
	await engine.post(`/edit-post-type/${id}`, { advanced_settings: { rest_base: 'games' } }, as());
	expect((await cms.get('/game', u.admin)).body.code).toBe('rest_no_route');
	expect((await cms.get('/games', u.admin)).status).toBe(200);
	await engine.call('DELETE', `/delete-post-type/${id}`, undefined, as());
});

test('a new slug moves the posts along', async () => {
	const id = await add({ general_settings: { name: 'Cars', slug: 'car' }, advanced_settings: { rest_base: 'cars' } });
	const car = await cms.create('/cars', u.admin, { title: 'Beetle', status: 'publish' });
	await engine.post(`/edit-post-type/${id}`, { general_settings: { slug: 'automobile' } }, as());
	expect((await cms.get(`/cars/${car.id}`, u.admin)).body).toMatchObject({ id: car.id, type: 'automobile' });
	await engine.call('DELETE', `/delete-post-type/${id}?action=delete`, undefined, as());
});

test('delete-post-type: none keeps the posts unreachable, delete removes them, move re-types them', async () => {
	const keep = await add({ general_settings: { name: 'Keep', slug: 'keep' } });
	const kept = await cms.create('/keep', u.admin, { title: 'Kept', status: 'publish' });
	expect((await engine.call('DELETE', `/delete-post-type/${keep}`, undefined, as())).body).toEqual({ success: true });
	expect((await cms.get('/keep', u.admin)).body.code).toBe('rest_no_route');
	expect(server.services.store.content.get(kept.id)).toMatchObject({ type: 'keep', title: 'Kept' });
	// Added again under the same slug, the type finds its posts again (as in WordPress).
	const again = await add({ general_settings: { name: 'Keep', slug: 'keep' } });
	const found = await cms.get(`/keep/${kept.id}`, u.admin);
	expect(found.body.title.rendered).toBe('Kept');
	await engine.call('DELETE', `/delete-post-type/${again}?action=delete`, undefined, as());
	expect(server.services.store.content.get(kept.id)).toBeUndefined();

	const from = await add({ general_settings: { name: 'From', slug: 'from' } });
	const moved = await cms.create('/from', u.admin, { title: 'Moved', status: 'publish' });
	const noTarget = await engine.call('DELETE', `/delete-post-type/${from}?action=move`, undefined, as());
	expect(noTarget.status).toBe(400);
	expect(noTarget.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { to_post_type: 'to_post_type is required to move the posts' } } });
	const unknown = await engine.call('DELETE', `/delete-post-type/${from}`, { action: 'move', to_post_type: 'nope' }, as());
	expect(unknown.body.data.params.to_post_type).toBe('to_post_type must be another existing post type (not nope)');
	// Nothing happened: the type is still there.
	expect((await engine.get(`/get-post-type/${from}`, as())).status).toBe(200);
	expect((await engine.call('DELETE', `/delete-post-type/${from}?action=move&to_post_type=page`, undefined, as())).body).toEqual({ success: true });
	expect((await cms.get(`/pages/${moved.id}`, u.admin)).body).toMatchObject({ type: 'page', title: { rendered: 'Moved' } });

	const bad = await engine.call('DELETE', `/delete-post-type/${from}?action=burn`, undefined, as());
	expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { action: 'action must be one of: "none", "delete", "move"' } } });
	expectWpError(await engine.call('DELETE', `/delete-post-type/${from}`, undefined, as()), 404, 'rest_engine_post_type_invalid_id', 'Post type not found.');
	expectWpError(await engine.call('DELETE', '/delete-post-type/not-an-id', undefined, as()), 404, 'rest_engine_post_type_invalid_id', 'Post type not found.');
});

test('copy-post-type: a new type with "-copy" slug and REST base, without the posts', async () => {
	const id = await add({ general_settings: { name: 'Songs', slug: 'song' }, meta_fields: [{ name: 'artist', type: 'text' }] });
	await cms.create('/song', u.admin, { title: 'One', status: 'publish' });
	const copy = await engine.post(`/copy-post-type/${id}`, undefined, as());
	expect(copy.body).toMatchObject({
		success: true,
		data: { general_settings: { name: 'Songs (Copy)', slug: 'song-copy' }, advanced_settings: { rest_base: 'song-copy' }, meta_fields: [{ name: 'artist' }] },
	});
	expect((await cms.get('/song-copy', u.admin)).body).toEqual([]);
	const second = await engine.post(`/copy-post-type/${id}`, undefined, as());
	expect(second.body.data.general_settings.slug).toBe('song-copy-2');
	for (const item of [id, copy.body.item_id, second.body.item_id]) await engine.call('DELETE', `/delete-post-type/${item}?action=delete`, undefined, as());
});

test('bad input: names, slugs, reserved and taken values, unknown ids, wrong patterns', async () => {
	const missing = await engine.post('/add-post-type', {}, as());
	expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['general_settings'] } });
	const empty = await engine.post('/add-post-type', { general_settings: { name: ' ' } }, as());
	expect(empty.body.data.params.general_settings).toBe('general_settings.name must be at least 1 characters long');
	const slug = await engine.post('/add-post-type', { general_settings: { name: 'X', slug: 'Bad Slug' } }, as());
	expect(slug.body.data.params.general_settings).toBe('general_settings.slug must be 1 to 20 lowercase letters, digits, hyphens or underscores');
	const reserved = await engine.post('/add-post-type', { general_settings: { name: 'X', slug: 'page' } }, as());
	expect(reserved.body.data.params.general_settings).toBe('general_settings.slug page is reserved by WordPress');
	const base = await engine.post('/add-post-type', { general_settings: { name: 'X', slug: 'x' }, advanced_settings: { rest_base: 'posts' } }, as());
	expect(base.status).toBe(409);
	expect(base.body).toMatchObject({ code: 'rest_engine_conflict', message: 'The REST base posts is already used under cms/v2.' });
	const id = await add({ general_settings: { name: 'Taken', slug: 'taken' } });
	const twice = await engine.post('/add-post-type', { general_settings: { name: 'Taken' } }, as());
	expect(twice.status).toBe(409);
	expect(twice.body.message).toBe('A post type with the slug taken already exists.');
	const field = await engine.post('/add-post-type', { general_settings: { name: 'F' }, meta_fields: [{ name: 'size', type: 'select' }] }, as());
	expect(field.body.data.params.meta_fields).toBe('meta_fields[0].options must list at least one choice for a select field');
	const hidden = await engine.post(`/edit-post-type/${id}`, { advanced_settings: { public: 'maybe' } }, as());
	expect(hidden.status).toBe(400);
	// Nothing was stored by the failed calls.
	expect((await engine.get('/get-post-types', as())).body.data.map((t: { general_settings: { slug: string } }) => t.general_settings.slug)).toEqual(['taken']);

	expectWpError(await engine.get('/get-post-type/999', as()), 404, 'rest_engine_post_type_invalid_id', 'Post type not found.');
	expectWpError(await engine.post('/edit-post-type/999', {}, as()), 404, 'rest_engine_post_type_invalid_id', 'Post type not found.');
	expectWpError(await engine.post('/copy-post-type/999', {}, as()), 404, 'rest_engine_post_type_invalid_id', 'Post type not found.');
	expectWpError(await engine.get('/get-post-type/abc', as()), 404, 'rest_no_route', 'no route matches GET /engine/v2/get-post-type/abc');
	expectWpError(await engine.call('DELETE', '/delete-post-type/Bad!', undefined, as()), 404, 'rest_no_route', 'no route matches DELETE /engine/v2/delete-post-type/Bad!');
	await engine.call('DELETE', `/delete-post-type/${id}`, undefined, as());
});

test('built-in post types: get, relabel, reset; the registry sees the labels', async () => {
	const got = await engine.get('/get-built-in-post-type/post', as());
	expect(got.body).toEqual({
		success: true,
		data: {
			general_settings: { name: 'Posts', slug: 'post' },
			labels: { name: 'Posts', singular_name: 'Post' },
			advanced_settings: { public: true, hierarchical: false, rest_base: 'posts' },
			meta_fields: [],
		},
	});
	const edited = await engine.post('/edit-built-in-post-type/post', { labels: { name: 'Articles', singular_name: 'Article' }, advanced_settings: { public: false } }, as());
	expect(edited.body.data).toMatchObject({ general_settings: { name: 'Articles' }, labels: { name: 'Articles' }, advanced_settings: { public: false, rest_base: 'posts' } });
	const { sitePostTypes } = await import('../../server/src/site/registry');
	expect(sitePostTypes(server.services.store)[0]).toMatchObject({ slug: 'post', name: 'Articles', singular_name: 'Article', public: false, builtin: true });
	const reset = await engine.call('DELETE', '/reset-built-in-post-type/post', undefined, as());
	expect(reset.body.data.labels).toEqual({ name: 'Posts', singular_name: 'Post' });
	expect(sitePostTypes(server.services.store)[0].name).toBe('Posts');

	expectWpError(await engine.get('/get-built-in-post-type/book', as()), 404, 'rest_engine_built_in_invalid', 'Built-in post type not found.');
	expectWpError(await engine.post('/edit-built-in-post-type/nope', {}, as()), 404, 'rest_engine_built_in_invalid', 'Built-in post type not found.');
	expectWpError(await engine.call('DELETE', '/reset-built-in-post-type/nope', undefined, as()), 404, 'rest_engine_built_in_invalid', 'Built-in post type not found.');
	expect((await engine.get('/get-built-in-post-type/Post!', as())).body.code).toBe('rest_no_route');
});

test('roles: the engine is configured with manage_options; anonymous 401, others 403', async () => {
	const calls: [string, string][] = [
		['POST', '/add-post-type'],
		['POST', '/edit-post-type/1'],
		['GET', '/get-post-type/1'],
		['GET', '/get-post-types'],
		['DELETE', '/delete-post-type/1'],
		['POST', '/copy-post-type/1'],
		['GET', '/get-built-in-post-type/post'],
		['POST', '/edit-built-in-post-type/post'],
		['DELETE', '/reset-built-in-post-type/post'],
	];
	// As in WordPress, parameters are checked first: valid ones here.
	const body = (path: string) => (path === '/add-post-type' ? { general_settings: { name: 'Nope' } } : {});
	for (const [method, path] of calls) {
		expectWpError(await engine.call(method, path, method === 'GET' ? undefined : body(path), as(u.anonymous)), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await engine.call(method, path, method === 'GET' ? undefined : body(path), as(u.editor)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	}
});
