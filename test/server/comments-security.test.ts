import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUser, type SiteUsers, siteUser, startSite } from '../helpers/content';
import { expectWpError } from '../helpers/server';

/**
 * Issue 37 (3 and 6): nobody but a moderator moves a comment to another post or author, author names and
 * URLs carry no markup or script, and the comments collection (its filters, search and counts) sees only
 * the comments the caller may read.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
/** A published post by the author; a private post by the editor; a password-protected post by the admin. */
let open: { id: number };
let secret: { id: number };
let locked: { id: number };
/** The contributor's own pending post. */
let pending: { id: number };
const PASSWORD = 'pin-4711';
const GUEST_EMAIL = 'hidden.guest@example.com';
const GUEST_IP = '203.0.113.77';

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	server.services.store.users.update(u.editor.id, { email: 'edna@example.com' });
	open = await cms.create('/posts', u.author, { title: 'Open', status: 'publish' });
	secret = await cms.create('/posts', u.editor, { title: 'Secret', status: 'private' });
	locked = await cms.create('/posts', u.admin, { title: 'Locked', status: 'publish', password: PASSWORD });
	pending = await cms.create('/posts', u.contributor, { title: 'Mine', status: 'pending' });
});
afterAll(() => server.close());

let n = 0;
const comment = (user: SiteUser, on: { id: number }, body: Record<string, unknown> = {}) => cms.create('/comments', user, { post: on.id, content: `Comment ${++n}`, ...body });
const stored = async (id: number) => (await cms.get(`/comments/${id}`, u.admin, { context: 'edit' })).body;
const ids = (body: { id: number }[]) => body.map((c) => c.id).sort((a, b) => a - b);
const METHODS = ['post', 'put', 'patch'] as const;
/** The roles with `edit_posts`, who may ask for other statuses than approved. */
const EDIT_POSTS = ['contributor', 'author', 'author2', 'editor'];

describe('37.3: author and post are the moderators’ to change', () => {
	test('a contributor editing a comment on their own post cannot name another author, on any method; the edit answer shows no e-mail of theirs', async () => {
		const c = await comment(u.editor, pending, { author: u.contributor.id });
		expect(c).toMatchObject({ author: u.contributor.id, status: 'approved' });
		for (const method of METHODS) {
			const res = await cms[method](`/comments/${c.id}`, u.contributor, { author: u.editor.id });
			expectWpError(res, 403, 'rest_comment_invalid_author', "Sorry, you are not allowed to edit 'author' for comments.");
			expect(JSON.stringify(res.body)).not.toContain('edna@example.com');
		}
		expect(await stored(c.id)).toMatchObject({ author: u.contributor.id, author_name: 'connie', status: 'approved' });
		// The author as it is (a client sending the comment back) is no change.
		expect((await cms.patch(`/comments/${c.id}`, u.contributor, { author: u.contributor.id, content: 'Same author' })).status).toBe(200);
	});

	test('nor move it to another post, a private one or any other', async () => {
		const c = await comment(u.editor, pending);
		for (const method of METHODS) {
			for (const to of [secret, open]) {
				const res = await cms[method](`/comments/${c.id}`, u.contributor, { post: to.id });
				expectWpError(res, 403, 'rest_comment_invalid_post_id', "Sorry, you are not allowed to edit 'post' for comments.");
			}
		}
		expect((await stored(c.id)).post).toBe(pending.id);
		expect((await cms.patch(`/comments/${c.id}`, u.contributor, { post: pending.id, content: 'Same post' })).status).toBe(200);
		// Nor does the post's author of a published post.
		const onOpen = await comment(u.editor, open);
		expectWpError(await cms.patch(`/comments/${onOpen.id}`, u.author, { post: pending.id }), 403, 'rest_comment_invalid_post_id', "Sorry, you are not allowed to edit 'post' for comments.");
	});

	test('moderators still move comments and name their authors', async () => {
		const c = await comment(u.editor, pending);
		const res = await cms.patch(`/comments/${c.id}`, u.editor, { post: open.id, author: u.author.id });
		expect(res.body).toMatchObject({ post: open.id, author: u.author.id, author_name: 'arthur' });
	});
});

