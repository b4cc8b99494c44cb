import type { INodePropertyOptions } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { NODE_TYPES, firstJson, nodeRunner, siteHarness, type NodeParameters } from '../helpers/nodes';

/** WDM Page: the operations it shares with WDM Post, on pages, run by n8n's engine against a live server. */

let server: App;
let cms: CmsClient;
let users: SiteUsers;

beforeAll(async () => {
	({ server, cms, u: users } = await startSite());
});
afterAll(() => server.close());

const page = nodeRunner('CUSTOM.wdmPage', () => siteHarness(server.url));

const created = async (parameters: NodeParameters) => firstJson(await page({ operation: 'create', ...parameters }));

test('the page node has the post node’s operations without categories and tags, and page fields instead of post ones', () => {
	const operations = (type: string) =>
		(NODE_TYPES[type].description.properties.find((p) => p.name === 'operation')!.options as INodePropertyOptions[]).map((o) => o.value);
	expect(operations('CUSTOM.wdmPage')).toEqual(operations('CUSTOM.wdmPost').filter((op) => !/Categor|Tag/.test(String(op))));
	const additional = NODE_TYPES['CUSTOM.wdmPage'].description.properties.find(
		(p) => p.name === 'additionalFields' && p.displayOptions?.show?.operation?.includes('create'),
	)!;
	const names = (additional.options as { name: string }[]).map((o) => o.name);
	expect(names).toEqual(expect.arrayContaining(['parent', 'menu_order', 'template', 'password']));
	expect(names).not.toEqual(expect.arrayContaining(['format']));
	expect(names).not.toContain('sticky');
	expect(names).not.toContain('categories');
});

test('Create and Get: a page under another, with its menu order', async () => {
	const parent = await created({ title: 'Shop', content: 'Welcome', additionalFields: { status: 'publish', menu_order: 2 } });
	const child = await created({ title: 'Hats', content: '', additionalFields: { status: 'publish', parent: parent.id, menu_order: 1, hideTitle: 'yes' } });
	expect(child).toMatchObject({ type: 'page', parent: parent.id, menu_order: 1, link: `${server.url}/?page_id=${child.id}`, meta: { _builder_page_settings: { hide_title: 'yes' } } });
	const got = await page({ operation: 'get', pageId: child.id, options: { context: 'embed' } });
	expect(got.items[0].json).toMatchObject({ id: child.id, slug: 'hats' });
	expect((await cms.get(`/pages/${child.id}`, users.admin)).body).toMatchObject({ parent: parent.id, menu_order: 1 });
	const orphan = await page({ operation: 'create', title: 'x', content: '', additionalFields: { parent: 999999 } });
	expect(orphan.error).toMatchObject({ httpCode: '400', message: 'Invalid post parent ID.' });
});

test('Get Many: parent, menu order, order by menu order', async () => {
	const top = await created({ title: 'Docs', additionalFields: { status: 'publish' } });
	for (const [title, order] of [['Intro', 2], ['Setup', 1], ['FAQ', 3]] as const) {
		await created({ title, additionalFields: { status: 'publish', parent: top.id, menu_order: order } });
	}
	const titles = (run: Awaited<ReturnType<typeof page>>) => run.items.map((i) => (i.json as { title: { rendered: string } }).title.rendered);
	const under = await page({ operation: 'getMany', returnAll: true, filters: { parent: String(top.id) }, options: { orderby: 'menu_order', order: 'asc' } });
	expect(under.error).toBeUndefined();
	expect(titles(under)).toEqual(['Setup', 'Intro', 'FAQ']);
	expect(titles(await page({ operation: 'getMany', returnAll: true, filters: { parent: String(top.id), menu_order: 3 } }))).toEqual(['FAQ']);
	expect(titles(await page({ operation: 'getMany', returnAll: false, limit: 1, filters: { parent_exclude: String(top.id), search: 'Docs' } }))).toEqual(['Docs']);
});

test('Update, revisions, autosaves and Delete of a page', async () => {
	const about = await created({ title: 'About', content: 'v1', additionalFields: { status: 'publish' } });
	const updated = await page({ operation: 'update', pageId: about.id, updateFields: { content: 'v2', menu_order: 5 } });
	expect(updated.items[0].json).toMatchObject({ content: { raw: 'v2' }, menu_order: 5 });
	const revisions = await page({ operation: 'getRevisions', pageId: about.id, returnAll: true });
	expect(revisions.items).toHaveLength(1);
	const revisionId = (revisions.items[0].json as { id: number }).id;
	expect((await page({ operation: 'getRevision', pageId: about.id, revisionId })).items[0].json).toMatchObject({ parent: about.id });
	const autosave = await page({ operation: 'createAutosave', pageId: about.id, autosaveFields: { content: 'v3 in progress' } });
	expect(autosave.items[0].json).toMatchObject({ parent: about.id, content: { raw: 'v3 in progress' } });
	const autosaveId = (autosave.items[0].json as { id: number }).id;
	expect((await page({ operation: 'getAutosaves', pageId: about.id })).items.map((i) => i.json.id)).toEqual([autosaveId]);
	expect((await page({ operation: 'getAutosave', pageId: about.id, autosaveId })).items[0].json).toMatchObject({ id: autosaveId });
	expect((await page({ operation: 'deleteRevision', pageId: about.id, revisionId })).error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to delete this revision.' });
	expect((await page({ operation: 'delete', pageId: about.id })).items[0].json).toMatchObject({ status: 'trash' });
	expect((await page({ operation: 'delete', pageId: about.id, force: true })).items[0].json).toMatchObject({ deleted: true });
	expect((await cms.get(`/pages/${about.id}`, users.admin)).status).toBe(404);
});

test('authors may not write pages: the site’s 403 as a node error, or an item with continueRegularOutput', async () => {
	const author = siteHarness(server.url, 'restRoute', users.author);
	const refused = await page({ operation: 'create', title: 'x', content: '' }, {}, author);
	expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to create posts as this user.' });
	expect(refused.error?.description).toContain('rest_cannot_create');
	const kept = await page({ operation: 'create', title: 'x', content: '' }, { onError: 'continueRegularOutput' }, author);
	expect(kept.items[0].json.error).toBe('Sorry, you are not allowed to create posts as this user.');
});
