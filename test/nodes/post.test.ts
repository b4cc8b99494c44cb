import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { firstJson, nodeRunner, runNode, siteHarness, type NodeParameters } from '../helpers/nodes';

/** WDM Post: every operation run by n8n's engine against a live server, what it did read back over REST. */

let server: App;
/** The `cms/v2` routes, to read back what the node did. */
let cms: CmsClient;
let users: SiteUsers;

beforeAll(async () => {
	({ server, cms, u: users } = await startSite());
});
afterAll(() => server.close());

const post = nodeRunner('CUSTOM.wdmPost', () => siteHarness(server.url));

/** Creates a post through the node and returns its JSON. */
const created = async (parameters: NodeParameters) => firstJson(await post({ operation: 'create', ...parameters }));

describe('Create, Get, Update, Delete', () => {
	test('Create: every field reaches the site, in both addressing styles', async () => {
		for (const addressing of ['restRoute', 'wpJson']) {
			const run = await post(
				{
					operation: 'create',
					title: `From n8n (${addressing})`,
					content: 'Hello\n\nWorld',
					additionalFields: {
						status: 'publish',
						excerpt: 'Summary',
						slug: `from-n8n-${addressing}`,
						comment_status: 'closed',
						ping_status: 'closed',
						format: 'quote',
						sticky: true,
						template: 'wide.php',
						categories: '1',
						date: '2024-05-06T07:08:09',
						builderEditMode: 'builder',
						builderTemplateType: 'cms-post',
						builderData: '[{"id":"a1"}]',
						hideTitle: 'yes',
						footnotes: '[]',
					},
				},
				{},
				siteHarness(server.url, addressing),
			);
			expect(run.error).toBeUndefined();
			const json = run.items[0].json as Record<string, any>;
			const stored = (await cms.get(`/posts/${json.id}?context=edit`, users.admin)).body;
			expect(stored).toMatchObject({
				title: { raw: `From n8n (${addressing})` },
				content: { raw: 'Hello\n\nWorld', rendered: '<p>Hello</p>\n\n<p>World</p>\n' },
				excerpt: { raw: 'Summary' },
				status: 'publish',
				slug: `from-n8n-${addressing.toLowerCase()}`,
				comment_status: 'closed',
				ping_status: 'closed',
				format: 'quote',
				sticky: true,
				template: 'wide.php',
				categories: [1],
				date: '2024-05-06T07:08:09',
				meta: {
					_builder_edit_mode: 'builder',
					_builder_template_type: 'cms-post',
					_builder_data: '[{"id":"a1"}]',
					_builder_page_settings: { hide_title: 'yes' },
					footnotes: '[]',
				},
			});
			expect(json).toEqual(stored);
		}
	});

	test('Get: in a context, with a password, with a shorter excerpt', async () => {
		const locked = await created({ title: 'Locked', content: 'one two three four five', additionalFields: { status: 'publish', password: 'pw' } });
		const view = await post({ operation: 'get', postId: locked.id });
		expect(view.error).toBeUndefined();
		expect(view.items[0].json).toMatchObject({ id: locked.id, content: { rendered: '', protected: true } });
		expect(view.items[0].json).not.toHaveProperty('password');
		const opened = await post({ operation: 'get', postId: locked.id, options: { password: 'pw', excerpt_length: 2 } });
		expect(opened.items[0].json).toMatchObject({ content: { rendered: '<p>one two three four five</p>\n' }, excerpt: { rendered: '<p>one two [&hellip;]</p>\n' } });
		const edit = await post({ operation: 'get', postId: locked.id, options: { context: 'edit' } });
		expect(edit.items[0].json).toMatchObject({ password: 'pw', content: { raw: 'one two three four five' } });
	});

	test('Update: the fields given change, the others stay; a revision is kept', async () => {
		const first = await created({ title: 'Before', content: 'Body', additionalFields: { status: 'draft' } });
		const run = await post({ operation: 'update', postId: first.id, updateFields: { title: 'After', status: 'publish', sticky: false } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id: first.id, title: { raw: 'After' }, content: { raw: 'Body' }, status: 'publish', slug: 'after' });
		expect((await cms.get(`/posts/${first.id}/revisions`, users.admin)).body).toHaveLength(1);
	});

	test('Delete: to the trash, then for good', async () => {
		const doomed = await created({ title: 'Doomed', additionalFields: { status: 'publish' } });
		const trashed = await post({ operation: 'delete', postId: doomed.id });
		expect(trashed.items[0].json).toMatchObject({ id: doomed.id, status: 'trash' });
		const gone = await post({ operation: 'delete', postId: doomed.id, force: true });
		expect(gone.items[0].json).toMatchObject({ deleted: true, previous: { id: doomed.id } });
		expect((await cms.get(`/posts/${doomed.id}`, users.admin)).status).toBe(404);
	});

	test('errors are node errors with the site’s message and status; continueRegularOutput keeps them as items', async () => {
		const missing = await post({ operation: 'get', postId: 999999 });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'Invalid post ID.' });
		expect(missing.error?.description).toContain('rest_post_invalid_id');
		const contributor = siteHarness(server.url, 'restRoute', users.contributor);
		const refused = await post({ operation: 'create', title: 'x', content: '', additionalFields: { status: 'publish' } }, {}, contributor);
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to publish posts in this post type.' });
		const bad = await post({ operation: 'create', title: '', content: '' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Content, title, and excerpt are empty.' });
		expect(bad.error?.description).toContain('empty_content');
		const kept = await post({ operation: 'delete', postId: 999999 }, { onError: 'continueRegularOutput' });
		expect(kept.error).toBeUndefined();
		expect(kept.items[0].json.error).toBe('Invalid post ID.');
		// A draft by the contributor is fine.
		const draft = await post({ operation: 'create', title: 'Mine', content: '' }, {}, contributor);
		expect(draft.items[0].json).toMatchObject({ status: 'draft', title: { raw: 'Mine' } });
	});
});

