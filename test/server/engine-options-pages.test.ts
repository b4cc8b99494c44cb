import { type SiteUsers, siteSuite } from '../helpers/content';
import { type Client, expectWpError } from '../helpers/server';

/** engine/v2 options pages: their lifecycle, and their values stored, validated and read back. */

let u: SiteUsers;
let engine: Client;
siteSuite('engine/v2', (site) => ({ u, api: engine } = site));

const as = (user = u.admin) => ({ headers: user.headers });
const add = async (body: object) => {
	const res = await engine.post('/add-options-page', body, as());
	if (res.status !== 200) throw new Error(`add-options-page: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body.item_id as number;
};

const FIELDS = [
	{ name: 'phone', type: 'text', is_required: true },
	{ name: 'opens', type: 'time', default_val: '09:00' },
	{ name: 'days', type: 'checkbox', options: [{ key: 'mon' }, { key: 'tue' }] },
];

test('add, get, list, edit and delete an options page; values stored and read back', async () => {
	const res = await engine.post('/add-options-page', { general_settings: { name: 'Shop Settings', icon: 'dashicons-store' }, meta_fields: FIELDS }, as());
	expect(res.status).toBe(200);
	expect(res.body).toMatchObject({
		success: true,
		item_id: expect.any(Number),
		data: {
			general_settings: { name: 'Shop Settings', slug: 'shop-settings', menu_name: 'Shop Settings', icon: 'dashicons-store' },
			meta_fields: [{ name: 'phone' }, { name: 'opens' }, { name: 'days' }],
			// No values yet: defaults and empty values.
			values: { phone: '', opens: '09:00', days: [] },
		},
	});
	const id = res.body.item_id;
	expect((await engine.get(`/get-options-page/${id}`, as())).body).toEqual({ success: true, data: res.body.data });

	const saved = await engine.post(`/edit-options-page/${id}`, { values: { phone: '+1 555', days: ['mon', 'mon', 'tue'], unknown: 1 } }, as());
	expect(saved.status).toBe(200);
	expect(saved.body.data.values).toEqual({ phone: '+1 555', opens: '09:00', days: ['mon', 'tue'] });
	const again = await engine.get(`/get-options-page/${id}`, as());
	expect(again.body.data.values).toEqual({ phone: '+1 555', opens: '09:00', days: ['mon', 'tue'] });
	// A partial write keeps the other values; null removes one (back to its default).
	const partial = await engine.post(`/edit-options-page/${id}`, { values: { opens: '10:30', days: null } }, as());
	expect(partial.body.data.values).toEqual({ phone: '+1 555', opens: '10:30', days: [] });

	// A new slug: the values follow the page.
	const renamed = await engine.post(`/edit-options-page/${id}`, { general_settings: { slug: 'shop' } }, as());
	expect(renamed.body.data).toMatchObject({ general_settings: { name: 'Shop Settings', slug: 'shop', icon: 'dashicons-store' }, values: { phone: '+1 555' } });

	const list = await engine.get('/get-options-pages', as());
	expect(list.body.data).toEqual([renamed.body.data]);

	// Delete with action none keeps the values for a page of the same slug.
	expect((await engine.call('DELETE', `/delete-options-page/${id}`, undefined, as())).body).toEqual({ success: true });
	expectWpError(await engine.get(`/get-options-page/${id}`, as()), 404, 'rest_engine_options_page_invalid_id', 'Options page not found.');
	const back = await add({ general_settings: { name: 'Shop', slug: 'shop' }, meta_fields: FIELDS });
	expect((await engine.get(`/get-options-page/${back}`, as())).body.data.values.phone).toBe('+1 555');
	// With action delete they go too.
	await engine.call('DELETE', `/delete-options-page/${back}?action=delete`, undefined, as());
	const fresh = await add({ general_settings: { name: 'Shop', slug: 'shop' }, meta_fields: FIELDS, values: { phone: '1' } });
	expect((await engine.get(`/get-options-page/${fresh}`, as())).body.data.values).toEqual({ phone: '1', opens: '09:00', days: [] });
	await engine.call('DELETE', `/delete-options-page/${fresh}`, { action: 'delete' }, as());
	expect((await engine.get('/get-options-pages', as())).body.data).toEqual([]);
});

test('bad input: clear errors, nothing stored', async () => {
	const id = await add({ general_settings: { name: 'Contact', slug: 'contact' }, meta_fields: FIELDS, values: { phone: '42' } });

	const time = await engine.post(`/edit-options-page/${id}`, { values: { opens: '25:00' } }, as());
	expect(time.status).toBe(400);
	expect(time.body).toMatchObject({ code: 'rest_invalid_param', message: 'Invalid parameter(s): values', data: { params: { values: 'values.opens must be a time such as 09:30' } } });
	const days = await engine.post(`/edit-options-page/${id}`, { values: { days: ['sun'] } }, as());
	expect(days.body.data.params.values).toBe('values.days has unknown option(s) sun; each must be one of: "mon", "tue"');
	const emptied = await engine.post(`/edit-options-page/${id}`, { values: { phone: '' } }, as());
	expect(emptied.body.data.params.values).toBe('values.phone is required and must not be empty');
	const missing = await engine.post('/add-options-page', { general_settings: { name: 'Other' }, meta_fields: FIELDS, values: { opens: '08:00' } }, as());
	expect(missing.body.data.params.values).toBe('values.phone is required');
	// A failed edit changes nothing, its settings included.
	const mixed = await engine.post(`/edit-options-page/${id}`, { general_settings: { name: 'Changed' }, values: { opens: 'x' } }, as());
	expect(mixed.status).toBe(400);
	const kept = await engine.get(`/get-options-page/${id}`, as());
	expect(kept.body.data).toMatchObject({ general_settings: { name: 'Contact' }, values: { phone: '42', opens: '09:00' } });

	const slug = await engine.post('/add-options-page', { general_settings: { name: 'X', slug: 'Bad Slug' } }, as());
	expect(slug.body.data.params.general_settings).toBe('general_settings.slug must be 1 to 64 lowercase letters, digits, hyphens or underscores');
	const noName = await engine.post('/add-options-page', { general_settings: {} }, as());
	expect(noName.status).toBe(400);
	const twice = await engine.post('/add-options-page', { general_settings: { name: 'Contact' } }, as());
	expect(twice.status).toBe(409);
	expect(twice.body).toMatchObject({ code: 'rest_engine_conflict', message: 'An options page with the slug contact already exists.', data: { params: { general_settings: expect.any(String) } } });
	const other = await add({ general_settings: { name: 'Other' } });
	expect((await engine.post(`/edit-options-page/${other}`, { general_settings: { slug: 'contact' } }, as())).status).toBe(409);
	const action = await engine.call('DELETE', `/delete-options-page/${id}?action=move`, undefined, as());
	expect(action.status).toBe(400);
	expect(action.body.data.params.action).toBeDefined();
	expect((await engine.get('/get-options-pages', as())).body.data.map((p: { id: number }) => p.id)).toEqual([id, other]);

	expectWpError(await engine.get('/get-options-page/999', as()), 404, 'rest_engine_options_page_invalid_id', 'Options page not found.');
	expectWpError(await engine.post('/edit-options-page/999', {}, as()), 404, 'rest_engine_options_page_invalid_id', 'Options page not found.');
	expectWpError(await engine.call('DELETE', '/delete-options-page/shop', undefined, as()), 404, 'rest_engine_options_page_invalid_id', 'Options page not found.');
	expectWpError(await engine.get('/get-options-page/contact', as()), 404, 'rest_no_route', 'no route matches GET /engine/v2/get-options-page/contact');
	expectWpError(await engine.call('DELETE', '/delete-options-page/X!', undefined, as()), 404, 'rest_no_route', 'no route matches DELETE /engine/v2/delete-options-page/X!');
	await engine.call('DELETE', `/delete-options-page/${id}?action=delete`, undefined, as());
	await engine.call('DELETE', `/delete-options-page/${other}?action=delete`, undefined, as());
});

test('roles: manage_options; anonymous 401, others 403', async () => {
	const calls: [string, string, object?][] = [
		['POST', '/add-options-page', { general_settings: { name: 'Nope' } }],
		['POST', '/edit-options-page/1', {}],
		['GET', '/get-options-page/1'],
		['GET', '/get-options-pages'],
		['DELETE', '/delete-options-page/1'],
	];
	for (const [method, path, body] of calls) {
		expectWpError(await engine.call(method, path, body, as(u.anonymous)), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await engine.call(method, path, body, as(u.editor)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	}
});
