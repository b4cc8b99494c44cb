import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { runNode, siteHarness, type NodeParameters } from '../helpers/nodes';
import { client } from '../helpers/server';

/** WDM Theme Core: every operation run by n8n's engine against a live server, in both addressing styles. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
/** The theme-core routes as the administrator, to read back what the node did. */
let read: (route: string, body?: unknown) => Promise<any>;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	const api = client(server.url, '/wp-json/themecore/v2');
	read = async (route, body = {}) => (await api.post(`/${route}`, body, { headers: u.admin.headers })).body;
});
afterAll(() => server.close());

const NODE = 'CUSTOM.wdmThemeCore';

describe.each(['restRoute', 'wpJson'])('addressing %s', (addressing) => {
	const run = (resource: string, operation: string, parameters: NodeParameters = {}) =>
		runNode(siteHarness(server.url, addressing), NODE, { resource, operation, ...parameters });
	/** Runs an operation that must succeed and returns its items' JSON. */
	const json = async (resource: string, operation: string, parameters: NodeParameters = {}) => {
		const result = await run(resource, operation, parameters);
		expect(result.error).toBeUndefined();
		return result.items.map((item) => item.json as Record<string, any>);
	};

	test('templates: Create, Update, Update Conditions, Get Conditions, Get Many', async () => {
		const [created] = await json('template', 'createTemplate', { templateName: `Header ${addressing}`, templateType: 'themecore-header', contentType: 'builder' });
		const id = created.newTemplateId;
		expect(created.template).toMatchObject({ id, title: `Header ${addressing}`, type: 'themecore-header', content_type: 'builder', status: 'publish' });

		const elements = [{ id: 'e1', elType: 'container', elements: [] }];
		const [updated] = await json('template', 'updateTemplateData', { templateId: id, templateUpdateFields: { title: 'Renamed', content: JSON.stringify(elements), status: 'publish' } });
		expect(updated).toMatchObject({ id, title: 'Renamed', data: elements });
		expect(JSON.parse(JSON.parse(server.services.store.content.get(id)!.meta)._builder_data)).toEqual(elements);

		const post = await cms.create('/posts', u.admin, { title: `Target ${addressing}`, status: 'publish' });
		const [conditions] = await json('template', 'updateTemplateConditions', {
			templateId: id,
			conditions: {
				condition: [
					{ include: 'include', appliesTo: 'entire' },
					{ include: 'exclude', appliesTo: 'single', slug: 'post', ids: `${post.id}` },
					{ include: 'include', appliesTo: 'taxonomyArchive', slug: 'category', ids: '1' },
					{ include: 'include', appliesTo: 'frontPage' },
				],
			},
		});
		const expected = [
			{ include: true, group: 'entire', subGroup: 'entire', subGroupValue: [] },
			{ include: false, group: 'singular', subGroup: 'single-post', subGroupValue: [post.id] },
			{ include: true, group: 'archive', subGroup: 'taxonomy-category', subGroupValue: [1] },
			{ include: true, group: 'singular', subGroup: 'front-page', subGroupValue: [] },
		];
		expect(conditions).toEqual({ template_id: id, type: 'themecore-header', conditions: expected });
		expect((await read('get-template-conditions', { template_id: id })).data.conditions).toEqual(expected);

		const [got] = await json('template', 'getTemplateConditions', { templateId: id });
		expect(got.conditions).toEqual(expected);

		const headers = await json('template', 'getStructureTemplateList', { templateTypeFilter: 'themecore-header' });
		expect(headers.map((t) => t.id)).toContain(id);
		expect(headers.every((t) => t.type === 'themecore-header')).toBe(true);
		const all = await json('template', 'getStructureTemplateList');
		expect(all.length).toBeGreaterThanOrEqual(headers.length);

		// Clearing: no rows applies it nowhere.
		await json('template', 'updateTemplateConditions', { templateId: id });
		expect((await read('get-template-conditions', { template_id: id })).data.conditions).toEqual([]);
	});

	test('templates: WordPress errors name the parameter; a row without its post type is stopped in the node', async () => {
		const missing = await run('template', 'getTemplateConditions', { templateId: 999999 });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'Invalid template ID.' });
		expect(missing.error?.description).toContain('rest_themecore_template_invalid_id');

		const [created] = await json('template', 'createTemplate', { templateType: 'themecore-single' });
		const bad = await run('template', 'updateTemplateConditions', {
			templateId: created.newTemplateId,
			conditions: { condition: [{ appliesTo: 'single', slug: 'book' }] },
		});
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): conditions' });
		expect(bad.error?.description).toContain('conditions[0].subGroup names no public post type of the site: book');

		const noSlug = await run('template', 'updateTemplateConditions', { templateId: created.newTemplateId, conditions: { condition: [{ appliesTo: 'inTerm' }] } });
		expect(noSlug.error?.message).toBe('Condition 1: Post Type or Taxonomy is required where it applies to inTerm');

		const badJson = await run('template', 'updateTemplateData', { templateId: created.newTemplateId, templateUpdateFields: { content: '{oops' } });
		expect(badJson.error?.message).toMatch(/^Builder Data is not valid JSON/);

		// An editor may read but not change templates.
		const editor = siteHarness(server.url, addressing, u.editor);
		const denied = await runNode(editor, NODE, { resource: 'template', operation: 'createTemplate' });
		expect(denied.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to do that.' });
		const allowed = await runNode(editor, NODE, { resource: 'template', operation: 'getTemplateConditions', templateId: created.newTemplateId });
		expect(allowed.error).toBeUndefined();
	});

	test('page templates: Create, Get Many, Get Conditions, Update, Copy, Delete', async () => {
		const [header] = await json('template', 'createTemplate', { templateName: 'PT header', templateType: 'themecore-header' });
		const [footer] = await json('template', 'createTemplate', { templateName: 'PT footer', templateType: 'themecore-footer' });
		const [body] = await json('template', 'createTemplate', { templateName: 'PT body', templateType: 'themecore-archive' });
		const name = `Layout ${addressing}`;
		const [created] = await json('pageTemplate', 'createPageTemplate', {
			pageTemplateName: name,
			layout: { header: { templateId: header.newTemplateId, enabled: true, override: false }, body: { templateId: body.newTemplateId } },
			conditions: { condition: [{ appliesTo: 'archiveAll' }, { include: 'exclude', appliesTo: 'archiveSearch' }] },
			relationType: 'and',
		});
		const id = created.newTemplateId;
		const made = created.list.find((t: { id: number }) => t.id === id);
		expect(made).toMatchObject({
			templateName: name,
			type: 'themecore-archive',
			relationType: 'and',
			layout: {
				header: { id: header.newTemplateId, enabled: true, override: false },
				body: { id: body.newTemplateId, enabled: true, override: true },
				footer: { id: null, enabled: true, override: true },
			},
		});

		const list = await json('pageTemplate', 'getPageTemplateList', { pageTemplateSearch: addressing.toUpperCase(), pageTemplateOrderBy: 'name' });
		expect(list.map((t) => t.id)).toEqual([id]);

		const [conditions] = await json('pageTemplate', 'getPageTemplateConditions', { pageTemplateId: id });
		expect(conditions).toEqual({
			relationType: 'and',
			conditions: [
				{ include: true, group: 'archive', subGroup: 'archive-all', subGroupValue: [] },
				{ include: false, group: 'archive', subGroup: 'archive-search', subGroupValue: [] },
			],
		});

		// Only what is given changes: the name, the relation, the footer; conditions left empty are kept.
		const [updated] = await json('pageTemplate', 'updatePageTemplateData', {
			pageTemplateId: id,
			pageTemplateUpdateFields: { templateName: `${name} v2`, relationType: 'or' },
			layout: { footer: { templateId: footer.newTemplateId, enabled: true, override: true } },
		});
		expect(updated).toMatchObject({ templateName: `${name} v2`, relationType: 'or', conditions: conditions.conditions });
		expect(updated.layout.footer.id).toBe(footer.newTemplateId);
		expect(updated.layout.header.id).toBe(header.newTemplateId);
		const [replaced] = await json('pageTemplate', 'updatePageTemplateData', { pageTemplateId: id, conditions: { condition: [{ appliesTo: 'entire' }] } });
		expect(replaced.conditions).toEqual([{ include: true, group: 'entire', subGroup: 'entire', subGroupValue: [] }]);
		expect((await read('get-page-template-conditions', { template_id: id })).data.conditions).toEqual(replaced.conditions);

		const [copied] = await json('pageTemplate', 'copyPageTemplate', { pageTemplateId: id });
		const copy = copied.list.find((t: { id: number }) => t.id === copied.newTemplateId);
		expect(copy).toMatchObject({ templateName: `${name} v2 copy`, conditions: replaced.conditions, layout: updated.layout });

		const [deleted] = await json('pageTemplate', 'deletePageTemplate', { pageTemplateId: id });
		expect(deleted).toMatchObject({ deleted: true, previous: { id } });
		expect((await read('get-page-template-list')).data.list.map((t: { id: number }) => t.id)).not.toContain(id);

		const gone = await run('pageTemplate', 'copyPageTemplate', { pageTemplateId: id });
		expect(gone.error).toMatchObject({ httpCode: '404', message: 'Invalid page template ID.' });
		const wrongPart = await run('pageTemplate', 'createPageTemplate', { layout: { header: { templateId: footer.newTemplateId } } });
		expect(wrongPart.error?.description).toContain(`layout.header.id ${footer.newTemplateId} is no published template of type themecore-header`);
	});

	test('site data: posts, terms, post types, pages, page templates, reading options', async () => {
		const post = await cms.create('/posts', u.admin, { title: `Findable ${addressing}`, status: 'publish' });
		const page = await cms.create('/pages', u.admin, { title: `Static ${addressing}`, status: 'publish' });
		const tag = (await cms.post('/tags', u.admin, { name: `Tag ${addressing}` })).body;

		expect(await json('siteData', 'getPosts', { optionSearch: `Findable ${addressing}` })).toEqual([{ value: post.id, label: `Findable ${addressing}` }]);
		expect(await json('siteData', 'getPosts', { postType: 'page', optionIds: `${page.id}` })).toEqual([{ value: page.id, label: `Static ${addressing}` }]);
		// Picked from the list, as the editor stores a resource locator.
		const picked = { __rl: true, mode: 'list', value: 'page' };
		expect(await json('siteData', 'getPosts', { postType: picked, optionIds: `${page.id}` })).toEqual([{ value: page.id, label: `Static ${addressing}` }]);
		expect(await json('siteData', 'getTaxTerms', { taxonomy: 'post_tag', optionSearch: addressing })).toEqual([{ value: tag.id, label: `Tag ${addressing}` }]);
		expect(await json('siteData', 'getPostCategories')).toContainEqual({ value: 1, label: 'Uncategorized' });
		expect(await json('siteData', 'getPostTags')).toContainEqual({ value: tag.id, label: `Tag ${addressing}` });
		expect(await json('siteData', 'getPostTypes')).toEqual([
			{ value: 'post', label: 'Posts' },
			{ value: 'page', label: 'Pages' },
		]);
		expect(await json('siteData', 'getStaticPages')).toContainEqual({ value: page.id, label: `Static ${addressing}` });
		expect((await json('siteData', 'getPageTemplates'))[0]).toEqual({ value: 'default', label: 'Default template' });
		expect(await json('siteData', 'getWpOptions')).toEqual([{ blogname: 'WDM reference site', blogdescription: expect.any(String), show_on_front: 'posts', page_on_front: 0, page_for_posts: 0 }]);

		const bad = await run('siteData', 'getPosts', { postType: 'book' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): post_type' });
		expect(bad.error?.description).toContain('post_type must be a post type of the site');
		const badTax = await run('siteData', 'getTaxTerms', { taxonomy: 'genre' });
		expect(badTax.error?.description).toContain('tax_name must be a taxonomy of the site');

		const subscriber = await runNode(siteHarness(server.url, addressing, u.subscriber), NODE, { resource: 'siteData', operation: 'getPostTypes' });
		expect(subscriber.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to do that.' });
	});

	test('settings: Get or Update Settings, Sync Templates, Sync Conditions', async () => {
		const [before] = await json('settings', 'pluginSettings');
		expect(before.active_theme).toMatchObject({ slug: 'twentytwentyfive', status: 'active' });
		const flag = addressing === 'wpJson';
		const [after] = await json('settings', 'pluginSettings', { settingsToUpdate: { disable_theme_parts: flag, preview_mode: !flag } });
		expect(after.settings).toEqual({ disable_theme_parts: flag, preview_mode: !flag });
		expect((await read('plugin-settings')).data.settings).toEqual({ disable_theme_parts: flag, preview_mode: !flag });

		const [footer] = await json('template', 'createTemplate', { templateName: 'Sync footer', templateType: 'themecore-footer' });
		await json('template', 'updateTemplateConditions', { templateId: footer.newTemplateId, conditions: { condition: [{ appliesTo: 'entire' }] } });
		const [page] = await json('pageTemplate', 'createPageTemplate', { layout: { footer: { templateId: footer.newTemplateId } } });
		server.services.store.content.delete(footer.newTemplateId);

		const [synced] = await json('settings', 'syncTemplates');
		expect(synced.removed_conditions).toEqual([footer.newTemplateId]);
		expect(synced.unlinked).toEqual([{ page_template_id: page.newTemplateId, part: 'footer', template_id: footer.newTemplateId }]);
		const pageTemplate = (await read('get-page-template-list')).data.list.find((t: { id: number }) => t.id === page.newTemplateId);
		expect(pageTemplate.layout.footer.id).toBeNull();

		const [header] = await json('template', 'createTemplate', { templateName: 'Sync header' });
		await json('template', 'updateTemplateConditions', { templateId: header.newTemplateId, conditions: { condition: [{ appliesTo: 'archiveAll' }] } });
		const [index] = await json('settings', 'syncConditions');
		expect(index.types['themecore-header'][0]).toEqual({
			template_id: header.newTemplateId,
			conditions: [{ include: true, group: 'archive', subGroup: 'archive-all', subGroupValue: [] }],
		});
		expect((await read('plugin-settings')).data.conditions).toEqual(index);

		const editor = await runNode(siteHarness(server.url, addressing, u.editor), NODE, { resource: 'settings', operation: 'syncTemplates' });
		expect(editor.error).toMatchObject({ httpCode: '403' });
	});
});
