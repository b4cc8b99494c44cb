import Database from 'better-sqlite3';
import type { App } from '../../server/src/app';
import { migrations } from '../../server/src/store/schema';
import { cmsClient, startSite, type CmsClient, siteUser, type SiteUser, type SiteUsers } from '../helpers/content';
import { basicAuth, client, connectedDevice, expectWpError } from '../helpers/server';

/** `cms/v2/users` and `…/application-passwords` (WordPress's users and application passwords controllers) over real HTTP. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
/** An author with a published post: the public may see them. */
let published: SiteUser;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	published = siteUser(server, 'pablo', 'author');
	await cms.create('/posts', published, { title: 'By Pablo', status: 'publish' });
});
afterAll(() => server.close());

const signIn = (name: string, password: string): SiteUser => ({ id: 0, name, password, headers: { authorization: basicAuth(name, password) } });
const ids = (body: { id: number }[]) => body.map((x) => x.id);
const FORBIDDEN_LIST = 'Sorry, you are not allowed to list users.';

describe('reading users', () => {
	test('me: every role reads itself in every context; the anonymous caller is 401', async () => {
		for (const who of ['admin', 'editor', 'author', 'contributor', 'subscriber'] as const) {
			const res = await cms.get('/users/me', u[who], { context: 'edit' });
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({ id: u[who].id, username: u[who].name, roles: [who === 'admin' ? 'administrator' : who] });
		}
		expectWpError(await cms.get('/users/me', u.anonymous), 401, 'rest_not_logged_in', 'You are not currently logged in.');
	});

	test('fields per context, as WordPress shows them', async () => {
		const edit = (await cms.get(`/users/${u.author.id}`, u.admin, { context: 'edit' })).body;
		expect(Object.keys(edit)).toEqual([
			'id',
			'username',
			'name',
			'first_name',
			'last_name',
			'email',
			'url',
			'description',
			'link',
			'locale',
			'nickname',
			'slug',
			'roles',
			'registered_date',
			'capabilities',
			'extra_capabilities',
			'avatar_urls',
			'meta',
			'_links',
		]);
		expect(edit).toMatchObject({
			id: u.author.id,
			username: 'arthur',
			name: 'arthur',
			nickname: 'arthur',
			slug: 'arthur',
			locale: 'en_US',
			link: `${server.url}/?author=${u.author.id}`,
			roles: ['author'],
			extra_capabilities: { author: true },
			meta: { persisted_preferences: [] },
			_links: { self: [{ href: `${server.url}/wp-json/cms/v2/users/${u.author.id}` }], collection: [{ href: `${server.url}/wp-json/cms/v2/users` }] },
		});
		expect(edit.registered_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
		expect(edit.capabilities).toMatchObject({ author: true, publish_posts: true, upload_files: true, level_2: true, level_0: true });
		expect(edit.capabilities.level_3).toBeUndefined();
		expect(edit.capabilities.edit_others_posts).toBeUndefined();
		expect(Object.keys(edit.avatar_urls)).toEqual(['24', '48', '96']);
		const view = (await cms.get(`/users/${u.author.id}`, u.admin)).body;
		expect(Object.keys(view)).toEqual(['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', 'meta', '_links']);
		const embed = (await cms.get(`/users/${u.author.id}`, u.admin, { context: 'embed' })).body;
		expect(Object.keys(embed)).toEqual(['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', '_links']);
	});

	test('an item: oneself always; others need list_users, published posts, or edit_users; 404 and no route', async () => {
		// The public and every role see an author of published posts, in the view context.
		for (const who of ['anonymous', 'subscriber', 'editor'] as const) {
			expect((await cms.get(`/users/${published.id}`, u[who])).body).toMatchObject({ id: published.id, name: 'pablo' });
		}
		// Without published posts, only whoever may list users.
		expectWpError(await cms.get(`/users/${u.author2.id}`, u.anonymous), 401, 'rest_user_cannot_view', FORBIDDEN_LIST);
		expectWpError(await cms.get(`/users/${u.author2.id}`, u.editor), 403, 'rest_user_cannot_view', FORBIDDEN_LIST);
		expect((await cms.get(`/users/${u.author2.id}`, u.author2, { context: 'edit' })).body.username).toBe('ada');
		// The edit context of another user needs list_users, even for an author of published posts.
		expectWpError(await cms.get(`/users/${published.id}`, u.editor, { context: 'edit' }), 403, 'rest_forbidden_context', FORBIDDEN_LIST);
		expectWpError(await cms.get('/users/999999', u.admin), 404, 'rest_user_invalid_id', 'Invalid user ID.');
		expect((await cms.get('/users/abc', u.admin)).body.code).toBe('rest_no_route');
	});

	test('the collection: administrators list everyone; the others see authors of published posts only', async () => {
		const all = await cms.get('/users', u.admin, { per_page: 100 });
		expect(all.status).toBe(200);
		expect(ids(all.body).sort((a, b) => a - b)).toEqual(
			[u.admin.id, u.editor.id, u.author.id, u.author2.id, u.contributor.id, u.subscriber.id, published.id].sort((a, b) => a - b),
		);
		// Ordered by name, ascending, by default.
		expect(all.body.map((x: { name: string }) => x.name)).toEqual(['ada', 'admin', 'arthur', 'connie', 'edna', 'pablo', 'sam']);
		expect(all.headers.get('x-wp-total')).toBe('7');
		for (const who of ['anonymous', 'subscriber', 'editor'] as const) {
			const res = await cms.get('/users', u[who]);
			expect(ids(res.body)).toEqual([published.id]);
			expect(res.headers.get('x-wp-total')).toBe('1');
		}
		expectWpError(await cms.get('/users', u.editor, { context: 'edit' }), 403, 'rest_forbidden_context', FORBIDDEN_LIST);
		expectWpError(await cms.get('/users', u.anonymous, { context: 'edit' }), 401, 'rest_forbidden_context', FORBIDDEN_LIST);
		expectWpError(await cms.get('/users', u.editor, { roles: 'author' }), 403, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.');
		expectWpError(
			await cms.get('/users', u.author, { capabilities: 'edit_posts' }),
			403,
			'rest_user_cannot_view',
			'Sorry, you are not allowed to filter users by capability.',
		);
		expectWpError(
			await cms.get('/users', u.author, { orderby: 'email' }),
			403,
			'rest_forbidden_orderby',
			'Sorry, you are not allowed to order users by this parameter.',
		);
	});

	test('who=authors: everyone above subscriber, for whoever may edit posts', async () => {
		const authors = await cms.get('/users', u.contributor, { who: 'authors', per_page: 100 });
		expect(authors.body.map((x: { name: string }) => x.name)).toEqual(['ada', 'admin', 'arthur', 'connie', 'edna', 'pablo']);
		const forbidden = 'Sorry, you are not allowed to query users by this parameter.';
		expectWpError(await cms.get('/users', u.subscriber, { who: 'authors' }), 403, 'rest_forbidden_who', forbidden);
		expectWpError(await cms.get('/users', u.anonymous, { who: 'authors' }), 401, 'rest_forbidden_who', forbidden);
	});

	test('filters, order, paging', async () => {
		const names = async (query: Record<string, unknown>) => (await cms.get('/users', u.admin, query)).body.map((x: { name: string }) => x.name);
		expect(await names({ roles: 'author' })).toEqual(['ada', 'arthur', 'pablo']);
		expect(await names({ roles: ['editor', 'subscriber'] })).toEqual(['edna', 'sam']);
		expect(await names({ capabilities: 'edit_others_posts' })).toEqual(['admin', 'edna']);
		expect(await names({ search: 'ar' })).toEqual(['arthur']);
		expect(await names({ search: '*dn*' })).toEqual(['edna']);
		expect(await names({ include: [u.subscriber.id, u.admin.id], orderby: 'include' })).toEqual(['sam', 'admin']);
		expect(await names({ exclude: [u.admin.id], per_page: 2 })).toEqual(['ada', 'arthur']);
		expect(await names({ slug: ['sam', 'edna'], orderby: 'include_slugs' })).toEqual(['sam', 'edna']);
		expect(await names({ slug: ['sam', "o'hara", 'edna'], orderby: 'include_slugs', order: 'desc' })).toEqual(['edna', 'sam']);
		expect(await names({ orderby: 'id', order: 'desc', per_page: 1 })).toEqual(['pablo']);
		expect(await names({ has_published_posts: true })).toEqual(['pablo']);
		expect(await names({ has_published_posts: 'page' })).toEqual([]);
		expect(await names({ offset: 5 })).toEqual(['pablo', 'sam']);
		const page = await cms.get('/users', u.admin, { per_page: 3, page: 2 });
		expect(page.body.map((x: { name: string }) => x.name)).toEqual(['connie', 'edna', 'pablo']);
		expect([page.headers.get('x-wp-total'), page.headers.get('x-wp-totalpages')]).toEqual(['7', '3']);
		expect(page.headers.get('link')).toContain('rel="prev"');
		expect(page.headers.get('link')).toContain('rel="next"');
		expect((await cms.get('/users', u.admin, { per_page: 101 })).body.code).toBe('rest_invalid_param');
		expect((await cms.get('/users', u.admin, { orderby: 'nope' })).body.data.params.orderby).toBeDefined();
	});
});

describe('every role', () => {
	const ROLES = ['admin', 'editor', 'author', 'contributor', 'subscriber', 'anonymous'] as const;
	/** The status each role gets: administrators may, signed-in others are 403, the anonymous caller 401. */
	const onlyAdmin = (who: (typeof ROLES)[number], ok: number) => (who === 'admin' ? ok : who === 'anonymous' ? 401 : 403);

	test('what each role may do with another user (one without published posts) and with itself', async () => {
		for (const who of ROLES) {
			const target = siteUser(server, `target-${who}`, 'author');
			const as = u[who];
			const statuses = {
				list: (await cms.get('/users', as)).status,
				listEdit: (await cms.get('/users', as, { context: 'edit' })).status,
				get: (await cms.get(`/users/${target.id}`, as)).status,
				create: (await cms.post('/users', as, { username: `made-by-${who}`, email: `made-by-${who}@example.com`, password: 'x y z' })).status,
				update: (await cms.post(`/users/${target.id}`, as, { description: `by ${who}` })).status,
				passwords: (await cms.get(`/users/${target.id}/application-passwords`, as)).status,
				newPassword: (await cms.post(`/users/${target.id}/application-passwords`, as, { name: `by ${who}` })).status,
				me: (await cms.get('/users/me', as)).status,
				myPasswords: (await cms.get('/users/me/application-passwords', as)).status,
				delete: (await cms.delete(`/users/${target.id}`, as, { force: true, reassign: u.admin.id })).status,
			};
			expect({ who, ...statuses }).toEqual({
				who,
				list: 200,
				listEdit: onlyAdmin(who, 200),
				get: onlyAdmin(who, 200),
				create: onlyAdmin(who, 201),
				update: onlyAdmin(who, 200),
				passwords: onlyAdmin(who, 200),
				newPassword: onlyAdmin(who, 201),
				me: who === 'anonymous' ? 401 : 200,
				myPasswords: who === 'anonymous' ? 401 : 200,
				delete: onlyAdmin(who, 200),
			});
			// What was refused left nothing behind.
			expect(!!server.services.store.users.byName(`made-by-${who}`)).toBe(who === 'admin');
			expect(!!server.services.store.users.byId(target.id)).toBe(who !== 'admin');
		}
		// Every signed-in role edits itself (and makes itself application passwords).
		for (const who of ['editor', 'author', 'contributor', 'subscriber'] as const) {
			expect((await cms.post('/users/me', u[who], { description: `I am ${who}` })).body.description).toBe(`I am ${who}`);
			expect((await cms.post(`/users/${u[who].id}/application-passwords`, u[who], { name: `own ${who}` })).status).toBe(201);
		}
	});
});

describe('writing users', () => {
	const body = (name: string, extra: Record<string, unknown> = {}) => ({ username: name, email: `${name}@example.com`, password: `${name} secret`, ...extra });

	test('create: 201 with Location, the user in the edit context, read back; a subscriber by default', async () => {
		const res = await cms.post('/users', u.admin, body('newbie', { first_name: 'New', last_name: 'Bie', url: 'https://newbie.example', description: 'Hi', meta: { any: 1 } }));
		expect(res.status).toBe(201);
		expect(res.headers.get('location')).toBe(`${server.url}/wp-json/cms/v2/users/${res.body.id}`);
		expect(res.body).toMatchObject({
			username: 'newbie',
			name: 'New Bie',
			first_name: 'New',
			last_name: 'Bie',
			email: 'newbie@example.com',
			url: 'https://newbie.example',
			description: 'Hi',
			nickname: 'newbie',
			slug: 'newbie',
			roles: ['subscriber'],
			meta: { persisted_preferences: [] },
		});
		expect(res.body.password).toBeUndefined();
		expect((await cms.get(`/users/${res.body.id}`, u.admin, { context: 'edit' })).body).toEqual(res.body);
		// The same user for the server: one store. Its login password is stored hashed, and is no way in.
		const row = server.services.store.users.byId(res.body.id)!;
		expect(row.password_hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
		expect(server.services.store.users.checkLoginPassword(row, 'newbie secret')).toBe(true);
		expectWpError(await cms.get('/users/me', signIn('newbie', 'newbie secret')), 401, 'incorrect_password', 'The provided password is an invalid application password.');
	});

	test('create: roles, name and slug as given; WordPress errors', async () => {
		const res = await cms.post('/users', u.admin, body('wendy', { name: 'Wendy W.', slug: 'Wendy Writes', roles: ['author'], nickname: 'wen' }));
		expect(res.body).toMatchObject({ name: 'Wendy W.', slug: 'wendy-writes', roles: ['author'], nickname: 'wen' });
		// A slug in use is made unique.
		expect((await cms.post('/users', u.admin, body('wendy2', { slug: 'wendy-writes' }))).body.slug).toBe('wendy-writes-2');
		expectWpError(await cms.post('/users', u.editor, body('nope')), 403, 'rest_cannot_create_user', 'Sorry, you are not allowed to create new users.');
		expectWpError(await cms.post('/users', u.anonymous, body('nope')), 401, 'rest_cannot_create_user', 'Sorry, you are not allowed to create new users.');
		expect((await cms.post('/users', u.admin, { username: 'x' })).body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['email', 'password'] } });
		expectWpError(await cms.post('/users', u.admin, body('wendy', { email: 'other@example.com' })), 400, 'existing_user_login', 'Sorry, that username already exists!');
		expectWpError(await cms.post('/users', u.admin, body('other', { email: 'WENDY@example.com' })), 400, 'existing_user_email', 'Sorry, that email address is already used!');
		expectWpError(
			await cms.post('/users', u.admin, body('bad/name')),
			400,
			'rest_user_invalid_username',
			'This username is invalid because it uses illegal characters. Please enter a valid username.',
		);
		expectWpError(await cms.post('/users', u.admin, body('nopass', { password: '' })), 400, 'rest_user_invalid_password', 'Passwords cannot be empty.');
		expectWpError(await cms.post('/users', u.admin, body('norole', { roles: ['king'] })), 400, 'rest_user_invalid_role', 'The role king does not exist.');
		const email = await cms.post('/users', u.admin, body('bademail', { email: 'not-an-email' }));
		expect(email.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { email: expect.stringContaining('email address') } } });
		expect((await cms.post('/users', u.admin, body('badurl', { url: 'ftp:/x' }))).body.data.params.url).toBeDefined();
		// Nothing half-written.
		expect(server.services.store.users.byName('bademail')).toBeUndefined();
	});

	test('update: oneself, or edit_users; roles need promote_users; the username and taken email or slug are refused', async () => {
		const sub = siteUser(server, 'subby', 'subscriber');
		const mine = await cms.post('/users/me', sub, { name: 'Subby S.', description: 'About me', id: String(sub.id) });
		expect(mine.body).toMatchObject({ id: sub.id, name: 'Subby S.', description: 'About me' });
		expect((await cms.patch(`/users/${sub.id}`, sub, { first_name: 'Sub' })).body.first_name).toBe('Sub');
		expect((await cms.put(`/users/${sub.id}`, u.admin, { last_name: 'By' })).body.last_name).toBe('By');
		// PUT and PATCH of `me` update as POST does.
		expect((await cms.put('/users/me', sub, { nickname: 'subs' })).body).toMatchObject({ id: sub.id, nickname: 'subs' });
		expect((await cms.patch('/users/me', sub, { url: 'https://sub.example' })).body).toMatchObject({ id: sub.id, url: 'https://sub.example' });
		expect((await cms.get('/users/me', sub, { context: 'edit' })).body).toMatchObject({ nickname: 'subs', url: 'https://sub.example' });
		// An emptied name is the login again.
		expect((await cms.post('/users/me', sub, { name: '' })).body.name).toBe('subby');
		expectWpError(await cms.post(`/users/${u.author.id}`, sub, { name: 'X' }), 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this user.');
		expectWpError(await cms.post(`/users/${sub.id}`, u.editor, { name: 'X' }), 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this user.');
		expectWpError(await cms.post('/users/me', u.anonymous, { name: 'X' }), 404, 'rest_user_invalid_id', 'Invalid user ID.');
		expectWpError(await cms.post(`/users/${sub.id}`, sub, { roles: ['editor'] }), 403, 'rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.');
		expect((await cms.post(`/users/${sub.id}`, u.admin, { roles: ['contributor'] })).body.roles).toEqual(['contributor']);
		expect(server.services.store.users.byId(sub.id)!.role).toBe('contributor');
		expectWpError(await cms.post('/users/me', u.admin, { roles: ['editor'] }), 403, 'rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.');
		expect((await cms.post(`/users/${sub.id}`, u.admin, { roles: ['editor', 'author'] })).body.data.params.roles).toBeDefined();
		expectWpError(await cms.post(`/users/${sub.id}`, sub, { username: 'renamed' }), 400, 'rest_user_invalid_argument', "Username isn't editable.");
		await cms.post(`/users/${u.author.id}`, u.admin, { email: 'arthur@example.com' });
		expectWpError(await cms.post(`/users/${sub.id}`, sub, { email: 'arthur@example.com' }), 400, 'rest_user_invalid_email', 'Invalid email address.');
		expectWpError(await cms.post(`/users/${sub.id}`, sub, { slug: 'arthur' }), 400, 'rest_user_invalid_slug', 'Invalid slug.');
		expect((await cms.post(`/users/${sub.id}`, sub, { slug: 'Sub Slug', password: 'new one' })).body.slug).toBe('sub-slug');
		expect(server.services.store.users.checkLoginPassword(server.services.store.users.byId(sub.id)!, 'new one')).toBe(true);
		expectWpError(await cms.post('/users/999999', u.admin, { name: 'X' }), 404, 'rest_user_invalid_id', 'Invalid user ID.');
	});

	test('delete: force and reassign required; the posts go to the reassigned user, or with the user', async () => {
		const leaver = siteUser(server, 'leaver', 'author');
		const post = await cms.create('/posts', leaver, { title: 'Left behind', status: 'publish' });
		// A gateway device of theirs, used (so the server has read it) before they are deleted.
		const leaverKey = server.services.store.users.newApiKey(leaver.id);
		const device = await connectedDevice(server, 'leavers-phone', leaverKey);
		expect((await client(server.url).get('/contacts', { token: device.token })).status).toBe(200);
		expect((await client(server.url).get('/devices/leavers-phone/status', { key: leaverKey })).status).toBe(200);
		const draft = await cms.create('/posts', leaver, { title: 'Draft behind' });
		expect((await cms.delete(`/users/${leaver.id}`, u.admin, { force: true })).body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['reassign'] } });
		expectWpError(
			await cms.delete(`/users/${leaver.id}`, u.admin, { reassign: u.admin.id }),
			501,
			'rest_trash_not_supported',
			"Users do not support trashing. Set 'force=true' to delete.",
		);
		expectWpError(await cms.delete(`/users/${leaver.id}`, u.admin, { force: true, reassign: leaver.id }), 400, 'rest_user_invalid_reassign', 'Invalid user ID for reassignment.');
		expectWpError(await cms.delete(`/users/${leaver.id}`, u.admin, { force: true, reassign: 999999 }), 400, 'rest_user_invalid_reassign', 'Invalid user ID for reassignment.');
		expect((await cms.delete(`/users/${leaver.id}`, u.admin, { force: true, reassign: 'someone' })).body.code).toBe('rest_invalid_param');
		expectWpError(
			await cms.delete(`/users/${leaver.id}`, u.editor, { force: true, reassign: u.admin.id }),
			403,
			'rest_user_cannot_delete',
			'Sorry, you are not allowed to delete this user.',
		);
		expectWpError(await cms.delete('/users/me', leaver, { force: true, reassign: u.admin.id }), 403, 'rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.');

		const res = await cms.delete(`/users/${leaver.id}`, u.admin, { force: true, reassign: u.editor.id });
		expect(res.body).toMatchObject({ deleted: true, previous: { id: leaver.id, username: 'leaver', roles: ['author'] } });
		expectWpError(await cms.get(`/users/${leaver.id}`, u.admin), 404, 'rest_user_invalid_id', 'Invalid user ID.');
		expect((await cms.get(`/posts/${post.id}`, u.admin)).body.author).toBe(u.editor.id);
		expect((await cms.get(`/posts/${draft.id}`, u.admin)).body.author).toBe(u.editor.id);
		expect(ids((await cms.get('/posts', u.admin, { author: u.editor.id, status: 'any' })).body)).toEqual(expect.arrayContaining([post.id, draft.id]));
		// Its devices and API key went with it: neither signs in any more.
		const refused = async (answer: Promise<{ status: number; body: { message?: string } }>) => {
			const { status, body } = await answer;
			return { status, message: body.message };
		};
		expect(await refused(client(server.url).get('/contacts', { token: device.token }))).toEqual({ status: 401, message: 'invalid instance token' });
		expect(await refused(client(server.url).get('/devices/leavers-phone/status', { key: leaverKey }))).toEqual({ status: 401, message: 'invalid API key' });
		// Its application passwords went with it.
		expectWpError(await cms.get('/users/me', leaver), 401, 'invalid_username', 'Unknown username. Check again or try your email address.');

		// reassign=false: its posts are deleted with it (also from the body, where WordPress reads it too).
		const gone = siteUser(server, 'gone', 'author');
		const lost = await cms.create('/posts', gone, { title: 'Lost', status: 'publish' });
		expect((await cms.delete(`/users/${gone.id}`, u.admin, { force: true, reassign: 'false' })).body.deleted).toBe(true);
		expect((await cms.get(`/posts/${lost.id}`, u.admin)).body.code).toBe('rest_post_invalid_id');
		// An administrator deletes itself through /users/me.
		const root = siteUser(server, 'root', 'administrator');
		const rootPost = await cms.create('/posts', root, { title: 'Root post', status: 'publish' });
		const me = await fetch(`${server.url}/wp-json/cms/v2/users/me`, {
			method: 'DELETE',
			headers: { ...root.headers, 'content-type': 'application/json' },
			body: JSON.stringify({ force: true, reassign: u.admin.id }),
		});
		expect(me.status).toBe(200);
		expect(server.services.store.users.byName('root')).toBeUndefined();
		expect((await cms.get(`/posts/${rootPost.id}`, u.admin)).body.author).toBe(u.admin.id);
	});
});

