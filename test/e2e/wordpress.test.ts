// Real n8n, end to end, with n8n's OWN WordPress node (n8n-nodes-base.wordpress, credential
// wordpressApi): a client written for a stock WordPress, which speaks `wp/v2` only, runs every
// operation of its three resources (posts and pages: create, get, get many, update; users: create,
// get, get many, update) with their options on the reference server; what it did is read back over
// `cms/v2`. Then, on a running n8n (its REST API, as the editor calls it), the credential's Test
// button and the node's author picker (`getAuthors`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { cmsClient, type CmsClient, siteUser, siteUsers, type SiteUsers } from '../helpers/content';
import { PNG } from '../helpers/files';
import { ADMIN_APP_PASSWORD, startServer } from '../helpers/server';
import { ensureN8n, n8nCli, nodeOutput } from './n8n';
import { n8nServer } from './n8n-server';
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

/** An image in the media library (a page's featured media). */
async function uploadImage(): Promise<{ id: number }> {
	const res = await fetch(`${server.url}/wp-json/cms/v2/media`, {
		method: 'POST',
		headers: { ...u.admin.headers, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="cover.png"' },
		body: PNG,
	});
	if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
	return (await res.json()) as { id: number };
}

const credentialData = (password: string) => ({ url: server.url, username: 'admin', password, allowUnauthorizedCerts: false });

test("n8n's WordPress node: every operation of posts, pages and users, with their options", async () => {
	const category = await cms.create('/categories', u.admin, { name: 'From n8n' });
	const category2 = await cms.create('/categories', u.admin, { name: 'Moved by n8n' });
	const elsewhere = await cms.create('/categories', u.admin, { name: 'Elsewhere' });
	const tag = await cms.create('/tags', u.admin, { name: 'n8n' });
	const tag2 = await cms.create('/tags', u.admin, { name: 'n8n-updated' });
	const otherTag = await cms.create('/tags', u.admin, { name: 'other' });
	// Found by the search too, but not in the category: Get Many must leave it out.
	const other = await cms.create('/posts', u.admin, { title: 'Hello again, elsewhere', status: 'publish', categories: [elsewhere.id], tags: [otherTag.id] });
	const parent = await cms.create('/pages', u.admin, { title: 'Parent page', status: 'publish' });
	const cover = await uploadImage();
	const n8n = await n8nCli(path.join(dir, 'user'), path.join(dir, 'custom'));
	await n8n.importCredentials([{ ...wordpress, type: 'wordpressApi', data: credentialData(ADMIN_APP_PASSWORD) }]);
	await n8n.importWorkflow({
		id: 'wdmE2eWordpress1',
		name: 'WordPress node on the reference server',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			// Posts: every field of Create and Update, Get with its options, Get Many with every filter.
			wp('Create Post', {
				resource: 'post',
				operation: 'create',
				title: 'Hello from n8n',
				additionalFields: {
					authorId: u.author.id,
					content: 'Written by the WordPress node',
					status: 'publish',
					slug: 'hello-from-n8n',
					date: '2024-05-01T09:30:00',
					commentStatus: 'closed',
					pingStatus: 'closed',
					format: 'aside',
					sticky: true,
					categories: [category.id],
					tags: [tag.id],
					postTemplate: { values: { elementor: false, template: 'single-wide.php' } },
				},
			}),
			wp('Update Post', {
				resource: 'post',
				operation: 'update',
				postId: '={{ $json.id }}',
				updateFields: {
					authorId: u.author2.id,
					title: 'Hello again',
					content: 'Updated by n8n',
					slug: 'hello-again',
					status: 'publish',
					commentStatus: 'open',
					pingStatus: 'open',
					format: 'status',
					date: '2024-06-01T10:00:00',
					categories: [category.id, category2.id],
					tags: [tag2.id],
					postTemplate: { values: { elementor: true, template: 'elementor_canvas' } },
				},
			}),
			wp('Get Post', { resource: 'post', operation: 'get', postId: '={{ $json.id }}', options: { context: 'edit' } }),
			wp('Get Many Posts', {
				resource: 'post',
				operation: 'getAll',
				returnAll: true,
				options: {
					context: 'view',
					search: 'Hello again',
					author: [u.author2.id],
					categories: [category.id],
					excludedCategories: [elsewhere.id],
					tags: [tag2.id],
					excludedTags: [otherTag.id],
					after: '2024-01-01T00:00:00',
					before: '2025-01-01T00:00:00',
					status: 'publish',
					sticky: true,
					orderBy: 'title',
					order: 'asc',
				},
			}),
			wp('Create Protected Post', {
				resource: 'post',
				operation: 'create',
				title: 'Members only',
				additionalFields: { content: 'The secret recipe', status: 'publish', password: 'open sesame' },
			}),
			wp('Get Protected Post', { resource: 'post', operation: 'get', postId: '={{ $json.id }}', options: { password: 'open sesame' } }),
			wp('Get Many Posts Limit', { resource: 'post', operation: 'getAll', returnAll: false, limit: 1, options: { orderBy: 'id', order: 'desc' } }),
			// Pages: every field of Create and Update, Get with its options, Get Many with every filter.
			wp('Create Page', {
				resource: 'page',
				operation: 'create',
				title: 'About n8n',
				additionalFields: {
					authorId: u.editor.id,
					parent: parent.id,
					content: 'A page',
					slug: 'about-n8n',
					status: 'publish',
					commentStatus: 'open',
					pingStatus: 'open',
					pageTemplate: { values: { elementor: true, template: 'elementor_header_footer' } },
					menuOrder: 3,
					featuredMediaId: cover.id,
				},
			}),
			wp('Update Page', {
				resource: 'page',
				operation: 'update',
				pageId: '={{ $json.id }}',
				updateFields: {
					authorId: u.admin.id,
					title: 'About us',
					content: 'An updated page',
					slug: 'about-us',
					password: 'members',
					status: 'draft',
					commentStatus: 'closed',
					pingStatus: 'closed',
					pageTemplate: { values: { elementor: false, template: 'page-wide.php' } },
					menuOrder: 5,
				},
			}),
			wp('Get Page', { resource: 'page', operation: 'get', pageId: '={{ $json.id }}', options: { context: 'edit', password: 'members' } }),
			wp('Get Many Pages', {
				resource: 'page',
				operation: 'getAll',
				returnAll: false,
				limit: 5,
				options: {
					context: 'edit',
					status: 'draft',
					orderBy: 'title',
					order: 'asc',
					search: 'About',
					author: [u.admin.id],
					parent: parent.id,
					menuOrder: 5,
					after: '2000-01-01T00:00:00',
					before: '2100-01-01T00:00:00',
					page: 1,
				},
			}),
			wp('Get All Pages', { resource: 'page', operation: 'getAll', returnAll: true, options: { status: 'publish' } }),
			// Users: every field of Create and Update, Get with its context, Get Many with its options.
			wp('Create User', {
				resource: 'user',
				operation: 'create',
				username: 'nate',
				name: 'Nate from n8n',
				firstName: 'Nate',
				lastName: 'Eight',
				email: 'nate@example.com',
				password: 'nate login password',
				additionalFields: { url: 'https://nate.example', description: 'Made by n8n', nickname: 'natty', slug: 'nate-n8n' },
			}),
			wp('Update User', {
				resource: 'user',
				operation: 'update',
				userId: '={{ $json.id }}',
				updateFields: {
					username: 'nate',
					name: 'Nathan',
					firstName: 'Nathan',
					lastName: 'Eighty',
					email: 'nathan@example.com',
					password: 'another login password',
					url: 'https://nathan.example',
					description: 'Updated by n8n',
					nickname: 'nat',
					slug: 'nathan',
				},
			}),
			wp('Get User', { resource: 'user', operation: 'get', userId: '={{ $json.id }}', options: { context: 'edit' } }),
			wp('Get Many Users', { resource: 'user', operation: 'getAll', returnAll: true, options: { context: 'edit', search: 'nat', orderBy: 'registered_date', order: 'desc' } }),
			wp('Get Many Authors', { resource: 'user', operation: 'getAll', returnAll: false, limit: 50, options: { context: 'view', who: 'authors', orderBy: 'name', order: 'asc' } }),
		],
		connections: {
			'Manual Trigger': {
				main: [
					[
						{ node: 'Create Post', type: 'main', index: 0 },
						{ node: 'Create Protected Post', type: 'main', index: 0 },
						{ node: 'Create Page', type: 'main', index: 0 },
						{ node: 'Create User', type: 'main', index: 0 },
					],
				],
			},
			'Create Post': link('Update Post'),
			'Update Post': link('Get Post'),
			'Get Post': link('Get Many Posts'),
			'Create Protected Post': link('Get Protected Post'),
			'Get Protected Post': link('Get Many Posts Limit'),
			'Create Page': link('Update Page'),
			'Update Page': link('Get Page'),
			'Get Page': link('Get Many Pages'),
			'Get Many Pages': link('Get All Pages'),
			'Create User': link('Update User'),
			'Update User': link('Get User'),
			'Get User': link('Get Many Users'),
			'Get Many Users': link('Get Many Authors'),
		},
	});
	const run = await n8n.execute('wdmE2eWordpress1');
	expect(run.status).toBe('success');

	// Posts: what the node answered, and what the server stored.
	const [created] = nodeOutput(run, 'Create Post');
	expect(created).toMatchObject({ title: { rendered: 'Hello from n8n' }, status: 'publish', slug: 'hello-from-n8n', sticky: true, format: 'aside', author: u.author.id });
	expect(created._links.self[0].href).toBe(`${server.url}/wp-json/wp/v2/posts/${created.id}`);
	expect(nodeOutput(run, 'Update Post')).toEqual([expect.objectContaining({ id: created.id, title: expect.objectContaining({ rendered: 'Hello again' }) })]);
	expect(nodeOutput(run, 'Get Post')).toEqual([expect.objectContaining({ id: created.id, title: { raw: 'Hello again', rendered: 'Hello again' } })]);
	expect(nodeOutput(run, 'Get Many Posts').map((post) => post.id)).toEqual([created.id]);
	expect((await cms.get('/posts', u.admin, { search: 'Hello again' })).body.map((post: { id: number }) => post.id).sort()).toEqual([created.id, other.id].sort());
	const stored = (await cms.get(`/posts/${created.id}`, u.admin, { context: 'edit' })).body;
	expect(stored).toMatchObject({
		title: { raw: 'Hello again' },
		content: { raw: 'Updated by n8n' },
		slug: 'hello-again',
		status: 'publish',
		author: u.author2.id,
		date: '2024-06-01T10:00:00',
		comment_status: 'open',
		ping_status: 'open',
		format: 'status',
		sticky: true,
		template: 'elementor_canvas',
		categories: [category.id, category2.id],
		tags: [tag2.id],
	});
	const [secret] = nodeOutput(run, 'Get Protected Post');
	expect(secret.content).toMatchObject({ protected: true, rendered: expect.stringContaining('The secret recipe') });
	expect(nodeOutput(run, 'Get Many Posts Limit').map((post) => post.id)).toEqual([secret.id]);

	// Pages.
	const [page] = nodeOutput(run, 'Create Page');
	expect(page).toMatchObject({ type: 'page', title: { rendered: 'About n8n' }, status: 'publish', menu_order: 3, parent: parent.id, author: u.editor.id, featured_media: cover.id, template: 'elementor_header_footer' });
	expect(nodeOutput(run, 'Get Page')).toEqual([expect.objectContaining({ id: page.id, status: 'draft', title: expect.objectContaining({ raw: 'About us' }), content: expect.objectContaining({ raw: 'An updated page' }) })]);
	expect(nodeOutput(run, 'Get Many Pages').map((p) => p.id)).toEqual([page.id]);
	expect(nodeOutput(run, 'Get All Pages').map((p) => p.id)).toEqual([parent.id]);
	expect((await cms.get(`/pages/${page.id}`, u.admin, { context: 'edit' })).body).toMatchObject({
		title: { raw: 'About us' },
		slug: 'about-us',
		status: 'draft',
		password: 'members',
		menu_order: 5,
		author: u.admin.id,
		comment_status: 'closed',
		ping_status: 'closed',
		template: 'page-wide.php',
	});

	// Users.
	const [user] = nodeOutput(run, 'Create User');
	expect(user).toMatchObject({ username: 'nate', name: 'Nate from n8n', first_name: 'Nate', last_name: 'Eight', email: 'nate@example.com', slug: 'nate-n8n', roles: ['subscriber'] });
	expect(user._links.self[0].href).toBe(`${server.url}/wp-json/wp/v2/users/${user.id}`);
	const nathan = { username: 'nate', name: 'Nathan', first_name: 'Nathan', last_name: 'Eighty', email: 'nathan@example.com', url: 'https://nathan.example', description: 'Updated by n8n', nickname: 'nat', slug: 'nathan' };
	expect(nodeOutput(run, 'Update User')).toEqual([expect.objectContaining(nathan)]);
	expect(nodeOutput(run, 'Get User')).toEqual([expect.objectContaining({ id: user.id, ...nathan })]);
	expect(nodeOutput(run, 'Get Many Users')).toEqual([expect.objectContaining({ id: user.id, email: 'nathan@example.com' })]);
	const authors = (await cms.get('/users', u.admin, { who: 'authors', per_page: 100 })).body.map((a: { id: number }) => a.id);
	expect(nodeOutput(run, 'Get Many Authors').map((a) => a.id)).toEqual(authors);
	expect(authors).not.toContain(user.id);
	expect((await cms.get(`/users/${user.id}`, u.admin, { context: 'edit' })).body).toMatchObject(nathan);
	const row = server.services.store.users.byId(user.id)!;
	expect(server.services.store.users.checkLoginPassword(row, 'another login password')).toBe(true);
}, 10 * 60_000);