describe('37.3: author names carry no markup, author URLs are http(s)', () => {
	test('names lose their tags (script and style with their text), on create and update, for everyone', async () => {
		const created = await comment(u.subscriber, open, { author_name: '<img src=x onerror=alert(1)>Sam<script>alert(2)</script> <b>S.</b>', author_email: 'sam@example.com' });
		expect(created.author_name).toBe('Sam S.');
		expect((await stored(created.id)).author_name).toBe('Sam S.');
		const byAdmin = await comment(u.admin, open, { author_name: 'Tom <style>x{}</style>& Jerry <3', author_email: 'tj@example.com' });
		expect(byAdmin.author_name).toBe('Tom &amp; Jerry &lt;3');
		for (const method of METHODS) {
			const res = await cms[method](`/comments/${created.id}`, u.editor, { author_name: `Eve ${method} <img src=x onerror=alert(1)` });
			// A `<` that opens no tag is text, as in WordPress's `sanitize_text_field`: written as an entity.
			expect(res.body.author_name).toBe(`Eve ${method} &lt;img src=x onerror=alert(1)`);
		}
		// A name of nothing but markup is no name.
		expectWpError(
			await cms.post('/comments', u.subscriber, { post: open.id, content: 'Nameless', author_name: '<b></b>', author_email: 'x@example.com' }),
			400,
			'rest_comment_author_data_required',
			'Creating a comment requires valid author name and email values.',
		);
	});

	test('an author URL that is not http(s) is refused with the field named, on create and update', async () => {
		const c = await comment(u.editor, open, { author_name: 'Fine', author_email: 'fine@example.com', author_url: 'https://fine.example/path' });
		expect(c.author_url).toBe('https://fine.example/path');
		for (const url of ['javascript:alert(1)', 'JavaScript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'mailto:a@example.com']) {
			const created = await cms.post('/comments', u.admin, { post: open.id, content: `With ${url}`, author_name: 'Bad', author_email: 'bad@example.com', author_url: url });
			expect(created.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { author_url: expect.stringContaining('http') } } });
			for (const method of METHODS) {
				expect((await cms[method](`/comments/${c.id}`, u.editor, { author_url: url })).body).toMatchObject({ code: 'rest_invalid_param', data: { params: { author_url: expect.any(String) } } });
			}
		}
		expect((await stored(c.id)).author_url).toBe('https://fine.example/path');
		// Empty clears it.
		expect((await cms.patch(`/comments/${c.id}`, u.editor, { author_url: '' })).body.author_url).toBe('');
	});
});

