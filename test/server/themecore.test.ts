import type { App } from '../../server/src/app';
import { SETTING_KEY } from '../../server/src/site/settings';
import { siteSuite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { client, type Client, expectWpError } from '../helpers/server';

/** `themecore/v2` over real HTTP: templates, conditions, page templates, the reads of site state, settings and syncs. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let tc: Client;
siteSuite('themecore/v2', (site) => ({ server, cms, u, api: tc } = site));

const call = (route: string, user: SiteUser, body: unknown = {}) => tc.post(`/${route}`, body, { headers: user.headers });

/** Calls a route as the administrator and returns its answer, failing on anything but 200. */
async function ok(route: string, body: unknown = {}) {
	const res = await call(route, u.admin, body);
	if (res.status !== 200) throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body;
}

const createTemplate = async (body: Record<string, unknown>) => (await ok('create-template', body)).data.template;

const FORBIDDEN = 'Sorry, you are not allowed to do that.';

/** Anonymous 401, the role below 403, the role at `allowed` passes. */
async function expectRoles(route: string, body: unknown, denied: SiteUser[]) {
	expectWpError(await call(route, u.anonymous, body), 401, 'rest_forbidden', FORBIDDEN);
	for (const user of denied) expectWpError(await call(route, user, body), 403, 'rest_forbidden', FORBIDDEN);
}

test('the namespace index lists every route, each a POST with its arguments', async () => {
	const res = await client(server.url, '/wp-json').get('/themecore/v2');
	expect(res.status).toBe(200);
	const routes = Object.keys(res.body.routes).filter((r) => r !== '/themecore/v2').sort();
	expect(routes).toEqual(
		[
			'copy-page-template', 'create-page-template', 'create-template', 'delete-page-template', 'get-page-template-conditions',
			'get-page-template-list', 'get-page-templates', 'get-post-categories', 'get-post-tags', 'get-post-types', 'get-posts',
			'get-static-pages', 'get-structure-template-list', 'get-tax-terms', 'get-template-conditions', 'get-wp-options',
			'plugin-settings', 'sync-conditions-option', 'sync-templates', 'update-page-template-data', 'update-template-conditions',
			'update-template-data',
		].map((name) => `/themecore/v2/${name}`),
	);
	for (const route of routes) expect(res.body.routes[route].methods).toEqual(['POST']);
	expect(Object.keys(res.body.routes['/themecore/v2/create-template'].endpoints[0].args)).toEqual(['name', 'type', 'content_type']);
});

describe('templates', () => {
	test('create-template: a published content item of its own type, named and typed, with empty builder data', async () => {
		const body = await ok('create-template', { name: 'Main header', type: 'themecore-header', content_type: 'builder' });
		expect(body).toMatchObject({ success: true, message: 'Template has been created' });
		const template = body.data.template;
		expect(body.data.newTemplateId).toBe(template.id);
		expect(template).toMatchObject({ title: 'Main header', type: 'themecore-header', content_type: 'builder', status: 'publish', author: u.admin.id, conditions: [], data: [] });
		const row = server.services.store.content.get(template.id)!;
		expect(row).toMatchObject({ type: 'themecore_template', status: 'publish', slug: 'main-header' });
		expect(JSON.parse(row.meta)).toMatchObject({ _builder_template_type: 'themecore-not-supported', _builder_edit_mode: 'builder', _builder_data: '[]', _themecore_template_type: 'themecore-header' });
		// Not a post type of cms/v2.
		expectWpError(await cms.get(`/posts/${template.id}`, u.admin), 404, 'rest_post_invalid_id', 'Invalid post ID.');
		expectWpError(await cms.get(`/pages/${template.id}`, u.admin), 404, 'rest_post_invalid_id', 'Invalid post ID.');
	});

	test('create-template defaults: a header named after its type and id, edited in the block editor', async () => {
		const template = await createTemplate({});
		expect(template).toMatchObject({ title: `Header Template #${template.id}`, type: 'themecore-header', content_type: 'default' });
	});

	test('create-template: bad type or content type name the parameter; editors and below may not', async () => {
		const res = await call('create-template', u.admin, { type: 'themecore-sidebar', content_type: 'word' });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('rest_invalid_param');
		expect(Object.keys(res.body.data.params)).toEqual(['type', 'content_type']);
		expect(res.body.data.params.type).toContain('type must be one of: "themecore-header"');
		await expectRoles('create-template', { name: 'x' }, [u.editor, u.author, u.subscriber]);
	});

	test('update-template-data: title, builder data, status and content type change and read back', async () => {
		const template = await createTemplate({ name: 'Footer', type: 'themecore-footer' });
		const elements = [{ id: 'a1', elType: 'container', elements: [{ id: 'b2', widgetType: 'heading', settings: { title: 'Hi' } }] }];
		const body = await ok('update-template-data', { template_id: template.id, template_data: { title: 'Site footer', content: elements, content_type: 'builder' } });
		expect(body.data).toMatchObject({ id: template.id, title: 'Site footer', data: elements, content_type: 'builder' });
		const meta = JSON.parse(server.services.store.content.get(template.id)!.meta);
		expect(JSON.parse(meta._builder_data)).toEqual(elements);
		expect(meta._builder_edit_mode).toBe('builder');
		const listed = (await ok('get-structure-template-list', { type: 'themecore-footer' })).data;
		expect(listed.find((t: { id: number }) => t.id === template.id)).toMatchObject({ title: 'Site footer', data: elements });
	});

	test('update-template-data errors: missing id or data, unknown id, empty or unknown data fields, roles', async () => {
		const template = await createTemplate({ type: 'themecore-footer' });
		const missing = await call('update-template-data', u.admin, { template_data: { title: 'x' } });
		expect(missing.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): template_id', data: { status: 400, params: ['template_id'] } });
		expect((await call('update-template-data', u.admin, { template_id: template.id })).body.message).toBe('Missing parameter(s): template_data');
		expectWpError(await call('update-template-data', u.admin, { template_id: 999999, template_data: { title: 'x' } }), 404, 'rest_themecore_template_invalid_id', 'Invalid template ID.');
		const post = await cms.create('/posts', u.admin, { title: 'A post' });
		expectWpError(await call('update-template-data', u.admin, { template_id: post.id, template_data: { title: 'x' } }), 404, 'rest_themecore_template_invalid_id', 'Invalid template ID.');
		const empty = await call('update-template-data', u.admin, { template_id: template.id, template_data: {} });
		expect(empty.body.data.params.template_data).toBe('template_data must set at least one of: title, content, status, content_type');
		const unknown = await call('update-template-data', u.admin, { template_id: template.id, template_data: { colour: 'red' } });
		expect(unknown.body.data.params.template_data).toBe('template_data has unknown field(s): colour');
		const badId = await call('update-template-data', u.admin, { template_id: 'abc', template_data: { title: 'x' } });
		expect(badId.body.data.params.template_id).toBe('template_id must be an integer');
		await expectRoles('update-template-data', { template_id: template.id, template_data: { title: 'x' } }, [u.editor, u.contributor]);
		expect(server.services.store.content.get(template.id)!.title).toBe(`Footer Template #${template.id}`);
	});
});

describe('conditions', () => {
	test('update and get: every kind of condition, checked against the registry and the content, indexed', async () => {
		const header = await createTemplate({ name: 'Blog header' });
		const post = await cms.create('/posts', u.admin, { title: 'Hello', status: 'publish' });
		const page = await cms.create('/pages', u.admin, { title: 'About', status: 'publish' });
		const conditions = [
			{ include: true, group: 'entire' },
			{ include: 'false', group: 'singular', subGroup: 'single-page', subGroupValue: [page.id] },
			{ group: 'singular', subGroup: 'single-post', subGroupValue: String(post.id) },
			{ subGroup: 'in-term-category', subGroupValue: [1] },
			{ subGroup: 'front-page' },
			{ subGroup: 'page-404' },
			{ subGroup: 'archive-all' },
			{ subGroup: 'archive-search', include: false },
			{ subGroup: 'post-type-archive-post' },
			{ subGroup: 'taxonomy-post_tag' },
		];
		const saved = await ok('update-template-conditions', { template_id: header.id, conditions });
		const expected = [
			{ include: true, group: 'entire', subGroup: 'entire', subGroupValue: [] },
			{ include: false, group: 'singular', subGroup: 'single-page', subGroupValue: [page.id] },
			{ include: true, group: 'singular', subGroup: 'single-post', subGroupValue: [post.id] },
			{ include: true, group: 'singular', subGroup: 'in-term-category', subGroupValue: [1] },
			{ include: true, group: 'singular', subGroup: 'front-page', subGroupValue: [] },
			{ include: true, group: 'singular', subGroup: 'page-404', subGroupValue: [] },
			{ include: true, group: 'archive', subGroup: 'archive-all', subGroupValue: [] },
			{ include: false, group: 'archive', subGroup: 'archive-search', subGroupValue: [] },
			{ include: true, group: 'archive', subGroup: 'post-type-archive-post', subGroupValue: [] },
			{ include: true, group: 'archive', subGroup: 'taxonomy-post_tag', subGroupValue: [] },
		];
		expect(saved.data).toEqual({ template_id: header.id, type: 'themecore-header', conditions: expected });
		expect((await call('get-template-conditions', u.contributor, { template_id: header.id })).body).toEqual({
			success: true,
			message: 'Success',
			data: { template_id: header.id, type: 'themecore-header', conditions: expected },
		});
		// The site index has it first among the headers.
		const settings = (await ok('plugin-settings')).data;
		expect(settings.conditions.types['themecore-header'][0]).toEqual({ template_id: header.id, conditions: expected });
		// An empty list applies it nowhere.
		await ok('update-template-conditions', { template_id: header.id, conditions: [] });
		expect((await ok('get-template-conditions', { template_id: header.id })).data.conditions).toEqual([]);
		const index = (await ok('plugin-settings')).data.conditions.types['themecore-header'] ?? [];
		expect(index.map((entry: { template_id: number }) => entry.template_id)).not.toContain(header.id);
	});

	test.each([
		[{ subGroup: 'single-book' }, 'conditions[0].subGroup names no public post type of the site: book'],
		[{ subGroup: 'taxonomy-genre' }, 'conditions[0].subGroup names no public taxonomy of the site: genre'],
		[{ subGroup: 'somewhere' }, 'conditions[0].subGroup names no part of the site: somewhere'],
		[{ group: 'archive', subGroup: 'front-page' }, 'conditions[0].group must be singular for the sub-group front-page'],
		[{ group: 'singular' }, 'conditions[0].subGroup is required unless group is entire'],
		[{ subGroup: 'front-page', subGroupValue: [1] }, 'conditions[0].subGroupValue must be empty for the sub-group front-page'],
		[{ subGroup: 'single-post', subGroupValue: [999999] }, 'conditions[0].subGroupValue has ids that are no items of the post type post: 999999'],
		[{ subGroup: 'in-term-category', subGroupValue: [999999] }, 'conditions[0].subGroupValue has ids that are no terms of the taxonomy category: 999999'],
	])('a condition that does not fit the site is refused, naming it: %j', async (condition, sentence) => {
		const template = await createTemplate({});
		const res = await call('update-template-conditions', u.admin, { template_id: template.id, conditions: [condition] });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ code: 'rest_invalid_param', message: 'Invalid parameter(s): conditions', data: { status: 400, params: { conditions: expect.stringContaining(sentence) }, details: { conditions: expect.objectContaining({ message: expect.stringContaining(sentence) }) } } });
		expect((await ok('get-template-conditions', { template_id: template.id })).data.conditions).toEqual([]);
	});

	test('a page given as a post is no item of the type; shapes and roles', async () => {
		const template = await createTemplate({});
		const page = await cms.create('/pages', u.admin, { title: 'P', status: 'publish' });
		const res = await call('update-template-conditions', u.admin, { template_id: template.id, conditions: [{ subGroup: 'single-post', subGroupValue: [page.id] }] });
		expect(res.body.data.params.conditions).toBe(`conditions[0].subGroupValue has ids that are no items of the post type post: ${page.id}`);
		const shape = await call('update-template-conditions', u.admin, { template_id: template.id, conditions: [{ group: 'everywhere', include: 'maybe' }] });
		expect(shape.body.code).toBe('rest_invalid_param');
		expect(shape.body.data.params.conditions).toMatch(/conditions\[0\]\.(include|group)/);
		expect((await call('update-template-conditions', u.admin, { template_id: template.id, conditions: 'all' })).body.data.params.conditions).toBe('conditions must be an array (got string "all")');
		expectWpError(await call('get-template-conditions', u.admin, { template_id: 999999 }), 404, 'rest_themecore_template_invalid_id', 'Invalid template ID.');
		expect((await call('get-template-conditions', u.admin)).body.code).toBe('rest_missing_callback_param');
		await expectRoles('update-template-conditions', { template_id: template.id, conditions: [] }, [u.editor]);
		await expectRoles('get-template-conditions', { template_id: template.id }, [u.subscriber]);
	});
});

