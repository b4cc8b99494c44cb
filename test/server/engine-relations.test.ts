import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUsers, startSite } from '../helpers/content';
import { client, expectWpError } from '../helpers/server';

/** engine/v2 relations: definitions between post types, and the connected items they carry, with each type's limits. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let engine: ReturnType<typeof client>;
let typeId: number;
/** Posts (parents) and pages (children). */
let p: number[];
let c: number[];

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	engine = client(server.url, '/wp-json/engine/v2');
	typeId = (await engine.post('/add-post-type', { general_settings: { name: 'Albums', slug: 'album' } }, as())).body.item_id;
	p = [];
	c = [];
	for (const n of [1, 2, 3]) {
		p.push((await cms.create('/posts', u.admin, { title: `Post ${n}` })).id);
		c.push((await cms.create('/pages', u.admin, { title: `Page ${n}` })).id);
	}
});
afterAll(() => server.close());

const as = (user = u?.admin) => ({ headers: user.headers });
const pair = (parent: number, child: number) => ({ parent_id: parent, child_id: child });

test('add, get, list, edit and delete a relation; connections read back', async () => {
	const res = await engine.post('/add-relation', { name: 'Post pages', parent_object: 'post', child_object: 'page', parent_control: true, connections: [pair(p[0], c[0]), pair(p[0], c[1])] }, as());
	expect(res.status).toBe(200);
	const id = res.body.item_id;
	expect(res.body).toEqual({
		success: true,
		item_id: expect.any(Number),
		data: { id, name: 'Post pages', parent_object: 'post', child_object: 'page', type: 'one_to_many', parent_control: true, connections: [pair(p[0], c[0]), pair(p[0], c[1])] },
	});
	expect((await engine.get(`/get-relation/${id}`, as())).body).toEqual({ success: true, data: res.body.data });

	// connect and disconnect change pairs; ids as strings are read as numbers; repeats are dropped.
	const changed = await engine.post(`/edit-relation/${id}`, { id: 999, name: 'Related', connect: [{ parent_id: String(p[1]), child_id: c[2] }, pair(p[0], c[0])], disconnect: [pair(p[0], c[1])] }, as());
	expect(changed.status).toBe(200);
	expect(changed.body.data).toMatchObject({ id, name: 'Related', parent_control: true, connections: [pair(p[0], c[0]), pair(p[1], c[2])] });
	expect((await engine.get(`/get-relation/${id}`, as())).body.data.connections).toEqual([pair(p[0], c[0]), pair(p[1], c[2])]);

	// A deleted item leaves the relation.
	const extra = (await cms.create('/pages', u.admin, { title: 'Short-lived' })).id;
	await engine.post(`/edit-relation/${id}`, { connect: [pair(p[2], extra)] }, as());
	await cms.delete(`/pages/${extra}`, u.admin, { force: true });
	expect((await engine.get(`/get-relation/${id}`, as())).body.data.connections).toEqual([pair(p[0], c[0]), pair(p[1], c[2])]);

	// connections replaces the list; a new type must fit the stored pairs.
	const replaced = await engine.post(`/edit-relation/${id}`, { type: 'one_to_one', connections: [pair(p[2], c[1])] }, as());
	expect(replaced.body.data).toMatchObject({ type: 'one_to_one', connections: [pair(p[2], c[1])] });

	const list = await engine.get('/get-relations', as());
	expect(list.body.data).toEqual([replaced.body.data]);
	expect((await engine.call('DELETE', `/delete-relation/${id}`, undefined, as())).body).toEqual({ success: true });
	expectWpError(await engine.get(`/get-relation/${id}`, as()), 404, 'rest_engine_relation_invalid_id', 'Relation not found.');
	// The items stay.
	expect((await cms.get(`/pages/${c[1]}`, u.admin)).status).toBe(200);
});

test('a post type renamed through edit-post-type keeps its relations and their connections', async () => {
	const item = (await cms.create('/album', u.admin, { title: 'Album', status: 'publish' })).id;
	const id = (await engine.post('/add-relation', { name: 'Album posts', parent_object: 'album', child_object: 'post', connections: [pair(item, p[0])] }, as())).body.item_id;
	expect((await engine.post(`/edit-post-type/${typeId}`, { general_settings: { slug: 'record' } }, as())).status).toBe(200);
	const renamed = (await engine.get(`/get-relation/${id}`, as())).body.data;
	expect(renamed).toMatchObject({ parent_object: 'record', child_object: 'post', connections: [pair(item, p[0])] });
	await engine.delete(`/delete-relation/${id}`, as());
	await engine.post(`/edit-post-type/${typeId}`, { general_settings: { slug: 'album' } }, as());
});

