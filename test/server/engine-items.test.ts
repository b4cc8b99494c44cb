import { type SiteUsers, siteSuite } from '../helpers/content';
import { type Client, expectWpError } from '../helpers/server';

/** engine/v2 generic items (the engine's glossaries): their lifecycle, and search-glossary-fields reading them. */

let u: SiteUsers;
let engine: Client;
siteSuite('engine/v2', (site) => ({ u, api: engine } = site));

const as = (user = u.admin) => ({ headers: user.headers });

test('add, get, list, edit and delete an item; search-glossary-fields reads its options', async () => {
	const res = await engine.post('/add-item', { name: 'Sizes', source: 'manual', fields: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }, { value: 42 }] }, as());
	expect(res.status).toBe(200);
	const id = res.body.item_id;
	expect(res.body).toEqual({
		success: true,
		item_id: expect.any(Number),
		data: { id, name: 'Sizes', source: 'manual', fields: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }, { value: '42', label: '42' }] },
	});
	expect((await engine.get(`/get-item/${id}`, as())).body).toEqual({ success: true, data: res.body.data });
	const search = await engine.get(`/search-glossary-fields?glossary_id=${id}&query=med`, as(u.editor));
	expect(search.body).toEqual([{ value: 'm', label: 'Medium' }]);

	const renamed = await engine.post(`/edit-item/${id}`, { name: 'Shirt sizes' }, as());
	expect(renamed.body.data).toEqual({ ...res.body.data, name: 'Shirt sizes' });
	const replaced = await engine.post(`/edit-item/${id}`, { fields: [{ value: 'xl', label: 'Extra large', is_checked: true }] }, as());
	expect(replaced.body.data).toEqual({ id, name: 'Shirt sizes', source: 'manual', fields: [{ value: 'xl', label: 'Extra large', is_checked: true }] });
	expect((await engine.get(`/search-glossary-fields?glossary_id=${id}`, as(u.editor))).body).toEqual([{ value: 'xl', label: 'Extra large' }]);

	const second = (await engine.post('/add-item', { name: 'Colors' }, as())).body.item_id;
	const list = await engine.get('/get-items', as());
	expect(list.body.data).toEqual([replaced.body.data, { id: second, name: 'Colors', fields: [] }]);

	expect((await engine.call('DELETE', `/delete-item/${id}`, undefined, as())).body).toEqual({ success: true });
	expectWpError(await engine.get(`/get-item/${id}`, as()), 404, 'rest_engine_item_invalid_id', 'Item not found.');
	expect((await engine.get(`/search-glossary-fields?glossary_id=${id}`, as(u.editor))).status).toBe(404);
	await engine.call('DELETE', `/delete-item/${second}`, undefined, as());
	expect((await engine.get('/get-items', as())).body.data).toEqual([]);
});

test('bad input: clear errors, nothing stored', async () => {
	const noName = await engine.post('/add-item', { fields: [] }, as());
	expect(noName.body).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['name'] } });
	const repeated = await engine.post('/add-item', { name: 'X', fields: [{ value: 'a' }, { value: 'a', label: 'A' }] }, as());
	expect(repeated.status).toBe(400);
	expect(repeated.body.data.params.fields).toBe('fields must give each value once (repeated: a)');
	const empty = await engine.post('/add-item', { name: 'X', fields: [{ value: '' }] }, as());
	expect(empty.status).toBe(400);
	expect(empty.body.data.params.fields).toBeDefined();
	const shape = await engine.post('/add-item', { name: 'X', fields: 'a,b' }, as());
	expect(shape.status).toBe(400);
	expect((await engine.get('/get-items', as())).body.data).toEqual([]);

	const id = (await engine.post('/add-item', { name: 'Kept', fields: [{ value: 'a' }] }, as())).body.item_id;
	expect((await engine.post(`/edit-item/${id}`, { name: '', fields: [] }, as())).status).toBe(400);
	expect((await engine.get(`/get-item/${id}`, as())).body.data).toEqual({ id, name: 'Kept', fields: [{ value: 'a', label: 'a' }] });

	expectWpError(await engine.get('/get-item/999', as()), 404, 'rest_engine_item_invalid_id', 'Item not found.');
	expectWpError(await engine.post('/edit-item/999', {}, as()), 404, 'rest_engine_item_invalid_id', 'Item not found.');
	expectWpError(await engine.call('DELETE', '/delete-item/some-item', undefined, as()), 404, 'rest_engine_item_invalid_id', 'Item not found.');
	expectWpError(await engine.get('/get-item/Bad!', as()), 404, 'rest_no_route', 'no route matches GET /engine/v2/get-item/Bad!');
	await engine.call('DELETE', `/delete-item/${id}`, undefined, as());
});

test('roles: manage_options; anonymous 401, others 403', async () => {
	const calls: [string, string, object?][] = [
		['POST', '/add-item', { name: 'Nope' }],
		['POST', '/edit-item/1', {}],
		['GET', '/get-item/1'],
		['GET', '/get-items'],
		['DELETE', '/delete-item/1'],
	];
	for (const [method, path, body] of calls) {
		expectWpError(await engine.call(method, path, body, as(u.anonymous)), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await engine.call(method, path, body, as(u.editor)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	}
});
