import { z } from 'zod';
import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { client } from '../helpers/server';

/**
 * The item schemas the site index and OPTIONS show (a route's `schema`, WordPress's `get_public_item_schema`)
 * are true to the answers: every answer of the resource, in each context, validates against its schema.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

async function schemaOf(path: string) {
	const res = await client(server.url, '/wp-json').call('OPTIONS', path);
	expect(res.status).toBe(200);
	return res.body.schema as Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };
}

/**
 * WordPress's formats as its answers hold them: `date-time` as its `rest_parse_date` takes it (RFC 3339 whose
 * offset may be left out, as the site's local dates are); `email` and `uri` also empty (a comment's author
 * without an address or site).
 */
const FORMAT_PATTERNS: Record<string, string> = {
	'date-time': '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(Z|[+-]\\d{2}:\\d{2})?$',
	email: '^$|^[^\\s@]+@[^\\s@]+$',
	uri: '^$|^https?://',
};
const wpDates = (schema: unknown): unknown =>
	Array.isArray(schema)
		? schema.map(wpDates)
		: schema && typeof schema === 'object'
			? Object.fromEntries(Object.entries(schema).map(([k, v]) => (k === 'format' && typeof v === 'string' && FORMAT_PATTERNS[v] ? ['pattern', FORMAT_PATTERNS[v]] : [k, wpDates(v)])))
			: schema;

