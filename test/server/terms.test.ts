import type { App } from '../../server/src/app';
import { cmsClient, type CmsClient, type SiteUsers, startSite } from '../helpers/content';
import { client, expectWpError } from '../helpers/server';

/** Categories and tags complete: update, delete, hierarchy, counts, list filters, rights per role; both namespaces. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

const names = (body: { name: string }[]) => body.map((t) => t.name);
const category = (name: string, more: Record<string, unknown> = {}) => cms.create('/categories', u.editor, { name, ...more });

describe('update', () => {
	test('POST, PUT and PATCH change name, description, slug and parent; the answer is the edit context, read back the same', async () => {
		const parent = await category('Update parent');
		const cat = await category('Update me');
		const res = await cms.post(`/categories/${cat.id}`, u.editor, { name: 'Updated', description: 'About it', slug: 'Updated Slug', parent: parent.id });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			id: cat.id,
			count: 0,
			description: 'About it',
			link: `${server.url}/?cat=${cat.id}`,
			name: 'Updated',
			slug: 'updated-slug',
			taxonomy: 'category',
			parent: parent.id,
			meta: [],
			_links: expect.objectContaining({ up: [{ embeddable: true, href: `${server.url}/wp-json/cms/v2/categories/${parent.id}` }] }),
		});
		const { _links, ...stored } = (await cms.get(`/categories/${cat.id}`, u.editor, { context: 'edit' })).body;
		const { _links: _l, ...answered } = res.body;
		expect(stored).toEqual(answered);
		expect((await cms.put(`/categories/${cat.id}`, u.admin, { description: 'Put' })).body).toMatchObject({ name: 'Updated', description: 'Put' });
		expect((await cms.patch(`/categories/${cat.id}`, u.admin, { parent: 0 })).body).toMatchObject({ parent: 0, description: 'Put' });
		// An empty slug comes from the name again.
		expect((await cms.post(`/categories/${cat.id}`, u.admin, { slug: '' })).body.slug).toBe('updated');
		const tag = await cms.create('/tags', u.author, { name: 'Tag to edit' });
		expect((await cms.patch(`/tags/${tag.id}`, u.editor, { name: 'Edited tag', slug: 'edited' })).body).toMatchObject({ name: 'Edited tag', slug: 'edited', taxonomy: 'post_tag' });
		expect((await cms.get(`/tags/${tag.id}`, u.anonymous)).body.name).toBe('Edited tag');
		expect((await cms.put(`/tags/${tag.id}`, u.editor, { description: 'Put' })).body).toMatchObject({ name: 'Edited tag', description: 'Put' });
		expect((await cms.get(`/tags/${tag.id}`, u.anonymous)).body.description).toBe('Put');
	});

	test('rights: editors and administrators (manage_categories); authors, contributors, subscribers 403, anonymous 401', async () => {
		const cat = await category('Guarded');
		const tag = await cms.create('/tags', u.author, { name: 'Own tag' });
		for (const user of [u.author, u.contributor, u.subscriber]) {
			expectWpError(await cms.post(`/categories/${cat.id}`, user, { name: 'No' }), 403, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
			expectWpError(await cms.post(`/tags/${tag.id}`, user, { name: 'No' }), 403, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
			expectWpError(await cms.delete(`/tags/${tag.id}`, user, { force: true }), 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
		}
		expectWpError(await cms.post(`/categories/${cat.id}`, u.anonymous, { name: 'No' }), 401, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
		expectWpError(await cms.delete(`/categories/${cat.id}`, u.anonymous, { force: true }), 401, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
		expect((await cms.get(`/categories/${cat.id}`, u.anonymous)).body.name).toBe('Guarded');
		expect((await cms.get(`/tags/${tag.id}`, u.anonymous)).body.name).toBe('Own tag');
	});

	test('bad updates: unknown term, unknown or looping parent, parent of a tag, empty name, taken slug; nothing written', async () => {
		const top = await category('Loop top');
		const mid = await category('Loop mid', { parent: top.id });
		const low = await category('Loop low', { parent: mid.id });
		const other = await category('Slug owner', { slug: 'owned' });
		expectWpError(await cms.post('/categories/99999', u.editor, { name: 'x' }), 404, 'rest_term_invalid', 'Term does not exist.');
		expectWpError(await cms.post(`/categories/${top.id}`, u.editor, { parent: 99999 }), 400, 'rest_term_invalid', 'Parent term does not exist.');
		expectWpError(await cms.post(`/categories/${top.id}`, u.editor, { parent: low.id }), 400, 'rest_term_invalid', `Parent term ${low.id} is this category or one below it.`);
		expectWpError(await cms.post(`/categories/${top.id}`, u.editor, { parent: top.id }), 400, 'rest_term_invalid', `Parent term ${top.id} is this category or one below it.`);
		const tag = await cms.create('/tags', u.editor, { name: 'Flat' });
		expectWpError(await cms.post(`/tags/${tag.id}`, u.editor, { parent: 1 }), 400, 'rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.');
		expectWpError(await cms.post(`/categories/${top.id}`, u.editor, { name: '  ' }), 400, 'empty_term_name', 'A name is required for this term.');
		expectWpError(await cms.post(`/categories/${top.id}`, u.editor, { name: 'Renamed', slug: 'owned' }), 400, 'duplicate_term_slug', 'The slug “owned” is already in use by another term.');
		expect((await cms.post(`/categories/${top.id}`, u.editor, { name: 'x'.repeat(201) })).body).toMatchObject({ code: 'rest_invalid_param', data: { params: { name: expect.any(String) } } });
		expect((await cms.post(`/categories/${top.id}`, u.editor, { parent: 'up' })).body).toMatchObject({ code: 'rest_invalid_param', data: { params: { parent: expect.any(String) } } });
		// Nothing was written.
		expect((await cms.get(`/categories/${top.id}`, u.editor)).body).toMatchObject({ name: 'Loop top', slug: 'loop-top', parent: 0 });
		// A taken slug with a new parent is made unique with the parent's slug (wp_unique_term_slug).
		expect((await cms.post(`/categories/${low.id}`, u.editor, { slug: 'owned', parent: top.id })).body).toMatchObject({ slug: 'owned-loop-top', parent: top.id });
		expect((await cms.get(`/categories/${other.id}`, u.editor)).body.slug).toBe('owned');
		// A duplicate name is allowed on update (wp_update_term checks slugs only).
		expect((await cms.post(`/categories/${mid.id}`, u.editor, { name: 'Slug owner' })).status).toBe(200);
	});

	test('create: a taken slug is made unique, under a parent with its slug first; a duplicate name under the same parent is term_exists', async () => {
		const fruit = await category('Fruit');
		const apple = await category('Apple');
		const under = await category('Apple pie', { slug: 'apple', parent: fruit.id });
		expect(under.slug).toBe('apple-fruit');
		expect((await category('Apple crumble', { slug: 'apple' })).slug).toBe('apple-2');
		expect((await category('Apple', { parent: fruit.id })).slug).toBe('apple-fruit-2');
		const dup = await cms.post('/categories', u.editor, { name: 'apple' });
		expect(dup.body).toEqual({
			code: 'term_exists',
			message: 'A term with the name provided already exists with this parent.',
			data: { status: 400, term_id: apple.id },
			additional_data: [apple.id, apple.id],
		});
		const tag = await cms.create('/tags', u.editor, { name: 'Dup tag' });
		expect((await cms.post('/tags', u.editor, { name: 'DUP TAG' })).body).toEqual({
			code: 'term_exists',
			message: 'A term with the name provided already exists in this taxonomy.',
			data: { status: 400, term_id: tag.id },
			additional_data: [tag.id, tag.id],
		});
		expect((await cms.post('/tags', u.editor, { name: 'Another', slug: 'dup-tag' })).body.slug).toBe('dup-tag-2');
	});
});

describe('delete', () => {
	test('force=true is required (no trash); the answer is the term as it was; its posts move to the default category', async () => {
		const gone = await category('Going');
		const kept = await category('Kept');
		const only = await cms.create('/posts', u.editor, { title: 'Only going', status: 'publish', categories: [gone.id] });
		const both = await cms.create('/posts', u.editor, { title: 'Going and kept', status: 'publish', categories: [gone.id, kept.id] });
		expect((await cms.get(`/categories/${gone.id}`, u.anonymous)).body.count).toBe(2);
		expect((await cms.get('/categories/1', u.anonymous)).body.count).toBe(0);

		expectWpError(await cms.delete(`/categories/${gone.id}`, u.editor), 501, 'rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.");
		expectWpError(await cms.delete(`/categories/${gone.id}`, u.editor, { force: false }), 501, 'rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.");
		const res = await cms.delete(`/categories/${gone.id}`, u.editor, { force: true });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			deleted: true,
			previous: expect.objectContaining({ id: gone.id, name: 'Going', count: 2, taxonomy: 'category', parent: 0 }),
		});
		expectWpError(await cms.get(`/categories/${gone.id}`, u.editor), 404, 'rest_term_invalid', 'Term does not exist.');
		expectWpError(await cms.delete(`/categories/${gone.id}`, u.editor, { force: true }), 404, 'rest_term_invalid', 'Term does not exist.');
		expect((await cms.get(`/posts/${only.id}`, u.anonymous)).body.categories).toEqual([1]);
		expect((await cms.get(`/posts/${both.id}`, u.anonymous)).body.categories).toEqual([kept.id]);
		expect((await cms.get('/categories/1', u.anonymous)).body.count).toBe(1);
		expect((await cms.get(`/categories/${kept.id}`, u.anonymous)).body.count).toBe(1);
	});

	test('the default category cannot be deleted, by anyone; children move up to the deleted term’s parent', async () => {
		expectWpError(await cms.delete('/categories/1', u.admin, { force: true }), 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
		expect((await cms.get('/categories/1', u.anonymous)).body.name).toBe('Uncategorized');
		const a = await category('Tree A');
		const b = await category('Tree B', { parent: a.id });
		const c = await category('Tree C', { parent: b.id });
		expect((await cms.delete(`/categories/${b.id}`, u.admin, { force: true })).status).toBe(200);
		expect((await cms.get(`/categories/${c.id}`, u.anonymous)).body.parent).toBe(a.id);
		expect(names((await cms.get('/categories', u.anonymous, { parent: a.id })).body)).toEqual(['Tree C']);
	});

	test('tags: deleted from their posts, which keep their other tags; force may come in the body', async () => {
		const t1 = await cms.create('/tags', u.editor, { name: 'Drop me' });
		const t2 = await cms.create('/tags', u.editor, { name: 'Keep me' });
		const post = await cms.create('/posts', u.editor, { title: 'Tagged', status: 'publish', tags: [t1.id, t2.id] });
		const res = await fetch(`${server.url}/wp-json/cms/v2/tags/${t1.id}`, {
			method: 'DELETE',
			headers: { ...u.editor.headers, 'content-type': 'application/json' },
			body: JSON.stringify({ force: true }),
		});
		expect(await res.json()).toMatchObject({ deleted: true, previous: { id: t1.id, name: 'Drop me' } });
		expect((await cms.get(`/posts/${post.id}`, u.anonymous)).body.tags).toEqual([t2.id]);
		expect((await cms.get(`/posts/${post.id}`, u.anonymous)).body.categories).toEqual([1]);
	});
});

describe('count and list', () => {
	test('count is the number of published posts; hide_empty, post, include, exclude, slug, search, orderby, paging headers', async () => {
		const site = await startSite();
		try {
			const c = site.cms;
			const mk = (name: string, more: Record<string, unknown> = {}) => c.create('/categories', site.u.editor, { name, ...more });
			const zeta = await mk('Zeta', { description: 'b' });
			const alpha = await mk('Alpha', { description: 'c' });
			const mid = await mk('Mid', { parent: alpha.id, description: 'a' });
			await c.create('/posts', site.u.editor, { title: 'p1', status: 'publish', categories: [zeta.id, alpha.id] });
			await c.create('/posts', site.u.editor, { title: 'p2', status: 'publish', categories: [zeta.id] });
			const draft = await c.create('/posts', site.u.editor, { title: 'draft', status: 'draft', categories: [alpha.id, mid.id] });
			const all = (q: Record<string, unknown>) => c.get('/categories', site.u.anonymous, q);
			expect((await all({ include: [zeta.id, alpha.id, mid.id] })).body.map((t: { name: string; count: number }) => [t.name, t.count])).toEqual([
				['Alpha', 1],
				['Mid', 0],
				['Zeta', 2],
			]);
			expect(names((await all({ hide_empty: true })).body)).toEqual(['Alpha', 'Zeta']);
			expect(names((await all({ orderby: 'count', order: 'desc', hide_empty: 1 })).body)).toEqual(['Zeta', 'Alpha']);
			// Ties come by id ascending whatever the direction (WP_Term_Query orders by the one column: MariaDB's storage order).
			expect(names((await all({ orderby: 'count', order: 'desc', include: [mid.id, 1] })).body)).toEqual(['Uncategorized', 'Mid']);
			expect(names((await all({ orderby: 'count', order: 'asc', include: [mid.id, 1] })).body)).toEqual(['Uncategorized', 'Mid']);
			expect(names((await all({ orderby: 'description', exclude: [1] })).body)).toEqual(['Mid', 'Zeta', 'Alpha']);
			expect(names((await all({ orderby: 'include', include: [mid.id, zeta.id] })).body)).toEqual(['Mid', 'Zeta']);
			expect(names((await all({ orderby: 'include_slugs', slug: ['zeta', 'alpha'] })).body)).toEqual(['Zeta', 'Alpha']);
			expect(names((await all({ orderby: 'id', order: 'desc', exclude: [1] })).body)).toEqual(['Mid', 'Alpha', 'Zeta']);
			expect(names((await all({ orderby: 'slug', exclude: [1] })).body)).toEqual(['Alpha', 'Mid', 'Zeta']);
			expect(names((await all({ orderby: 'term_group', exclude: [1] })).body)).toEqual(['Zeta', 'Alpha', 'Mid']);
			expect(names((await all({ search: 'et' })).body)).toEqual(['Zeta']);
			expect(names((await all({ parent: alpha.id })).body)).toEqual(['Mid']);
			expect(names((await c.get('/categories', site.u.editor, { post: draft.id })).body)).toEqual(['Alpha', 'Mid']);
			expect((await all({ post: draft.id })).status).toBe(401);
			const page = await all({ per_page: 2, page: 2 });
			expect(page.headers.get('x-wp-total')).toBe('4');
			expect(page.headers.get('x-wp-totalpages')).toBe('2');
			expect(page.headers.get('link')).toContain('rel="prev"');
			// Publishing the draft counts it.
			await c.post(`/posts/${draft.id}`, site.u.editor, { status: 'publish' });
			expect((await c.get(`/categories/${mid.id}`, site.u.anonymous)).body.count).toBe(1);
			expect((await c.get(`/categories/${alpha.id}`, site.u.anonymous)).body.count).toBe(2);
		} finally {
			await site.server.close();
		}
	});
});

test('wp/v2 twin: update and delete under wp/v2 answer wp/v2 links', async () => {
	const wp = cmsClient(server.url, 'wp/v2');
	const tag = await wp.create('/tags', u.editor, { name: 'Twin' });
	const res = await wp.post(`/tags/${tag.id}`, u.editor, { name: 'Twin edited' });
	expect(res.body).toMatchObject({ name: 'Twin edited', _links: { self: [{ href: `${server.url}/wp-json/wp/v2/tags/${tag.id}` }] } });
	const gone = (await wp.delete(`/tags/${tag.id}`, u.editor, { force: true })).body;
	expect(gone).toMatchObject({ deleted: true, previous: { name: 'Twin edited' } });
	expect(gone.previous).not.toHaveProperty('_links');
	expect((await cms.get(`/tags/${tag.id}`, u.editor)).status).toBe(404);
});

test('an engine taxonomy’s terms update and delete the same way', async () => {
	const engine = client(server.url, '/wp-json/engine/v2');
	const as = { headers: u.admin.headers };
	await engine.post('/add-post-type', { general_settings: { name: 'Books', slug: 'book' } }, as);
	await engine.post('/add-taxonomy', { general_settings: { name: 'Shelves', object_type: ['book'] }, advanced_settings: { hierarchical: true } }, as);
	const top = await cms.create('/shelves', u.editor, { name: 'Top shelf' });
	const low = await cms.create('/shelves', u.editor, { name: 'Low shelf' });
	expect((await cms.patch(`/shelves/${low.id}`, u.editor, { parent: top.id, name: 'Lower shelf' })).body).toMatchObject({ parent: top.id, name: 'Lower shelf', taxonomy: 'shelves' });
	expectWpError(await cms.post(`/shelves/${low.id}`, u.author, { name: 'x' }), 403, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
	const book = await cms.create('/book', u.admin, { title: 'Dune', status: 'publish', shelves: [top.id, low.id] });
	expect((await cms.get(`/shelves/${top.id}`, u.anonymous)).body.count).toBe(1);
	expectWpError(await cms.delete(`/shelves/${top.id}`, u.editor), 501, 'rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.");
	expect((await cms.delete(`/shelves/${top.id}`, u.editor, { force: true })).body.deleted).toBe(true);
	expect((await cms.get(`/shelves/${low.id}`, u.anonymous)).body.parent).toBe(0);
	expect((await cms.get(`/book/${book.id}`, u.anonymous)).body.shelves).toEqual([low.id]);
});

test('terms run inside POST /batch/v1, as WordPress allows; comments do not', async () => {
	const tag = await cms.create('/tags', u.editor, { name: 'Batched' });
	const res = await fetch(`${server.url}/wp-json/batch/v1`, {
		method: 'POST',
		headers: { ...u.editor.headers, 'content-type': 'application/json' },
		body: JSON.stringify({
			requests: [
				{ path: '/cms/v2/categories', body: { name: 'Made in a batch' } },
				{ method: 'PATCH', path: `/cms/v2/tags/${tag.id}`, body: { name: 'Batched, renamed' } },
				{ method: 'DELETE', path: `/wp/v2/tags/${tag.id}?force=true` },
			],
		}),
	});
	const { responses } = (await res.json()) as { responses: { status: number; body: any }[] };
	expect(responses.map((r: { status: number }) => r.status)).toEqual([201, 200, 200]);
	expect((await cms.get(`/categories/${responses[0].body.id}`, u.anonymous)).body.name).toBe('Made in a batch');
	expect(responses[2].body).toMatchObject({ deleted: true, previous: { name: 'Batched, renamed' } });
	expect((await cms.get(`/tags/${tag.id}`, u.anonymous)).status).toBe(404);
	const refused = await fetch(`${server.url}/wp-json/batch/v1`, {
		method: 'POST',
		headers: { ...u.editor.headers, 'content-type': 'application/json' },
		body: JSON.stringify({ requests: [{ path: '/cms/v2/comments', body: { post: 1, content: 'x' } }] }),
	});
	expect(((await refused.json()) as { responses: { body: unknown }[] }).responses[0].body).toMatchObject({ code: 'rest_batch_not_allowed' });
});
