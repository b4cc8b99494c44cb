import type { App } from '../../server/src/app';
import { canEdit, canRead, editableSql, readableSql } from '../../server/src/site/content/capabilities';
import { PAGE, POST } from '../../server/src/site/content/types';
import { client, type Client } from '../helpers/server';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { PNG } from '../helpers/files';

/**
 * Issue 37 (findings 4 and 6): what is behind a password, in `_`-prefixed meta or in another user's
 * draft reaches no caller who may not read it, neither through the rows of engine queries nor through
 * what searches match and totals count.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let v1: Client;
let v2: Client;

const PIN = '4821';
const as = (user: SiteUser) => ({ headers: user.headers });
const preview = (args: Record<string, unknown>, user: SiteUser) => v2.post('/update-query-preview', { query_type: 'posts', args, limit: 100 }, as(user));
const total = (res: { headers: Headers }) => Number(res.headers.get('x-wp-total'));
const ids = (items: { id: number }[]) => items.map((item) => item.id);

/** A password-protected post whose body (content, excerpt, builder data, a meta field) holds the PIN. */
let vault: number;
/** A published post with builder data (`_` meta) and a plain meta field. */
let open: number;
/** Drafts by the administrator and by the contributor, both with a word only they have. */
let adminDraft: number;
let ownDraft: number;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	v1 = client(server.url, '/wp-json/engine/v1');
	v2 = client(server.url, '/wp-json/engine/v2');
	vault = (
		await cms.create('/posts', u.admin, {
			title: 'Vault',
			content: `The PIN is ${PIN}.`,
			excerpt: `PIN ${PIN}`,
			password: 'sesame',
			status: 'publish',
			meta: { _builder_data: `[{"elType":"text","text":"PIN ${PIN}"}]`, footnotes: `note ${PIN}` },
		})
	).id;
	open = (await cms.create('/posts', u.admin, { title: 'Open house', content: 'Welcome.', status: 'publish', meta: { _builder_data: '[{"elType":"section"}]', footnotes: 'a note' } })).id;
	adminDraft = (await cms.create('/posts', u.admin, { title: 'Xylophone plans', content: 'Not for others.', status: 'draft' })).id;
	ownDraft = (await cms.create('/posts', u.contributor, { title: 'My xylophone', status: 'draft' })).id;
});
afterAll(() => server.close());