describe('Get Many', () => {
	let site: App;
	const ids: Record<string, number> = {};
	const terms: Record<string, number> = {};
	const many = (parameters: NodeParameters) => runNode(siteHarness(site.url, 'wpJson'), 'CUSTOM.wdmPost', { operation: 'getMany', ...parameters });
	const titles = (run: Awaited<ReturnType<typeof many>>) => {
		expect(run.error).toBeUndefined();
		return run.items.map((item) => (item.json as { title: { rendered: string } }).title.rendered);
	};

	beforeAll(async () => {
		const started = await startSite();
		site = started.server;
		const call = async (path: string, body: Record<string, unknown>) => (await started.cms.create(path, started.u.admin, body)) as { id: number };
		terms.world = (await call('/categories', { name: 'World' })).id;
		terms.europe = (await call('/categories', { name: 'Europe', parent: terms.world })).id;
		terms.red = (await call('/tags', { name: 'red' })).id;
		terms.blue = (await call('/tags', { name: 'blue' })).id;
		const make = async (key: string, body: object) => (ids[key] = (await call('/posts', { status: 'publish', title: key, ...body })).id);
		await make('alpha', { date: '2024-01-01T00:00:00', categories: [terms.world], tags: [terms.red], content: 'apple' });
		await make('beta', { date: '2024-02-01T00:00:00', categories: [terms.europe], tags: [terms.blue], format: 'aside' });
		await make('gamma', { date: '2024-03-01T00:00:00', tags: [terms.red, terms.blue], sticky: true, excerpt: 'apple' });
		await make('delta', { date: '2024-04-01T00:00:00', status: 'draft' });
		// Enough posts for several pages of 100: made in the store, in one go.
		const { store } = site.services;
		store.tx(() => {
			for (let i = 0; i < 230; i++) {
				const row = store.content.insert({ type: 'post', status: 'publish', title: `bulk ${i}`, slug: `bulk-${i}`, author: 1, date_gmt: Date.UTC(2023, 0, 1) + i * 1000, modified_gmt: Date.UTC(2023, 0, 1) });
				store.content.setTermIds(row.id, 'post_tag', [terms.blue]);
			}
		});
	});
	afterAll(() => site.close());

	test('Return All pages through X-WP-TotalPages; Limit stops early', async () => {
		expect(titles(await many({ returnAll: true }))).toHaveLength(233);
		const limited = titles(await many({ returnAll: false, limit: 105 }));
		expect(limited).toHaveLength(105);
		expect(limited.slice(0, 3)).toEqual(['gamma', 'beta', 'alpha']);
		expect(titles(await many({ returnAll: false, limit: 2 }))).toEqual(['gamma', 'beta']);
	});

	test('filters: dates, search, slugs, include/exclude, statuses, formats, sticky', async () => {
		expect(titles(await many({ returnAll: true, filters: { after: '2024-01-15T00:00:00', before: '2024-03-15T00:00:00' } }))).toEqual(['gamma', 'beta']);
		expect(titles(await many({ returnAll: true, filters: { search: 'apple' } }))).toEqual(['gamma', 'alpha']);
		expect(titles(await many({ returnAll: true, filters: { search: 'apple', search_columns: ['post_content'] } }))).toEqual(['alpha']);
		expect(titles(await many({ returnAll: true, filters: { search: 'GAMMA', exact: true } }))).toEqual(['gamma']);
		expect(titles(await many({ returnAll: true, filters: { slug: 'alpha, beta' } }))).toEqual(['beta', 'alpha']);
		expect(titles(await many({ returnAll: true, filters: { include: `${ids.alpha}, ${ids.gamma}`, exclude: String(ids.gamma) } }))).toEqual(['alpha']);
		expect(titles(await many({ returnAll: true, filters: { status: ['draft'] } }))).toEqual(['delta']);
		expect(titles(await many({ returnAll: true, filters: { status: ['any'], after: '2024-01-15T00:00:00' } }))).toEqual(['delta', 'gamma', 'beta']);
		expect(titles(await many({ returnAll: true, filters: { format: ['aside'] } }))).toEqual(['beta']);
		expect(titles(await many({ returnAll: true, filters: { sticky: true } }))).toEqual(['gamma']);
		expect(titles(await many({ returnAll: false, limit: 2, filters: { stickyFirst: true, after: '2024-01-15T00:00:00' } }))).toEqual(['gamma', 'beta']);
		expect(titles(await many({ returnAll: false, limit: 3, filters: { author: '1', modified_before: '2023-06-01T00:00:00' }, options: { orderby: 'title', order: 'asc' } }))).toEqual([
			'bulk 0',
			'bulk 1',
			'bulk 10',
		]);
	});

	test('filters: categories (with subcategories, all or any), tags, their exclusion, the relation between them', async () => {
		expect(titles(await many({ returnAll: true, filters: { categories: String(terms.world) } }))).toEqual(['alpha']);
		expect(titles(await many({ returnAll: true, filters: { categories: String(terms.world), categoriesChildren: true } }))).toEqual(['beta', 'alpha']);
		expect(titles(await many({ returnAll: true, filters: { tags: `${terms.red}, ${terms.blue}`, tagsOperator: 'AND' } }))).toEqual(['gamma']);
		expect(titles(await many({ returnAll: true, filters: { tags: String(terms.red), categories_exclude: String(terms.world) } }))).toEqual(['gamma']);
		expect(titles(await many({ returnAll: true, filters: { categories_exclude: String(terms.world), categoriesExcludeChildren: true, tags: String(terms.red) } }))).toEqual(['gamma']);
		expect(titles(await many({ returnAll: true, filters: { categories_exclude: String(terms.world), tags: String(terms.blue) } }))).toHaveLength(232);
		expect(titles(await many({ returnAll: true, filters: { categories: String(terms.europe), tags: String(terms.red), tax_relation: 'OR' } }))).toEqual([
			'gamma',
			'beta',
			'alpha',
		]);
	});

	test('options: context, order, order by; a bad combination is the site’s error', async () => {
		const embed = await many({ returnAll: false, limit: 1, options: { context: 'embed' } });
		expect(Object.keys(embed.items[0].json)).toEqual(['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links']);
		expect(titles(await many({ returnAll: true, filters: { include: `${ids.beta}, ${ids.alpha}, ${ids.gamma}` }, options: { orderby: 'include' } }))).toEqual(['beta', 'alpha', 'gamma']);
		const bad = await many({ returnAll: true, options: { orderby: 'relevance' } });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'You need to define a search term to order by relevance.' });
	});
});

