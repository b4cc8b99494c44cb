import type { IDataObject } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { startSite } from '../helpers/content';
import { firstJson, nodeRunner, siteHarness, type NodeParameters } from '../helpers/nodes';
import { pickedEntry, type N8nTestHarness } from '../helpers/n8n';

/**
 * The pickers of the site extensions: the dynamic-content engine's model (post types, taxonomies,
 * meta boxes, relations, options pages, items, queries), the theme core's templates and page
 * templates, the page builder's components. Each list search runs through n8n's LoadOptionsContext
 * against the live site; the picked value then runs a real operation that must succeed.
 */

let server: App;
let harness: N8nTestHarness;

const engine = nodeRunner('CUSTOM.wdmDynamicContent', () => harness);
const theme = nodeRunner('CUSTOM.wdmThemeCore', () => harness);
const builder = nodeRunner('CUSTOM.wdmPageBuilder', () => harness);
const ai = nodeRunner('CUSTOM.wdmAiProxy', () => harness);

const fromList = (value: string) => ({ __rl: true, mode: 'list', value });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Runs an operation that must succeed; its first item. */
const ok = async (run: typeof engine, parameters: NodeParameters) => firstJson(await run(parameters));

/** The one entry a search with `filter` finds (`parameters`: the node's other fields, as the editor sends them). */
async function onlyMatch(type: string, method: string, filter: string, parameters?: NodeParameters) {
	const { results } = await harness.listSearch(type, method, { filter, parameters });
	expect(results).toHaveLength(1);
	return results[0];
}

const created: Record<string, IDataObject> = {};

beforeAll(async () => {
	({ server } = await startSite());
	harness = siteHarness(server.url);
	created.postType = await ok(engine, { resource: 'postType', operation: 'createPostType', postTypeName: 'Books', postTypeFields: { slug: 'book' } });
	await ok(engine, { resource: 'postType', operation: 'createPostType', postTypeName: 'Films', postTypeFields: { slug: 'film' } });
	created.taxonomy = await ok(engine, { resource: 'taxonomy', operation: 'createTaxonomy', taxonomyName: 'Genres', taxonomyFields: { slug: 'genre', objectType: 'book' } });
	created.metaBox = await ok(engine, { resource: 'metaBox', operation: 'createMetaBox', metaBoxName: 'Review', metaBoxFields: { allowedPostTypes: 'post' } });
	created.relation = await ok(engine, { resource: 'relation', operation: 'createRelation', relationName: 'Post pages', parentObject: 'post', childObject: 'page', relationType: 'one_to_many' });
	created.optionsPage = await ok(engine, { resource: 'optionsPage', operation: 'createOptionsPage', optionsPageName: 'Shop', optionsPageFields: { slug: 'shop' } });
	created.item = await ok(engine, { resource: 'item', operation: 'createItem', itemName: 'Sizes' });
	created.query = await ok(engine, { resource: 'query', operation: 'createQuery', queryName: 'Latest news', queryType: 'posts' });
	created.template = { id: (await ok(theme, { resource: 'template', operation: 'createTemplate', templateName: 'Main header', templateType: 'themecore-header' })).newTemplateId };
	created.pageTemplate = { id: (await ok(theme, { resource: 'pageTemplate', operation: 'createPageTemplate', pageTemplateName: 'Blog archive' })).newTemplateId };
	const element = { id: 'card', elType: 'e-flexbox', elements: [], styles: {} };
	const components = await ok(builder, {
		resource: 'component',
		operation: 'createComponents',
		componentStatus: 'publish',
		componentItems: { component: [{ uid: 'card', title: 'Product card', elements: JSON.stringify([element]), settings: '{}' }] },
	});
	created.component = { id: components.card };
});
afterAll(() => server.close());

