import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { firstJson, harnessFor, runNode, siteCredential, type NodeParameters } from '../helpers/nodes';

/**
 * WDM Post's Update and Delete of categories and tags, run by n8n's engine against a live server in
 * both content namespaces; what they did read back over `cms/v2`.
 */

let server: App;
let cms: CmsClient;
let users: SiteUsers;

beforeAll(async () => {
	({ server, cms, u: users } = await startSite());
});
afterAll(() => server.close());

describe.each(['cms/v2', 'wp/v2'])('namespace %s', (namespace) => {
	const run = (parameters: NodeParameters, user = users.admin) =>
		runNode(harnessFor({ wdmSiteApi: { ...siteCredential(server.url, 'restRoute', user), namespace } }), 'CUSTOM.wdmPost', parameters);
	const rest = () => `${server.url}/wp-json/${namespace}`;

	test('Update Category and Delete Category: the posts left without one go to the default category', async () => {
		const parent = await cms.create('/categories', users.editor, { name: `Parent ${namespace}` });
		const cat = await cms.create('/categories', users.editor, { name: `Old ${namespace}` });
		const updated = firstJson(
			await run({ operation: 'updateCategory', categoryId: cat.id, termUpdateFields: { name: `New ${namespace}`, description: 'About', slug: `new-${namespace}`, parent: parent.id } }),
		);
		expect(updated._links.self[0].href).toBe(`${rest()}/categories/${cat.id}`);
		expect((await cms.get(`/categories/${cat.id}`, users.anonymous)).body).toMatchObject({
			name: `New ${namespace}`,
			description: 'About',
			slug: `new-${namespace.replace('/', '')}`,
			parent: parent.id,
		});
		const refused = await run({ operation: 'updateCategory', categoryId: cat.id, termUpdateFields: { name: 'x' } }, users.author);
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to edit this term.' });

		const post = await cms.create('/posts', users.editor, { title: 'Filed', status: 'publish', categories: [cat.id] });
		const deleted = firstJson(await run({ operation: 'deleteCategory', categoryId: cat.id }));
		expect(deleted).toMatchObject({ deleted: true, previous: { id: cat.id, count: 1 } });
		expect((await cms.get(`/categories/${cat.id}`, users.anonymous)).status).toBe(404);
		expect((await cms.get(`/posts/${post.id}`, users.anonymous)).body.categories).toEqual([1]);
		const uncategorized = await run({ operation: 'deleteCategory', categoryId: 1 });
		expect(uncategorized.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to delete this term.' });
	});

	test('Update Tag and Delete Tag', async () => {
		const tag = await cms.create('/tags', users.author, { name: `Tag ${namespace}` });
		const updated = firstJson(await run({ operation: 'updateTag', tagId: tag.id, termUpdateFields: { name: `Renamed ${namespace}`, description: 'Tagged' } }));
		expect(updated._links.self[0].href).toBe(`${rest()}/tags/${tag.id}`);
		expect((await cms.get(`/tags/${tag.id}`, users.anonymous)).body).toMatchObject({ name: `Renamed ${namespace}`, description: 'Tagged' });
		const post = await cms.create('/posts', users.editor, { title: 'Tagged', status: 'publish', tags: [tag.id] });
		const refused = await run({ operation: 'deleteTag', tagId: tag.id }, users.author);
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to delete this term.' });
		expect(firstJson(await run({ operation: 'deleteTag', tagId: tag.id }))).toMatchObject({ deleted: true, previous: { id: tag.id } });
		expect((await cms.get(`/posts/${post.id}`, users.anonymous)).body.tags).toEqual([]);
		const gone = await run({ operation: 'updateTag', tagId: tag.id, termUpdateFields: { name: 'x' } });
		expect(gone.error).toMatchObject({ httpCode: '404', message: 'Term does not exist.' });
	});
});