describe('revisions and autosaves', () => {
	test('Get Many Revisions, Get Revision, Delete Revision', async () => {
		const first = await created({ title: 'v1', additionalFields: { status: 'publish' } });
		await post({ operation: 'update', postId: first.id, updateFields: { title: 'v2' } });
		await post({ operation: 'update', postId: first.id, updateFields: { title: 'v3' } });
		const list = await post({ operation: 'getRevisions', postId: first.id, returnAll: true, options: { context: 'edit' } });
		expect(list.error).toBeUndefined();
		expect(list.items.map((i) => (i.json as { title: { raw: string } }).title.raw)).toEqual(['v3', 'v2']);
		const limited = await post({ operation: 'getRevisions', postId: first.id, returnAll: false, limit: 1, options: { order: 'asc' } });
		expect(limited.items.map((i) => (i.json as { title: { rendered: string } }).title.rendered)).toEqual(['v2']);
		const [newest, older] = list.items.map((i) => i.json as { id: number });
		const one = await post({ operation: 'getRevision', postId: first.id, revisionId: older.id, context: 'edit' });
		expect(one.items[0].json).toMatchObject({ id: older.id, parent: first.id, title: { raw: 'v2' } });
		// Refused to everyone, as WordPress does; the revision stays.
		const refused = await post({ operation: 'deleteRevision', postId: first.id, revisionId: older.id });
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to delete this revision.' });
		expect((await cms.get(`/posts/${first.id}/revisions`, users.admin)).body.map((r: { id: number }) => r.id)).toEqual([newest.id, older.id]);
		const filtered = await post({ operation: 'getRevisions', postId: first.id, returnAll: true, filters: { search: 'v3' } });
		expect(filtered.items).toHaveLength(1);
		const missing = await post({ operation: 'getRevision', postId: first.id, revisionId: 999999 });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'Invalid revision ID.' });
	});

	test('Create Autosave, Get Many Autosaves, Get Autosave', async () => {
		const live = await created({ title: 'Live', content: 'saved', additionalFields: { status: 'publish' } });
		const made = await post({ operation: 'createAutosave', postId: live.id, autosaveFields: { content: 'not yet saved' } });
		expect(made.error).toBeUndefined();
		const autosave = made.items[0].json as { id: number };
		// The autosave holds what was sent ('' for the rest), as WordPress's.
		expect(made.items[0].json).toMatchObject({ parent: live.id, title: { raw: '' }, content: { raw: 'not yet saved' } });
		expect((await cms.get(`/posts/${live.id}?context=edit`, users.admin)).body.content.raw).toBe('saved');
		const list = await post({ operation: 'getAutosaves', postId: live.id });
		expect(list.items.map((i) => (i.json as { id: number }).id)).toEqual([autosave.id]);
		const one = await post({ operation: 'getAutosave', postId: live.id, autosaveId: autosave.id, context: 'edit' });
		expect(one.items[0].json).toMatchObject({ id: autosave.id, content: { raw: 'not yet saved' } });
		// As WordPress 6.1: the post's latest autosave, whichever id is named.
		const latest = await post({ operation: 'getAutosave', postId: live.id, autosaveId: live.id });
		expect(latest.items[0].json).toMatchObject({ id: autosave.id });
		// An autosave of one's own draft updates the draft, and makes no autosave.
		const draft = await created({ title: 'Draft' });
		await post({ operation: 'createAutosave', postId: draft.id, autosaveFields: { title: 'Draft, autosaved' } });
		expect((await cms.get(`/posts/${draft.id}?context=edit`, users.admin)).body.title.raw).toBe('Draft, autosaved');
		const none = await post({ operation: 'getAutosave', postId: draft.id, autosaveId: 1 });
		expect(none.error).toMatchObject({ httpCode: '404', message: 'There is no autosave revision for this post.' });
	});
});

