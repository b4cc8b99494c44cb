import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { expectWpError, routeLinks } from '../helpers/server';

/** Revisions and autosaves of posts and pages over real HTTP: when they are kept, their routes, rights and errors. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

const create = (user: SiteUser, body: Record<string, unknown>, base = '/posts') => cms.create(base, user, body);
const revisionsOf = async (id: number, query?: Record<string, unknown>, user: SiteUser = u.admin, base = '/posts') =>
	cms.get(`${base}/${id}/revisions`, user, { context: 'edit', ...query });
const rawTitles = (body: { title: { raw: string } }[]) => body.map((r) => r.title.raw);

describe('when revisions are kept', () => {
	test('an update that changes title, content or excerpt keeps a copy of the post as saved; others do not', async () => {
		const post = await create(u.author, { title: 'First', content: 'Body', status: 'publish' });
		expect((await revisionsOf(post.id)).body).toEqual([]);
		await cms.post(`/posts/${post.id}`, u.author, { title: 'Second' });
		await cms.post(`/posts/${post.id}`, u.author, { comment_status: 'closed', sticky: true });
		await cms.post(`/posts/${post.id}`, u.editor, { content: 'New body' });
		await cms.post(`/posts/${post.id}`, u.editor, { content: 'New body', title: 'Second' });
		await cms.post(`/posts/${post.id}`, u.editor, { excerpt: 'Short' });
		const res = await revisionsOf(post.id);
		expect(rawTitles(res.body)).toEqual(['Second', 'Second', 'Second']);
		expect(res.body.map((r: { content: { raw: string } }) => r.content.raw)).toEqual(['New body', 'New body', 'Body']);
		expect(res.body.map((r: { excerpt: { raw: string } }) => r.excerpt.raw)).toEqual(['Short', '', '']);
		expect(res.body.map((r: { author: number }) => r.author)).toEqual([u.editor.id, u.editor.id, u.author.id]);
		expect(res.headers.get('x-wp-total')).toBe('3');
		expect(res.headers.get('x-wp-totalpages')).toBe('1');
		const [latest] = res.body;
		expect(latest).toMatchObject({ parent: post.id, slug: `${post.id}-revision-v1`, guid: { raw: `${server.url}/?p=${latest.id}` } });
		const now = (await cms.get(`/posts/${post.id}`, u.author, { context: 'edit' })).body;
		expect(latest.date).toBe(now.modified);
		expect(now._links['version-history']).toEqual([{ count: 3, href: `${server.url}/wp-json/cms/v2/posts/${post.id}/revisions` }]);
		expect(now._links['predecessor-version']).toEqual([{ id: latest.id, href: `${server.url}/wp-json/cms/v2/posts/${post.id}/revisions/${latest.id}` }]);
	});

	test('pages keep revisions too', async () => {
		const page = await create(u.editor, { title: 'Page one' }, '/pages');
		await cms.post(`/pages/${page.id}`, u.editor, { title: 'Page two' });
		const [revision] = (await revisionsOf(page.id, {}, u.editor, '/pages')).body;
		expect(revision.title.raw).toBe('Page two');
		// One revision of a page, read by its id, in each context.
		for (const context of ['view', 'edit', 'embed']) {
			const one = await cms.get(`/pages/${page.id}/revisions/${revision.id}`, u.editor, { context });
			expect(one.status).toBe(200);
			expect(one.body).toMatchObject({ id: revision.id, parent: page.id, title: { rendered: 'Page two' } });
		}
		// The page's revisions are not under posts.
		expect((await revisionsOf(page.id, {}, u.editor)).body.code).toBe('rest_post_invalid_parent');
	});
});

describe('the revisions collection', () => {
	let post: { id: number };
	let revisions: { id: number; title: { raw: string } }[];
	beforeAll(async () => {
		post = await create(u.author, { title: 'v0', content: 'zero', status: 'publish' });
		for (const [title, content] of [['v1', 'one apple'], ['v2', 'two pears'], ['v3', 'three apples'], ['v4', 'four']]) {
			await cms.post(`/posts/${post.id}`, u.author, { title, content });
		}
		revisions = (await revisionsOf(post.id)).body;
	});

	test('all at once without per_page, newest first', () => {
		expect(rawTitles(revisions as never)).toEqual(['v4', 'v3', 'v2', 'v1']);
	});

	test('per_page, page and offset with headers; beyond the end is 400', async () => {
		const base = `${server.url}/wp-json/cms/v2/posts/${post.id}/revisions`;
		const page2 = await cms.get(`/posts/${post.id}/revisions`, u.author, 'per_page=3&page=2');
		expect(page2.body.map((r: { title: { rendered: string } }) => r.title.rendered)).toEqual(['v1']);
		expect(page2.headers.get('x-wp-total')).toBe('4');
		expect(page2.headers.get('x-wp-totalpages')).toBe('2');
		expect(routeLinks(page2.headers)).toBe(`<${base}?per_page=3&page=1>; rel="prev"`);
		expect(rawTitles((await revisionsOf(post.id, { per_page: 2, offset: 1 })).body)).toEqual(['v3', 'v2']);
		expectWpError(await revisionsOf(post.id, { per_page: 2, page: 3 }), 400, 'rest_revision_invalid_page_number', 'The page number requested is larger than the number of pages available.');
		expect((await revisionsOf(post.id, { page: 2 })).body.code).toBe('rest_revision_invalid_page_number');
		expectWpError(await revisionsOf(post.id, { offset: 4 }), 400, 'rest_revision_invalid_offset_number', 'The offset number requested is larger than or equal to the number of available revisions.');
		expect((await revisionsOf(post.id, { per_page: 101 })).body.data.params.per_page).toBe('per_page must be at most 100');
		expect((await revisionsOf(post.id, { per_page: 0 })).body.data.params.per_page).toBe('per_page must be at least 1');
	});

	test('search, include, exclude, order, orderby', async () => {
		expect(rawTitles((await revisionsOf(post.id, { search: 'apple' })).body)).toEqual(['v3', 'v1']);
		const [v4, v3, , v1] = revisions;
		expect(rawTitles((await revisionsOf(post.id, { include: [v1.id, v3.id] })).body)).toEqual(['v3', 'v1']);
		expect(rawTitles((await revisionsOf(post.id, { include: [v1.id, v4.id, v3.id], orderby: 'include' })).body)).toEqual(['v1', 'v4', 'v3']);
		expect(rawTitles((await revisionsOf(post.id, { exclude: v4.id })).body)).toEqual(['v3', 'v2', 'v1']);
		expect(rawTitles((await revisionsOf(post.id, { order: 'asc' })).body)).toEqual(['v1', 'v2', 'v3', 'v4']);
		expect(rawTitles((await revisionsOf(post.id, { orderby: 'id', order: 'asc' })).body)).toEqual(['v1', 'v2', 'v3', 'v4']);
		expect(rawTitles((await revisionsOf(post.id, { orderby: 'title' })).body)).toEqual(['v4', 'v3', 'v2', 'v1']);
		expect(rawTitles((await revisionsOf(post.id, { search: 'three apples', orderby: 'relevance' })).body)).toEqual(['v3']);
		expect((await revisionsOf(post.id, { orderby: 'relevance' })).body.code).toBe('rest_no_search_term_defined');
		expect((await revisionsOf(post.id, { orderby: 'include' })).body.code).toBe('rest_orderby_include_missing_include');
		expect((await revisionsOf(post.id, { orderby: 'author' })).body.data.params.orderby).toMatch(/^orderby must be one of: "date", "id", "include"/);
	});

	test('contexts: view without raw fields, embed shorter, edit with them', async () => {
		const view = (await cms.get(`/posts/${post.id}/revisions`, u.author)).body[0];
		expect(view.title).toEqual({ rendered: 'v4' });
		expect(view.content).toEqual({ rendered: '<p>four</p>\n' });
		expect(Object.keys(view)).toEqual(['author', 'date', 'date_gmt', 'guid', 'id', 'modified', 'modified_gmt', 'parent', 'slug', 'title', 'content', 'excerpt', '_links']);
		const embed = (await cms.get(`/posts/${post.id}/revisions`, u.author, { context: 'embed' })).body[0];
		expect(Object.keys(embed)).toEqual(['author', 'date', 'id', 'parent', 'slug', 'title', 'excerpt', '_links']);
		expect(view._links.parent).toEqual([{ href: `${server.url}/wp-json/cms/v2/posts/${post.id}` }]);
	});

	test('one revision; another post’s revision, an unknown one, an unknown post', async () => {
		const [latest] = revisions;
		const one = await cms.get(`/posts/${post.id}/revisions/${latest.id}`, u.author, { context: 'edit' });
		expect(one.status).toBe(200);
		expect(one.body).toEqual(latest);
		const other = await create(u.author, { title: 'other', status: 'publish' });
		expectWpError(await cms.get(`/posts/${other.id}/revisions/${latest.id}`, u.author), 404, 'rest_revision_parent_id_mismatch', `The revision does not belong to the specified parent with id of "${other.id}"`);
		expectWpError(await cms.get(`/posts/${post.id}/revisions/${other.id}`, u.author), 404, 'rest_post_invalid_id', 'Invalid revision ID.');
		expectWpError(await cms.get(`/posts/999999/revisions`, u.author), 404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
		expect((await cms.get(`/posts/999999/revisions/${latest.id}`, u.author)).body.code).toBe('rest_post_invalid_parent');
		expect((await cms.get(`/posts/x/revisions`, u.author)).body.code).toBe('rest_no_route');
	});

	test('who may read them: whoever may edit the post', async () => {
		expectWpError(await cms.get(`/posts/${post.id}/revisions`, u.anonymous), 401, 'rest_cannot_read', 'Sorry, you are not allowed to view revisions of this post.');
		expect((await cms.get(`/posts/${post.id}/revisions`, u.author2)).status).toBe(403);
		expect((await cms.get(`/posts/${post.id}/revisions/${revisions[0].id}`, u.contributor)).status).toBe(403);
		expect((await cms.get(`/posts/${post.id}/revisions`, u.editor)).status).toBe(200);
	});
});

describe('when a revision is kept', () => {
	test('the first update keeps one whatever changed (a menu order, a move to the trash); later ones only for a new title, content or excerpt', async () => {
		const page = await create(u.admin, { title: 'Page', status: 'publish' }, '/pages');
		await cms.post(`/pages/${page.id}`, u.admin, { menu_order: 3 });
		expect((await revisionsOf(page.id, undefined, u.admin, '/pages')).body).toHaveLength(1);
		await cms.post(`/pages/${page.id}`, u.admin, { menu_order: 4 });
		expect((await revisionsOf(page.id, undefined, u.admin, '/pages')).body).toHaveLength(1);
		const post = await create(u.admin, { title: 'Post', status: 'publish' });
		const trashed = (await cms.delete(`/posts/${post.id}`, u.admin)).body;
		expect(trashed._links['version-history'][0].count).toBe(1);
		const [revision] = (await revisionsOf(post.id)).body;
		expect(trashed._links['predecessor-version'][0].id).toBe(revision.id);
		expect(revision.title.rendered).toBe('Post');
	});
});

describe('deleting a revision', () => {
	test('is refused to everyone, as WordPress maps delete_post on a revision to do_not_allow; the revision stays', async () => {
		const post = await create(u.author, { title: 'a', status: 'publish' });
		await cms.post(`/posts/${post.id}`, u.author, { title: 'b' });
		await cms.post(`/posts/${post.id}`, u.author, { title: 'c' });
		const before = (await revisionsOf(post.id)).body.map((r: { id: number }) => r.id);
		const older = before[1];
		// Who may not delete the post is refused for the post; everyone else for the revision, force or not.
		expectWpError(await cms.delete(`/posts/${post.id}/revisions/${older}`, u.author2, { force: true }), 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete revisions of this post.');
		expect((await cms.delete(`/posts/${post.id}/revisions/${older}`, u.anonymous, { force: true })).status).toBe(401);
		for (const user of [u.author, u.editor, u.admin]) {
			for (const query of [{ force: true }, {}]) {
				expectWpError(await cms.delete(`/posts/${post.id}/revisions/${older}`, user, query), 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this revision.');
			}
		}
		expect((await cms.delete(`/posts/${post.id}/revisions/999999`, u.admin, { force: true })).status).toBe(404);
		expect((await revisionsOf(post.id)).body.map((r: { id: number }) => r.id)).toEqual(before);
		// And `Allow` never lists DELETE for a revision.
		expect((await cms.get(`/posts/${post.id}/revisions/${older}`, u.admin)).headers.get('allow')).toBe('GET');
	});
});

describe('autosaves', () => {
	test('of one’s own draft: the draft itself is updated, without a revision', async () => {
		const draft = await create(u.author, { title: 'Draft', content: 'start' });
		const res = await cms.post(`/posts/${draft.id}/autosaves`, u.author, { content: 'autosaved', parent: draft.id });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			id: draft.id,
			parent: 0,
			title: { raw: 'Draft' },
			content: { raw: 'autosaved' },
			preview_link: `${server.url}/?p=${draft.id}&preview=true`,
		});
		// The draft's date follows its saves: the revisions controller shows it as null (post_date_gmt 0000-00-00).
		expect(res.body).toMatchObject({ date: null, date_gmt: null });
		expect((await cms.get(`/posts/${draft.id}`, u.author, { context: 'edit' })).body.content.raw).toBe('autosaved');
		expect((await revisionsOf(draft.id)).body).toEqual([]);
		expect((await cms.get(`/posts/${draft.id}/autosaves`, u.author)).body).toEqual([]);
	});

	test('of a published post (or another’s draft): one autosave per user, apart from the post', async () => {
		const post = await create(u.author, { title: 'Live', content: 'live text', excerpt: 'ex', status: 'publish' });
		// A new autosave holds what was sent, '' for the rest (WordPress's `_wp_post_revision_data` of the request).
		const first = await cms.post(`/posts/${post.id}/autosaves`, u.author, { content: 'unsaved text' });
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({
			parent: post.id,
			author: u.author.id,
			slug: `${post.id}-autosave-v1`,
			title: { raw: '' },
			content: { raw: 'unsaved text' },
			excerpt: { raw: '' },
			preview_link: `${server.url}/?p=${post.id}&preview_id=${post.id}&preview=true`,
		});
		expect(first.body.date).toMatch(/^\d{4}-/);
		expect((await cms.get(`/posts/${post.id}`, u.author, { context: 'edit' })).body.content.raw).toBe('live text');
		// An existing autosave is updated with what was sent; the rest is its own.
		const again = await cms.post(`/posts/${post.id}/autosaves`, u.author, { title: 'Live!' });
		expect(again.body).toMatchObject({ id: first.body.id, title: { raw: 'Live!' }, content: { raw: 'unsaved text' }, excerpt: { raw: '' } });
		const editors = await cms.post(`/posts/${post.id}/autosaves`, u.editor, { title: 'Editor’s take' });
		expect(editors.body.id).not.toBe(first.body.id);
		const list = await cms.get(`/posts/${post.id}/autosaves`, u.editor, { context: 'edit' });
		expect(list.status).toBe(200);
		expect(list.body.map((a: { id: number }) => a.id).sort()).toEqual([first.body.id, editors.body.id].sort());
		expect(list.body[0]).toHaveProperty('preview_link');
		// Autosaves are revisions too.
		expect((await revisionsOf(post.id)).body.map((r: { slug: string }) => r.slug)).toEqual([`${post.id}-autosave-v1`, `${post.id}-autosave-v1`]);
		// Nothing sent differs from the post: the user's autosave is deleted and the request refused.
		const same = await cms.post(`/posts/${post.id}/autosaves`, u.author, { content: 'live text', title: 'Live' });
		expectWpError(same, 400, 'rest_autosave_no_changes', 'There is nothing to save. The autosave and the post content are the same.');
		const left = (await cms.get(`/posts/${post.id}/autosaves`, u.editor, { context: 'edit' })).body;
		expect(left.map((a: { id: number }) => a.id)).toEqual([editors.body.id]);
		// WordPress 6.1's single autosave is the post's latest, whichever id is named.
		for (const id of [first.body.id, editors.body.id, 999999]) {
			const one = await cms.get(`/posts/${post.id}/autosaves/${id}`, u.author, { context: 'edit' });
			expect(one.status).toBe(200);
			expect(one.body).toMatchObject({ id: editors.body.id, title: { raw: 'Editor’s take' } });
		}
		// Another author's draft is not one's own: the editor's autosave stays apart.
		const draft = await create(u.author, { title: 'Arthur’s draft' });
		const apart = await cms.post(`/posts/${draft.id}/autosaves`, u.editor, { title: 'Edna’s idea' });
		expect(apart.body).toMatchObject({ parent: draft.id, author: u.editor.id });
		expect((await cms.get(`/posts/${draft.id}`, u.author, { context: 'edit' })).body.title.raw).toBe('Arthur’s draft');
	});

	test('pages have autosaves as posts do', async () => {
		const page = await create(u.editor, { title: 'P', status: 'publish' }, '/pages');
		const autosave = await cms.post(`/pages/${page.id}/autosaves`, u.editor, { title: 'P draft', parent: 0 });
		expect(autosave.body).toMatchObject({ parent: page.id, title: { raw: 'P draft' } });
		expect((await cms.get(`/pages/${page.id}/autosaves`, u.editor)).body).toHaveLength(1);
		const one = await cms.get(`/pages/${page.id}/autosaves/${autosave.body.id}`, u.editor, { context: 'edit' });
		expect(one.status).toBe(200);
		expect(one.body).toMatchObject({ id: autosave.body.id, parent: page.id, title: { raw: 'P draft' } });
		expect((await cms.post(`/pages/${page.id}/autosaves`, u.author, { title: 'x' })).body.code).toBe('rest_cannot_edit');
	});

	test('errors: rights, unknown posts and autosaves, bad fields', async () => {
		const post = await create(u.author, { title: 'Mine', status: 'publish' });
		expectWpError(await cms.post(`/posts/${post.id}/autosaves`, u.anonymous, { title: 'x' }), 401, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
		expect((await cms.post(`/posts/${post.id}/autosaves`, u.author2, { title: 'x' })).status).toBe(403);
		expectWpError(await cms.get(`/posts/${post.id}/autosaves`, u.anonymous), 401, 'rest_cannot_read', 'Sorry, you are not allowed to view autosaves of this post.');
		expect((await cms.get(`/posts/${post.id}/autosaves`, u.author2)).status).toBe(403);
		expectWpError(await cms.post('/posts/999999/autosaves', u.author, { title: 'x' }), 404, 'rest_post_invalid_id', 'Invalid post ID.');
		expect((await cms.get('/posts/999999/autosaves', u.author)).body.code).toBe('rest_post_invalid_parent');
		expectWpError(await cms.get(`/posts/${post.id}/autosaves/999999`, u.author), 404, 'rest_post_no_autosave', 'There is no autosave revision for this post.');
		expect((await cms.post(`/posts/${post.id}/autosaves`, u.author, { status: 'gone' })).body.code).toBe('rest_invalid_param');
		expect((await cms.post(`/posts/${post.id}/autosaves`, u.author, { parent: 'x' })).body.data.params.parent).toBe('parent must be an integer');
		const draft = await create(u.contributor, { title: 'c' });
		expect((await cms.post(`/posts/${draft.id}/autosaves`, u.contributor, { status: 'publish' })).body.code).toBe('rest_cannot_publish');
	});
});