describe('structure list, sync', () => {
	test('get-structure-template-list by type; all without type; bad type named; roles', async () => {
		const single = await createTemplate({ name: 'Single post', type: 'themecore-single' });
		const archive = await createTemplate({ name: 'Archive', type: 'themecore-archive' });
		const singles = (await ok('get-structure-template-list', { type: 'themecore-single' })).data;
		expect(singles.map((t: { id: number }) => t.id)).toEqual([single.id]);
		const all = (await ok('get-structure-template-list')).data.map((t: { id: number }) => t.id);
		expect(all).toEqual(expect.arrayContaining([single.id, archive.id]));
		expect((await ok('get-structure-template-list', { type: '' })).data.map((t: { id: number }) => t.id)).toEqual(all);
		expect((await call('get-structure-template-list', u.admin, { type: 'header' })).body.data.params.type).toContain('type must be one of');
		await expectRoles('get-structure-template-list', {}, [u.subscriber]);
		expect((await call('get-structure-template-list', u.contributor)).status).toBe(200);
	});

	test('sync-templates: a template trashed or deleted elsewhere leaves the index and the page templates; sync-conditions-option rebuilds the index', async () => {
		const store = server.services.store;
		const header = await createTemplate({ name: 'Trashed header' });
		const footer = await createTemplate({ name: 'Deleted footer', type: 'themecore-footer' });
		const body = await createTemplate({ name: 'Page body', type: 'themecore-page' });
		await ok('update-template-conditions', { template_id: header.id, conditions: [{ group: 'entire' }] });
		await ok('update-template-conditions', { template_id: footer.id, conditions: [{ group: 'entire' }] });
		const created = await ok('create-page-template', { name: 'Landing', layout: { header: { id: header.id }, body: { id: body.id }, footer: { id: footer.id } } });
		const id = created.data.newTemplateId;

		// Changed outside the theme core: one trashed, one deleted for good.
		const row = store.content.get(header.id)!;
		store.content.save({ ...row, status: 'trash', trashed_status: 'publish', trashed_slug: row.slug });
		store.content.delete(footer.id);

		const synced = (await ok('sync-templates')).data;
		expect(synced.removed_conditions).toEqual([footer.id]);
		expect(synced.unlinked).toEqual([
			{ page_template_id: id, part: 'header', template_id: header.id },
			{ page_template_id: id, part: 'footer', template_id: footer.id },
		]);
		const ids = (type: string) => (synced.conditions.types[type] ?? []).map((entry: { template_id: number }) => entry.template_id);
		expect(ids('themecore-header')).not.toContain(header.id);
		expect(ids('themecore-footer')).not.toContain(footer.id);
		const list = (await ok('get-page-template-list')).data.list;
		expect(list.find((t: { id: number }) => t.id === id).layout).toEqual({
			header: { id: null, enabled: true, override: true },
			body: { id: body.id, enabled: true, override: true },
			footer: { id: null, enabled: true, override: true },
		});
		// The trashed one keeps its conditions (it may come back); the list leaves it out.
		expect((await ok('get-template-conditions', { template_id: header.id })).data.conditions).toHaveLength(1);
		expect((await ok('get-structure-template-list', { type: 'themecore-header' })).data.map((t: { id: number }) => t.id)).not.toContain(header.id);

		// Back from the trash: the index has it again once rebuilt.
		await ok('update-template-data', { template_id: header.id, template_data: { status: 'publish' } });
		const single = await createTemplate({ type: 'themecore-single' });
		await ok('update-template-conditions', { template_id: single.id, conditions: [{ subGroup: 'single-post' }] });
		const rebuilt = await ok('sync-conditions-option');
		expect(rebuilt.message).toBe('Conditions have been synchronized');
		expect(rebuilt.data.synced).toEqual(expect.any(String));
		expect(rebuilt.data.types['themecore-header'][0]).toEqual({ template_id: header.id, conditions: [{ include: true, group: 'entire', subGroup: 'entire', subGroupValue: [] }] });
		expect(rebuilt.data.types['themecore-single'][0].template_id).toBe(single.id);
		expect((await ok('plugin-settings')).data.conditions).toEqual(rebuilt.data);

		// A draft applies nowhere.
		await ok('update-template-data', { template_id: single.id, template_data: { status: 'draft' } });
		expect(((await ok('sync-conditions-option')).data.types['themecore-single'] ?? []).map((e: { template_id: number }) => e.template_id)).not.toContain(single.id);

		await expectRoles('sync-templates', {}, [u.editor]);
		await expectRoles('sync-conditions-option', {}, [u.editor]);
	});
});