describe('dynamic-content engine (WDM Dynamic Content)', () => {
	test('post types: listed by name; the filter narrows; a picked one is what Get reads', async () => {
		const all = await harness.listSearch('CUSTOM.wdmDynamicContent', 'searchEnginePostType');
		expect(all.results.map((r) => r.name)).toEqual(['Books', 'Films']);
		const books = await onlyMatch('CUSTOM.wdmDynamicContent', 'searchEnginePostType', 'book');
		expect(books.value).toBe(String(created.postType.id));
		const got = await ok(engine, { resource: 'postType', operation: 'getPostType', postTypeId: fromList(String(books.value)) });
		expect(got).toMatchObject({ id: created.postType.id, general_settings: { name: 'Books', slug: 'book' } });
	});

	test.each([
		['taxonomy', 'searchEngineTaxonomy', 'Genres', 'getTaxonomy', 'taxonomyId'],
		['metaBox', 'searchMetaBox', 'Review', 'getMetaBox', 'metaBoxId'],
		['relation', 'searchRelation', 'Post pages', 'getRelation', 'relationId'],
		['optionsPage', 'searchOptionsPage', 'Shop', 'getOptionsPage', 'optionsPageId'],
		['item', 'searchGlossary', 'Sizes', 'getItem', 'itemId'],
		['query', 'searchQuery', 'Latest news', 'getQuery', 'queryId'],
	])('%s: %s finds %s; the picked one is what %s reads', async (resource, method, name, operation, parameter) => {
		const found = await onlyMatch('CUSTOM.wdmDynamicContent', method, name.slice(0, 4).toLowerCase());
		expect(found).toEqual({ name, value: String(created[resource].id) });
		const got = await ok(engine, { resource, operation, [parameter]: fromList(String(found.value)) });
		expect(got.id).toBe(created[resource].id);
		// By ID (typed in) reads the same.
		expect((await ok(engine, { resource, operation, [parameter]: byId(String(found.value)) })).id).toBe(created[resource].id);
	});
});

describe('post types by slug (WDM Dynamic Content: Create Relation)', () => {
	test("lists the site's public post types, the added ones too; picked ones are the relation's sides", async () => {
		const { results } = await harness.listSearch('CUSTOM.wdmDynamicContent', 'searchPostType');
		expect(results).toEqual(expect.arrayContaining([
			{ name: 'Posts (post)', value: 'post' },
			{ name: 'Pages (page)', value: 'page' },
			{ name: 'Books (book)', value: 'book' },
		]));
		const relation = await ok(engine, { resource: 'relation', operation: 'createRelation', relationName: 'Book films', parentObject: fromList('book'), childObject: fromList('film'), relationType: 'one_to_many' });
		expect(relation).toMatchObject({ name: 'Book films', parent_object: 'book', child_object: 'film' });
	});
});

describe('content items of an added collection (WDM Dynamic Content)', () => {
	test('REST Base lists the added post types and taxonomies; Item lists the items of the chosen one', async () => {
		const collections = await harness.listSearch('CUSTOM.wdmDynamicContent', 'searchCollection');
		expect(collections.results).toEqual(
			expect.arrayContaining([
				{ name: 'Books (post type)', value: 'book' },
				{ name: 'Genres (taxonomy)', value: 'genre' },
			]),
		);
		const restBase = fromList('book');
		for (const title of ['Dune', 'Emma']) await ok(engine, { resource: 'contentItem', operation: 'createContentItem', restBase, contentItemFields: { title, status: 'draft' } });
		await ok(engine, { resource: 'contentItem', operation: 'createContentItem', restBase: fromList('genre'), contentItemFields: { name: 'Drama' } });

		// The list depends on REST Base, as the editor sends the node's current parameters.
		const items = await harness.listSearch('CUSTOM.wdmDynamicContent', 'searchContentItem', { parameters: { resource: 'contentItem', operation: 'getContentItem', restBase } });
		expect(items.results.map((r) => r.name).sort()).toEqual(['Dune', 'Emma']);
		const [dune] = (await harness.listSearch('CUSTOM.wdmDynamicContent', 'searchContentItem', { parameters: { restBase }, filter: 'dune' })).results;
		const got = await ok(engine, { resource: 'contentItem', operation: 'getContentItem', restBase, contentItemId: fromList(String(dune.value)) });
		expect(got).toMatchObject({ id: Number(dune.value), type: 'book', status: 'draft' });
		const terms = await harness.listSearch('CUSTOM.wdmDynamicContent', 'searchContentItem', { parameters: { restBase: 'genre' } });
		expect(terms.results.map((r) => r.name)).toEqual(['Drama']);
	});

	test('Item without a REST Base says what to choose first', async () => {
		await expect(harness.listSearch('CUSTOM.wdmDynamicContent', 'searchContentItem', { parameters: { restBase: fromList('') } })).rejects.toThrow(
			'Choose the REST Base first: the items listed are those of its collection',
		);
	});
});

