import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUsers, startSite } from '../helpers/content';
import { runNode, siteHarness } from '../helpers/nodes';

/** WDM Dynamic Content, the engine's content model: post types and content items, in both addressing styles. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

const NODE = 'CUSTOM.wdmDynamicContent';
const harness = (addressing: string) => siteHarness(server.url, addressing);

describe.each([
	['index.php?rest_route=', 'restRoute'],
	['/wp-json', 'wpJson'],
])('addressing %s', (_, addressing) => {
	const run = (parameters: Record<string, unknown>) => runNode(harness(addressing), NODE, parameters as never);
	const ok = async (parameters: Record<string, unknown>) => {
		const result = await run(parameters);
		expect(result.error).toBeUndefined();
		return result.items.map((item) => item.json as Record<string, any>);
	};
	const slug = `${addressing.toLowerCase()}-book`;

	test('post types: create, get, get many, update, copy, delete; items live at cms/v2', async () => {
		const [created] = await ok({
			resource: 'postType',
			operation: 'createPostType',
			postTypeName: 'Books',
			postTypeFields: { slug, restBase: `${slug}s`, singularLabel: 'Book', hierarchical: true },
			metaFields: { field: [{ name: 'pages', title: 'Pages', type: 'number', minValue: '1' }, { name: 'cover', type: 'select', options: 'soft: Soft, hard: Hard' }] },
		});
		expect(created).toMatchObject({
			id: expect.any(Number),
			general_settings: { name: 'Books', slug },
			labels: { singular_name: 'Book' },
			advanced_settings: { rest_base: `${slug}s`, hierarchical: true },
			meta_fields: [
				{ name: 'pages', title: 'Pages', type: 'number', min_value: 1 },
				{ name: 'cover', type: 'select', options: [{ key: 'soft', value: 'Soft' }, { key: 'hard', value: 'Hard' }] },
			],
		});
		const id = created.id;
		expect((await ok({ resource: 'postType', operation: 'getPostType', postTypeId: id }))[0].general_settings.slug).toBe(slug);
		expect((await ok({ resource: 'postType', operation: 'getPostTypes' })).map((t) => t.id)).toContain(id);
		const [updated] = await ok({ resource: 'postType', operation: 'updatePostType', postTypeId: id, postTypeUpdateFields: { name: 'Novels', public: false } });
		expect(updated).toMatchObject({ general_settings: { name: 'Novels' }, advanced_settings: { public: false }, meta_fields: [{ name: 'pages' }, { name: 'cover' }] });

		// Content items of the type, with its meta fields.
		const base = `${slug}s`;
		const [item] = await ok({
			resource: 'contentItem',
			operation: 'createContentItem',
			restBase: base,
			contentItemFields: { title: 'Dune', status: 'publish', meta: '{"pages": 412, "cover": "hard"}' },
		});
		expect(item).toMatchObject({ type: slug, title: { raw: 'Dune' }, meta: { pages: 412, cover: 'hard' } });
		const [got] = await ok({ resource: 'contentItem', operation: 'getContentItem', restBase: base, contentItemId: item.id });
		expect(got).toMatchObject({ id: item.id, title: { raw: 'Dune' }, meta: { pages: 412 } });
		const [changed] = await ok({ resource: 'contentItem', operation: 'updateContentItem', restBase: base, contentItemId: item.id, contentItemFields: { title: 'Dune Messiah' } });
		expect(changed.title.raw).toBe('Dune Messiah');
		await cms.create(`/${base}`, u.admin, { title: `Children of Dune ${addressing}`, status: 'publish' });
		const many = await ok({ resource: 'contentItem', operation: 'getContentItems', restBase: base, returnAll: true });
		expect(many.map((p) => p.title.rendered).sort()).toEqual([`Children of Dune ${addressing}`, 'Dune Messiah']);
		const limited = await ok({ resource: 'contentItem', operation: 'getContentItems', restBase: base, returnAll: false, limit: 1 });
		expect(limited).toHaveLength(1);
		const bad = await run({ resource: 'contentItem', operation: 'updateContentItem', restBase: base, contentItemId: item.id, contentItemFields: { meta: '{"pages": 0}' } });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): meta' });
		expect(bad.error?.description).toContain('meta.pages must be at least 1');
		const [trashed] = await ok({ resource: 'contentItem', operation: 'deleteContentItem', restBase: base, contentItemId: item.id });
		expect(trashed.status).toBe('trash');
		const [deleted] = await ok({ resource: 'contentItem', operation: 'deleteContentItem', restBase: base, contentItemId: item.id, force: true });
		expect(deleted).toMatchObject({ deleted: true, previous: { id: item.id } });
		const unknown = await run({ resource: 'contentItem', operation: 'getContentItems', restBase: 'no-such-type', returnAll: true });
		expect(unknown.error).toMatchObject({ httpCode: '404' });

		const [copy] = await ok({ resource: 'postType', operation: 'copyPostType', postTypeId: id });
		expect(copy.general_settings).toMatchObject({ name: 'Novels (Copy)', slug: `${slug}-copy` });
		expect(await ok({ resource: 'postType', operation: 'deletePostType', postTypeId: copy.id })).toEqual([{ success: true }]);
		const noTarget = await run({ resource: 'postType', operation: 'deletePostType', postTypeId: id, postTypeDeleteAction: 'move', toPostType: 'nothing' });
		expect(noTarget.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): to_post_type' });
		await ok({ resource: 'postType', operation: 'deletePostType', postTypeId: id, postTypeDeleteAction: 'move', toPostType: 'post' });
		const moved = await cms.get('/posts', u.admin, { search: addressing });
		expect(moved.body.map((p: { type: string }) => p.type)).toEqual(['post']);
		const gone = await run({ resource: 'postType', operation: 'getPostType', postTypeId: id });
		expect(gone.error).toMatchObject({ httpCode: '404', message: 'Post type not found.' });
	});

	test('built-in post types: get, update, reset', async () => {
		const [page] = await ok({ resource: 'postType', operation: 'getBuiltInPostType', builtInPostType: 'page' });
		expect(page).toMatchObject({ general_settings: { name: 'Pages', slug: 'page' }, advanced_settings: { hierarchical: true, rest_base: 'pages' } });
		const [updated] = await ok({
			resource: 'postType',
			operation: 'updateBuiltInPostType',
			builtInPostType: 'page',
			builtInPostTypeFields: { pluralLabel: 'Sheets', singularLabel: 'Sheet' },
			metaFields: { field: [{ name: 'subtitle', type: 'text' }] },
		});
		expect(updated).toMatchObject({ labels: { name: 'Sheets', singular_name: 'Sheet' }, meta_fields: [{ name: 'subtitle', type: 'text' }] });
		// A page carries the field.
		const sheet = await cms.create('/pages', u.admin, { title: 'About', meta: { subtitle: 'Who we are' } });
		expect(sheet.meta.subtitle).toBe('Who we are');
		const [reset] = await ok({ resource: 'postType', operation: 'resetBuiltInPostType', builtInPostType: 'page' });
		expect(reset).toMatchObject({ labels: { name: 'Pages' }, meta_fields: [] });
	});

	test('taxonomies: create, get, get many, update, copy, delete; built-in get, update, reset', async () => {
		const type = `${addressing.toLowerCase()}-film`;
		const [filmType] = await ok({ resource: 'postType', operation: 'createPostType', postTypeName: 'Films', postTypeFields: { slug: type } });
		const base = `${addressing.toLowerCase()}-genres`;
		const [created] = await ok({
			resource: 'taxonomy',
			operation: 'createTaxonomy',
			taxonomyName: 'Genres',
			taxonomyFields: { slug: `${addressing.toLowerCase()}-genre`, restBase: base, objectType: `${type}`, hierarchical: true },
		});
		expect(created).toMatchObject({ general_settings: { name: 'Genres', object_type: [type] }, advanced_settings: { rest_base: base, hierarchical: true } });
		const id = created.id;
		expect((await ok({ resource: 'taxonomy', operation: 'getTaxonomy', taxonomyId: id }))[0].advanced_settings.rest_base).toBe(base);
		expect((await ok({ resource: 'taxonomy', operation: 'getTaxonomies' })).map((t) => t.id)).toContain(id);
		const [updated] = await ok({ resource: 'taxonomy', operation: 'updateTaxonomy', taxonomyId: id, taxonomyUpdateFields: { singularLabel: 'Genre' } });
		expect(updated.labels.singular_name).toBe('Genre');

		// Terms through Content Item, on an item of the post type.
		const [term] = await ok({ resource: 'contentItem', operation: 'createContentItem', restBase: base, contentItemFields: { name: 'Drama' } });
		expect(term).toMatchObject({ name: 'Drama', slug: 'drama' });
		const [film] = await ok({
			resource: 'contentItem',
			operation: 'createContentItem',
			restBase: type,
			contentItemFields: { title: 'Heat', terms: JSON.stringify({ [base]: [term.id] }) },
		});
		expect(film[base]).toEqual([term.id]);

		const [copy] = await ok({ resource: 'taxonomy', operation: 'copyTaxonomy', taxonomyId: id });
		expect(copy.advanced_settings.rest_base).toBe(`${base}-copy`);
		expect(await ok({ resource: 'taxonomy', operation: 'deleteTaxonomy', taxonomyId: copy.id })).toEqual([{ success: true }]);
		expect(await ok({ resource: 'taxonomy', operation: 'deleteTaxonomy', taxonomyId: id, taxonomyDeleteAction: 'delete' })).toEqual([{ success: true }]);
		expect((await cms.get(`/${type}/${film.id}`, u.admin)).body[base]).toBeUndefined();
		const gone = await run({ resource: 'taxonomy', operation: 'getTaxonomy', taxonomyId: id });
		expect(gone.error).toMatchObject({ httpCode: '404', message: 'Taxonomy not found.' });
		await ok({ resource: 'postType', operation: 'deletePostType', postTypeId: filmType.id, postTypeDeleteAction: 'delete' });

		const [category] = await ok({ resource: 'taxonomy', operation: 'getBuiltInTaxonomy', builtInTaxonomy: 'category' });
		expect(category).toMatchObject({ general_settings: { name: 'Categories', slug: 'category' }, advanced_settings: { rest_base: 'categories', hierarchical: true } });
		const [topics] = await ok({ resource: 'taxonomy', operation: 'updateBuiltInTaxonomy', builtInTaxonomy: 'category', builtInTaxonomyFields: { pluralLabel: 'Topics' } });
		expect(topics.labels.name).toBe('Topics');
		const [reset] = await ok({ resource: 'taxonomy', operation: 'resetBuiltInTaxonomy', builtInTaxonomy: 'category' });
		expect(reset.labels.name).toBe('Categories');
	});
});