describe('page templates', () => {
	test('create, list, conditions, update, copy, delete: each read back', async () => {
		const header = await createTemplate({ name: 'PT header' });
		const single = await createTemplate({ name: 'PT single', type: 'themecore-single' });
		const post = await cms.create('/posts', u.admin, { title: 'Target', status: 'publish' });
		const created = await ok('create-page-template', {
			name: 'Posts layout',
			conditions: [{ subGroup: 'single-post', subGroupValue: [post.id] }],
			relationType: 'and',
			layout: { header: { id: header.id, override: false }, body: { id: single.id } },
		});
		expect(created).toMatchObject({ success: true, message: 'Page template has been created' });
		const id = created.data.newTemplateId;
		const made = created.data.list.find((t: { id: number }) => t.id === id);
		expect(made).toMatchObject({
			templateName: 'Posts layout',
			type: 'themecore-single',
			relationType: 'and',
			author: u.admin.id,
			conditions: [{ include: true, group: 'singular', subGroup: 'single-post', subGroupValue: [post.id] }],
			layout: { header: { id: header.id, enabled: true, override: false }, body: { id: single.id, enabled: true, override: true }, footer: { id: null, enabled: true, override: true } },
		});
		expect((await ok('get-page-template-conditions', { template_id: id })).data).toEqual({ conditions: made.conditions, relationType: 'and' });

		const updated = await ok('update-page-template-data', {
			template_id: id,
			template_data: { templateName: 'Posts layout v2', relationType: 'or', conditions: [{ group: 'entire' }], layout: { body: { id: false }, footer: { enabled: false } } },
		});
		expect(updated.data).toMatchObject({
			templateName: 'Posts layout v2',
			type: 'unassigned',
			relationType: 'or',
			conditions: [{ include: true, group: 'entire', subGroup: 'entire', subGroupValue: [] }],
			layout: { header: { id: header.id, enabled: true, override: false }, body: { id: null }, footer: { id: null, enabled: false } },
		});

		const copied = await ok('copy-page-template', { id });
		const copy = copied.data.list.find((t: { id: number }) => t.id === copied.data.newTemplateId);
		expect(copy).toMatchObject({ templateName: 'Posts layout v2 copy', conditions: updated.data.conditions, layout: updated.data.layout });
		expect(copied.data.list[0].id).toBe(copy.id);

		const byName = (await ok('get-page-template-list', { templateName: 'LAYOUT V2', orderBy: 'name' })).data.list.map((t: { templateName: string }) => t.templateName);
		expect(byName).toEqual(['Posts layout v2', 'Posts layout v2 copy']);

		const deleted = await ok('delete-page-template', { id });
		expect(deleted.data).toMatchObject({ deleted: true, previous: { id, templateName: 'Posts layout v2' } });
		expect(deleted.data.list.map((t: { id: number }) => t.id)).not.toContain(id);
		expectWpError(await call('get-page-template-conditions', u.admin, { template_id: id }), 404, 'rest_themecore_page_template_invalid_id', 'Invalid page template ID.');
		expectWpError(await call('delete-page-template', u.admin, { id }), 404, 'rest_themecore_page_template_invalid_id', 'Invalid page template ID.');
	});

	test('defaults: an unnamed page template with no conditions and an empty layout', async () => {
		const created = await ok('create-page-template', { conditions: false, layout: false });
		const made = created.data.list.find((t: { id: number }) => t.id === created.data.newTemplateId);
		expect(made).toMatchObject({ templateName: `Page Template #${made.id}`, type: 'unassigned', relationType: 'or', conditions: [] });
	});

	test('a layout part must be a published template of its kind; bad fields are named; nothing is half-written', async () => {
		const footer = await createTemplate({ type: 'themecore-footer' });
		const before = (await ok('get-page-template-list')).data.list.length;
		const wrong = await call('create-page-template', u.admin, { name: 'x', layout: { header: { id: footer.id } } });
		expect(wrong.body.data.params.layout).toBe(`layout.header.id ${footer.id} is no published template of type themecore-header`);
		const extra = await call('create-page-template', u.admin, { layout: { sidebar: { id: 1 } } });
		expect(extra.body.data.params.layout).toBe('layout has unknown field(s): sidebar');
		const relation = await call('create-page-template', u.admin, { relationType: 'xor' });
		expect(relation.body.data.params.relationType).toBe('relationType must be one of: "or", "and"');
		const badCondition = await call('create-page-template', u.admin, { conditions: [{ subGroup: 'single-nothing' }] });
		expect(badCondition.body.data.params.conditions).toBe('conditions[0].subGroup names no public post type of the site: nothing');
		expect((await ok('get-page-template-list')).data.list.length).toBe(before);

		const { newTemplateId: id } = (await ok('create-page-template', { name: 'Keep' })).data;
		const update = await call('update-page-template-data', u.admin, { template_id: id, template_data: { templateName: 'Changed', layout: { footer: { id: 999999 } } } });
		expect(update.body.data.params.template_data).toBe('template_data.layout.footer.id 999999 is no published template of type themecore-footer');
		const conditions = await call('update-page-template-data', u.admin, { template_id: id, template_data: { conditions: [{ subGroup: 'taxonomy-nothing' }] } });
		expect(conditions.body.data.params.template_data).toBe('template_data.conditions[0].subGroup names no public taxonomy of the site: nothing');
		expect((await call('update-page-template-data', u.admin, { template_id: id, template_data: {} })).body.data.params.template_data).toContain('at least one of');
		expect((await ok('get-page-template-list', { templateName: 'Keep' })).data.list).toHaveLength(1);
		expect((await call('copy-page-template', u.admin)).body.message).toBe('Missing parameter(s): id');
		expect((await call('get-page-template-list', u.admin, { orderBy: 'size' })).body.data.params.orderBy).toContain('orderBy must be one of');
	});

	test('roles: changes need edit_theme_options, reads edit_posts', async () => {
		const { newTemplateId: id } = (await ok('create-page-template', { name: 'Roles' })).data;
		await expectRoles('create-page-template', {}, [u.editor]);
		await expectRoles('copy-page-template', { id }, [u.editor]);
		await expectRoles('delete-page-template', { id }, [u.editor]);
		await expectRoles('update-page-template-data', { template_id: id, template_data: { templateName: 'x' } }, [u.editor]);
		await expectRoles('get-page-template-list', {}, [u.subscriber]);
		await expectRoles('get-page-template-conditions', { template_id: id }, [u.subscriber]);
		expect((await call('get-page-template-list', u.contributor)).status).toBe(200);
	});
});