describe('the other post type, taxonomy, glossary and item fields (WDM Dynamic Content)', () => {
	test('Delete Post Type moves the items to a picked post type; Update Relation takes picked sides', async () => {
		const scratch = await ok(engine, { resource: 'postType', operation: 'createPostType', postTypeName: 'Scratch', postTypeFields: { slug: 'scratch' } });
		const target = await onlyMatch('CUSTOM.wdmDynamicContent', 'searchPostType', 'films');
		expect(target).toEqual({ name: 'Films (film)', value: 'film' });
		const moved = await ok(engine, { resource: 'postType', operation: 'deletePostType', postTypeId: scratch.id, postTypeDeleteAction: 'move', toPostType: pickedEntry(target) });
		expect(moved).toEqual({ success: true });
		const sides = { parentObject: pickedEntry(await onlyMatch('CUSTOM.wdmDynamicContent', 'searchPostType', 'books')), childObject: pickedEntry(target) };
		const updated = await ok(engine, { resource: 'relation', operation: 'updateRelation', relationId: String(created.relation.id), relationUpdateFields: sides });
		expect(updated).toMatchObject({ id: created.relation.id, parent_object: 'book', child_object: 'film' });
	});

	test("Search Glossary Fields searches a picked glossary; a content item's Parent is picked from its collection", async () => {
		await ok(engine, { resource: 'item', operation: 'updateItem', itemId: String(created.item.id), itemOptions: { option: [{ value: 's', label: 'Small' }] } });
		const [option] = (await engine({ resource: 'search', operation: 'searchGlossaryFields', glossaryId: pickedEntry(await onlyMatch('CUSTOM.wdmDynamicContent', 'searchGlossary', 'sizes')) })).items;
		expect(option.json).toEqual({ value: 's', label: 'Small' });

		await ok(engine, { resource: 'taxonomy', operation: 'createTaxonomy', taxonomyName: 'Moods', taxonomyFields: { slug: 'mood', objectType: 'book', hierarchical: true } });
		const restBase = fromList('mood');
		await ok(engine, { resource: 'contentItem', operation: 'createContentItem', restBase, contentItemFields: { name: 'Calm' } });
		const calm = await onlyMatch('CUSTOM.wdmDynamicContent', 'searchContentItem', 'calm', { restBase });
		const serene = await ok(engine, { resource: 'contentItem', operation: 'createContentItem', restBase, contentItemFields: { name: 'Serene', parent: pickedEntry(calm) } });
		expect(serene).toMatchObject({ name: 'Serene', parent: Number(calm.value) });
	});

	test("a query's Taxonomy filter is picked from the site's taxonomies", async () => {
		const tags = await onlyMatch('CUSTOM.wdmDynamicContent', 'searchSiteTaxonomy', 'post_tag');
		const query = await ok(engine, { resource: 'query', operation: 'createQuery', queryName: 'Tagged', queryType: 'posts', queryTaxFilters: { filter: [{ taxonomy: pickedEntry(tags), terms: '3', operator: 'IN' }] } });
		expect(query.args).toMatchObject({ tax_query: [{ taxonomy: 'post_tag', terms: [3], operator: 'IN' }] });
	});
});

