import type { App } from '../../server/src/app';
import { type CmsClient, type SiteUsers, startSite } from '../helpers/content';
import { runNode, siteHarness } from '../helpers/nodes';

/** WDM Dynamic Content, the rest of the engine's content model (meta boxes, options pages, relations, generic items), in both addressing styles. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

const NODE = 'CUSTOM.wdmDynamicContent';

describe.each([
	['index.php?rest_route=', 'restRoute'],
	['/wp-json', 'wpJson'],
])('addressing %s', (_, addressing) => {
	const run = (parameters: Record<string, unknown>) => runNode(siteHarness(server.url, addressing), NODE, parameters as never);
	const ok = async (parameters: Record<string, unknown>) => {
		const result = await run(parameters);
		expect(result.error).toBeUndefined();
		return result.items.map((item) => item.json as Record<string, any>);
	};
	const tag = addressing.toLowerCase();

	test('meta boxes: create, get, get many, update, delete; posts carry the fields', async () => {
		const [created] = await ok({
			resource: 'metaBox',
			operation: 'createMetaBox',
			metaBoxName: 'Review',
			metaBoxFields: { allowedPostTypes: 'post' },
			metaFields: { field: [{ name: `${tag}_score`, type: 'number', minValue: '0', maxValue: '10' }] },
		});
		expect(created).toMatchObject({ id: expect.any(Number), args: { name: 'Review', object_type: 'post', allowed_post_type: ['post'] }, meta_fields: [{ name: `${tag}_score`, max_value: 10 }] });
		const post = await cms.create('/posts', u.author, { title: 'Scored', meta: { [`${tag}_score`]: 7 } });
		expect(post.meta[`${tag}_score`]).toBe(7);

		expect((await ok({ resource: 'metaBox', operation: 'getMetaBox', metaBoxId: created.id }))[0]).toEqual(created);
		expect((await ok({ resource: 'metaBox', operation: 'getMetaBoxes' })).map((b) => b.id)).toContain(created.id);
		const [updated] = await ok({
			resource: 'metaBox',
			operation: 'updateMetaBox',
			metaBoxId: created.id,
			metaBoxUpdateFields: { name: 'Reviews', allowedPostTypes: 'post, page' },
			metaFields: { field: [{ name: `${tag}_score`, type: 'number', maxValue: '5' }] },
		});
		expect(updated).toMatchObject({ args: { name: 'Reviews', allowed_post_type: ['post', 'page'] }, meta_fields: [{ name: `${tag}_score`, max_value: 5 }] });
		const bad = await cms.post(`/posts/${post.id}`, u.author, { meta: { [`${tag}_score`]: 7 } });
		expect(bad.body.data.params.meta).toBe(`meta.${tag}_score must be at most 5`);
		const wrong = await run({ resource: 'metaBox', operation: 'updateMetaBox', metaBoxId: created.id, metaBoxUpdateFields: { allowedPostTypes: 'nope' } });
		expect(wrong.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): args' });

		expect(await ok({ resource: 'metaBox', operation: 'deleteMetaBox', metaBoxId: created.id })).toEqual([{ success: true }]);
		const gone = await run({ resource: 'metaBox', operation: 'getMetaBox', metaBoxId: created.id });
		expect(gone.error).toMatchObject({ httpCode: '404', message: 'Meta box not found.' });
	});

	test('options pages: create, get, get many, update, delete; values stored and checked', async () => {
		const slug = `${tag}-shop`;
		const [created] = await ok({
			resource: 'optionsPage',
			operation: 'createOptionsPage',
			optionsPageName: 'Shop',
			optionsPageFields: { slug, menuName: 'Shop Menu' },
			metaFields: { field: [{ name: 'phone', type: 'text', isRequired: true }, { name: 'open', type: 'switcher' }] },
			optionsPageValues: '{"phone": "+1 555"}',
		});
		expect(created).toMatchObject({ id: expect.any(Number), general_settings: { name: 'Shop', slug, menu_name: 'Shop Menu' }, values: { phone: '+1 555', open: false } });
		expect((await ok({ resource: 'optionsPage', operation: 'getOptionsPage', optionsPageId: created.id }))[0]).toEqual(created);
		expect((await ok({ resource: 'optionsPage', operation: 'getOptionsPages' })).map((p) => p.id)).toContain(created.id);
		const [updated] = await ok({ resource: 'optionsPage', operation: 'updateOptionsPage', optionsPageId: created.id, optionsPageUpdateFields: { name: 'Store' }, optionsPageValues: { open: true } });
		expect(updated).toMatchObject({ general_settings: { name: 'Store', slug }, values: { phone: '+1 555', open: true } });
		const bad = await run({ resource: 'optionsPage', operation: 'updateOptionsPage', optionsPageId: created.id, optionsPageValues: '{"open": "perhaps"}' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): values' });
		expect(bad.error?.description).toContain('values.open must be a boolean');

		expect(await ok({ resource: 'optionsPage', operation: 'deleteOptionsPage', optionsPageId: created.id, optionsPageDeleteAction: 'delete' })).toEqual([{ success: true }]);
		const gone = await run({ resource: 'optionsPage', operation: 'getOptionsPage', optionsPageId: created.id });
		expect(gone.error).toMatchObject({ httpCode: '404', message: 'Options page not found.' });
	});

	test('relations: create, get, get many, update (connect, disconnect, replace), delete', async () => {
		const posts = [await cms.create('/posts', u.admin, { title: `${tag} A` }), await cms.create('/posts', u.admin, { title: `${tag} B` })].map((p) => p.id);
		const pages = [await cms.create('/pages', u.admin, { title: `${tag} C` }), await cms.create('/pages', u.admin, { title: `${tag} D` })].map((p) => p.id);
		const [created] = await ok({
			resource: 'relation',
			operation: 'createRelation',
			relationName: 'Post pages',
			parentObject: 'post',
			childObject: 'page',
			relationType: 'one_to_one',
			relationConnections: { pair: [{ parentId: posts[0], childId: pages[0] }] },
		});
		expect(created).toMatchObject({ id: expect.any(Number), name: 'Post pages', type: 'one_to_one', connections: [{ parent_id: posts[0], child_id: pages[0] }] });
		expect((await ok({ resource: 'relation', operation: 'getRelation', relationId: created.id }))[0]).toEqual(created);
		expect((await ok({ resource: 'relation', operation: 'getRelations' })).map((r) => r.id)).toContain(created.id);

		const limit = await run({ resource: 'relation', operation: 'updateRelation', relationId: created.id, relationConnect: { pair: [{ parentId: posts[0], childId: pages[1] }] } });
		expect(limit.error).toMatchObject({ httpCode: '409' });
		expect(limit.error?.message).toContain('gives each parent one child');
		const [many] = await ok({
			resource: 'relation',
			operation: 'updateRelation',
			relationId: created.id,
			relationUpdateFields: { name: 'Related', type: 'many_to_many' },
			relationConnect: { pair: [{ parentId: posts[0], childId: pages[1] }, { parentId: posts[1], childId: pages[1] }] },
			relationDisconnect: { pair: [{ parentId: posts[0], childId: pages[0] }] },
		});
		expect(many).toMatchObject({ name: 'Related', type: 'many_to_many', connections: [{ parent_id: posts[0], child_id: pages[1] }, { parent_id: posts[1], child_id: pages[1] }] });
		const [replaced] = await ok({ resource: 'relation', operation: 'updateRelation', relationId: created.id, relationConnections: { pair: [{ parentId: posts[1], childId: pages[0] }] } });
		expect(replaced.connections).toEqual([{ parent_id: posts[1], child_id: pages[0] }]);

		expect(await ok({ resource: 'relation', operation: 'deleteRelation', relationId: created.id })).toEqual([{ success: true }]);
		const gone = await run({ resource: 'relation', operation: 'getRelation', relationId: created.id });
		expect(gone.error).toMatchObject({ httpCode: '404', message: 'Relation not found.' });
	});

	test('generic items: create, get, get many, update, delete; the glossary search reads them', async () => {
		const [created] = await ok({ resource: 'item', operation: 'createItem', itemName: 'Sizes', itemOptions: { option: [{ value: 's', label: 'Small' }, { value: 'm' }] } });
		expect(created).toEqual({ id: expect.any(Number), name: 'Sizes', fields: [{ value: 's', label: 'Small' }, { value: 'm', label: 'm' }] });
		expect((await ok({ resource: 'item', operation: 'getItem', itemId: created.id }))[0]).toEqual(created);
		expect((await ok({ resource: 'item', operation: 'getItems' })).map((i) => i.id)).toContain(created.id);
		const [updated] = await ok({ resource: 'item', operation: 'updateItem', itemId: created.id, itemUpdateFields: { name: 'Shirt sizes' }, itemOptions: { option: [{ value: 'l', label: 'Large' }] } });
		expect(updated).toEqual({ id: created.id, name: 'Shirt sizes', fields: [{ value: 'l', label: 'Large' }] });
		const [option] = await ok({ resource: 'search', operation: 'searchGlossaryFields', glossaryId: String(created.id) });
		expect(option).toEqual({ value: 'l', label: 'Large' });
		const bad = await run({ resource: 'item', operation: 'updateItem', itemId: created.id, itemOptions: { option: [{ value: 'a' }, { value: 'a' }] } });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): fields' });

		expect(await ok({ resource: 'item', operation: 'deleteItem', itemId: created.id })).toEqual([{ success: true }]);
		const gone = await run({ resource: 'item', operation: 'getItem', itemId: created.id });
		expect(gone.error).toMatchObject({ httpCode: '404', message: 'Item not found.' });
	});
});