describe('engine query rows (finding 4)', () => {
	type PostRow = { ID: number; post_content: string; post_excerpt: string; meta: Record<string, unknown> };
	const rowOf = (rows: PostRow[], id: number) => rows.find((row) => row.ID === id)!;

	test('a protected post has no content, excerpt or meta for a caller who may not edit it; `_` meta is shown to editors only', async () => {
		const res = await preview({ include: [vault, open], orderby: 'include' }, u.contributor);
		expect(res.status).toBe(200);
		expect(res.body.data.map((row: PostRow) => row.ID)).toEqual([vault, open]);
		expect(rowOf(res.body.data, vault)).toMatchObject({ post_content: '', post_excerpt: '', meta: {} });
		// An unprotected post keeps its plain meta; its builder data (`_`) is the editors'.
		expect(rowOf(res.body.data, open).meta).toEqual({ footnotes: 'a note' });
		expect(JSON.stringify(res.body)).not.toContain(PIN);

		// Those who may edit the post read all of it.
		const editor = (await preview({ include: [vault, open], orderby: 'include' }, u.editor)).body.data;
		expect(rowOf(editor, vault)).toMatchObject({ post_content: `The PIN is ${PIN}.`, post_excerpt: `PIN ${PIN}`, meta: { footnotes: `note ${PIN}` } });
		expect(rowOf(editor, vault).meta._builder_data).toContain(PIN);
		expect(rowOf(editor, open).meta).toMatchObject({ _builder_data: '[{"elType":"section"}]', footnotes: 'a note' });
	});

	test('every route that runs a query: table-fetch-data and the MCP tools show the same rows', async () => {
		const added = await v2.post('/add-query', { name: 'Vault rows', query_type: 'posts', args: { include: [vault] } }, as(u.admin));
		expect(added.status).toBe(200);
		const table = await v2.post('/table-fetch-data', { query_id: added.body.item_id, columns: ['ID', 'post_content', 'meta'] }, as(u.contributor));
		expect(table.body.data.rows).toEqual([{ ID: vault, post_content: '', meta: {} }]);

		const run = await v1.post('/mcp-tools/run/run-query', { input: { query_id: added.body.item_id } }, as(u.contributor));
		expect(run.status).toBe(200);
		const tool = await v1.post('/mcp-tools/run/preview-query', { input: { query_type: 'posts', args: { include: [vault, open] } } }, as(u.contributor));
		expect(tool.status).toBe(200);
		for (const answer of [run.body, tool.body]) {
			expect(JSON.stringify(answer)).not.toContain(PIN);
			expect(JSON.stringify(answer)).not.toContain('_builder_data');
		}
		// The editor's run shows the body.
		expect(JSON.stringify((await v1.post('/mcp-tools/run/run-query', { input: { query_id: added.body.item_id } }, as(u.editor))).body)).toContain(PIN);
	});

	test('searches and meta clauses match nothing the caller may not see (no count oracle)', async () => {
		const count = async (args: Record<string, unknown>, user: SiteUser) => (await preview(args, user)).body.count as number;
		const probes = [
			{ search: PIN },
			{ meta_query: [{ key: '_builder_data', compare: 'LIKE', value: PIN }] },
			{ meta_query: [{ key: 'footnotes', compare: 'LIKE', value: PIN }] },
		];
		for (const args of probes) {
			expect(await count(args, u.contributor)).toBe(0);
			expect(await count(args, u.editor)).toBe(1);
		}
		// `_` meta of an unprotected post is not matched for a caller who may not edit it either.
		expect(await count({ meta_query: [{ key: '_builder_data', compare: 'EXISTS' }] }, u.contributor)).toBe(0);
		expect(await count({ meta_query: [{ key: 'footnotes', compare: '=', value: 'a note' }] }, u.contributor)).toBe(1);
		// Another user's draft is neither listed nor counted.
		expect(await count({ post_status: ['draft'], search: 'xylophone' }, u.contributor)).toBe(1);
	});
});

