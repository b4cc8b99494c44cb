import type { App } from '../../server/src/app';
import { PNG } from '../helpers/files';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { fileItem, firstJson, harnessFor, runNode, siteCredential, type NodeParameters } from '../helpers/nodes';

/**
 * The WDM Site API credential's Content Namespace: with `wp/v2` (a stock WordPress) WDM Post, Page,
 * Media and Site address the core content there, with `cms/v2` (the default) in `cms/v2`. The answers'
 * own links tell which namespace a request went to (the server answers both, each in its own URLs);
 * what the node did is read back over `cms/v2`.
 */

let server: App;
let cms: CmsClient;
let users: SiteUsers;

beforeAll(async () => {
	({ server, cms, u: users } = await startSite());
});
afterAll(() => server.close());

const harness = (namespace: string, addressing = 'restRoute') => harnessFor({ wdmSiteApi: { ...siteCredential(server.url, addressing), namespace } });
const run = (type: string, namespace: string, parameters: NodeParameters, input?: Parameters<typeof runNode>[3]) =>
	runNode(harness(namespace), `CUSTOM.${type}`, parameters, input);
/** Where the item's `self` link points: `…/wp-json/<namespace>/<base>/<id>`. */
type Linked = { _links: { self: Array<{ href: string }> } };
const selfOf = (json: object) => (json as Linked)._links.self[0].href;

describe.each(['wp/v2', 'cms/v2'])('namespace %s', (namespace) => {
	const rest = () => `${server.url}/wp-json/${namespace}`;

	test('WDM Post: create, get, update, get many, delete', async () => {
		const created = firstJson(await run('wdmPost', namespace, { operation: 'create', title: `Post in ${namespace}`, additionalFields: { status: 'publish' } }));
		expect(selfOf(created)).toBe(`${rest()}/posts/${created.id}`);

		const got = firstJson(await run('wdmPost', namespace, { operation: 'get', postId: created.id }));
		expect(got).toMatchObject({ id: created.id, title: { rendered: `Post in ${namespace}` } });
		expect(selfOf(got)).toBe(`${rest()}/posts/${created.id}`);

		const updated = firstJson(await run('wdmPost', namespace, { operation: 'update', postId: created.id, updateFields: { title: 'Renamed', excerpt: 'Short' } }));
		expect(selfOf(updated)).toBe(`${rest()}/posts/${created.id}`);
		expect((await cms.get(`/posts/${created.id}`, users.admin, { context: 'edit' })).body).toMatchObject({ title: { raw: 'Renamed' }, excerpt: { raw: 'Short' } });

		const many = await run('wdmPost', namespace, { operation: 'getMany', returnAll: true, filters: { search: 'Renamed' } });
		expect(many.error).toBeUndefined();
		expect(many.items.map((item) => item.json.id)).toEqual([created.id]);
		expect(selfOf(many.items[0].json)).toBe(`${rest()}/posts/${created.id}`);

		const deleted = firstJson(await run('wdmPost', namespace, { operation: 'delete', postId: created.id, force: true }));
		expect(deleted).toMatchObject({ deleted: true, previous: { id: created.id } });
		expect((await cms.get(`/posts/${created.id}`, users.admin)).status).toBe(404);
	});

	test('WDM Post: categories; WDM Page: create and revisions', async () => {
		const category = firstJson(await run('wdmPost', namespace, { operation: 'createCategory', termName: `Cat ${namespace}` }));
		expect(selfOf(category)).toBe(`${rest()}/categories/${category.id}`);
		expect((await cms.get(`/categories/${category.id}`, users.anonymous)).body.name).toBe(`Cat ${namespace}`);

		const page = firstJson(await run('wdmPage', namespace, { operation: 'create', title: 'About', additionalFields: { status: 'draft' } }));
		expect(selfOf(page)).toBe(`${rest()}/pages/${page.id}`);
		firstJson(await run('wdmPage', namespace, { operation: 'update', pageId: page.id, updateFields: { title: 'About us' } }));
		const revisions = await run('wdmPage', namespace, { operation: 'getRevisions', pageId: page.id, returnAll: true });
		expect(revisions.error).toBeUndefined();
		expect(revisions.items[0].json._links).toMatchObject({ parent: [{ href: `${rest()}/pages/${page.id}` }] });
		expect((await cms.get(`/pages/${page.id}`, users.admin, { context: 'edit' })).body.title.raw).toBe('About us');
	});

	test('WDM Media: upload, download, delete', async () => {
		const up = firstJson(await run('wdmMedia', namespace, { operation: 'upload' }, { input: [fileItem(PNG, 'image/png', 'dot.png')] }));
		expect(selfOf(up)).toBe(`${rest()}/media/${up.id}`);
		const down = await run('wdmMedia', namespace, { operation: 'download', mediaId: up.id });
		expect(down.error).toBeUndefined();
		expect(Buffer.from(down.items[0].binary!.data.data, 'base64').equals(PNG)).toBe(true);
		expect(firstJson(await run('wdmMedia', namespace, { operation: 'delete', mediaId: up.id }))).toMatchObject({ deleted: true });
		expect((await cms.get(`/media/${up.id}`, users.admin)).status).toBe(404);
	});

	test('WDM Site: the cms/v2 namespace index and batch paths follow the credential', async () => {
		const index = firstJson(await run('wdmSite', namespace, { operation: 'getNamespaceIndex', namespace: 'cms/v2' }));
		expect(index.namespace).toBe(namespace);
		const batch = await run('wdmSite', namespace, {
			operation: 'batch',
			requests: { request: [{ method: 'POST', path: '/cms/v2/posts', body: '{"title": "Batched", "status": "publish"}' }] },
		});
		expect(batch.error).toBeUndefined();
		const answer = batch.items[0].json as { status: number; body: Linked & { id: number } };
		expect(answer.status).toBe(201);
		expect(selfOf(answer.body)).toBe(`${rest()}/posts/${answer.body.id}`);
	});
});

test('a credential saved before the setting existed addresses cms/v2', async () => {
	const created = firstJson(await runNode(harnessFor({ wdmSiteApi: siteCredential(server.url, 'wpJson') }), 'CUSTOM.wdmPost', { operation: 'create', title: 'Old credential' }));
	expect(selfOf(created)).toBe(`${server.url}/wp-json/cms/v2/posts/${created.id}`);
});