/** The answer's issues against the schema (none when it validates). */
function issues(schema: Record<string, unknown>, answer: unknown) {
	const { links: _links, ...json } = wpDates(schema) as Record<string, unknown>;
	const result = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]).safeParse(answer);
	return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe.each(['posts', 'pages'])('%s', (base) => {
	test('the schema is WordPress\'s form: fields with contexts, readonly, formats, `{raw, rendered}` objects', async () => {
		const schema = await schemaOf(`/cms/v2/${base}`);
		expect(schema).toMatchObject({ $schema: 'http://json-schema.org/draft-04/schema#', title: base === 'posts' ? 'post' : 'page', type: 'object' });
		expect(schema.properties.id).toEqual({ description: expect.any(String), type: 'integer', context: ['view', 'edit', 'embed'], readonly: true });
		expect(schema.properties.date).toEqual({ description: expect.any(String), type: ['string', 'null'], format: 'date-time', context: ['view', 'edit', 'embed'] });
		expect(schema.properties.title).toEqual({
			description: expect.any(String),
			type: 'object',
			context: ['view', 'edit', 'embed'],
			properties: {
				raw: { description: expect.any(String), type: 'string', context: ['edit'] },
				rendered: { description: expect.any(String), type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
			},
		});
		expect(schema.properties).not.toHaveProperty('class_list');
		expect('categories' in schema.properties).toBe(base === 'posts');
		expect('parent' in schema.properties).toBe(base === 'pages');
		// The same schema on the item route and in the `wp/v2` twin, whose links name `wp/v2`.
		expect(await schemaOf(`/cms/v2/${base}/1`)).toEqual(schema);
		const twin = await schemaOf(`/wp/v2/${base}`);
		expect((twin.links as { href: string }[])[0].href).toBe(`${server.url}/wp-json/wp/v2/${base}/{id}`);
		const help = (await client(server.url, '/wp-json').get('/wp/v2?context=help')).body;
		expect(help.routes[`/wp/v2/${base}`].schema).toEqual(twin);
	});

	test('every answer validates against the schema, in the view, edit and embed contexts', async () => {
		const schema = await schemaOf(`/cms/v2/${base}`);
		const open = await cms.create(`/${base}`, u.admin, { title: 'Open', content: '<p>Body</p>', excerpt: 'Short', status: 'publish' });
		const locked = await cms.create(`/${base}`, u.admin, { title: { raw: 'Locked' }, content: 'Secret', status: 'publish', password: 'pw' });
		const draft = await cms.create(`/${base}`, u.admin, { title: 'Draft', date: null });
		expect(issues(schema, open)).toEqual([]);
		expect(issues(schema, draft)).toEqual([]);
		for (const context of ['view', 'edit', 'embed']) {
			for (const id of [open.id, locked.id, draft.id]) {
				const item = await cms.get(`/${base}/${id}`, u.admin, { context });
				expect(item.status).toBe(200);
				expect({ context, id, issues: issues(schema, item.body) }).toEqual({ context, id, issues: [] });
			}
			const list = await cms.get(`/${base}`, u.admin, { context, status: ['publish', 'draft'] });
			expect(list.body.length).toBeGreaterThanOrEqual(3);
			for (const item of list.body) expect({ context, id: item.id, issues: issues(schema, item) }).toEqual({ context, id: item.id, issues: [] });
		}
		// A wrong answer does not validate: the schema checks something.
		expect(issues(schema, { ...open, id: 'one', title: { rendered: 1 } }).length).toBe(2);
	});
});

describe('comments', () => {
	test('the schema is WordPress\'s, and every answer validates against it (view, edit, embed)', async () => {
		const schema = await schemaOf('/cms/v2/comments');
		expect(schema).toMatchObject({ title: 'comment', type: 'object' });
		expect(schema.properties.content.properties).toMatchObject({ raw: { context: ['edit'] }, rendered: { readonly: true } });
		expect(schema.properties.author_avatar_urls.properties).toHaveProperty('96');
		expect(schema.properties.meta).toMatchObject({ type: 'object', properties: [] });
		const post = await cms.create('/posts', u.admin, { title: 'Talk', status: 'publish' });
		const comment = await cms.create('/comments', u.admin, { post: post.id, content: 'First!' });
		// WordPress's schema says `meta` is an object, and answers PHP's empty array (`[]`): the one field left out here.
		const { meta: _meta, ...properties } = schema.properties;
		const checked = { ...schema, properties };
		expect(issues(checked, comment)).toEqual([]);
		for (const context of ['view', 'edit', 'embed']) {
			const item = await cms.get(`/comments/${comment.id}`, u.admin, { context });
			expect({ context, issues: issues(checked, item.body) }).toEqual({ context, issues: [] });
			const list = await cms.get('/comments', u.admin, { context });
			for (const one of list.body) expect({ context, issues: issues(checked, one) }).toEqual({ context, issues: [] });
		}
		expect(issues(checked, { ...comment, post: 'x' }).length).toBe(1);
	});
});

describe('media, revisions and autosaves', () => {
	test("a media item's answers validate against WordPress's attachment schema (no password, the file's fields)", async () => {
		const schema = await schemaOf('/cms/v2/media');
		expect(schema).toMatchObject({ title: 'attachment', type: 'object' });
		expect(schema.properties).not.toHaveProperty('password');
		expect(schema.properties.media_type).toMatchObject({ type: 'string', enum: ['image', 'file'], readonly: true });
		const res = await fetch(`${server.url}/wp-json/cms/v2/media`, {
			method: 'POST',
			headers: { ...u.admin.headers, 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="notes.txt"' },
			body: 'notes',
		});
		const media = (await res.json()) as { id: number };
		expect(res.status).toBe(201);
		// WordPress's own schema is not true to its attachments there: their status is `inherit`, an unattached one's `post` null.
		const properties = { ...schema.properties, status: { type: 'string', enum: ['inherit', 'private'] }, post: { type: ['integer', 'null'] } };
		for (const context of ['view', 'edit', 'embed']) {
			expect(issues({ ...schema, properties }, (await cms.get(`/media/${media.id}`, u.admin, { context })).body)).toEqual([]);
		}
	});

	test("revisions and autosaves validate against WordPress's revision schema; an autosave's has preview_link", async () => {
		const post = await cms.create('/posts', u.admin, { title: 'Revised', content: 'One', status: 'publish' });
		await cms.post(`/posts/${post.id}`, u.admin, { content: 'Two' });
		const revisions = await schemaOf(`/cms/v2/posts/${post.id}/revisions`);
		expect(revisions).toMatchObject({ title: 'post-revision' });
		expect(revisions.properties).not.toHaveProperty('preview_link');
		for (const revision of (await cms.get(`/posts/${post.id}/revisions`, u.admin, { context: 'edit' })).body) expect(issues(revisions, revision)).toEqual([]);
		const autosaves = await schemaOf(`/cms/v2/posts/${post.id}/autosaves`);
		expect(autosaves.properties.preview_link).toMatchObject({ type: 'string', format: 'uri', context: ['edit'], readonly: true });
		const autosave = await cms.post(`/posts/${post.id}/autosaves`, u.admin, { content: 'Three' });
		expect(autosave.status).toBe(200);
		expect(issues(autosaves, autosave.body)).toEqual([]);
	});
});