describe('searches and totals (finding 6)', () => {
	test('the site search does not match protected posts for a caller who may not edit them (anonymous: WordPress)', async () => {
		for (const user of [u.anonymous, u.subscriber, u.contributor]) {
			const res = await cms.get('/search', user, { search: PIN });
			expect(res.status).toBe(200);
			expect(res.body).toEqual([]);
			expect(total(res)).toBe(0);
		}
		// WordPress's anonymous search leaves protected posts out altogether, whatever matches.
		expect(ids((await cms.get('/search', u.anonymous, { search: 'Vault' })).body)).toEqual([]);
		expect(ids((await cms.get('/search', u.admin, { search: PIN })).body)).toEqual([vault]);
		expect(ids((await cms.get('/search', u.editor, { search: 'Vault' })).body)).toEqual([vault]);
	});

	test('a collection search does not match protected posts for a caller who may not edit them', async () => {
		for (const user of [u.anonymous, u.subscriber, u.contributor, u.author]) {
			for (const query of [{ search: PIN }, { search: PIN, orderby: 'relevance' }, { search: `PIN is ${PIN}.`, search_semantics: 'exact', search_columns: 'post_content' }]) {
				const res = await cms.get('/posts', user, query);
				expect(res.body).toEqual([]);
				expect(total(res)).toBe(0);
			}
		}
		const editor = await cms.get('/posts', u.editor, { search: PIN });
		expect(ids(editor.body)).toEqual([vault]);
		expect(total(editor)).toBe(1);
	});

	test("a status filter lists and counts only what the caller may read: a contributor's drafts are their own", async () => {
		const drafts = await cms.get('/posts', u.contributor, { status: 'draft', search: 'xylophone' });
		expect(ids(drafts.body)).toEqual([ownDraft]);
		expect(total(drafts)).toBe(1);
		expect(drafts.headers.get('x-wp-totalpages')).toBe('1');
		const all = await cms.get('/posts', u.contributor, { status: 'draft', per_page: 100 });
		expect(ids(all.body)).not.toContain(adminDraft);
		expect(total(all)).toBe(all.body.length);
		// The administrator's draft is there, for those who may read it.
		expect(ids((await cms.get('/posts', u.editor, { status: 'draft', search: 'xylophone' })).body)).toEqual(expect.arrayContaining([adminDraft, ownDraft]));
		// As WordPress: other statuses need edit_posts.
		for (const user of [u.anonymous, u.subscriber]) {
			const refused = await cms.get('/posts', user, { status: 'draft', search: 'xylophone' });
			expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 'rest_invalid_param' });
		}
	});

	test('media: attachments of a post the caller may not read are neither listed nor counted', async () => {
		const res = await fetch(`${server.url}/wp-json/cms/v2/media?post=${adminDraft}&title=Zebra%20sketch`, {
			method: 'POST',
			headers: { ...u.admin.headers, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="zebra.png"' },
			body: PNG,
		});
		expect(res.status).toBe(201);
		const zebra = ((await res.json()) as { id: number }).id;
		for (const user of [u.anonymous, u.contributor]) {
			const found = await cms.get('/media', user, { search: 'zebra' });
			expect(found.body).toEqual([]);
			expect(total(found)).toBe(0);
		}
		// The engine's queries read media by the same rule.
		expect((await preview({ post_type: ['attachment'], post_status: ['inherit'], search: 'zebra' }, u.contributor)).body.count).toBe(0);
		expect(ids((await cms.get('/media', u.editor, { search: 'zebra' })).body)).toEqual([zebra]);
		expect((await preview({ post_type: ['attachment'], post_status: ['inherit'], search: 'zebra' }, u.editor)).body.count).toBe(1);
	});
});

describe('the SQL of the read and edit rules', () => {
	test('readableSql and editableSql select exactly what canRead and canEdit allow, for every role, status and owner', () => {
		const store = server.services.store;
		const users = [null, ...[u.admin, u.editor, u.author, u.author2, u.contributor, u.subscriber].map((user) => store.users.byName(user.name)!)];
		const statuses: [string, string | null][] = [
			['publish', null], ['future', null], ['draft', null], ['pending', null], ['private', null],
			['trash', 'publish'], ['trash', 'draft'], ['trash', null],
		];
		const now = Math.floor(Date.now() / 1000);
		const rows = [POST, PAGE].flatMap((def) =>
			statuses.flatMap(([status, trashed]) =>
				[0, u.author.id, u.contributor.id, u.editor.id].map((author) =>
					store.content.insert({ type: def.type, status, trashed_status: trashed, author, password: 'pw', title: 'matrix', date_gmt: now, modified_gmt: now }),
				),
			),
		);
		const selected = (sql: { sql: string; params: unknown[] }, def: typeof POST) =>
			store.content.find({ sql: `c.type = ? AND c.title = 'matrix' AND ${sql.sql}`, params: [def.type, ...sql.params] }, { sql: 'c.id', params: [] }, null, 0).rows.map((row) => row.id);
		for (const user of users) {
			for (const def of [POST, PAGE]) {
				const ofType = rows.filter((row) => row.type === def.type);
				expect(selected(editableSql(user, def), def)).toEqual(ofType.filter((row) => canEdit(user, def, row)).map((row) => row.id));
				expect(selected(readableSql(user, def), def)).toEqual(ofType.filter((row) => canRead(user, def, row)).map((row) => row.id));
			}
		}
		for (const row of rows) store.content.delete(row.id);
	});
});