describe('site data', () => {
	test('get-posts: published items of a type by search or ids; unknown type named', async () => {
		const a = await cms.create('/posts', u.admin, { title: 'Zebra crossing', status: 'publish' });
		const b = await cms.create('/posts', u.admin, { title: 'Zebra 100%_ off', status: 'publish' });
		await cms.create('/posts', u.admin, { title: 'Zebra draft', status: 'draft' });
		const page = await cms.create('/pages', u.admin, { title: 'Zebra page', status: 'publish' });
		expect((await ok('get-posts', { query: 'zebra' }))).toEqual([
			{ value: b.id, label: 'Zebra 100%_ off' },
			{ value: a.id, label: 'Zebra crossing' },
		]);
		expect(await ok('get-posts', { query: '%_' })).toEqual([{ value: b.id, label: 'Zebra 100%_ off' }]);
		expect(await ok('get-posts', { values: [a.id, page.id] })).toEqual([{ value: a.id, label: 'Zebra crossing' }]);
		expect(await ok('get-posts', { post_type: 'page', values: `${page.id}` })).toEqual([{ value: page.id, label: 'Zebra page' }]);
		const bad = await call('get-posts', u.admin, { post_type: 'book' });
		expect(bad.body).toEqual({
			code: 'rest_invalid_param',
			message: 'Invalid parameter(s): post_type',
			data: {
				status: 400,
				params: { post_type: 'post_type must be a post type of the site: post, page, attachment' },
				details: { post_type: expect.objectContaining({ message: 'post_type must be a post type of the site: post, page, attachment' }) },
			},
		});
		expect((await call('get-posts', u.admin, { values: ['x'] })).body.data.params.values).toBe('values[0] must be an integer');
		await expectRoles('get-posts', {}, [u.subscriber]);
	});

	test('get-tax-terms, get-post-categories, get-post-tags: the terms of the site', async () => {
		const post = await cms.create('/posts', u.admin, { title: 'Tagged', tags: [] });
		const tag = (await cms.post('/tags', u.admin, { name: 'Alpha tag' })).body;
		const cat = (await cms.post('/categories', u.admin, { name: 'Beta category' })).body;
		expect(post.id).toBeGreaterThan(0);
		expect(await ok('get-post-tags')).toContainEqual({ value: tag.id, label: 'Alpha tag' });
		const categories = await ok('get-post-categories');
		expect(categories).toContainEqual({ value: cat.id, label: 'Beta category' });
		expect(categories).toContainEqual({ value: 1, label: 'Uncategorized' });
		expect(await ok('get-tax-terms', { tax_name: 'category', query: 'beta' })).toEqual([{ value: cat.id, label: 'Beta category' }]);
		expect(await ok('get-tax-terms', { tax_name: 'post_tag', values: [tag.id] })).toEqual([{ value: tag.id, label: 'Alpha tag' }]);
		expect((await call('get-tax-terms', u.admin, { tax_name: 'genre' })).body.data.params.tax_name).toBe('tax_name must be a taxonomy of the site: category, post_tag');
		expect((await call('get-tax-terms', u.admin)).body.message).toBe('Missing parameter(s): tax_name');
		await expectRoles('get-tax-terms', { tax_name: 'category' }, [u.subscriber]);
		await expectRoles('get-post-categories', {}, [u.subscriber]);
		await expectRoles('get-post-tags', {}, [u.subscriber]);
	});

	test('get-post-types, get-static-pages, get-page-templates, get-wp-options read the site', async () => {
		expect(await ok('get-post-types')).toEqual([
			{ value: 'post', label: 'Posts' },
			{ value: 'page', label: 'Pages' },
		]);
		const page = await cms.create('/pages', u.admin, { title: 'Static home', status: 'publish' });
		await cms.create('/pages', u.admin, { title: 'Draft page' });
		const pages = await ok('get-static-pages');
		expect(pages).toContainEqual({ value: page.id, label: 'Static home' });
		expect(pages.map((p: { label: string }) => p.label)).not.toContain('Draft page');
		expect((await ok('get-page-templates'))[0]).toEqual({ value: 'default', label: 'Default template' });
		expect(await ok('get-page-templates')).toContainEqual({ value: 'page-no-title', label: 'Page No Title' });

		expect(await ok('get-wp-options')).toMatchObject({ show_on_front: 'posts', page_on_front: 0, page_for_posts: 0 });
		server.services.store.meta.set(SETTING_KEY('show_on_front'), 'page');
		server.services.store.meta.set(SETTING_KEY('page_on_front'), String(page.id));
		expect(await ok('get-wp-options')).toMatchObject({ show_on_front: 'page', page_on_front: page.id, page_for_posts: 0, blogname: 'WDM reference site' });
		for (const route of ['get-post-types', 'get-static-pages', 'get-page-templates', 'get-wp-options']) await expectRoles(route, {}, [u.subscriber]);
	});
});