describe('categories and tags', () => {
	test('Create Category, Get Category, Get Many Categories', async () => {
		const parent = await post({ operation: 'createCategory', termName: 'Recipes', termFields: { description: 'Food', slug: 'food' } });
		expect(parent.error).toBeUndefined();
		const parentId = (parent.items[0].json as { id: number }).id;
		expect(parent.items[0].json).toMatchObject({ name: 'Recipes', slug: 'food', description: 'Food', taxonomy: 'category' });
		const child = await post({ operation: 'createCategory', termName: 'Cakes', termFields: { parent: parentId } });
		const childId = (child.items[0].json as { id: number }).id;
		expect(child.items[0].json).toMatchObject({ parent: parentId });
		const one = await post({ operation: 'getCategory', categoryId: childId });
		expect(one.items[0].json).toMatchObject({ id: childId, name: 'Cakes' });
		const under = await post({ operation: 'getManyCategories', returnAll: true, termFilters: { parent: parentId } });
		expect(under.items.map((i) => i.json.name)).toEqual(['Cakes']);
		const all = await post({ operation: 'getManyCategories', returnAll: true, termOptions: { orderby: 'id', order: 'desc' } });
		expect(all.items.map((i) => i.json.name).slice(0, 2)).toEqual(['Cakes', 'Recipes']);
		const searched = await post({ operation: 'getManyCategories', returnAll: true, termFilters: { search: 'reci', hide_empty: false } });
		expect(searched.items.map((i) => i.json.name)).toEqual(['Recipes']);
		const taken = await post({ operation: 'createCategory', termName: 'Recipes' });
		expect(taken.error).toMatchObject({ httpCode: '400', message: 'A term with the name provided already exists with this parent.' });
		// A post in the new category, found by its filter.
		const used = await created({ title: 'Cake', additionalFields: { status: 'publish', categories: String(childId) } });
		const ofPost = await post({ operation: 'getManyCategories', returnAll: true, termFilters: { post: used.id } });
		expect(ofPost.items.map((i) => i.json.name)).toEqual(['Cakes']);
	});

	test('Create Tag, Get Tag, Get Many Tags; a contributor may tag', async () => {
		const contributor = siteHarness(server.url, 'restRoute', users.contributor);
		const made = await post({ operation: 'createTag', termName: 'Quick' }, {}, contributor);
		expect(made.error).toBeUndefined();
		const id = (made.items[0].json as { id: number }).id;
		expect((await post({ operation: 'getTag', tagId: id })).items[0].json).toMatchObject({ name: 'Quick', slug: 'quick', taxonomy: 'post_tag' });
		const tagged = await created({ title: 'Tagged', additionalFields: { status: 'publish', tags: String(id) } });
		expect((await cms.get(`/posts/${tagged.id}`, users.admin)).body.tags).toEqual([id]);
		const list = await post({ operation: 'getManyTags', returnAll: false, limit: 5, termFilters: { slug: 'quick' } });
		expect(list.items.map((i) => i.json.id)).toEqual([id]);
		const refused = await post({ operation: 'createCategory', termName: 'Nope' }, {}, contributor);
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to create terms in this taxonomy.' });
	});
});
