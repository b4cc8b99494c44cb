import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { firstJson, nodeRunner, siteHarness, type NodeParameters } from '../helpers/nodes';

/** WDM Page Builder, resources Lookup and Site Navigation, run by n8n's engine against a live server in both addressing styles. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
const ids: Record<string, number> = {};

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	ids.news = (await cms.create('/categories', u.admin, { name: 'Node news' })).id;
	ids.alpha = (await cms.create('/posts', u.admin, { title: 'Node alpha', status: 'publish', categories: [ids.news], meta: { _builder_edit_mode: 'builder' } })).id;
	ids.beta = (await cms.create('/posts', u.admin, { title: 'Node beta', status: 'publish' })).id;
});
afterAll(() => server.close());

describe.each(['restRoute', 'wpJson'])('addressing %s', (addressing) => {
	const builder = nodeRunner('CUSTOM.wdmPageBuilder', () => siteHarness(server.url, addressing));
	const lookup = (operation: string, parameters: NodeParameters = {}) => builder({ resource: 'lookup', operation, ...parameters });
	const navigation = (operation: string, parameters: NodeParameters = {}) => builder({ resource: 'siteNavigation', operation, ...parameters });

	test('Find Posts: search, types, keys map, meta and tax queries', async () => {
		const found = await lookup('findPosts', { lookupTerm: 'Node' });
		expect(found.error).toBeUndefined();
		expect(found.items.map((i) => i.json)).toEqual([
			{ id: ids.beta, label: 'Node beta', groupLabel: 'Posts' },
			{ id: ids.alpha, label: 'Node alpha', groupLabel: 'Posts' },
		]);
		const mapped = await lookup('findPosts', {
			lookupTerm: 'Node',
			postLookupOptions: { includedPostTypes: 'post', itemsCount: 5, keysConversionMap: '{"ID": "value", "post_name": "slug"}' },
			lookupMetaQuery: { condition: [{ key: '_builder_edit_mode', compare: 'equals', value: 'builder' }] },
			lookupTaxQuery: { condition: [{ taxonomy: 'category', field: 'slug', terms: 'node-news', operator: 'IN' }] },
		});
		expect(mapped.error).toBeUndefined();
		expect(mapped.items.map((i) => i.json)).toEqual([{ value: ids.alpha, slug: 'node-alpha' }]);
		const pagesOnly = await lookup('findPosts', { lookupTerm: 'Node', postLookupOptions: { excludedPostTypes: 'post', isPublic: true } });
		expect(pagesOnly.error).toBeUndefined();
		expect(pagesOnly.items.map((i) => i.json)).toEqual([]);
		const bad = await lookup('findPosts', { lookupTaxQuery: { condition: [{ taxonomy: 'genre', field: 'term_id', terms: '1', operator: 'IN' }] } });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): tax_query' });
	});

	test('Find Terms and Find Users', async () => {
		const terms = await lookup('findTerms', { lookupTerm: 'node', termLookupOptions: { includedTaxonomies: 'category', hideEmpty: true } });
		expect(terms.items.map((i) => i.json)).toEqual([{ id: ids.news, label: 'Node news', groupLabel: 'Categories' }]);
		const none = await lookup('findTerms', { lookupTerm: 'node', termLookupOptions: { excludedTaxonomies: 'category' }, lookupMetaQuery: { condition: [{ key: 'color', compare: 'exists', value: '' }] } });
		expect(none.error).toBeUndefined();
		expect(none.items.map((i) => i.json)).toEqual([]);
		const users = await lookup('findUsers', { lookupTerm: 'edna', userLookupOptions: { itemsCount: 3, keysConversionMap: '{"ID": "id", "user_email": "email", "role": "role"}' } });
		expect(users.items.map((i) => i.json)).toEqual([{ id: u.editor.id, email: '', role: 'Editor' }]);
	});

	test('Add New Post and Get Recent Posts', async () => {
		const added = firstJson(await navigation('addNewPost', { newPostType: 'page' }));
		expect(added).toMatchObject({ post_type: 'page', status: 'draft', title: `Builder #${added.id}` });
		expect((await cms.get(`/pages/${added.id}`, u.admin, { context: 'edit' })).body.meta._builder_edit_mode).toBe('builder');
		const recent = await navigation('getRecentPosts', { postsPerPage: 5 });
		expect(recent.items[0].json).toMatchObject({ id: added.id, type: { post_type: 'page', doc_type: 'cms-page' } });
		const posts = await navigation('getRecentPosts', { postsPerPage: 5, recentPostsOptions: { recentPostTypes: 'post', excludeIds: String(added.id) } });
		expect(posts.items.map((i) => i.json.id)).toEqual([ids.alpha]);
		const bad = await navigation('addNewPost', { newPostType: 'nothing' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): post_type' });
	});
});