test("n8n's WordPress credential Test button and author picker, on a running n8n", async () => {
	const n8n = await n8nServer(path.join(dir, 'server'), path.join(dir, 'custom'));
	await n8n.importCredentials([{ ...wordpress, type: 'wordpressApi', data: credentialData(ADMIN_APP_PASSWORD) }]);
	await n8n.start();
	try {
		// The editor's session: the owner n8n asks for on a new instance.
		const browser = { 'browser-id': 'wdm-e2e-browser' };
		const setup = await fetch(`${n8n.url}/rest/owner/setup`, {
			method: 'POST',
			headers: { ...browser, 'content-type': 'application/json' },
			body: JSON.stringify({ email: 'owner@example.com', firstName: 'Owner', lastName: 'E2e', password: 'Wdm-e2e-Passw0rd' }),
		});
		expect(setup.status).toBe(200);
		const cookie = setup.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
		const rest = async (route: string, body: object) => {
			const res = await fetch(`${n8n.url}/rest${route}`, { method: 'POST', headers: { ...browser, cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
			const text = await res.text();
			if (res.status !== 200) throw new Error(`${route}: ${res.status} ${text}`);
			return (JSON.parse(text) as { data: any }).data;
		};

		// Test button: the credential as saved, then with a wrong application password.
		const test = (password: string) => rest('/credentials/test', { credentials: { ...wordpress, type: 'wordpressApi', data: credentialData(password) } });
		expect(await test(ADMIN_APP_PASSWORD)).toEqual({ status: 'OK', message: 'Connection successful!' });
		// n8n shows the 401's status text (the site's answer is `incorrect_password`, 401).
		expect(await test('wrong pass word 1234')).toEqual({ status: 'Error', message: 'Unauthorized' });

		// The author picker of Create Post (its loadOptions `getAuthors`: GET wp/v2/users?who=authors, 10 a
		// page): with more than ten authors it pages on, until X-WP-TotalPages.
		for (let i = 1; i <= 8; i++) siteUser(server, `writer${i}`, 'contributor');
		const options = await rest('/dynamic-node-parameters/options', {
			nodeTypeAndVersion: { name: 'n8n-nodes-base.wordpress', version: 1 },
			methodName: 'getAuthors',
			path: 'additionalFields.authorId',
			currentNodeParameters: { authType: 'basicAuth', resource: 'post', operation: 'create', title: '', additionalFields: {} },
			credentials: { wordpressApi: wordpress },
		});
		const authors = (await cms.get('/users', u.admin, { who: 'authors', per_page: 100 })).body as { id: number; name: string }[];
		expect(authors.length).toBeGreaterThan(10);
		expect(options).toEqual(authors.map((a) => ({ name: a.name, value: a.id })));
	} catch (error) {
		throw new Error(`${(error as Error).message}\n--- n8n log ---\n${n8n.log().slice(-3000)}`);
	} finally {
		await n8n.stop();
	}
}, 10 * 60_000);