describe('37.6: comments on password-protected posts need the password, or the right to edit the post', () => {
	let onLocked: { id: number };
	beforeAll(async () => {
		onLocked = await comment(u.editor, locked, { content: 'The PIN is 4711' });
	});

	test('not listed without the password; with the one post and its password, listed', async () => {
		for (const user of [u.anonymous, u.subscriber, u.contributor, u.author]) {
			const res = await cms.get('/comments', user, { per_page: 100 });
			expect(ids(res.body)).not.toContain(onLocked.id);
			expect(JSON.stringify(res.body)).not.toContain('4711');
			const code = user === u.anonymous ? 401 : 403;
			expectWpError(await cms.get('/comments', user, { post: [locked.id] }), code, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.');
			expectWpError(await cms.get('/comments', user, { post: [locked.id], password: 'wrong' }), code, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.');
			const opened = await cms.get('/comments', user, { post: [locked.id], password: PASSWORD });
			expect(ids(opened.body)).toEqual([onLocked.id]);
			// The password opens the one post asked for alone, as in WordPress.
			expectWpError(await cms.get('/comments', user, { post: [locked.id, open.id], password: PASSWORD }), code, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.');
		}
		// Whoever may edit the post reads them.
		expect(ids((await cms.get('/comments', u.editor, { per_page: 100 })).body)).toContain(onLocked.id);
	});

	test('one comment: the password opens it', async () => {
		expectWpError(await cms.get(`/comments/${onLocked.id}`, u.anonymous), 401, 'rest_cannot_read', 'Sorry, you are not allowed to read this comment.');
		expectWpError(await cms.get(`/comments/${onLocked.id}`, u.subscriber, { password: 'wrong' }), 403, 'rest_cannot_read', 'Sorry, you are not allowed to read this comment.');
		expect((await cms.get(`/comments/${onLocked.id}`, u.anonymous, { password: PASSWORD })).body.content.rendered).toContain('4711');
		expect((await cms.get(`/comments/${onLocked.id}`, u.editor)).status).toBe(200);
	});

	test('commenting on it needs the password too', async () => {
		expectWpError(await cms.post('/comments', u.subscriber, { post: locked.id, content: 'Let me in' }), 403, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.');
		expect((await cms.post('/comments', u.subscriber, { post: locked.id, content: 'With the PIN' }, { password: PASSWORD })).status).toBe(201);
	});
});

describe('37.6: search matches e-mail and IP only for moderators', () => {
	let guest: { id: number };
	beforeAll(async () => {
		guest = await comment(u.admin, open, { author_name: 'Guest', author_email: GUEST_EMAIL, author_ip: GUEST_IP });
	});

	test('others find no comment by its author’s e-mail or IP, and count none', async () => {
		for (const user of [u.anonymous, u.subscriber, u.contributor, u.author]) {
			for (const search of ['hidden.guest', 'hidden.guest@example.com', 'example.com', '203.0.113.77']) {
				const res = await cms.get('/comments', user, { search });
				expect(ids(res.body)).not.toContain(guest.id);
				if (search !== 'example.com') expect(res.headers.get('x-wp-total')).toBe('0');
			}
			// Name and content are searched for everyone.
			expect(ids((await cms.get('/comments', user, { search: 'Guest' })).body)).toContain(guest.id);
		}
		expect(ids((await cms.get('/comments', u.editor, { search: 'hidden.guest' })).body)).toEqual([guest.id]);
		expect(ids((await cms.get('/comments', u.editor, { search: GUEST_IP })).body)).toEqual([guest.id]);
	});
});

describe('37.6: every filter and count of the collection sees only readable comments', () => {
	/** Every comment made in this file, for the cross-check. */
	let all: number[];
	beforeAll(async () => {
		const newcomer = siteUser(server, 'nell', 'subscriber');
		await comment(u.editor, secret, { content: 'Private talk' });
		await comment(newcomer, open, { content: 'Held talk' });
		await comment(u.editor, pending, { content: 'Held on pending', status: 'hold' });
		await comment(u.subscriber, open, { content: 'Held of sam' });
		const spam = await comment(u.editor, open, { content: 'Spam talk' });
		await cms.patch(`/comments/${spam.id}`, u.editor, { status: 'spam' });
		all = ids((await cms.get('/comments', u.admin, { status: 'all', per_page: 100, type: 'all' })).body);
		all = [...new Set([...all, spam.id])].sort((a, b) => a - b);
	});

	/** Every page of a list, with the X-WP-Total and X-WP-TotalPages of the first. */
	async function everyPage(user: SiteUser, query: Record<string, unknown>) {
		const first = await cms.get('/comments', user, { ...query, per_page: 2 });
		expect(first.status).toBe(200);
		const total = Number(first.headers.get('x-wp-total'));
		const pages = Number(first.headers.get('x-wp-totalpages'));
		const got = [...first.body];
		for (let page = 2; page <= pages; page++) got.push(...(await cms.get('/comments', user, { ...query, per_page: 2, page })).body);
		return { total, pages, got: ids(got) };
	}

	test('a contributor asking for held comments counts only those it may read', async () => {
		const res = await cms.get('/comments', u.contributor, { status: 'hold', per_page: 100 });
		expect(res.headers.get('x-wp-total')).toBe(String(res.body.length));
		// The one held on its own post.
		expect(res.body.map((c: { content: { rendered: string } }) => c.content.rendered)).toEqual(['<p>Held on pending</p>\n']);
	});

	test.each(['anonymous', 'subscriber', 'contributor', 'author', 'author2', 'editor'] as const)('as %s: the pages hold only comments it may read one by one, all of them unfiltered, and the totals count them', async (role) => {
		const user = u[role];
		/** The comments of these statuses that the caller may read one by one. */
		const readable = async (statuses: string[]) => {
			const out: number[] = [];
			for (const id of all) {
				const one = await cms.get(`/comments/${id}`, user);
				if (one.status === 200 && statuses.includes(one.body.status)) out.push(id);
			}
			return out;
		};
		const statuses: [Record<string, unknown>, string[]][] = [[{}, ['approved']]];
		if (EDIT_POSTS.includes(role)) statuses.push([{ status: 'hold' }, ['hold']], [{ status: 'all' }, ['approved', 'hold']], [{ status: 'spam' }, ['spam']]);
		for (const [query, shown] of statuses) {
			const may = await readable(shown);
			for (const filter of [{}, { search: 'talk' }, { search: 'example.com' }, { post: [open.id] }, { parent: [0] }, { exclude: [may[0] ?? 0] }]) {
				const q = { ...query, ...filter };
				const { total, pages, got } = await everyPage(user, q);
				expect({ q, total, pages }).toEqual({ q, total: got.length, pages: Math.ceil(got.length / 2) });
				expect({ q, unreadable: got.filter((id) => !may.includes(id)) }).toEqual({ q, unreadable: [] });
				if (!Object.keys(filter).length) expect({ q, got }).toEqual({ q, got: may });
			}
		}
	});
});
