import { type SiteUser, type SiteUsers, siteSuite, type CmsClient } from '../helpers/content';
import { type Client, expectWpError } from '../helpers/server';

/** builder/v1 design system: globals, variables (batch and watermark), global classes and usage, the stylesheet and its cache. */

let cms: CmsClient;
let u: SiteUsers;
let api: Client;
siteSuite('builder/v1', (site) => ({ cms, u, api: api } = site));

const get = (route: string, user: SiteUser = u.admin) => api.get(route, { headers: user.headers });
const send = (method: string, route: string, body: unknown, user: SiteUser = u.admin) => api.call(method, route, body, { headers: user.headers });
const del = (route: string, user: SiteUser = u.admin) => api.delete(route, { headers: user.headers });

const FORBIDDEN = 'Sorry, you are not allowed to do that.';

/** A write for the administrator only: 401 anonymous, 403 for an editor. */
async function expectAdminOnly(write: (user: SiteUser) => Promise<{ status: number; body: any }>) {
	expectWpError(await write(u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
	expectWpError(await write(u.editor), 403, 'rest_forbidden', FORBIDDEN);
}

describe('globals', () => {
	test('the kit starts with the four system colours and typographies; GET /globals answers both sets', async () => {
		const all = await get('/globals', u.contributor);
		expect(all.status).toBe(200);
		expect(Object.keys(all.body.colors)).toEqual(['primary', 'secondary', 'text', 'accent']);
		expect(all.body.colors.primary).toEqual({ id: 'primary', title: 'Primary', value: '#6EC1E4' });
		expect(all.body.typography.secondary.value).toMatchObject({ typography_font_family: 'Roboto Slab', typography_font_weight: '400' });
		expect((await get('/globals/colors')).body).toEqual(all.body.colors);
		expect((await get('/globals/typography')).body).toEqual(all.body.typography);
	});

	test('a colour is created (201), read, replaced (200) and deleted; a later read sees each change', async () => {
		const created = await send('POST', '/globals/colors/brand1', { title: 'Brand', value: '#112233' });
		expect(created.status).toBe(201);
		expect(created.body).toEqual({ id: 'brand1', title: 'Brand', value: '#112233' });
		expect((await get('/globals/colors/brand1', u.author)).body).toEqual(created.body);

		const replaced = await send('POST', '/globals/colors/brand1', { title: 'Brand dark', value: 'rgba(0, 0, 0, 0.5)' });
		expect(replaced.status).toBe(200);
		expect((await get('/globals/colors')).body.brand1).toEqual({ id: 'brand1', title: 'Brand dark', value: 'rgba(0, 0, 0, 0.5)' });
		expect(Object.keys((await get('/globals')).body.colors)).toEqual(['primary', 'secondary', 'text', 'accent', 'brand1']);

		const deleted = await del('/globals/colors/brand1');
		expect(deleted.body).toEqual({ deleted: true, previous: replaced.body });
		expectWpError(await get('/globals/colors/brand1'), 404, 'rest_global_invalid_id', 'There is no global color with the id "brand1".');
		expectWpError(await del('/globals/colors/brand1'), 404, 'rest_global_invalid_id', 'There is no global color with the id "brand1".');
	});

	test('a system colour can be replaced but not deleted', async () => {
		expect((await send('POST', '/globals/colors/accent', { title: 'Accent', value: '#ABCDEF' })).status).toBe(200);
		expect((await get('/globals/colors/accent')).body.value).toBe('#ABCDEF');
		expectWpError(
			await del('/globals/colors/accent'),
			400,
			'rest_global_system_item',
			'The system global color "accent" cannot be deleted; replace its value instead.',
		);
	});

	test('typography items are validated as the typography control stores them', async () => {
		const value = { typography_typography: 'custom', typography_font_family: 'Inter', typography_font_size: { unit: 'rem', size: 1.5 } };
		expect((await send('POST', '/globals/typography/heading2', { title: 'Heading', value })).status).toBe(201);
		expect((await get('/globals/typography/heading2')).body).toEqual({ id: 'heading2', title: 'Heading', value });

		const bad = await send('POST', '/globals/typography/heading2', { title: 'Heading', value: { typography_font_size: { unit: 'parsec', size: 1 }, color: 'red' } });
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('rest_invalid_param');
		expect(bad.body.data.params.value).toMatch(/value.typography_font_size.unit must be one of|unknown field/);
		expect((await get('/globals/typography/heading2')).body.value).toEqual(value);
		expect((await del('/globals/typography/heading2')).body.deleted).toBe(true);
	});

	test('bad input: missing fields, a colour that is not one, an id outside the pattern', async () => {
		const missing = await send('POST', '/globals/colors/x1', {});
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['title', 'value'] } });
		const notColor = await send('POST', '/globals/colors/x1', { title: 'X', value: 'red; background: url(x)' });
		expect(notColor.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
		expect(notColor.body.data.params.value).toMatch(/^value must be a CSS colour/);
		expectWpError(await get('/globals/colors/a.b'), 404, 'rest_no_route', 'no route matches GET /builder/v1/globals/colors/a.b');
		expect((await get('/globals/colors/x1')).status).toBe(404);
	});

	test('roles: reading needs edit_posts, writing edit_theme_options', async () => {
		expectWpError(await get('/globals', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await get('/globals/colors/primary', u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		await expectAdminOnly((user) => send('POST', '/globals/colors/primary', { title: 'P', value: '#000' }, user));
		await expectAdminOnly((user) => del('/globals/colors/primary', user));
		expect((await get('/globals/colors/primary')).body.value).toBe('#6EC1E4');
	});
});

describe('variables', () => {
	test('create (201), list, update, soft delete and restore; every write raises the watermark', async () => {
		const start = (await get('/variables/list', u.contributor)).body;
		expect(start).toEqual({ variables: {}, total: 0, watermark: 0 });

		const created = await send('POST', '/variables/create', { type: 'global-color-variable', label: 'brand-red', value: '#ff0000' });
		expect(created.status).toBe(201);
		const id = created.body.variable.id;
		expect(created.body).toEqual({ variable: { id, type: 'global-color-variable', label: 'brand-red', value: '#ff0000', order: 1 }, watermark: 1 });

		const updated = await send('PUT', '/variables/update', { id, label: 'brand-crimson', value: '#dc143c', order: 5 });
		expect(updated.body).toEqual({ variable: { id, type: 'global-color-variable', label: 'brand-crimson', value: '#dc143c', order: 5 }, watermark: 2 });

		const deleted = await send('POST', '/variables/delete', { id });
		expect(deleted.body.variable).toMatchObject({ id, deleted: true, deleted_at: expect.any(String) });
		const listed = (await get('/variables/list')).body;
		expect(listed).toMatchObject({ total: 1, watermark: 3 });
		expect(listed.variables[id].deleted).toBe(true);

		expectWpError(await send('PATCH', '/variables/update', { id, label: 'x', value: 'y' }), 400, 'rest_variable_deleted', `Variable "${id}" is deleted: restore it first.`);

		const restored = await send('PATCH', '/variables/restore', { id, value: '#aa0000' });
		expect(restored.body).toEqual({ variable: { id, type: 'global-color-variable', label: 'brand-crimson', value: '#aa0000', order: 5 }, watermark: 4 });
		expectWpError(await send('POST', '/variables/restore', { id }), 400, 'rest_variable_not_deleted', `Variable "${id}" is not deleted.`);
		expect((await get('/variables/list')).body.variables[id].deleted).toBeUndefined();
	});

	test('update, delete and restore answer alike to POST, PUT and PATCH', async () => {
		const created = await send('POST', '/variables/create', { type: 'global-size-variable', label: 'gap-each', value: '4px' });
		const id = created.body.variable.id;
		let watermark = created.body.watermark;
		for (const method of ['POST', 'PUT', 'PATCH']) {
			const value = `${method.length}px`;
			const updated = await send(method, '/variables/update', { id, label: 'gap-each', value });
			expect(updated.body).toEqual({ variable: { id, type: 'global-size-variable', label: 'gap-each', value, order: created.body.variable.order }, watermark: ++watermark });
			const deleted = await send(method, '/variables/delete', { id });
			expect(deleted.status).toBe(200);
			expect(deleted.body).toMatchObject({ variable: { id, deleted: true }, watermark: ++watermark });
			expect((await get('/variables/list')).body.variables[id].deleted).toBe(true);
			const restored = await send(method, '/variables/restore', { id });
			expect(restored.body).toEqual({ variable: { id, type: 'global-size-variable', label: 'gap-each', value, order: created.body.variable.order }, watermark: ++watermark });
			expect((await get('/variables/list')).body).toMatchObject({ watermark, variables: { [id]: { value } } });
		}
		expect((await get('/variables/list')).body.variables[id].deleted).toBeUndefined();
	});

	test('bad input: each required field, the type enum, the label rule, a duplicate label, an unknown id', async () => {
		const missing = await send('POST', '/variables/create', { label: 'a' });
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['type', 'value'] } });
		const wrong = await send('POST', '/variables/create', { type: 'global-shadow-variable', label: 'has space', value: 12 });
		expect(wrong.status).toBe(400);
		expect(Object.keys(wrong.body.data.params)).toEqual(['type', 'label', 'value']);
		expect(wrong.body.data.params.label).toBe('label must contain only letters, digits, hyphens and underscores');
		expect(wrong.body.data.params.value).toBe('value must be a string (got number 12)');
		const injected = await send('POST', '/variables/create', { type: 'global-size-variable', label: 'gap', value: '1px; } body { color: red' });
		expect(injected.body.data.params.value).toBe('value must not contain ; { } < > \\ or comments');

		await send('POST', '/variables/create', { type: 'global-font-variable', label: 'body-font', value: 'Inter' });
		const duplicate = await send('POST', '/variables/create', { type: 'global-font-variable', label: 'BODY-font', value: 'Arial' });
		expect(duplicate.body).toMatchObject({ code: 'rest_variable_duplicate_label', message: 'A variable labelled "body-font" already exists.', data: { status: 400 } });
		expectWpError(await send('POST', '/variables/delete', { id: 'gv-999' }), 404, 'rest_variable_invalid_id', 'There is no variable with the id "gv-999".');
		expect((await send('POST', '/variables/update', { id: 'gv-1' })).body.data.params).toEqual(['label', 'value']);
	});

	test('batch: applies every operation and returns the new watermark; temporary ids of creates are reported', async () => {
		const before = (await get('/variables/list')).body;
		const fontId = Object.entries(before.variables).find(([, v]: [string, any]) => v.label === 'body-font')![0];
		const res = await send('POST', '/variables/batch', {
			watermark: before.watermark,
			operations: [
				{ type: 'create', variable: { id: 'tmp-1', type: 'global-size-variable', label: 'space-m', value: '16px' } },
				{ type: 'update', id: fontId, variable: { value: 'Roboto' } },
				{ type: 'delete', id: fontId },
			],
		});
		expect(res.status).toBe(200);
		expect(res.body.watermark).toBe(before.watermark + 1);
		expect(res.body.results).toEqual([
			{ type: 'create', id: expect.stringMatching(/^gv-\d+$/), temp_id: 'tmp-1', variable: expect.objectContaining({ label: 'space-m', value: '16px' }) },
			{ type: 'update', id: fontId, variable: expect.objectContaining({ value: 'Roboto' }) },
			{ type: 'delete', id: fontId, deleted: true },
		]);
		const after = (await get('/variables/list')).body;
		expect(after.watermark).toBe(res.body.watermark);
		expect(after.variables[fontId]).toMatchObject({ value: 'Roboto', deleted: true });
		expect(after.variables[res.body.results[0].id]).toMatchObject({ label: 'space-m' });
	});

	test('batch: a stale watermark is 409 and nothing is applied', async () => {
		const before = (await get('/variables/list')).body;
		const res = await send('POST', '/variables/batch', {
			watermark: before.watermark - 1,
			operations: [{ type: 'create', variable: { type: 'global-size-variable', label: 'never', value: '1px' } }],
		});
		expect(res.status).toBe(409);
		expect(res.body).toEqual({
			code: 'rest_variables_watermark_mismatch',
			message: `The variables changed since watermark ${before.watermark - 1} (now ${before.watermark}): reload them and try again.`,
			data: { status: 409, current_watermark: before.watermark },
		});
		expect((await get('/variables/list')).body).toEqual(before);
	});

	test('batch: one failing operation applies none of them, and says which failed', async () => {
		const before = (await get('/variables/list')).body;
		const res = await send('POST', '/variables/batch', {
			watermark: before.watermark,
			operations: [
				{ type: 'create', variable: { id: 'tmp-2', type: 'global-size-variable', label: 'space-l', value: '24px' } },
				{ type: 'update', id: 'gv-404', variable: { value: '1px' } },
				{ type: 'create', variable: { id: 'tmp-3', type: 'global-size-variable', label: 'space-m', value: '2px' } },
			],
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			code: 'rest_variables_batch_failed',
			message: '2 operation(s) of the batch failed; nothing was applied.',
			data: {
				status: 400,
				errors: {
					'gv-404': { status: 404, code: 'rest_variable_invalid_id', message: 'There is no variable with the id "gv-404".' },
					'tmp-3': { status: 400, code: 'rest_variable_duplicate_label', message: 'A variable labelled "space-m" already exists.' },
				},
			},
		});
		expect((await get('/variables/list')).body).toEqual(before);
	});

	test('batch: bad shapes name the parameter', async () => {
		const missing = await send('POST', '/variables/batch', {});
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['watermark', 'operations'] } });
		const badType = await send('POST', '/variables/batch', { watermark: 0, operations: [{ type: 'rename', id: 'x' }] });
		expect(badType.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { operations: 'operations[0].type must be one of: "create", "update", "delete", "restore"' } } });
		const badWatermark = await send('POST', '/variables/batch', { watermark: 'latest', operations: [{ type: 'delete', id: 'x' }] });
		expect(badWatermark.body.data.params.watermark).toBe('watermark must be an integer');
	});

	test('roles: reading needs edit_posts, writing edit_theme_options', async () => {
		expectWpError(await get('/variables/list', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await get('/variables/list', u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		const body = { type: 'global-size-variable', label: 'editor-var', value: '1px' };
		await expectAdminOnly((user) => send('POST', '/variables/create', body, user));
		await expectAdminOnly((user) => send('POST', '/variables/batch', { watermark: 0, operations: [{ type: 'delete', id: 'gv-1' }] }, user));
	});
});

describe('global classes', () => {
	const cls = (id: string, label: string, color = 'red') => ({
		id,
		type: 'class',
		label,
		variants: [{ meta: { breakpoint: 'desktop', state: null }, props: { color: { $$type: 'color', value: color } } }],
	});

	test('PUT applies the changes and the order; GET reads them back', async () => {
		expect((await get('/global-classes', u.contributor)).body).toEqual({ data: {}, meta: { order: [] } });
		const put = await send('PUT', '/global-classes', {
			changes: { added: ['g-one', 'g-two'], deleted: [], modified: [] },
			items: { 'g-one': cls('g-one', 'One'), 'g-two': cls('g-two', 'Two') },
			order: ['g-two', 'g-one'],
		});
		expect(put.status).toBe(200);
		const read = await get('/global-classes');
		expect(read.body).toEqual(put.body);
		expect(read.body.meta.order).toEqual(['g-two', 'g-one']);
		expect(read.body.data['g-one']).toEqual({ ...cls('g-one', 'One'), variants: [{ meta: { breakpoint: 'desktop', state: null }, props: { color: { $$type: 'color', value: 'red' } } }] });

		// Only the named changes apply: g-two is left as stored although the client sent an older copy.
		const second = await send('PUT', '/global-classes', {
			changes: { added: ['g-three'], deleted: ['g-one'], modified: [] },
			items: { 'g-two': cls('g-two', 'Stale'), 'g-three': cls('g-three', 'Three', 'blue') },
			order: ['g-three'],
		});
		expect(second.body.meta.order).toEqual(['g-two', 'g-three']);
		expect(Object.keys(second.body.data).sort()).toEqual(['g-three', 'g-two']);
		expect(second.body.data['g-two'].label).toBe('Two');
	});

	test('the changes must agree with the items and the stored classes, else 400 naming the parameter', async () => {
		const before = (await get('/global-classes')).body;
		const bad = await send('PUT', '/global-classes', {
			changes: { added: ['g-two', 'g-ghost'], deleted: ['g-three', 'g-none'], modified: ['g-new'] },
			items: { 'g-two': cls('g-two', 'Two'), 'g-three': cls('g-three', 'Three'), 'g-new': cls('g-new', 'New') },
			order: [],
		});
		expect(bad.status).toBe(400);
		expect(bad.body.message).toBe('Invalid parameter(s): changes');
		expect(bad.body.data.params.changes.split('; ')).toEqual([
			'changes.added names "g-two", which is already a class (list it in modified)',
			'changes.added names "g-ghost", which is not in items',
			'changes.modified names "g-new", which is not a class (list it in added)',
			'changes.deleted names "g-three", which is still in items',
			'changes.deleted names "g-none", which is not a class',
		]);
		const keyMismatch = await send('PUT', '/global-classes', { changes: { added: ['g-x'], deleted: [], modified: [] }, items: { 'g-x': cls('g-y', 'X') }, order: [] });
		expect(keyMismatch.body.data.params.items).toBe('items.g-x.id is "g-y", it must be the item\'s key "g-x"');
		const badOrder = await send('PUT', '/global-classes', { changes: { added: [], deleted: [], modified: [] }, items: {}, order: ['g-unknown'] });
		expect(badOrder.body.data.params.order).toBe('"g-unknown" is not a class');
		const missing = await send('PUT', '/global-classes', { items: {} });
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['changes', 'order'] } });
		const badItem = await send('PUT', '/global-classes', { changes: { added: ['1bad'], deleted: [], modified: [] }, items: { '1bad': { id: '1bad', type: 'style', label: '', variants: {} } }, order: [] });
		expect(badItem.body.code).toBe('rest_invalid_param');
		expect(badItem.body.data.params.items).toMatch(/^items.1bad.id must be a CSS class name/);
		const badContext = await get('/global-classes?context=draft');
		expect(badContext.body.data.params.context).toBe('context must be one of: "frontend", "preview"');
		expect((await get('/global-classes')).body).toEqual(before);
	});

	test('preview context: saved apart, falls back to the frontend set, and publishing resets it', async () => {
		const frontend = (await get('/global-classes')).body;
		expect((await get('/global-classes?context=preview')).body).toEqual(frontend);
		await send('PUT', '/global-classes?context=preview', { changes: { added: ['g-draft'], deleted: [], modified: [] }, items: { 'g-draft': cls('g-draft', 'Draft') }, order: [] });
		expect(Object.keys((await get('/global-classes?context=preview')).body.data)).toContain('g-draft');
		expect(Object.keys((await get('/global-classes')).body.data)).not.toContain('g-draft');
		await send('PUT', '/global-classes', { changes: { added: [], deleted: [], modified: ['g-two'] }, items: { 'g-two': cls('g-two', 'Two', 'green') }, order: [] });
		expect(Object.keys((await get('/global-classes?context=preview')).body.data)).not.toContain('g-draft');
	});

	test('usage is counted from the builder data of published posts and pages (drafts in the preview context)', async () => {
		const doc = (classes: string[][]) =>
			JSON.stringify([
				{
					id: 'c1',
					elType: 'e-flexbox',
					settings: { classes: { $$type: 'classes', value: classes[0] } },
					elements: [{ id: 'h1', elType: 'widget', widgetType: 'e-heading', settings: { classes: { $$type: 'classes', value: classes[1] } }, elements: [] }],
				},
			]);
		const post = await cms.create('/posts', u.admin, { title: 'Styled post', status: 'publish', meta: { _builder_edit_mode: 'builder', _builder_data: doc([['g-two'], ['g-two', 'g-three', 'not-a-class']]) } });
		const page = await cms.create('/pages', u.admin, { title: 'Styled page', status: 'publish', meta: { _builder_data: doc([['g-three'], []]) } });
		await cms.create('/pages', u.admin, { title: 'Draft page', status: 'draft', meta: { _builder_data: doc([['g-two'], []]) } });
		await cms.create('/posts', u.admin, { title: 'Broken', status: 'publish', meta: { _builder_data: '{not json' } });

		const usage = await get('/global-classes/usage', u.contributor);
		expect(usage.status).toBe(200);
		expect(usage.body.data['g-two']).toEqual({ total: 2, posts: [{ id: post.id, title: 'Styled post', type: 'post', status: 'publish', total: 2, elements: expect.arrayContaining(['c1', 'h1']) }] });
		expect(usage.body.data['g-three']).toEqual({
			total: 2,
			posts: [
				{ id: post.id, title: 'Styled post', type: 'post', status: 'publish', total: 1, elements: ['h1'] },
				{ id: page.id, title: 'Styled page', type: 'page', status: 'publish', total: 1, elements: ['c1'] },
			],
		});
		expect(usage.body.meta).toEqual({ total: 4, element_types: { 'e-flexbox': 2, 'e-heading': 2 } });

		expect((await get('/global-classes/usage?context=preview')).body.data['g-two'].total).toBe(3);

		// The usage follows the content: unpublishing the post removes its uses.
		await cms.post(`/posts/${post.id}`, u.admin, { status: 'draft' });
		expect((await get('/global-classes/usage')).body.data['g-two']).toEqual({ total: 0, posts: [] });
	});

	test('preview usage names only the posts the caller may read: not others’ drafts and private items', async () => {
		const data = JSON.stringify([{ id: 'x1', elType: 'e-flexbox', settings: { classes: { $$type: 'classes', value: ['g-two'] } }, elements: [] }]);
		const draft = await cms.create('/posts', u.author2, { title: 'Ada secret draft', status: 'draft', meta: { _builder_data: data } });
		const hidden = await cms.create('/posts', u.admin, { title: 'Admin private plan', status: 'private', meta: { _builder_data: data } });
		const named = async (user: SiteUser) => {
			const usage = await get('/global-classes/usage?context=preview', user);
			expect(usage.status).toBe(200);
			return usage.body.data['g-two'].posts.map((p: { id: number }) => p.id).filter((id: number) => id === draft.id || id === hidden.id);
		};
		expect(await named(u.contributor)).toEqual([]);
		expect(await named(u.author)).toEqual([]);
		expect(await named(u.author2)).toEqual([draft.id]);
		expect(await named(u.editor)).toEqual([draft.id, hidden.id]);
		// Nor counted: the totals are those of what the caller sees.
		const seen = (await get('/global-classes/usage?context=preview', u.contributor)).body.data['g-two'];
		expect(seen.total).toBe(seen.posts.reduce((sum: number, p: { total: number }) => sum + p.total, 0));
	});

	test('roles: reading needs edit_posts, writing edit_theme_options', async () => {
		expectWpError(await get('/global-classes', u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await get('/global-classes/usage', u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		await expectAdminOnly((user) => send('PUT', '/global-classes', { changes: { added: [], deleted: [], modified: [] }, items: {}, order: [] }, user));
	});
});

describe('design-system stylesheet and cache', () => {
	test('the stylesheet holds the globals, variables and classes; it is kept until the cache is cleared or the data changes', async () => {
		await del('/cache');
		const first = await send('POST', '/design-system-sync/stylesheet', undefined, u.contributor);
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ regenerated: true, etag: expect.stringMatching(/^[0-9a-f]{40}$/), generation: expect.any(Number) });
		const css: string = first.body.css;
		expect(css).toContain('--builder-global-color-primary: #6EC1E4;');
		expect(css).toContain('--builder-global-color-accent: #ABCDEF;');
		expect(css).toContain('--builder-global-typography-primary-font-family: "Roboto";');
		expect(css).toContain('--builder-global-typography-primary-font-weight: 600;');
		expect(css).toContain('--space-m: 16px;');
		expect(css).not.toContain('body-font'); // deleted variables are left out
		expect(css).toContain('.g-two { color: green; }');

		const again = await send('POST', '/design-system-sync/stylesheet', {});
		expect(again.body).toEqual({ ...first.body, regenerated: false });

		// DELETE /cache clears it: the next call generates it again.
		expect((await del('/cache')).body).toEqual({ deleted: true, cleared: 1 });
		const regenerated = await send('POST', '/design-system-sync/stylesheet', {});
		expect(regenerated.body).toMatchObject({ regenerated: true, etag: first.body.etag, css });
		expect(regenerated.body.generation).toBeGreaterThan(first.body.generation);
		expect((await del('/cache')).body).toEqual({ deleted: true, cleared: 1 });
		expect((await del('/cache')).body).toEqual({ deleted: true, cleared: 0 });
	});

	test('a change of a global, a variable or a class shows in the next stylesheet', async () => {
		await send('POST', '/design-system-sync/stylesheet', {});
		await send('POST', '/globals/colors/primary', { title: 'Primary', value: '#010203' });
		const list = (await get('/variables/list')).body;
		const spaceId = Object.entries(list.variables).find(([, v]: [string, any]) => v.label === 'space-m')![0];
		await send('POST', '/variables/update', { id: spaceId, label: 'space-m', value: '18px' });
		await send('PUT', '/global-classes', {
			changes: { added: ['g-var'], deleted: [], modified: [] },
			items: {
				'g-var': {
					id: 'g-var',
					type: 'class',
					label: 'Uses a variable',
					variants: [
						{ meta: { breakpoint: 'mobile', state: 'hover' }, props: { marginTop: { $$type: 'global-size-variable', value: spaceId }, padding: { $$type: 'size', value: { size: 4, unit: 'px' } } } },
					],
				},
			},
			order: [],
		});
		const sheet = (await send('POST', '/design-system-sync/stylesheet', {})).body;
		expect(sheet.regenerated).toBe(true);
		expect(sheet.css).toContain('--builder-global-color-primary: #010203;');
		expect(sheet.css).toContain('--space-m: 18px;');
		expect(sheet.css).toContain('@media (max-width: 767px) { .g-var:hover { margin-top: var(--space-m); padding: 4px; } }');
	});

	test('roles: the stylesheet needs edit_posts, clearing the cache manage_options', async () => {
		expectWpError(await send('POST', '/design-system-sync/stylesheet', {}, u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await send('POST', '/design-system-sync/stylesheet', {}, u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		await expectAdminOnly((user) => del('/cache', user));
	});
});

test('hostile input is never a 500 and keeps the WordPress error shape', async () => {
	const values: unknown[] = [null, Number.MAX_VALUE, -1, '', 'x'.repeat(5000), [], {}, [null], { toString: 1 }, { length: { toString: 1 } }, { constructor: { a: 1 } }, true];
	const routes: Array<[string, string, (v: unknown) => unknown]> = [
		['POST', '/globals/colors/h1', (v) => ({ title: v, value: v })],
		['POST', '/globals/typography/h1', (v) => ({ title: 'T', value: v })],
		['POST', '/variables/create', (v) => ({ type: v, label: v, value: v })],
		['PATCH', '/variables/restore', (v) => ({ id: v, label: v })],
		['POST', '/variables/batch', (v) => ({ watermark: v, operations: [v, { type: 'update', id: 'gv-1', variable: v }] })],
		['PUT', '/global-classes', (v) => ({ changes: { added: [v], deleted: [], modified: [] }, items: { a: v, toString: v }, order: [v] })],
		['PUT', '/global-classes', (v) => ({ changes: v, items: v, order: v })],
		['POST', '/settings/cpt_support', (v) => ({ value: v })],
		['POST', '/kit-elements-defaults/heading', (v) => ({ settings: v })],
		['POST', '/favorites/widgets', (v) => ({ favorite: v })],
		['PATCH', '/user-data/current-user', (v) => ({ suppressedMessages: v })],
	];
	for (const [method, route, body] of routes) {
		for (const value of values) {
			const res = await send(method, route, body(value));
			expect({ route, value, status: res.status < 500 }).toEqual({ route, value, status: true });
			if (res.status >= 400) expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String), data: { status: res.status } });
		}
	}
	for (const query of ['context[]=x', 'context[toString]=1', 'search[]=a', 'page=abc&per_page=1e9']) {
		for (const route of ['/global-classes', '/global-classes/usage', '/favorites']) expect((await get(`${route}?${query}`)).status).toBeLessThan(500);
	}
	expect((await send('POST', '/design-system-sync/stylesheet', {})).status).toBe(200);
});
