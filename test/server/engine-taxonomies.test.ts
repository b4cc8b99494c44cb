import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUsers, siteSuite } from '../helpers/content';
import { client, type Client, expectWpError } from '../helpers/server';

/** engine/v2 taxonomies: their lifecycle, term routes under cms/v2 and terms on the post types they name. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let engine: Client;
siteSuite('engine/v2', (site) => ({ server, cms, u, api: engine } = site));

const as = (user = u.admin) => ({ headers: user.headers });

test('a taxonomy: add, get, list, edit, copy; its terms at cms/v2 and on the items of its post types', async () => {
	const type = (await engine.post('/add-post-type', { general_settings: { name: 'Films', slug: 'film' } }, as())).body.item_id;
	const added = await engine.post('/add-taxonomy', { general_settings: { name: 'Genres', object_type: ['film'] }, advanced_settings: { hierarchical: true } }, as());
	expect(added.body).toMatchObject({
		success: true,
		data: { general_settings: { name: 'Genres', slug: 'genres', object_type: ['film'] }, advanced_settings: { rest_base: 'genres', hierarchical: true, public: true } },
	});
	const id = added.body.item_id;
	expect((await engine.get(`/get-taxonomy/${id}`, as())).body.data).toEqual(added.body.data);
	expect((await engine.get('/get-taxonomies', as())).body.data.map((t: { id: number }) => t.id)).toEqual([id]);

	const drama = await cms.create('/genres', u.editor, { name: 'Drama' });
	expect(drama).toMatchObject({ name: 'Drama', slug: 'drama', taxonomy: 'genres', parent: 0, link: `${server.url}/?genres=drama` });
	const sub = await cms.create('/genres', u.editor, { name: 'Noir', parent: drama.id });
	expect((await cms.get('/genres', u.anonymous)).body.map((t: { name: string }) => t.name)).toEqual(['Drama', 'Noir']);
	expect((await cms.get(`/genres/${sub.id}`, u.anonymous)).body.parent).toBe(drama.id);
	expectWpError(await cms.post('/genres', u.author, { name: 'x' }), 403, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');

	const film = await cms.create('/film', u.admin, { title: 'Chinatown', status: 'publish', genres: [drama.id, sub.id] });
	expect(film.genres).toEqual([drama.id, sub.id]);
	expect((await cms.get('/film', u.anonymous, { genres: [sub.id] })).body.map((f: { id: number }) => f.id)).toEqual([film.id]);
	// An unknown term id is left out, as WordPress's `wp_set_object_terms` skips it.
	const wrong = await cms.create('/film', u.admin, { title: 'x', genres: [999, drama.id] });
	expect(wrong.genres).toEqual([drama.id]);
	await cms.delete(`/film/${wrong.id}`, u.admin, { force: true });
	expect((await cms.get('/genres', u.admin, { post: film.id })).body).toHaveLength(2);

	const index = await client(server.url, '/wp-json').get('/cms/v2', as());
	expect(Object.keys(index.body.routes)).toEqual(expect.arrayContaining(['/cms/v2/genres', '/cms/v2/genres/(?P<id>[\\d]+)']));

	// A new slug moves the terms along.
	const edited = await engine.post(`/edit-taxonomy/${id}`, { general_settings: { slug: 'genre' }, labels: { singular_name: 'Genre' } }, as());
	expect(edited.body.data).toMatchObject({ general_settings: { slug: 'genre' }, labels: { singular_name: 'Genre' }, advanced_settings: { rest_base: 'genres' } });
	expect((await cms.get(`/genres/${drama.id}`, u.admin)).body.taxonomy).toBe('genre');
	expect((await cms.get(`/film/${film.id}`, u.admin)).body.genres).toEqual([drama.id, sub.id]);

	const copy = await engine.post(`/copy-taxonomy/${id}`, undefined, as());
	expect(copy.body.data).toMatchObject({ general_settings: { name: 'Genres (Copy)', slug: 'genre-copy', object_type: ['film'] }, advanced_settings: { rest_base: 'genres-copy' } });
	expect((await cms.get('/genres-copy', u.admin)).body).toEqual([]);

	// none: the terms stay stored; delete: they go, and off the items.
	expect((await engine.call('DELETE', `/delete-taxonomy/${copy.body.item_id}`, undefined, as())).body).toEqual({ success: true });
	expect((await cms.get('/genres-copy', u.admin)).body.code).toBe('rest_no_route');
	expect((await engine.call('DELETE', `/delete-taxonomy/${id}?action=delete`, undefined, as())).body).toEqual({ success: true });
	expect(server.services.store.terms.get(drama.id, 'genre')).toBeUndefined();
	expect((await cms.get(`/film/${film.id}`, u.admin)).body.genres).toBeUndefined();
	await engine.call('DELETE', `/delete-post-type/${type}?action=delete`, undefined, as());
});

test('bad input, unknown ids, patterns and roles', async () => {
	const unknownType = await engine.post('/add-taxonomy', { general_settings: { name: 'Moods', object_type: ['post'] } }, as());
	expect(unknownType.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { general_settings: 'general_settings.object_type names no added post type: post' } } });
	const reserved = await engine.post('/add-taxonomy', { general_settings: { name: 'X', slug: 'category' } }, as());
	expect(reserved.body.data.params.general_settings).toBe('general_settings.slug category is reserved by WordPress');
	const base = await engine.post('/add-taxonomy', { general_settings: { name: 'X' }, advanced_settings: { rest_base: 'tags' } }, as());
	expect(base.status).toBe(409);
	const action = await engine.call('DELETE', '/delete-taxonomy/1?action=move', undefined, as());
	expect(action.body.data.params.action).toBe('action must be one of: "none", "delete"');
	expect((await engine.get('/get-taxonomies', as())).body.data).toEqual([]);
	expectWpError(await engine.get('/get-taxonomy/77', as()), 404, 'rest_engine_taxonomy_invalid_id', 'Taxonomy not found.');
	expectWpError(await engine.post('/edit-taxonomy/77', {}, as()), 404, 'rest_engine_taxonomy_invalid_id', 'Taxonomy not found.');
	expectWpError(await engine.post('/copy-taxonomy/77', {}, as()), 404, 'rest_engine_taxonomy_invalid_id', 'Taxonomy not found.');
	expectWpError(await engine.call('DELETE', '/delete-taxonomy/genre', undefined, as()), 404, 'rest_engine_taxonomy_invalid_id', 'Taxonomy not found.');
	expect((await engine.get('/get-taxonomy/x1', as())).body.code).toBe('rest_no_route');
	expect((await engine.call('DELETE', '/delete-taxonomy/X!', undefined, as())).body.code).toBe('rest_no_route');

	for (const [method, path] of [
		['GET', '/get-taxonomies'],
		['POST', '/copy-taxonomy/1'],
		['DELETE', '/delete-taxonomy/1'],
		['GET', '/get-built-in-tax/category'],
		['POST', '/edit-built-in-tax/category'],
		['DELETE', '/reset-built-in-tax/category'],
	]) {
		expectWpError(await engine.call(method, path, method === 'GET' ? undefined : {}, as(u.anonymous)), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await engine.call(method, path, method === 'GET' ? undefined : {}, as(u.author)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	}
});

test('built-in taxonomies: get, relabel, reset', async () => {
	expect((await engine.get('/get-built-in-tax/post_tag', as())).body.data).toEqual({
		general_settings: { name: 'Tags', slug: 'post_tag', object_type: ['post'] },
		labels: { name: 'Tags', singular_name: 'Tag' },
		advanced_settings: { public: true, hierarchical: false, rest_base: 'tags' },
		meta_fields: [],
	});
	const edited = await engine.post('/edit-built-in-tax/post_tag', { labels: { name: 'Keywords' }, meta_fields: [{ name: 'color', type: 'colorpicker' }] }, as());
	expect(edited.body.data).toMatchObject({ labels: { name: 'Keywords' }, meta_fields: [{ name: 'color', type: 'colorpicker' }] });
	const { siteTaxonomies } = await import('../../server/src/site/registry');
	expect(siteTaxonomies(server.services.store)[1]).toMatchObject({ slug: 'post_tag', name: 'Keywords' });
	expect((await engine.call('DELETE', '/reset-built-in-tax/post_tag', undefined, as())).body.data.labels.name).toBe('Tags');
	expectWpError(await engine.get('/get-built-in-tax/genre', as()), 404, 'rest_engine_built_in_invalid', 'Built-in taxonomy not found.');
});
