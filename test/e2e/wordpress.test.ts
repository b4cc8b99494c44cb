// Real n8n, end to end, with n8n's OWN WordPress node (n8n-nodes-base.wordpress, credential
// wordpressApi): a client written for a stock WordPress, which speaks `wp/v2` only, creates, updates,
// gets and lists posts and pages on the reference server; what it did is read back over `cms/v2`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { cmsClient, type CmsClient, siteUsers, type SiteUsers } from '../helpers/content';
import { ADMIN_APP_PASSWORD, startServer } from '../helpers/server';
import { ensureN8n, n8nCli, nodeOutput } from './n8n';
import { link, node } from './workflows';

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let dir: string;

beforeAll(async () => {
	await ensureN8n(); // ~8 min on a machine's first run, then nothing
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-wordpress-'));
	fs.mkdirSync(path.join(dir, 'custom')); // no custom nodes: only n8n's own
	server = await startServer();
	cms = cmsClient(server.url);
	u = siteUsers(server);
}, 20 * 60_000);

afterAll(async () => {
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const wordpress = { id: 'wdmE2eWordpress1', name: 'WordPress (reference server)' };
const wp = (name: string, parameters: object) => node(name, 'n8n-nodes-base.wordpress', parameters, { wordpressApi: wordpress });

test("n8n's WordPress node: create, update, get and get many posts and pages", async () => {
	const category = await cms.create('/categories', u.admin, { name: 'From n8n' });
	// Found by the search too, but not in the category: Get Many must leave it out.
	const other = await cms.create('/posts', u.admin, { title: 'Hello again, elsewhere', status: 'publish' });
	const n8n = await n8nCli(path.join(dir, 'user'), path.join(dir, 'custom'));
	await n8n.importCredentials([
		{ ...wordpress, type: 'wordpressApi', data: { url: server.url, username: 'admin', password: ADMIN_APP_PASSWORD, allowUnauthorizedCerts: false } },
	]);
	await n8n.importWorkflow({
		id: 'wdmE2eWordpress1',
		name: 'WordPress node on the reference server',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			// Posts
			wp('Create Post', {
				resource: 'post',
				operation: 'create',
				title: 'Hello from n8n',
				additionalFields: {
					content: 'Written by the WordPress node',
					status: 'publish',
					slug: 'hello-from-n8n',
					commentStatus: 'closed',
					pingStatus: 'closed',
					format: 'aside',
					sticky: true,
					categories: [category.id],
				},
			}),
			wp('Update Post', { resource: 'post', operation: 'update', postId: '={{ $json.id }}', updateFields: { title: 'Hello again', content: 'Updated by n8n' } }),
			wp('Get Post', { resource: 'post', operation: 'get', postId: '={{ $json.id }}', options: { context: 'edit' } }),
			wp('Get Many Posts', { resource: 'post', operation: 'getAll', returnAll: true, options: { search: 'Hello again', categories: [category.id] } }),
			// Pages
			wp('Create Page', {
				resource: 'page',
				operation: 'create',
				title: 'About n8n',
				additionalFields: { content: 'A page', status: 'publish', menuOrder: 3 },
			}),
			wp('Update Page', { resource: 'page', operation: 'update', pageId: '={{ $json.id }}', updateFields: { title: 'About us', status: 'draft' } }),
			wp('Get Page', { resource: 'page', operation: 'get', pageId: '={{ $json.id }}', options: { context: 'edit' } }),
			wp('Get Many Pages', { resource: 'page', operation: 'getAll', returnAll: false, limit: 5, options: { status: 'draft', orderBy: 'title', order: 'asc' } }),
		],
		connections: {
			'Manual Trigger': { main: [[{ node: 'Create Post', type: 'main', index: 0 }, { node: 'Create Page', type: 'main', index: 0 }]] },
			'Create Post': link('Update Post'),
			'Update Post': link('Get Post'),
			'Get Post': link('Get Many Posts'),
			'Create Page': link('Update Page'),
			'Update Page': link('Get Page'),
			'Get Page': link('Get Many Pages'),
		},
	});
	const run = await n8n.execute('wdmE2eWordpress1');
	expect(run.status).toBe('success');

	// Posts: what the node answered, and what the server stored.
	const [created] = nodeOutput(run, 'Create Post');
	expect(created).toMatchObject({ title: { rendered: 'Hello from n8n' }, status: 'publish', slug: 'hello-from-n8n', sticky: true, format: 'aside' });
	expect(created._links.self[0].href).toBe(`${server.url}/wp-json/wp/v2/posts/${created.id}`);
	expect(nodeOutput(run, 'Update Post')).toEqual([expect.objectContaining({ id: created.id, title: expect.objectContaining({ rendered: 'Hello again' }) })]);
	expect(nodeOutput(run, 'Get Post')).toEqual([expect.objectContaining({ id: created.id, title: { raw: 'Hello again', rendered: 'Hello again' } })]);
	expect(nodeOutput(run, 'Get Many Posts').map((post) => post.id)).toEqual([created.id]);
	expect((await cms.get('/posts', u.admin, { search: 'Hello again' })).body.map((post: { id: number }) => post.id).sort()).toEqual([created.id, other.id].sort());
	const stored = (await cms.get(`/posts/${created.id}`, u.admin, { context: 'edit' })).body;
	expect(stored).toMatchObject({
		title: { raw: 'Hello again' },
		content: { raw: 'Updated by n8n' },
		status: 'publish',
		comment_status: 'closed',
		ping_status: 'closed',
		format: 'aside',
		sticky: true,
		categories: [category.id],
	});

	// Pages.
	const [page] = nodeOutput(run, 'Create Page');
	expect(page).toMatchObject({ type: 'page', title: { rendered: 'About n8n' }, status: 'publish', menu_order: 3 });
	expect(nodeOutput(run, 'Get Page')).toEqual([expect.objectContaining({ id: page.id, status: 'draft', title: expect.objectContaining({ raw: 'About us' }) })]);
	expect(nodeOutput(run, 'Get Many Pages').map((p) => p.id)).toEqual([page.id]);
	expect((await cms.get(`/pages/${page.id}`, u.admin, { context: 'edit' })).body).toMatchObject({ title: { raw: 'About us' }, status: 'draft', menu_order: 3 });
}, 10 * 60_000);