describe('theme core (WDM Theme Core)', () => {
	test('templates: listed with their type; a picked one is the template whose conditions Get Conditions reads', async () => {
		const found = await onlyMatch('CUSTOM.wdmThemeCore', 'searchTemplate', 'main');
		expect(found).toEqual({ name: 'Main header (header)', value: String(created.template.id) });
		const run = await theme({ resource: 'template', operation: 'getTemplateConditions', templateId: fromList(String(found.value)) });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ template_id: created.template.id });
	});

	test("a page template's layout parts are picked from the templates; Get Terms takes a picked taxonomy", async () => {
		const header = await onlyMatch('CUSTOM.wdmThemeCore', 'searchTemplate', 'main header');
		const [made] = (await theme({ resource: 'pageTemplate', operation: 'createPageTemplate', pageTemplateName: 'With header', layout: { header: { templateId: pickedEntry(header) } } })).items;
		const stored = (made.json.list as Array<{ id: number; layout: object }>).find((t) => t.id === made.json.newTemplateId);
		expect(stored?.layout).toMatchObject({ header: { id: created.template.id }, body: { id: null } });

		const categories = await onlyMatch('CUSTOM.wdmThemeCore', 'searchSiteTaxonomy', '(category)');
		expect(categories).toEqual({ name: 'Categories (category)', value: 'category' });
		const terms = await theme({ resource: 'siteData', operation: 'getTaxTerms', taxonomy: pickedEntry(categories) });
		expect(terms.items.map((item) => item.json)).toContainEqual({ value: 1, label: 'Uncategorized' });
		// A workflow saved before Taxonomy was a picker, with its default left out, still reads categories.
		const byDefault = await theme({ resource: 'siteData', operation: 'getTaxTerms' });
		expect(byDefault.items.map((item) => item.json)).toEqual(terms.items.map((item) => item.json));
	});

	test('page templates: listed by name; a picked one is the one Get Conditions reads', async () => {
		const found = await onlyMatch('CUSTOM.wdmThemeCore', 'searchPageTemplate', 'blog');
		expect(found).toEqual({ name: 'Blog archive', value: String(created.pageTemplate.id) });
		const run = await theme({ resource: 'pageTemplate', operation: 'getPageTemplateConditions', pageTemplateId: fromList(String(found.value)) });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual({ conditions: [], relationType: 'or' });
		// The ID reaches the server: one that names no page template is refused.
		const missing = await theme({ resource: 'pageTemplate', operation: 'getPageTemplateConditions', pageTemplateId: byId('99999') });
		expect(missing.error?.httpCode).toBe('404');
	});
});

