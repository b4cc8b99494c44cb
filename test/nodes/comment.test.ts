import type { INodeProperties } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { locatorValue } from '../helpers/n8n';
import { firstJson, harnessFor, NODE_TYPES, runNode, siteCredential, type NodeParameters } from '../helpers/nodes';

/**
 * WDM Comment: every operation run by n8n's engine against a live server, in both content namespaces
 * (`cms/v2`, and `wp/v2` as for a stock WordPress); what it did read back over `cms/v2`.
 */

let server: App;
let cms: CmsClient;
let users: SiteUsers;

beforeAll(async () => {
	({ server, cms, u: users } = await startSite());
});
afterAll(() => server.close());

const harness = (namespace: string, user = users.admin, addressing = 'wpJson') => harnessFor({ wdmSiteApi: { ...siteCredential(server.url, addressing, user), namespace } });
const property = (name: string) => NODE_TYPES['CUSTOM.wdmComment'].description.properties.find((p) => p.name === name) as INodeProperties;

// Each namespace in one of the credential's addressing styles, so both styles are run too.
describe.each([
	['cms/v2', 'restRoute'],
	['wp/v2', 'wpJson'],
])('namespace %s, addressing %s', (namespace, addressing) => {
	const run = (parameters: NodeParameters, user = users.admin) => runNode(harness(namespace, user, addressing), 'CUSTOM.wdmComment', parameters);
	const rest = () => `${server.url}/wp-json/${namespace}`;
	let post: { id: number; link: string };

	beforeAll(async () => {
		post = await cms.create('/posts', users.author, { title: `Discussed in ${namespace}`, status: 'publish' });
	});

	test('Create (post picked by URL), Get, Update, Moderate, Delete to the trash and for good', async () => {
		const created = firstJson(
			await run(
				{ operation: 'create', postId: locatorValue(property('postId'), 'url', post.link), commentContent: `Hello from ${namespace}`, additionalFields: {} },
				users.subscriber,
			),
		);
		expect(created).toMatchObject({ post: post.id, author: users.subscriber.id, status: 'hold', content: { rendered: `<p>Hello from ${namespace}</p>\n` } });
		expect(created._links.self[0].href).toBe(`${rest()}/comments/${created.id}`);
		expect((await cms.get(`/comments/${created.id}`, users.admin, { context: 'edit' })).body.content.raw).toBe(`Hello from ${namespace}`);

		const got = firstJson(await run({ operation: 'get', commentId: created.id, context: 'edit' }));
		expect(got).toMatchObject({ id: created.id, author_email: '', content: { raw: `Hello from ${namespace}` } });
		// By URL: the comment's link (`?p=3#comment-12`).
		const byUrl = firstJson(await run({ operation: 'get', commentId: locatorValue(property('commentId'), 'url', created.link) }));
		expect(byUrl.id).toBe(created.id);

		const updated = firstJson(await run({ operation: 'update', commentId: created.id, updateFields: { content: 'Edited', author_name: 'Sam', status: 'approve' } }));
		expect(updated).toMatchObject({ content: { raw: 'Edited' }, author_name: 'Sam', status: 'approved' });
		expect((await cms.get(`/comments/${created.id}`, users.anonymous)).body).toMatchObject({ author_name: 'Sam', status: 'approved' });

		// The post's author moderates the comments on it.
		const spam = firstJson(await run({ operation: 'moderate', commentId: created.id, moderation: 'spam' }, users.author));
		expect(spam.status).toBe('spam');
		expect((await cms.get(`/comments/${created.id}`, users.admin)).body.status).toBe('spam');
		expect(firstJson(await run({ operation: 'moderate', commentId: created.id, moderation: 'unspam' })).status).toBe('hold');
		expect(firstJson(await run({ operation: 'moderate', commentId: created.id, moderation: 'approve' })).status).toBe('approved');

		const trashed = firstJson(await run({ operation: 'delete', commentId: created.id }));
		expect(trashed.status).toBe('trash');
		const again = await run({ operation: 'delete', commentId: created.id });
		expect(again.error).toMatchObject({ httpCode: '410', message: 'The comment has already been trashed.' });
		expect(firstJson(await run({ operation: 'moderate', commentId: created.id, moderation: 'untrash' })).status).toBe('approved');
		const gone = firstJson(await run({ operation: 'delete', commentId: created.id, force: true }));
		expect(gone).toMatchObject({ deleted: true, previous: { id: created.id } });
		expect((await cms.get(`/comments/${created.id}`, users.admin)).status).toBe(404);
	});

	test('Create with every additional field (a moderator); refusals come back with WordPress’s message', async () => {
		const parent = firstJson(await run({ operation: 'create', postId: post.id, commentContent: 'Parent', additionalFields: {} }));
		const full = firstJson(
			await run({
				operation: 'create',
				postId: post.id,
				commentContent: 'Reply with everything',
				additionalFields: {
					author_name: 'Visitor',
					author_email: 'visitor@example.com',
					author_url: 'https://visitor.example',
					author_ip: '203.0.113.7',
					author_user_agent: 'Agent/2',
					date: '2024-05-01T09:30:00',
					parent: parent.id,
					status: 'hold',
				},
			}),
		);
		expect((await cms.get(`/comments/${full.id}`, users.admin, { context: 'edit' })).body).toMatchObject({
			author: 0,
			author_name: 'Visitor',
			author_email: 'visitor@example.com',
			author_url: 'https://visitor.example',
			author_ip: '203.0.113.7',
			author_user_agent: 'Agent/2',
			date: '2024-05-01T09:30:00',
			parent: parent.id,
			status: 'hold',
		});
		const asUser = firstJson(await run({ operation: 'create', postId: post.id, commentContent: 'As edna', additionalFields: { author: users.editor.id } }));
		expect(asUser).toMatchObject({ author: users.editor.id, author_name: 'edna' });
		const moved = firstJson(await run({ operation: 'update', commentId: full.id, updateFields: { post: post.id, parent: 0, date: '2024-06-01T10:00:00', author_user_agent: 'Agent/3', author_ip: '203.0.113.8', author_url: '', author_email: 'v@example.com', author: 0 } }));
		expect(moved).toMatchObject({ parent: 0, date: '2024-06-01T10:00:00', author_user_agent: 'Agent/3', author_ip: '203.0.113.8', author_email: 'v@example.com' });

		const closed = await cms.create('/posts', users.editor, { title: 'No talk', status: 'publish', comment_status: 'closed' });
		const refused = await run({ operation: 'create', postId: closed.id, commentContent: 'x', additionalFields: {} }, users.subscriber);
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, comments are closed for this item.' });
		const notYours = await run({ operation: 'create', postId: post.id, commentContent: 'x', additionalFields: { status: 'approve' } }, users.subscriber);
		expect(notYours.error).toMatchObject({ httpCode: '403', message: "Sorry, you are not allowed to edit 'status' for comments." });
		const cannot = await run({ operation: 'update', commentId: full.id, updateFields: { content: 'x' } }, users.author2);
		expect(cannot.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to edit this comment.' });
	});

	test('Get Many: Return All and Limit over pages, filters and options', async () => {
		const p = await cms.create('/posts', users.editor, { title: `Busy ${namespace}`, status: 'publish' });
		const made: number[] = [];
		for (let i = 1; i <= 5; i++) {
			made.push((await cms.create('/comments', users.editor, { post: p.id, content: `Busy ${i}`, date_gmt: `2024-01-0${i}T10:00:00` })).id);
		}
		const held = (await cms.create('/comments', users.admin, { post: p.id, content: 'Held busy', status: 'hold' })).id;
		const ids = (r: Awaited<ReturnType<typeof run>>) => r.items.map((i) => i.json.id);
		const all = await run({ operation: 'getMany', returnAll: true, filters: { post: String(p.id) } });
		expect(all.error).toBeUndefined();
		expect(ids(all)).toEqual([...made].reverse());
		expect(all.items[0].json._links).toMatchObject({ self: [{ href: `${rest()}/comments/${made[4]}` }] });
		expect(ids(await run({ operation: 'getMany', returnAll: false, limit: 2, filters: { post: String(p.id) } }))).toEqual([made[4], made[3]]);
		const filtered = await run({
			operation: 'getMany',
			returnAll: true,
			filters: { post: String(p.id), search: 'Busy', after: '2024-01-01T12:00:00', before: '2024-01-05T00:00:00', exclude: String(made[2]), author: String(users.editor.id) },
			options: { order: 'asc', orderby: 'id', context: 'edit' },
		});
		expect(ids(filtered)).toEqual([made[1], made[3]]);
		expect(filtered.items[0].json).toHaveProperty('author_email');
		expect(ids(await run({ operation: 'getMany', returnAll: true, filters: { post: String(p.id), status: 'hold' } }))).toEqual([held]);
		expect(ids(await run({ operation: 'getMany', returnAll: true, filters: { include: `${made[0]}, ${made[4]}`, author_email: '', parent: '0', type: 'comment' }, options: { orderby: 'include' } }))).toEqual([made[0], made[4]]);
		const forbidden = await run({ operation: 'getMany', returnAll: true, filters: { status: 'hold' } }, users.subscriber);
		expect(forbidden.error).toMatchObject({ httpCode: '403', message: 'Query parameter not permitted: status' });
	});

	test('the comment picker lists approved and held comments by author and text, and searches', async () => {
		const p = await cms.create('/posts', users.editor, { title: `Picked ${namespace}`, status: 'publish' });
		const c = await cms.create('/comments', users.admin, { post: p.id, content: `Pick <em>me</em> in ${namespace}`, status: 'hold' });
		const found = await harness(namespace, users.admin, addressing).listSearch('CUSTOM.wdmComment', 'searchComment', { filter: `me</em> in ${namespace}` });
		expect(found.results).toEqual([{ name: `admin: Pick me in ${namespace}`, value: String(c.id), url: `${server.url}/?p=${p.id}#comment-${c.id}` }]);
		const page = await harness(namespace, users.admin, addressing).listSearch('CUSTOM.wdmComment', 'searchComment');
		expect(page.results.map((r) => r.value)).toContain(String(c.id));
	});
});
