import { type CmsClient, type SiteUsers, siteSuite } from '../helpers/content';
import { type Client, expectWpError } from '../helpers/server';

/** engine/v2 meta boxes: their lifecycle, and their fields in the meta of the posts of the attached types at cms/v2. */

let cms: CmsClient;
let u: SiteUsers;
let engine: Client;
siteSuite('engine/v2', (site) => ({ cms, u, api: engine } = site));

const as = (user = u.admin) => ({ headers: user.headers });
const add = async (body: object) => {
	const res = await engine.post('/add-meta-box', body, as());
	if (res.status !== 200) throw new Error(`add-meta-box: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body.item_id as number;
};

const RATING = { name: 'rating', title: 'Rating', type: 'number', min_value: 1, max_value: 5, is_required: true };
const MOOD = { name: 'mood', type: 'radio', options: [{ key: 'calm', value: 'Calm' }, { key: 'loud', value: 'Loud' }] };

test('add, get, list, edit and delete a meta box', async () => {
	const res = await engine.post('/add-meta-box', { args: { name: 'Review', allowed_post_type: ['post', 'post'], context: 'side' }, meta_fields: [RATING] }, as());
	expect(res.status).toBe(200);
	expect(res.body).toMatchObject({
		success: true,
		item_id: expect.any(Number),
		// Defaults filled in, repeats dropped, unknown args kept as given.
		data: { args: { name: 'Review', object_type: 'post', allowed_post_type: ['post'], allowed_tax: [], context: 'side' }, meta_fields: [{ name: 'rating', type: 'number', is_required: true }] },
	});
	const id = res.body.item_id;
	expect(res.body.data.id).toBe(id);
	expect((await engine.get(`/get-meta-box/${id}`, as())).body).toEqual({ success: true, data: res.body.data });

	const edited = await engine.post(`/edit-meta-box/${id}`, { args: { name: 'Reviews' }, meta_fields: [RATING, MOOD] }, as());
	expect(edited.status).toBe(200);
	expect(edited.body.data).toMatchObject({ args: { name: 'Reviews', allowed_post_type: ['post'], context: 'side' }, meta_fields: [{ name: 'rating' }, { name: 'mood' }] });
	// An edit without meta_fields keeps them.
	const renamed = await engine.post(`/edit-meta-box/${id}`, { args: { context: 'normal' } }, as());
	expect(renamed.body.data.meta_fields.map((f: { name: string }) => f.name)).toEqual(['rating', 'mood']);

	const list = await engine.get('/get-meta-boxes', as());
	expect(list.body.data).toEqual([expect.objectContaining({ id, args: expect.objectContaining({ name: 'Reviews', context: 'normal' }) })]);

	expect((await engine.call('DELETE', `/delete-meta-box/${id}`, undefined, as())).body).toEqual({ success: true });
	expectWpError(await engine.get(`/get-meta-box/${id}`, as()), 404, 'rest_engine_meta_box_invalid_id', 'Meta box not found.');
	expect((await engine.get('/get-meta-boxes', as())).body.data).toEqual([]);
});

test("a post of an attached type accepts, validates and shows the box's fields in its meta", async () => {
	const typeRes = await engine.post('/add-post-type', { general_settings: { name: 'Albums', slug: 'album' }, meta_fields: [{ name: 'year', type: 'number' }] }, as());
	const typeId = typeRes.body.item_id;
	const box = await add({ args: { name: 'Review', allowed_post_type: ['post', 'album'] }, meta_fields: [RATING, MOOD] });

	// The built-in posts.
	const post = await cms.create('/posts', u.author, { title: 'Hello', meta: { rating: 4, mood: 'calm' } });
	expect(post.meta).toMatchObject({ rating: 4, mood: 'calm' });
	const read = await cms.get(`/posts/${post.id}`, u.author, { context: 'edit' });
	expect(read.body.meta).toMatchObject({ rating: 4, mood: 'calm' });
	const updated = await cms.post(`/posts/${post.id}`, u.author, { meta: { rating: '5' } });
	expect(updated.body.meta).toMatchObject({ rating: 5, mood: 'calm' });
	const high = await cms.post(`/posts/${post.id}`, u.author, { meta: { rating: 9 } });
	expect(high.status).toBe(400);
	expect(high.body).toMatchObject({ code: 'rest_invalid_param', message: 'Invalid parameter(s): meta', data: { params: { meta: 'meta.rating must be at most 5' } } });
	const bad = await cms.post(`/posts/${post.id}`, u.author, { meta: { mood: 'angry' } });
	expect(bad.body.data.params.meta).toBe('meta.mood must be one of: "calm", "loud"');
	// Required: a new post must give it.
	const missing = await cms.post('/posts', u.author, { title: 'No rating' });
	expect(missing.body.data.params.meta).toBe('meta.rating is required');
	expect((await cms.get(`/posts/${post.id}`, u.author, { context: 'edit' })).body.meta.rating).toBe(5);

	// An added type: its own fields and the box's.
	const album = await cms.create('/album', u.author, { title: 'Blue', meta: { year: 1971, rating: 5 } });
	expect(album.meta).toMatchObject({ year: 1971, rating: 5, mood: '' });

	// Pages are not attached: the box's keys are ignored there.
	const page = await cms.create('/pages', u.editor, { title: 'About', meta: { rating: 'x' } });
	expect(page.meta.rating).toBeUndefined();

	// Detached from posts: their meta no longer shows nor checks the fields.
	await engine.post(`/edit-meta-box/${box}`, { args: { allowed_post_type: ['album'] } }, as());
	const free = await cms.get(`/posts/${post.id}`, u.author, { context: 'edit' });
	expect(free.body.meta.rating).toBeUndefined();
	expect((await cms.create('/posts', u.author, { title: 'Free' })).meta.rating).toBeUndefined();

	await engine.call('DELETE', `/delete-meta-box/${box}`, undefined, as());
	expect((await cms.get(`/album/${album.id}`, u.author, { context: 'edit' })).body.meta).toMatchObject({ year: 1971 });
	expect((await cms.get(`/album/${album.id}`, u.author, { context: 'edit' })).body.meta.rating).toBeUndefined();
	await engine.call('DELETE', `/delete-post-type/${typeId}`, { action: 'delete' }, as());
});

test('bad input: clear errors, nothing stored', async () => {
	const noName = await engine.post('/add-meta-box', { args: {} }, as());
	expect(noName.status).toBe(400);
	expect(noName.body.data.params.args).toBeDefined();
	const type = await engine.post('/add-meta-box', { args: { name: 'X', allowed_post_type: ['nope', 'attachment'] } }, as());
	expect(type.body.data.params.args).toBe('args.allowed_post_type names no post type of the site: nope, attachment');
	const tax = await engine.post('/add-meta-box', { args: { name: 'X', object_type: 'taxonomy', allowed_tax: ['genre'] } }, as());
	expect(tax.body.data.params.args).toBe('args.allowed_tax names no taxonomy of the site: genre');
	const objectType = await engine.post('/add-meta-box', { args: { name: 'X', object_type: 'user' } }, as());
	expect(objectType.status).toBe(400);
	const field = await engine.post('/add-meta-box', { args: { name: 'X' }, meta_fields: [{ name: 'a', type: 'text' }, { name: 'a', type: 'text' }] }, as());
	expect(field.body.data.params.meta_fields).toBe('meta_fields must name each field once (repeated: a)');
	expect((await engine.get('/get-meta-boxes', as())).body.data).toEqual([]);

	const id = await add({ args: { name: 'Kept', allowed_post_type: ['post'] } });
	const edit = await engine.post(`/edit-meta-box/${id}`, { args: { allowed_post_type: ['nope'] } }, as());
	expect(edit.status).toBe(400);
	expect((await engine.get(`/get-meta-box/${id}`, as())).body.data.args.allowed_post_type).toEqual(['post']);

	expectWpError(await engine.get('/get-meta-box/999', as()), 404, 'rest_engine_meta_box_invalid_id', 'Meta box not found.');
	expectWpError(await engine.post('/edit-meta-box/999', {}, as()), 404, 'rest_engine_meta_box_invalid_id', 'Meta box not found.');
	expectWpError(await engine.call('DELETE', '/delete-meta-box/some-box', undefined, as()), 404, 'rest_engine_meta_box_invalid_id', 'Meta box not found.');
	expectWpError(await engine.get('/get-meta-box/Bad!', as()), 404, 'rest_no_route', 'no route matches GET /engine/v2/get-meta-box/Bad!');
	expectWpError(await engine.call('DELETE', '/delete-meta-box/A', undefined, as()), 404, 'rest_no_route', 'no route matches DELETE /engine/v2/delete-meta-box/A');
	await engine.call('DELETE', `/delete-meta-box/${id}`, undefined, as());
});

test('roles: manage_options; anonymous 401, others 403', async () => {
	const calls: [string, string, object?][] = [
		['POST', '/add-meta-box', { args: { name: 'Nope' } }],
		['POST', '/edit-meta-box/1', {}],
		['GET', '/get-meta-box/1'],
		['GET', '/get-meta-boxes'],
		['DELETE', '/delete-meta-box/1'],
	];
	for (const [method, path, body] of calls) {
		expectWpError(await engine.call(method, path, body, as(u.anonymous)), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await engine.call(method, path, body, as(u.editor)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	}
});