describe('page builder (WDM Page Builder)', () => {
	test('components: listed by name; a picked one is the one Get Overridable Props reads', async () => {
		const found = await onlyMatch('CUSTOM.wdmPageBuilder', 'searchComponent', 'card');
		expect(found).toEqual({ name: 'Product card', value: String(created.component.id) });
		const run = await builder({ resource: 'component', operation: 'getComponentOverridableProps', componentId: fromList(String(found.value)) });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ componentId: created.component.id });
	});
	test('globals: the colours for the colour operations, the typography for the others; a picked one is what Get reads', async () => {
		const colors = await harness.listSearch('CUSTOM.wdmPageBuilder', 'searchGlobalStyle', { parameters: { resource: 'global', operation: 'getGlobalColor' } });
		expect(colors.results).toEqual(expect.arrayContaining([{ name: expect.stringMatching(/\(primary\)$/), value: 'primary' }]));
		expect(firstJson(await builder({ resource: 'global', operation: 'saveGlobalTypography', globalId: byId('lead'), globalTitle: 'Lead', globalTypographyValue: '{"typography_font_family": "Inter"}' }))).toMatchObject({ id: 'lead' });
		const lead = await onlyMatch('CUSTOM.wdmPageBuilder', 'searchGlobalStyle', 'lead', { resource: 'global', operation: 'getGlobalTypography' });
		expect(lead).toEqual({ name: 'Lead (lead)', value: 'lead' });
		expect((await harness.listSearch('CUSTOM.wdmPageBuilder', 'searchGlobalStyle', { parameters: { operation: 'getGlobalColor' }, filter: 'lead' })).results).toEqual([]);
		expect(firstJson(await builder({ resource: 'global', operation: 'getGlobalTypography', globalId: pickedEntry(lead) }))).toMatchObject({ id: 'lead', title: 'Lead' });
	});

	test('variables: the live ones, or for Restore the deleted ones; a picked one is what Delete and Restore change', async () => {
		const made = firstJson(await builder({ resource: 'variable', operation: 'createVariable', variableType: 'global-size-variable', variableLabel: 'gap', variableValue: '8px' }));
		const id = (made.variable as { id: string }).id;
		const live = await onlyMatch('CUSTOM.wdmPageBuilder', 'searchVariable', 'gap', { resource: 'variable', operation: 'deleteVariable' });
		expect(live).toEqual({ name: 'gap (size)', value: id });
		expect(firstJson(await builder({ resource: 'variable', operation: 'deleteVariable', variableId: pickedEntry(live) })).variable).toMatchObject({ deleted: true });
		expect((await harness.listSearch('CUSTOM.wdmPageBuilder', 'searchVariable', { parameters: { operation: 'deleteVariable' }, filter: 'gap' })).results).toEqual([]);
		const deleted = await onlyMatch('CUSTOM.wdmPageBuilder', 'searchVariable', 'gap', { operation: 'restoreVariable' });
		const restored = firstJson(await builder({ resource: 'variable', operation: 'restoreVariable', variableId: pickedEntry(deleted) }));
		expect(restored.variable).not.toHaveProperty('deleted');
	});

	test("kit defaults: the element types that have some; Rename takes picked components; Add New Post a picked post type", async () => {
		await builder({ resource: 'kitDefault', operation: 'saveKitDefaults', elementType: byId('e-heading'), elementSettings: '{"title_color": "#444444"}' });
		const heading = await onlyMatch('CUSTOM.wdmPageBuilder', 'searchKitDefault', 'heading');
		expect(heading).toEqual({ name: 'e-heading', value: 'e-heading' });
		expect(firstJson(await builder({ resource: 'kitDefault', operation: 'deleteKitDefaults', elementType: pickedEntry(heading) }))).toMatchObject({ deleted: true });

		const card = await onlyMatch('CUSTOM.wdmPageBuilder', 'searchComponent', 'card');
		const renamed = await builder({ resource: 'component', operation: 'updateComponentTitles', componentStatus: 'publish', componentTitles: { title: [{ componentId: pickedEntry(card), title: 'Product tile' }] } });
		expect(renamed.error).toBeUndefined();
		expect(await onlyMatch('CUSTOM.wdmPageBuilder', 'searchComponent', 'tile')).toEqual({ name: 'Product tile', value: card.value });

		const pages = await onlyMatch('CUSTOM.wdmPageBuilder', 'searchSiteType', 'pages (page)');
		expect(firstJson(await builder({ resource: 'siteNavigation', operation: 'addNewPost', newPostType: pickedEntry(pages) }))).toMatchObject({ post_type: 'page' });
	});
});

describe('AI proxy (WDM AI Proxy)', () => {
	test('Model lists the models of the AI service; picked ones are what Set Model stores and Chat uses', async () => {
		expect((await ai({ resource: 'ai', operation: 'setKey', apiKey: 'sk-picker-test-0123456789' })).error).toBeUndefined();
		const { results } = await harness.listSearch('CUSTOM.wdmAiProxy', 'searchModel');
		expect(results.map((r) => r.value)).toEqual(['wdm-echo-1', 'wdm-echo-mini', 'wdm-embed-1']);
		const mini = await onlyMatch('CUSTOM.wdmAiProxy', 'searchModel', 'mini');
		expect(firstJson(await ai({ resource: 'ai', operation: 'setModel', aiModel: pickedEntry(mini) }))).toMatchObject({ model: 'wdm-echo-mini' });
		const reply = firstJson(await ai({ resource: 'ai', operation: 'chat', chatMessages: { message: [{ role: 'user', content: 'Hi' }] }, chatOptions: { model: pickedEntry(results[0]) } }));
		expect(reply.model).toBe('wdm-echo-1');
		const recorded = firstJson(await ai({ resource: 'ai', operation: 'addResponse', responseContent: 'Hello', responseModel: pickedEntry(mini) }));
		expect(JSON.stringify(recorded)).toContain('wdm-echo-mini');
	});
});

