import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { runNode, siteHarness, type NodeParameters } from '../helpers/nodes';

/** WDM Dynamic Content: the Query and Search resources, every operation through n8n's engine, in both addressing styles. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let news: number;
let apple: number;
let banana: number;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	news = (await cms.create('/categories', u.admin, { name: 'News' })).id;
	apple = (await cms.create('/posts', u.admin, { title: 'Apple harvest', status: 'publish', categories: [news] })).id;
	banana = (await cms.create('/posts', u.admin, { title: 'Banana split', status: 'publish' })).id;
	await cms.create('/posts', u.admin, { title: 'Cherry draft', status: 'draft' });
	server.services.store.objects.put('engine', 'item', '3', { id: 3, name: 'Sizes', fields: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }] });
});
afterAll(() => server.close());

describe.each([['restRoute'], ['wpJson']])('addressing %s', (addressing) => {
	const run = (parameters: NodeParameters) => runNode(siteHarness(server.url, addressing), 'CUSTOM.wdmDynamicContent', parameters);
	const query = (operation: string, parameters: NodeParameters = {}) => run({ resource: 'query', operation, ...parameters });
	const ok = async (operation: string, parameters: NodeParameters = {}) => {
		const result = await query(operation, parameters);
		expect(result.error).toBeUndefined();
		return result.items.map((item) => item.json as Record<string, any>);
	};

	test('Create, Get, Get Many, Update and Delete a query', async () => {
		const slug = `fruit-${addressing.toLowerCase()}`;
		const [created] = await ok('createQuery', {
			queryName: 'Fruit',
			queryType: 'posts',
			queryArgs: { postType: 'post', orderBy: 'title', order: 'ASC', perPage: 5, search: 'a' },
			queryTaxFilters: { filter: [{ taxonomy: 'category', terms: `${news}`, operator: 'IN', includeChildren: true }] },
			queryMetaFilters: { filter: [{ key: 'footnotes', compare: 'NOT EXISTS' }] },
			queryAdvancedArgs: '{"offset": 0}',
			queryAdditionalFields: { slug, description: 'from n8n' },
		});
		expect(created).toMatchObject({
			name: 'Fruit',
			slug,
			description: 'from n8n',
			query_type: 'posts',
			args: {
				post_type: ['post'],
				orderby: 'title',
				order: 'ASC',
				per_page: 5,
				search: 'a',
				tax_query: [{ taxonomy: 'category', terms: [news], operator: 'IN', include_children: true }],
				meta_query: [{ key: 'footnotes', compare: 'NOT EXISTS' }],
			},
		});

		expect(await ok('getQuery', { queryId: slug })).toEqual([created]);
		expect((await ok('getQueries')).map((q) => q.slug)).toContain(slug);

		// Only the name changes: the stored arguments stay.
		const [renamed] = await ok('updateQuery', { queryId: String(created.id), queryUpdateFields: { name: 'Fruit 2' } });
		expect(renamed).toMatchObject({ name: 'Fruit 2', args: created.args });
		const [retyped] = await ok('updateQuery', { queryId: slug, queryUpdateFields: { queryType: 'terms' }, queryArgs: { taxonomy: 'category', hideEmpty: true } });
		expect(retyped).toMatchObject({ query_type: 'terms', args: { taxonomy: ['category'], hide_empty: true } });
		expect((await ok('getQuery', { queryId: slug }))[0]).toEqual(retyped);

		const [deleted] = await ok('deleteQuery', { queryId: slug });
		expect(deleted).toMatchObject({ deleted: true, previous: { id: created.id } });
		const gone = await query('getQuery', { queryId: slug });
		expect(gone.error).toMatchObject({ httpCode: '404', message: `No query has the id or slug "${slug}".` });
	});

	test('Create reports the server’s errors', async () => {
		const bad = await query('createQuery', { queryName: 'Bad', queryArgs: { perPage: 100 }, queryAdvancedArgs: '{"post_type": "book"}' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): args' });
		expect(bad.error?.description).toContain('args.post_type names no post type of the site: book');
		const json = await query('createQuery', { queryName: 'Bad', queryAdvancedArgs: '{oops' });
		expect(json.error?.message).toMatch(/^Advanced Arguments \(JSON\) is not valid JSON/);
	});

	test('Preview runs a definition; Convert to Advanced shows its arguments and SQL', async () => {
		const rows = await ok('previewQuery', { queryType: 'posts', queryArgs: { orderBy: 'title', order: 'DESC' }, previewLimit: 1 });
		expect(rows).toEqual([expect.objectContaining({ ID: banana, post_title: 'Banana split' })]);
		const terms = await ok('previewQuery', { queryType: 'terms', queryArgs: { hideEmpty: true } });
		expect(terms.map((t) => t.name)).toEqual(['News', 'Uncategorized']);

		const [converted] = await ok('convertQuery', { queryType: 'users', queryArgs: { role: ['editor'] } });
		expect(converted).toMatchObject({ query_type: 'users', args: { role: ['editor'], orderby: 'login' }, sql: expect.stringContaining('FROM users u') });
	});

	test('Run, Get Field Options and Find Preview Posts', async () => {
		const [stored] = await ok('createQuery', { queryName: `Published ${addressing}`, queryArgs: { orderBy: 'title', order: 'ASC' } });
		const page = await ok('runQuery', { queryId: String(stored.id), queryRunOptions: { columns: 'ID, post_title', per_page: 1, page: 2 } });
		expect(page).toEqual([{ ID: banana, post_title: 'Banana split' }]);
		expect(await ok('runQuery', { queryId: stored.slug })).toHaveLength(2);

		const options = await ok('getQueryFieldOptions', { queryId: stored.slug, queryOptionsFilter: { q: 'harv' } });
		expect(options).toEqual([{ value: apple, label: 'Apple harvest' }]);
		const picked = await ok('getQueryFieldOptions', { queryId: String(stored.id), queryOptionsFilter: { values: `${banana}`, label_field: 'post_name' } });
		expect(picked).toEqual([{ value: banana, label: 'banana-split' }]);

		expect(await ok('findPreviewPosts', { previewSearch: 'draft' })).toEqual([expect.objectContaining({ text: 'Cherry draft' })]);
		const missing = await query('runQuery', { queryId: 'no-such-query' });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'No query has the id or slug "no-such-query".' });
	});

	test('Search Posts and Search Glossary', async () => {
		const search = (operation: string, parameters: NodeParameters) => run({ resource: 'search', operation, ...parameters });
		const posts = await search('searchPosts', { searchQuery: 'split' });
		expect(posts.items.map((i) => i.json)).toEqual([{ value: String(banana), label: 'Banana split' }]);
		const terms = await search('searchPosts', { searchQuery: 'new', searchPostsOptions: { search_terms: true, tax: 'category' } });
		expect(terms.items.map((i) => i.json)).toEqual([{ value: String(news), label: 'News' }]);
		const byIds = await search('searchPosts', { searchPostsOptions: { ids: `${apple}`, post_type: 'post', query_context: 'relation' } });
		expect(byIds.items.map((i) => i.json)).toEqual([{ value: String(apple), label: 'Apple harvest' }]);

		const glossary = await search('searchGlossaryFields', { glossaryId: '3', searchGlossaryOptions: { query: 'lar' } });
		expect(glossary.items.map((i) => i.json)).toEqual([{ value: 'l', label: 'Large' }]);
		const picked = await search('searchGlossaryFields', { glossaryId: '3', searchGlossaryOptions: { values: 's' } });
		expect(picked.items.map((i) => i.json)).toEqual([{ value: 's', label: 'Small' }]);
		const unknown = await search('searchGlossaryFields', { glossaryId: '99' });
		expect(unknown.error).toMatchObject({ httpCode: '404', message: 'No glossary has the id "99".' });
	});
});
