import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { expectWpError } from '../helpers/server';

/** `cms/v2/pages`: what pages have that posts do not (parent, menu_order, their own capabilities), over real HTTP. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

const create = (user: SiteUser, body: Record<string, unknown>) => cms.create('/pages', user, body);
const titles = (body: { title: { rendered: string } }[]) => body.map((p) => p.title.rendered);

describe('create and read', () => {
	test('a page has parent and menu_order, no format, sticky or terms; discussion closed by default', async () => {
		const res = await cms.post('/pages', u.editor, { title: 'About us', content: 'We are', status: 'publish', menu_order: 2, template: 'wide.php' });
		expect(res.status).toBe(201);
		const page = res.body;
		expect(res.headers.get('location')).toBe(`${server.url}/wp-json/cms/v2/pages/${page.id}`);
		expect(page).toMatchObject({
			type: 'page',
			slug: 'about-us',
			status: 'publish',
			link: `${server.url}/?page_id=${page.id}`,
			parent: 0,
			menu_order: 2,
			comment_status: 'closed',
			ping_status: 'closed',
			template: 'wide.php',
			content: { raw: 'We are', rendered: '<p>We are</p>\n' },
		});
		for (const absent of ['format', 'sticky', 'categories', 'tags']) expect(page).not.toHaveProperty(absent);
		expect(page._links).not.toHaveProperty('wp:term');
		const read = (await cms.get(`/pages/${page.id}`, u.anonymous)).body;
		expect(Object.keys(read)).toEqual([
			'id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'content', 'excerpt',
			'author', 'featured_media', 'parent', 'menu_order', 'comment_status', 'ping_status', 'template', 'class_list', '_links',
		]);
		// Post-only fields are not page fields: ignored.
		const ignored = await create(u.editor, { title: 'x', sticky: true, format: 'aside', categories: [999] });
		expect(ignored).not.toHaveProperty('sticky');
	});

	test('meta and passwords work as on posts', async () => {
		const page = await create(u.editor, {
			title: 'Landing',
			status: 'publish',
			password: 'pw',
			content: 'Hidden',
			meta: { _builder_edit_mode: 'builder', _builder_template_type: 'cms-page', _builder_page_settings: { hide_title: 'no' } },
		});
		expect(page.meta).toMatchObject({ _builder_edit_mode: 'builder', _builder_template_type: 'cms-page', _builder_page_settings: { hide_title: 'no' } });
		expect((await cms.get(`/pages/${page.id}`, u.anonymous)).body.content).toEqual({ rendered: '', protected: true });
		expect((await cms.get(`/pages/${page.id}`, u.anonymous, { password: 'pw' })).body.content.rendered).toBe('<p>Hidden</p>\n');
		expect((await cms.post('/pages', u.editor, { meta: { _builder_page_settings: { hide_title: 1 } } })).body.data.params.meta).toMatch(
			/^meta\._builder_page_settings\.hide_title must be one of/,
		);
	});
});

describe('update', () => {
	test('POST, PUT and PATCH update a page alike', async () => {
		const page = await create(u.editor, { title: 'Before' });
		expect((await cms.post(`/pages/${page.id}`, u.editor, { title: 'Posted' })).body.title.raw).toBe('Posted');
		expect((await cms.put(`/pages/${page.id}`, u.editor, { menu_order: 3 })).body).toMatchObject({ title: { raw: 'Posted' }, menu_order: 3 });
		expect((await cms.patch(`/pages/${page.id}`, u.editor, { excerpt: 'Patched' })).body).toMatchObject({ menu_order: 3, excerpt: { raw: 'Patched' } });
		expect((await cms.get(`/pages/${page.id}`, u.editor, { context: 'edit' })).body).toMatchObject({ title: { raw: 'Posted' }, menu_order: 3, excerpt: { raw: 'Patched' } });
	});
});

describe('parents', () => {
	test('a parent must be an existing page, not one below it; the page itself as its parent is no parent', async () => {
		const top = await create(u.editor, { title: 'Top', status: 'publish' });
		const middle = await create(u.editor, { title: 'Middle', status: 'publish', parent: top.id });
		const bottom = await create(u.editor, { title: 'Bottom', status: 'publish', parent: middle.id });
		expect(middle._links.up).toEqual([{ embeddable: true, href: `${server.url}/wp-json/cms/v2/pages/${top.id}` }]);
		const post = (await cms.post('/posts', u.editor, { title: 'A post' })).body;
		for (const parent of [999999, post.id]) {
			expectWpError(await cms.post('/pages', u.editor, { title: 'x', parent }), 400, 'rest_post_invalid_id', 'Invalid post parent ID.');
		}
		// As WordPress's `wp_check_post_hierarchy_for_loops`: the page itself as its parent means none.
		expect((await cms.post(`/pages/${middle.id}`, u.editor, { parent: middle.id })).body.parent).toBe(0);
		await cms.post(`/pages/${middle.id}`, u.editor, { parent: top.id });
		for (const parent of [bottom.id]) {
			const res = await cms.post(`/pages/${top.id}`, u.editor, { parent });
			expect(res.status).toBe(400);
			expect(res.body.code).toBe('rest_post_invalid_id');
			expect(res.body.message).toBe(`Invalid post parent ID: page ${parent} is this page or one below it.`);
		}
		// Moving a page to another branch is fine; 0 takes it to the top.
		expect((await cms.post(`/pages/${bottom.id}`, u.editor, { parent: top.id })).body.parent).toBe(top.id);
		expect((await cms.post(`/pages/${bottom.id}`, u.editor, { parent: 0 })).body.parent).toBe(0);
	});

	test('slugs are unique among siblings only', async () => {
		const a = await create(u.editor, { title: 'Branch A', status: 'publish' });
		const b = await create(u.editor, { title: 'Branch B', status: 'publish' });
		const one = await create(u.editor, { title: 'Contact', status: 'publish', parent: a.id });
		const two = await create(u.editor, { title: 'Contact', status: 'publish', parent: b.id });
		const three = await create(u.editor, { title: 'Contact', status: 'publish', parent: a.id });
		expect([one.slug, two.slug, three.slug]).toEqual(['contact', 'contact', 'contact-2']);
	});

	test('deleting a page for good moves its children up to its parent', async () => {
		const grand = await create(u.editor, { title: 'Grand', status: 'publish' });
		const parent = await create(u.editor, { title: 'Parent', status: 'publish', parent: grand.id });
		const child = await create(u.editor, { title: 'Child', status: 'publish', parent: parent.id });
		const trashed = await cms.delete(`/pages/${parent.id}`, u.editor);
		expect(trashed.body).toMatchObject({ status: 'trash', parent: grand.id });
		expect((await cms.get(`/pages/${child.id}`, u.anonymous)).body.parent).toBe(parent.id);
		expect((await cms.delete(`/pages/${parent.id}`, u.editor, { force: true })).body).toMatchObject({ deleted: true, previous: { id: parent.id } });
		expect((await cms.get(`/pages/${child.id}`, u.anonymous)).body.parent).toBe(grand.id);
	});
});

describe('capabilities', () => {
	test('authors and contributors cannot write pages; editors can', async () => {
		for (const user of [u.author, u.contributor, u.subscriber]) {
			expectWpError(await cms.post('/pages', user, { title: 'x' }), 403, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
		}
		expect((await cms.post('/pages', u.anonymous, { title: 'x' })).status).toBe(401);
		const page = await create(u.editor, { title: 'Editorial', status: 'publish' });
		expect((await cms.post(`/pages/${page.id}`, u.author, { title: 'x' })).body.code).toBe('rest_cannot_edit');
		expect((await cms.delete(`/pages/${page.id}`, u.author)).body.code).toBe('rest_cannot_delete');
		expect((await cms.post(`/pages/${page.id}`, u.admin, { title: 'By the admin' })).status).toBe(200);
	});

	test('a page by an author (made by an editor for them) is still not theirs to edit: authors have no page rights', async () => {
		const page = await create(u.editor, { title: 'For Arthur', author: u.author.id });
		expect(page.author).toBe(u.author.id);
		// Their own draft: readable (it is theirs), not editable.
		expect((await cms.get(`/pages/${page.id}`, u.author)).status).toBe(200);
		expect((await cms.post(`/pages/${page.id}`, u.author, { title: 'x' })).body.code).toBe('rest_cannot_edit');
		expect((await cms.get(`/pages/${page.id}`, u.author, { context: 'edit' })).body.code).toBe('rest_forbidden_context');
	});

	test('statuses other than publish and the edit context need page rights', async () => {
		expect((await cms.get('/pages', u.author, { status: 'draft' })).body).toMatchObject({
			code: 'rest_invalid_param',
			data: { status: 400, details: { status: { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 403 } } } },
		});
		expect((await cms.get('/pages', u.author, { context: 'edit' })).body).toMatchObject({ code: 'rest_forbidden_context', data: { status: 403 } });
		expect((await cms.get('/pages', u.editor, { status: 'draft', context: 'edit' })).status).toBe(200);
	});

	test('private pages are for editors (read_private_pages)', async () => {
		const page = await create(u.editor, { title: 'Staff only', status: 'private' });
		expect((await cms.get(`/pages/${page.id}`, u.author)).status).toBe(403);
		expect((await cms.get(`/pages/${page.id}`, u.admin)).status).toBe(200);
		expect(titles((await cms.get('/pages', u.admin, { status: 'private' })).body)).toContain('Staff only');
	});
});

describe('collection parameters of pages', () => {
	let site: App;
	let c: CmsClient;
	let users: SiteUsers;
	const id: Record<string, number> = {};
	beforeAll(async () => {
		({ server: site, cms: c, u: users } = await startSite());
		const page = async (key: string, body: Record<string, unknown>) => {
			id[key] = (await c.create('/pages', users.editor, { status: 'publish', title: key, ...body })).id;
		};
		await page('home', { menu_order: 1, date: '2024-01-01T00:00:00' });
		await page('shop', { menu_order: 3, date: '2024-02-01T00:00:00' });
		await page('hats', { menu_order: 2, parent: id.shop, date: '2024-03-01T00:00:00' });
		await page('shoes', { menu_order: 1, parent: id.shop, date: '2024-04-01T00:00:00' });
		await page('blog', { menu_order: 2, date: '2024-05-01T00:00:00' });
	});
	afterAll(() => site.close());
	const list = async (query: Record<string, unknown> | string) => {
		const res = await c.get('/pages', users.anonymous, query);
		if (res.status !== 200) throw new Error(JSON.stringify(res.body));
		return titles(res.body);
	};

	test('parent and parent_exclude (0 is the top level)', async () => {
		expect(await list({ parent: id.shop })).toEqual(['shoes', 'hats']);
		expect(await list({ parent: 0 })).toEqual(['blog', 'shop', 'home']);
		expect(await list(`parent[]=0&parent[]=${id.shop}`)).toEqual(['blog', 'shoes', 'hats', 'shop', 'home']);
		expect(await list({ parent_exclude: 0 })).toEqual(['shoes', 'hats']);
	});

	test('menu_order as a filter and as the order', async () => {
		expect(await list({ menu_order: 2 })).toEqual(['blog', 'hats']);
		expect(await list({ orderby: 'menu_order', order: 'asc' })).toEqual(['home', 'shoes', 'hats', 'blog', 'shop']);
		// Ties come by id ascending whatever the direction (WP_Query orders by the one column: MariaDB's storage order).
		expect(await list({ orderby: 'parent', order: 'desc', per_page: 2 })).toEqual(['hats', 'shoes']);
		expect((await c.get('/pages', users.anonymous, { menu_order: 'first' })).body.data.params.menu_order).toBe('menu_order must be an integer');
	});

	test('the post-only filters are not parameters of pages (ignored); the common ones work', async () => {
		expect(await list({ categories: 1, sticky: true, format: 'aside' })).toEqual(['blog', 'shoes', 'hats', 'shop', 'home']);
		expect(await list({ search: 'sho', orderby: 'title', order: 'asc' })).toEqual(['shoes', 'shop']);
		expect(await list({ slug: 'hats' })).toEqual(['hats']);
		expect(await list({ before: '2024-02-15T00:00:00' })).toEqual(['shop', 'home']);
		const res = await c.get('/pages', users.anonymous, { per_page: 2, page: 2 });
		expect(res.headers.get('x-wp-total')).toBe('5');
		expect(res.headers.get('x-wp-totalpages')).toBe('3');
		expect((await c.get('/pages', users.anonymous, { per_page: 2, page: 9 })).body.code).toBe('rest_post_invalid_page_number');
	});
});

describe("WordPress's links and action hints on pages", () => {
	test('about the page type, author, replies, revisions; no terms; actions by role (authors have no rights on pages)', async () => {
		const rest = `${server.url}/wp-json/cms/v2`;
		const page = await create(u.editor, { title: 'Linked page', status: 'publish' });
		const links = (await cms.get(`/pages/${page.id}`, u.anonymous)).body._links;
		expect(Object.keys(links)).toEqual(['self', 'collection', 'about', 'author', 'replies', 'version-history', 'wp:attachment', 'curies']);
		expect(links.about).toEqual([{ href: `${rest}/types/page` }]);
		expect(links.author).toEqual([{ embeddable: true, href: `${rest}/users/${u.editor.id}` }]);
		expect(links.replies).toEqual([{ embeddable: true, href: `${rest}/comments?post=${page.id}` }]);
		const actions = async (user: SiteUser) =>
			Object.keys((await cms.get(`/pages/${page.id}`, user, { context: 'edit' })).body._links).filter((rel) => rel.startsWith('wp:action-'));
		expect(await actions(u.admin)).toEqual(['wp:action-publish', 'wp:action-unfiltered-html', 'wp:action-assign-author']);
		expect(await actions(u.editor)).toEqual(['wp:action-publish', 'wp:action-unfiltered-html', 'wp:action-assign-author']);
		expect((await cms.get(`/pages/${page.id}`, u.author, { context: 'edit' })).status).toBe(403);
		expect(page.class_list).toEqual([`post-${page.id}`, 'page', 'type-page', 'status-publish', 'hentry']);
	});

	test('a draft page shows the time of its last save as its date', async () => {
		const draft = await create(u.editor, { title: 'Draft page' });
		expect(draft.date).toBe(draft.date_gmt);
		expect(Math.abs(Date.parse(`${draft.date_gmt}Z`) - Date.now())).toBeLessThan(60_000);
	});
});