describe('post types and taxonomies the engine adds', () => {
	test('are read, are conditions, and drop out of the index once the engine removes them', async () => {
		const engine = client(server.url, '/wp-json/engine/v2');
		const as = { headers: u.admin.headers };
		const typeId = (await engine.post('/add-post-type', { general_settings: { name: 'Films', slug: 'film' }, advanced_settings: { rest_base: 'films' } }, as)).body.item_id;
		expect(typeId).toEqual(expect.any(Number));
		expect((await engine.post('/add-taxonomy', { general_settings: { name: 'Genres', slug: 'genre', object_type: ['film'] }, advanced_settings: { rest_base: 'genres' } }, as)).status).toBe(200);
		expect(await ok('get-post-types')).toContainEqual({ value: 'film', label: 'Films' });

		const film = await cms.create('/films', u.admin, { title: 'Alien', status: 'publish' });
		const genre = (await cms.post('/genres', u.admin, { name: 'Horror' })).body;
		expect(await ok('get-posts', { post_type: 'film' })).toEqual([{ value: film.id, label: 'Alien' }]);
		expect(await ok('get-tax-terms', { tax_name: 'genre' })).toEqual([{ value: genre.id, label: 'Horror' }]);

		const template = await createTemplate({ name: 'Film page', type: 'themecore-single' });
		const conditions = [
			{ subGroup: 'single-film', subGroupValue: [film.id] },
			{ subGroup: 'in-term-genre', subGroupValue: [genre.id] },
			{ subGroup: 'post-type-archive-film' },
		];
		const saved = (await ok('update-template-conditions', { template_id: template.id, conditions })).data.conditions;
		expect(saved.map((c: { group: string }) => c.group)).toEqual(['singular', 'singular', 'archive']);

		await engine.call('DELETE', `/delete-post-type/${typeId}`, undefined, as);
		const index = (await ok('sync-conditions-option')).data.types['themecore-single'].find((e: { template_id: number }) => e.template_id === template.id);
		// The taxonomy is still there; the type and its archive are gone.
		expect(index.conditions).toEqual([{ include: true, group: 'singular', subGroup: 'in-term-genre', subGroupValue: [genre.id] }]);
		expect((await ok('get-template-conditions', { template_id: template.id })).data.conditions).toHaveLength(3);
		expect((await call('get-posts', u.admin, { post_type: 'film' })).status).toBe(400);
	});
});

describe('plugin settings', () => {
	test('saved, read back, with the active theme; unknown or bad settings named; administrators only', async () => {
		const read = await ok('plugin-settings');
		expect(read.data).toMatchObject({ settings: { disable_theme_parts: false, preview_mode: false }, active_theme: { slug: 'twentytwentyfive', status: 'active' } });
		expect(read.data.templates['themecore-header']).toBeGreaterThan(0);
		await ok('plugin-settings', { disable_theme_parts: true });
		expect((await ok('plugin-settings')).data.settings).toEqual({ disable_theme_parts: true, preview_mode: false });
		await ok('plugin-settings', { preview_mode: 'true' });
		expect((await ok('plugin-settings')).data.settings).toEqual({ disable_theme_parts: true, preview_mode: true });
		const bad = await call('plugin-settings', u.admin, { disable_theme_parts: 'maybe', colour: 'red' });
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('rest_invalid_param');
		expect((await ok('plugin-settings')).data.settings).toEqual({ disable_theme_parts: true, preview_mode: true });
		await expectRoles('plugin-settings', {}, [u.editor]);
	});
});