test('limits of each relation type: 409 naming the rule, nothing stored', async () => {
	const one = await engine.post('/add-relation', { name: 'One', parent_object: 'post', child_object: 'page', type: 'one_to_one', connections: [pair(p[0], c[0])] }, as());
	const id = one.body.item_id;
	const twoChildren = await engine.post(`/edit-relation/${id}`, { connect: [pair(p[0], c[1])] }, as());
	expect(twoChildren.status).toBe(409);
	expect(twoChildren.body).toMatchObject({
		code: 'rest_engine_relation_limit',
		message: `A one_to_one relation gives each parent one child: parent ${p[0]} would have ${c[0]} and ${c[1]}.`,
		data: { status: 409, params: { connections: expect.any(String) } },
	});
	const twoParents = await engine.post(`/edit-relation/${id}`, { connect: [pair(p[1], c[0])] }, as());
	expect(twoParents.body.message).toBe(`A one_to_one relation gives each child one parent: child ${c[0]} would have ${p[0]} and ${p[1]}.`);
	// one_to_many: a parent may have many children, a child one parent.
	const many = await engine.post(`/edit-relation/${id}`, { type: 'one_to_many', connect: [pair(p[0], c[1])] }, as());
	expect(many.body.data.connections).toEqual([pair(p[0], c[0]), pair(p[0], c[1])]);
	expect((await engine.post(`/edit-relation/${id}`, { connect: [pair(p[1], c[1])] }, as())).status).toBe(409);
	// Back to one_to_one does not fit the stored pairs.
	const narrow = await engine.post(`/edit-relation/${id}`, { type: 'one_to_one' }, as());
	expect(narrow.status).toBe(409);
	// many_to_many: both.
	const both = await engine.post(`/edit-relation/${id}`, { type: 'many_to_many', connect: [pair(p[1], c[1])] }, as());
	expect(both.body.data.connections).toHaveLength(3);
	expect((await engine.get(`/get-relation/${id}`, as())).body.data).toMatchObject({ type: 'many_to_many' });
	const limited = await engine.post('/add-relation', { name: 'X', parent_object: 'post', child_object: 'page', connections: [pair(p[0], c[0]), pair(p[1], c[0])] }, as());
	expect(limited.status).toBe(409);
	expect((await engine.get('/get-relations', as())).body.data).toHaveLength(1);
	await engine.call('DELETE', `/delete-relation/${id}`, undefined, as());
});

test('bad input: clear errors, nothing stored', async () => {
	const noName = await engine.post('/add-relation', { parent_object: 'post', child_object: 'page' }, as());
	expect(noName.status).toBe(400);
	expect(noName.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['name'] } });
	const type = await engine.post('/add-relation', { name: 'X', parent_object: 'post', child_object: 'page', type: 'some_to_some' }, as());
	expect(type.body.data.params.type).toBeDefined();
	const parent = await engine.post('/add-relation', { name: 'X', parent_object: 'nope', child_object: 'page' }, as());
	expect(parent.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { parent_object: 'parent_object names no post type of the site: nope' } } });
	const wrongItem = await engine.post('/add-relation', { name: 'X', parent_object: 'post', child_object: 'page', connections: [pair(c[0], c[1])] }, as());
	expect(wrongItem.body.data.params.connections).toBe(`connections[0].parent_id must be the id of a post item (${c[0]} is none)`);
	const missing = await engine.post('/add-relation', { name: 'X', parent_object: 'post', child_object: 'album', connect: [pair(p[0], 99999)] }, as());
	expect(missing.body.data.params.connect).toBe('connect[0].child_id must be the id of a album item (99999 is none)');
	const self = await engine.post('/add-relation', { name: 'X', parent_object: 'post', child_object: 'post', connections: [pair(p[0], p[0])] }, as());
	expect(self.body.data.params.connections).toBe(`connections[0] connects item ${p[0]} with itself`);
	const shape = await engine.post('/add-relation', { name: 'X', parent_object: 'post', child_object: 'page', connections: [{ parent_id: 'one' }] }, as());
	expect(shape.status).toBe(400);
	expect((await engine.get('/get-relations', as())).body.data).toEqual([]);

	// A changed side must fit the stored pairs (409), unless they are given anew.
	const id = (await engine.post('/add-relation', { name: 'Kept', parent_object: 'post', child_object: 'page', connections: [pair(p[0], c[0])] }, as())).body.item_id;
	const moved = await engine.post(`/edit-relation/${id}`, { child_object: 'album' }, as());
	expect(moved.status).toBe(409);
	expect(moved.body).toMatchObject({ code: 'rest_engine_conflict', data: { params: { connections: expect.stringContaining('does not join a post item to a album item') } } });
	const cleared = await engine.post(`/edit-relation/${id}`, { child_object: 'album', connections: [] }, as());
	expect(cleared.body.data).toMatchObject({ child_object: 'album', connections: [] });

	expectWpError(await engine.get('/get-relation/999', as()), 404, 'rest_engine_relation_invalid_id', 'Relation not found.');
	expectWpError(await engine.post('/edit-relation/999', {}, as()), 404, 'rest_engine_relation_invalid_id', 'Relation not found.');
	expectWpError(await engine.call('DELETE', '/delete-relation/some-relation', undefined, as()), 404, 'rest_engine_relation_invalid_id', 'Relation not found.');
	expectWpError(await engine.get('/get-relation/Bad!', as()), 404, 'rest_no_route', 'no route matches GET /engine/v2/get-relation/Bad!');
	await engine.call('DELETE', `/delete-relation/${id}`, undefined, as());
	await engine.call('DELETE', `/delete-post-type/${typeId}`, undefined, as());
});

test('roles: manage_options; anonymous 401, others 403', async () => {
	const calls: [string, string, object?][] = [
		['POST', '/add-relation', { name: 'Nope', parent_object: 'post', child_object: 'page' }],
		['POST', '/edit-relation/1', {}],
		['GET', '/get-relation/1'],
		['GET', '/get-relations'],
		['DELETE', '/delete-relation/1'],
	];
	for (const [method, path, body] of calls) {
		expectWpError(await engine.call(method, path, body, as(u.anonymous)), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await engine.call(method, path, body, as(u.editor)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	}
});