describe('application passwords', () => {
	test('create (shown once), list, get, rename, introspect, delete one and all: for oneself (me or the id)', async () => {
		const ed = siteUser(server, 'appy', 'editor');
		const created = await cms.post('/users/me/application-passwords', ed, { name: 'n8n', app_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' });
		expect(created.status).toBe(201);
		const { uuid, password } = created.body;
		expect(created.headers.get('location')).toBe(`${server.url}/wp-json/cms/v2/users/${ed.id}/application-passwords/${uuid}`);
		expect(created.body).toEqual({
			uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
			app_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
			name: 'n8n',
			created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
			last_used: null,
			last_ip: null,
			password: expect.stringMatching(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/),
			_links: { self: [{ href: created.headers.get('location') }] },
		});
		// The new password signs in (spaces optional); its use is recorded.
		const withNew = signIn('appy', password.replace(/ /g, ''));
		expect((await cms.get('/users/me', withNew)).body.id).toBe(ed.id);
		const item = (await cms.get(`/users/${ed.id}/application-passwords/${uuid}`, ed)).body;
		expect(item).toMatchObject({ uuid, name: 'n8n', last_ip: '127.0.0.1', last_used: expect.stringMatching(/^\d{4}-/) });
		expect(item.password).toBeUndefined();
		// Introspect: the password this very request signed in with.
		expect((await cms.get('/users/me/application-passwords/introspect', withNew)).body).toMatchObject({ uuid, name: 'n8n' });
		expect((await cms.get(`/users/${ed.id}/application-passwords/introspect`, ed)).body.name).toBe('tests');
		expectWpError(
			await cms.get(`/users/${u.admin.id}/application-passwords/introspect`, ed),
			403,
			'rest_cannot_introspect_app_password_for_non_authenticated_user',
			'The authenticated Application Password can only be introspected for the current user.',
		);
		// List: the tests' one and the new one, never a password.
		const list = (await cms.get('/users/me/application-passwords', ed)).body;
		expect(list.map((p: { name: string }) => p.name)).toEqual(['tests', 'n8n']);
		expect(list.every((p: { password?: string }) => p.password === undefined)).toBe(true);
		// Rename, with each method; a taken name is 409.
		expect((await cms.post(`/users/me/application-passwords/${uuid}`, ed, { name: 'n8n prod' })).body.name).toBe('n8n prod');
		expect((await cms.put(`/users/me/application-passwords/${uuid}`, ed, { name: 'n8n put' })).body.name).toBe('n8n put');
		expect((await cms.patch(`/users/me/application-passwords/${uuid}`, ed, { name: 'n8n patch' })).body.name).toBe('n8n patch');
		expect(server.services.store.users.appPassword(ed.id, uuid)!.name).toBe('n8n patch');
		expectWpError(await cms.post('/users/me/application-passwords', ed, { name: 'tests' }), 409, 'application_password_duplicate_name', 'Each application name should be unique.');
		expectWpError(await cms.patch(`/users/me/application-passwords/${uuid}`, ed, { name: 'tests' }), 409, 'application_password_duplicate_name', 'Each application name should be unique.');
		expect((await cms.post('/users/me/application-passwords', ed, { name: '  ' })).body.code).toBe('rest_invalid_param');
		expect((await cms.post('/users/me/application-passwords', ed, { name: 'x', app_id: 'nope' })).body.code).toBe('rest_invalid_param');
		expect((await cms.post('/users/me/application-passwords', ed, {})).body.code).toBe('rest_missing_callback_param');
		// Delete one: it no longer signs in.
		const del = await cms.delete(`/users/me/application-passwords/${uuid}`, ed);
		expect(del.body).toMatchObject({ deleted: true, previous: { uuid, name: 'n8n patch' } });
		expectWpError(await cms.get('/users/me', withNew), 401, 'incorrect_password', 'The provided password is an invalid application password.');
		expectWpError(await cms.get(`/users/me/application-passwords/${uuid}`, ed), 404, 'rest_application_password_not_found', 'Application password not found.');
		// Delete all: the count, and nothing signs in any more.
		await cms.post('/users/me/application-passwords', ed, { name: 'another' });
		expect((await cms.delete(`/users/${ed.id}/application-passwords`, ed)).body).toEqual({ deleted: true, count: 2 });
		expect(server.services.store.users.appPasswords(ed.id)).toEqual([]);
		expectWpError(await cms.get('/users/me', ed), 401, 'incorrect_password', 'The provided password is an invalid application password.');
	});

	test("others' passwords are for whoever may edit users; errors as WordPress's", async () => {
		const target = siteUser(server, 'target', 'author');
		const made = await cms.post(`/users/${target.id}/application-passwords`, u.admin, { name: 'by admin' });
		expect(made.status).toBe(201);
		expect((await cms.get('/users/me', signIn('target', made.body.password))).body.id).toBe(target.id);
		expect((await cms.get(`/users/${target.id}/application-passwords`, u.admin)).body).toHaveLength(2);
		const { uuid } = made.body;
		for (const who of ['editor', 'author2', 'subscriber'] as const) {
			expectWpError(
				await cms.get(`/users/${target.id}/application-passwords`, u[who]),
				403,
				'rest_cannot_list_application_passwords',
				'Sorry, you are not allowed to list application passwords for this user.',
			);
		}
		expectWpError(
			await cms.post(`/users/${target.id}/application-passwords`, u.editor, { name: 'x' }),
			403,
			'rest_cannot_create_application_passwords',
			'Sorry, you are not allowed to create application passwords for this user.',
		);
		expectWpError(
			await cms.get(`/users/${target.id}/application-passwords/${uuid}`, u.editor),
			403,
			'rest_cannot_read_application_password',
			'Sorry, you are not allowed to read this application password.',
		);
		expectWpError(
			await cms.post(`/users/${target.id}/application-passwords/${uuid}`, u.editor, { name: 'x' }),
			403,
			'rest_cannot_edit_application_password',
			'Sorry, you are not allowed to edit this application password.',
		);
		expectWpError(
			await cms.delete(`/users/${target.id}/application-passwords/${uuid}`, u.anonymous),
			401,
			'rest_cannot_delete_application_password',
			'Sorry, you are not allowed to delete this application password.',
		);
		expectWpError(
			await cms.delete(`/users/${target.id}/application-passwords`, u.contributor),
			403,
			'rest_cannot_delete_application_passwords',
			'Sorry, you are not allowed to delete application passwords for this user.',
		);
		expectWpError(await cms.get('/users/me/application-passwords', u.anonymous), 401, 'rest_not_logged_in', 'You are not currently logged in.');
		expectWpError(await cms.get('/users/999999/application-passwords', u.admin), 404, 'rest_user_invalid_id', 'Invalid user ID.');
		expect((await cms.get('/users/you/application-passwords', u.admin)).body.code).toBe('rest_no_route');
		// Another user's password of the same uuid path is not found under this user.
		expectWpError(
			await cms.get(`/users/${u.admin.id}/application-passwords/${uuid}`, u.admin),
			404,
			'rest_application_password_not_found',
			'Application password not found.',
		);
		expect((await cms.delete(`/users/${target.id}/application-passwords/${uuid}`, u.admin)).body.deleted).toBe(true);
	});
});

describe('wp/v2 and the posts author', () => {
	test('the wp/v2 twin answers the same users, its links naming wp/v2', async () => {
		const wp = cmsClient(server.url, 'wp/v2');
		const me = await wp.get('/users/me', u.author);
		expect(me.body).toMatchObject({ id: u.author.id, _links: { self: [{ href: `${server.url}/wp-json/wp/v2/users/${u.author.id}` }] } });
		const made = await wp.post(`/users/me/application-passwords`, u.author, { name: 'wp twin' });
		expect(made.headers.get('location')).toBe(`${server.url}/wp-json/wp/v2/users/${u.author.id}/application-passwords/${made.body.uuid}`);
		// n8n's credential test: GET wp/v2/users (with a trailing slash too).
		const res = await fetch(`${server.url}/wp-json/wp/v2/users/`, { headers: u.admin.headers });
		expect(res.status).toBe(200);
	});

	test('posts filter by author and author_exclude; an unknown author is refused', async () => {
		const a = await cms.create('/posts', u.author, { title: 'By Arthur', status: 'publish' });
		// The post links its author (embeddable), as WordPress's posts do.
		expect(a._links.author).toEqual([{ embeddable: true, href: `${server.url}/wp-json/cms/v2/users/${u.author.id}` }]);
		expect((await fetch(a._links.author[0].href)).status).toBe(200);
		const b = await cms.create('/posts', u.author2, { title: 'By Ada', status: 'publish' });
		expect(ids((await cms.get('/posts', u.anonymous, { author: u.author.id })).body)).toEqual([a.id]);
		expect(ids((await cms.get('/posts', u.anonymous, { author: [u.author.id, u.author2.id] })).body).sort()).toEqual([a.id, b.id].sort());
		expect(ids((await cms.get('/posts', u.anonymous, { author_exclude: [u.author.id] })).body)).not.toContain(a.id);
		expect(ids((await cms.get('/posts', u.anonymous, { author_exclude: [u.author.id] })).body)).toContain(b.id);
		expectWpError(await cms.post('/posts', u.admin, { title: 'x', author: 999999 }), 400, 'rest_invalid_author', 'Invalid author ID.');
		expectWpError(await cms.post(`/posts/${a.id}`, u.admin, { author: 999999 }), 400, 'rest_invalid_author', 'Invalid author ID.');
		expect((await cms.post(`/posts/${a.id}`, u.admin, { author: u.author2.id })).body.author).toBe(u.author2.id);
		// Now Arthur has none published: he is no longer public.
		expect(ids((await cms.get('/users', u.anonymous, { per_page: 100 })).body)).not.toContain(u.author.id);
		expect(ids((await cms.get('/users', u.anonymous, { per_page: 100 })).body)).toContain(u.author2.id);
	});
});

test('a store written before the users routes gets slugs and nicknames when upgraded, also for logins that differ in case only', () => {
	const mine = migrations.findIndex((sql) => sql.includes('ADD COLUMN password_hash'));
	expect(mine).toBeGreaterThan(0);
	const db = new Database(':memory:');
	for (const sql of migrations.slice(0, mine)) db.exec(sql);
	const insert = db.prepare("INSERT INTO users (id, name, api_key_hash, created_at) VALUES (?, ?, ?, 0)");
	['Bob', 'bob', 'a.b', 'a-b'].forEach((name, i) => insert.run(i + 1, name, `h${i}`));
	db.exec(migrations[mine]);
	expect(db.prepare('SELECT name, slug, nickname FROM users ORDER BY id').all()).toEqual([
		{ name: 'Bob', slug: 'bob', nickname: 'Bob' },
		{ name: 'bob', slug: 'bob-2', nickname: 'bob' },
		{ name: 'a.b', slug: 'a-b', nickname: 'a.b' },
		{ name: 'a-b', slug: 'a-b-4', nickname: 'a-b' },
	]);
	db.close();
});
