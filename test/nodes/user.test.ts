import type { App } from '../../server/src/app';
import { startSite, type CmsClient, siteUser, type SiteUsers } from '../helpers/content';
import { firstJson, harnessFor, runNode, siteCredential, type NodeParameters } from '../helpers/nodes';
import { basicAuth } from '../helpers/server';

/**
 * WDM User: every operation (users and their application passwords) through n8n's engine against the
 * live site, in both namespaces the credential can name; what the node did is read back over `cms/v2`.
 * Then the pickers (users, authors, application passwords) as n8n's editor runs them, and the Author
 * of WDM Post picked from the list.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

/** Each namespace in another addressing style, so that both styles are run too. */
const harness = (namespace: string, user = { name: 'admin', password: u.admin.password }) =>
	harnessFor({ wdmSiteApi: { ...siteCredential(server.url, namespace === 'cms/v2' ? 'restRoute' : 'wpJson', user), namespace } });
const user = (namespace: string, parameters: NodeParameters, as?: { name: string; password: string }) => runNode(harness(namespace, as), 'CUSTOM.wdmUser', parameters);
const fromList = (value: string | number) => ({ __rl: true, mode: 'list', value: String(value) });
const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

describe.each(['cms/v2', 'wp/v2'])('namespace %s', (namespace) => {
	const tag = namespace === 'cms/v2' ? 'c' : 'w';
	const rest = () => `${server.url}/wp-json/${namespace}`;

	test('users: create, get, get many, get me, update, update me, delete with reassign, delete me', async () => {
		const created = firstJson(
			await user(namespace, {
				operation: 'create',
				username: `${tag}-writer`,
				email: `${tag}-writer@example.com`,
				password: 'login secret',
				additionalFields: { first_name: 'Wri', last_name: 'Ter', roles: 'author', description: 'Writes', url: 'https://writer.example' },
			}),
		);
		expect(created).toMatchObject({ username: `${tag}-writer`, name: 'Wri Ter', roles: ['author'], url: 'https://writer.example' });
		expect(created._links.self[0].href).toBe(`${rest()}/users/${created.id}`);
		expect((await cms.get(`/users/${created.id}`, u.admin, { context: 'edit' })).body).toMatchObject({ email: `${tag}-writer@example.com`, description: 'Writes' });

		const got = firstJson(await user(namespace, { operation: 'get', userId: fromList(created.id), options: { context: 'edit' } }));
		expect(got).toMatchObject({ id: created.id, email: `${tag}-writer@example.com` });

		const many = await user(namespace, { operation: 'getMany', returnAll: false, limit: 2, filters: { roles: ['author'] }, options: { orderby: 'id', order: 'desc' } });
		expect(many.error).toBeUndefined();
		expect(many.items).toHaveLength(2);
		expect(many.items[0].json.id).toBe(created.id);
		expect(many.items.every((item) => item.json.slug !== undefined)).toBe(true);
		const all = await user(namespace, { operation: 'getMany', returnAll: true, filters: { who: 'authors', search: `${tag}-wri` } });
		expect(all.items.map((item) => item.json.id)).toEqual([created.id]);

		const me = firstJson(await user(namespace, { operation: 'getMe', options: { context: 'edit' } }));
		expect(me).toMatchObject({ id: u.admin.id, username: 'admin', roles: ['administrator'] });

		const updated = firstJson(await user(namespace, { operation: 'update', userId: byId(created.id), updateFields: { nickname: 'Wri', roles: 'editor', email: `${tag}-w2@example.com` } }));
		expect(updated).toMatchObject({ nickname: 'Wri', roles: ['editor'], email: `${tag}-w2@example.com` });
		expect(server.services.store.users.byId(created.id)!.role).toBe('editor');

		// Update Me and Delete Me, as a user of its own (an administrator, who may delete users).
		const self = siteUser(server, `${tag}-self`, 'administrator');
		const mine = firstJson(await user(namespace, { operation: 'updateMe', updateFields: { name: 'Myself', description: 'Me' } }, self));
		expect(mine).toMatchObject({ id: self.id, name: 'Myself' });
		expect(server.services.store.users.byId(self.id)!.display_name).toBe('Myself');

		// Delete, giving the posts to the administrator (picked from the list): read back.
		const { password } = server.services.store.users.createAppPassword(created.id, 'direct');
		const writer = { id: created.id, name: `${tag}-writer`, password, headers: { authorization: basicAuth(`${tag}-writer`, password) } };
		const post = await cms.create('/posts', writer, { title: `${tag} by writer`, status: 'publish' });
		expect(post.author).toBe(created.id);
		const deleted = firstJson(await user(namespace, { operation: 'delete', userId: byId(created.id), reassign: fromList(u.admin.id) }));
		expect(deleted).toMatchObject({ deleted: true, previous: { id: created.id } });
		expect((await cms.get(`/posts/${post.id}`, u.admin)).body.author).toBe(u.admin.id);
		expect(server.services.store.users.byId(created.id)).toBeUndefined();

		const selfPost = await cms.create('/posts', self, { title: `${tag} by self`, status: 'publish' });
		const gone = firstJson(await user(namespace, { operation: 'deleteMe', deleteContent: true }, self));
		expect(gone).toMatchObject({ deleted: true, previous: { id: self.id } });
		expect((await cms.get(`/posts/${selfPost.id}`, u.admin)).status).toBe(404);
	});

	test('application passwords: create, get, get many, update, introspect, delete, delete all', async () => {
		const owner = siteUser(server, `${tag}-owner`, 'author');
		const made = firstJson(await user(namespace, { operation: 'createAppPassword', userId: byId(owner.id), appName: 'n8n', additionalFields: { app_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' } }));
		expect(made).toMatchObject({ name: 'n8n', app_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', password: expect.stringMatching(/^(\w{4} ){5}\w{4}$/) });
		expect(made._links.self[0].href).toBe(`${rest()}/users/${owner.id}/application-passwords/${made.uuid}`);
		const asOwner = { name: owner.name, password: made.password };

		const got = firstJson(await user(namespace, { operation: 'getAppPassword', userId: byId(owner.id), uuid: byId(made.uuid) }));
		expect(got).toMatchObject({ uuid: made.uuid, name: 'n8n' });
		expect(got.password).toBeUndefined();
		const list = await user(namespace, { operation: 'getManyAppPasswords', userId: byId('me'), options: { context: 'view' } }, asOwner);
		expect(list.items.map((item) => item.json.name)).toEqual(['tests', 'n8n']);
		const renamed = firstJson(await user(namespace, { operation: 'updateAppPassword', userId: byId('me'), uuid: fromList(made.uuid), appName: 'n8n prod' }, asOwner));
		expect(renamed.name).toBe('n8n prod');
		expect(server.services.store.users.appPassword(owner.id, made.uuid)!.name).toBe('n8n prod');
		const introspected = firstJson(await user(namespace, { operation: 'introspectAppPassword', userId: byId('me') }, asOwner));
		expect(introspected).toMatchObject({ uuid: made.uuid, name: 'n8n prod', last_ip: '127.0.0.1' });

		const removed = firstJson(await user(namespace, { operation: 'deleteAppPassword', userId: byId(owner.id), uuid: byId(made.uuid) }));
		expect(removed).toMatchObject({ deleted: true, previous: { uuid: made.uuid } });
		expect((await cms.get('/users/me', { ...owner, headers: { authorization: basicAuth(owner.name, made.password) } })).status).toBe(401);
		const cleared = firstJson(await user(namespace, { operation: 'deleteAllAppPasswords', userId: fromList(owner.id) }));
		expect(cleared).toEqual({ deleted: true, count: 1 });
		expect(server.services.store.users.appPasswords(owner.id)).toEqual([]);
	});

	test("the site's refusals are node errors with WordPress's message", async () => {
		const run = await user(namespace, { operation: 'create', username: `${tag}-x`, email: 'x@example.com', password: 'p' }, { name: u.editor.name, password: u.editor.password });
		expect(run.error).toMatchObject({ message: 'Sorry, you are not allowed to create new users.', httpCode: '403' });
		const missing = await user(namespace, { operation: 'get', userId: byId(999999) });
		expect(missing.error).toMatchObject({ message: 'Invalid user ID.', httpCode: '404' });
	});
});

describe('pickers', () => {
	test('users, authors and application passwords, as the editor lists them; the Author of a post from the list', async () => {
		const h = harness('cms/v2');
		const users = await h.listSearch('CUSTOM.wdmUser', 'searchUser', { filter: 'ar' });
		expect(users.results).toEqual([{ name: 'arthur (arthur)', value: String(u.author.id), url: `${server.url}/?author=${u.author.id}` }]);
		const authors = await h.listSearch('CUSTOM.wdmPost', 'searchAuthor');
		expect(authors.results.map((r) => r.name)).not.toContain('sam (sam)');
		expect(authors.results.map((r) => r.name)).toContain('connie (connie)');
		const passwords = await h.listSearch('CUSTOM.wdmUser', 'searchAppPassword', { parameters: { operation: 'getAppPassword', userId: byId(u.author.id) } });
		expect(passwords.results).toEqual([{ name: expect.stringMatching(/^tests \(/), value: server.services.store.users.appPasswords(u.author.id)[0].uuid }]);

		const post = firstJson(await runNode(h, 'CUSTOM.wdmPost', { operation: 'create', title: 'By Arthur', additionalFields: { status: 'publish', author: fromList(u.author.id) } }));
		expect(post.author).toBe(u.author.id);
		expect((await cms.get(`/posts/${post.id}`, u.admin)).body.author).toBe(u.author.id);
		const updated = firstJson(await runNode(h, 'CUSTOM.wdmPost', { operation: 'update', postId: byId(post.id), updateFields: { author: byId(u.author2.id) } }));
		expect(updated.author).toBe(u.author2.id);
	});
});
