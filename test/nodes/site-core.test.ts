import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { client } from '../helpers/server';
import { firstJson, harnessFor, runNode, siteCredential, type NodeParameters } from '../helpers/nodes';

/**
 * WDM Site's core operations (Settings, Search, Post Types, Taxonomies, Statuses) run through n8n's
 * engine against the live site, with the credential in each content namespace (`cms/v2`, `wp/v2`):
 * the answers' links say which namespace the request reached; what a node changed is read back over HTTP.
 */

let server: App;
let cms: CmsClient;
let users: SiteUsers;

beforeAll(async () => {
	({ server, cms, u: users } = await startSite());
	await cms.create('/posts', users.admin, { title: 'Rye bread recipe', status: 'publish', format: 'aside' });
	await cms.create('/pages', users.admin, { title: 'Rye stories', status: 'publish' });
	await cms.create('/tags', users.admin, { name: 'Rye' });
});
afterAll(() => server.close());

const harness = (namespace: string, user?: { name: string; password: string }) =>
	harnessFor({ wdmSiteApi: { ...siteCredential(server.url, 'restRoute', user), namespace } });
const run = (namespace: string, parameters: NodeParameters, user?: { name: string; password: string }) => runNode(harness(namespace, user), 'CUSTOM.wdmSite', parameters);
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

describe.each(['cms/v2', 'wp/v2'])('namespace %s', (namespace) => {
	const rest = () => `${server.url}/wp-json/${namespace}`;

	test('Get Settings and Update Settings (values, then a reset); read back over HTTP and by the theme core', async () => {
		const before = firstJson(await run(namespace, { operation: 'getSettings' }));
		expect(before).toMatchObject({ title: 'WDM reference site', timezone: 'UTC', start_of_week: 1, use_smilies: true });

		const page = await cms.create('/pages', users.admin, { title: `Home ${namespace}`, status: 'publish' });
		const updated = firstJson(
			await run(namespace, {
				operation: 'updateSettings',
				settings: { title: `Shop ${namespace}`, timezone: 'Europe/Berlin', start_of_week: 0, use_smilies: false, show_on_front: 'page', page_on_front: page.id },
			}),
		);
		expect(updated).toMatchObject({ title: `Shop ${namespace}`, timezone: 'Europe/Berlin', start_of_week: 0, use_smilies: false, show_on_front: 'page', page_on_front: page.id });
		expect((await cms.get('/settings', users.admin)).body).toEqual(updated);
		const options = (await client(server.url, '/wp-json/themecore/v2').post('/get-wp-options', {}, { headers: users.admin.headers })).body;
		expect(options).toMatchObject({ blogname: `Shop ${namespace}`, show_on_front: 'page', page_on_front: page.id });

		const reset = firstJson(await run(namespace, { operation: 'updateSettings', reset: ['title', 'timezone', 'start_of_week', 'use_smilies', 'show_on_front', 'page_on_front'] }));
		expect(reset).toMatchObject({ title: 'WDM reference site', timezone: 'UTC', start_of_week: 1, use_smilies: true, show_on_front: 'posts', page_on_front: 0 });
		expect((await cms.get('/settings', users.admin)).body).toEqual(reset);
	});

	test("Settings: the site's refusals are node errors (a bad value, a user who is no administrator)", async () => {
		const bad = await run(namespace, { operation: 'updateSettings', settings: { timezone: 'Mars/Olympus_Mons' } });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): timezone' });
		expect(bad.error?.description).toContain('timezone must be a time zone name');
		const editor = await run(namespace, { operation: 'getSettings' }, users.editor);
		expect(editor.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to do that.' });
	});

	test('Search: posts (Return All and Limit), terms, post formats', async () => {
		const all = await run(namespace, { operation: 'search', search: 'rye', returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.title)).toEqual(['Rye stories', 'Rye bread recipe']);
		expect(all.items[0].json).toMatchObject({ type: 'post', subtype: 'page', _links: { about: [{ href: `${rest()}/types/page` }] } });
		const one = await run(namespace, { operation: 'search', search: 'rye', returnAll: false, limit: 1 });
		expect(one.items).toHaveLength(1);
		const posts = await run(namespace, { operation: 'search', search: 'rye', returnAll: true, options: { subtype: 'post' } });
		expect(posts.items.map((i) => i.json.subtype)).toEqual(['post']);
		const terms = await run(namespace, { operation: 'search', search: 'rye', searchType: 'term', returnAll: true });
		expect(terms.items.map((i) => [i.json.title, i.json.type])).toEqual([['Rye', 'post_tag']]);
		const formats = await run(namespace, { operation: 'search', searchType: 'post-format', returnAll: true });
		expect(formats.items.map((i) => i.json.id)).toEqual(['aside']);
	});

	test('Post types: Get Many (one item each) and Get (picker), in the edit context too', async () => {
		const many = await run(namespace, { operation: 'getManyTypes' });
		expect(many.error).toBeUndefined();
		expect(many.items.map((i) => i.json.slug)).toEqual(['post', 'page', 'attachment']);
		expect(many.items[0].json).toMatchObject({ rest_namespace: namespace, _links: { 'wp:items': [{ href: `${rest()}/posts` }] } });
		const page = firstJson(await run(namespace, { operation: 'getType', postType: fromList('page'), context: 'edit' }));
		expect(page).toMatchObject({ slug: 'page', hierarchical: true, supports: { 'page-attributes': true }, labels: { singular_name: 'Page' } });
		const missing = await run(namespace, { operation: 'getType', postType: 'nothing' });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'Invalid post type.' });
	});

	test('Taxonomies: Get Many (with a post type) and Get', async () => {
		const many = await run(namespace, { operation: 'getManyTaxonomies', options: { type: 'post' } });
		expect(many.items.map((i) => i.json.slug)).toEqual(['category', 'post_tag']);
		expect((await run(namespace, { operation: 'getManyTaxonomies', options: { type: 'page' } })).items).toEqual([]);
		const tag = firstJson(await run(namespace, { operation: 'getTaxonomy', taxonomy: fromList('post_tag') }));
		expect(tag).toMatchObject({ name: 'Tags', rest_base: 'tags', rest_namespace: namespace });
	});

	test('Statuses: Get Many and Get, as the user may see them', async () => {
		const many = await run(namespace, { operation: 'getManyStatuses', context: 'edit' });
		expect(many.items.map((i) => i.json.slug)).toEqual(['publish', 'future', 'draft', 'pending', 'private', 'trash']);
		const draft = firstJson(await run(namespace, { operation: 'getStatus', status: fromList('draft') }));
		expect(draft).toMatchObject({ name: 'Draft', date_floating: true, _links: { archives: [{ href: `${rest()}/posts?status=draft` }] } });
		const subscriber = await run(namespace, { operation: 'getManyStatuses' }, users.subscriber);
		expect(subscriber.items.map((i) => i.json.slug)).toEqual(['publish']);
		expect((await run(namespace, { operation: 'getStatus', status: 'draft' }, users.subscriber)).error).toMatchObject({ httpCode: '403', message: 'Cannot view status.' });
	});
});

test('the pickers list the post types, taxonomies and statuses of the site', async () => {
	const site = harness('cms/v2');
	expect((await site.listSearch('CUSTOM.wdmSite', 'searchSiteType')).results).toEqual([
		{ name: 'Posts (post)', value: 'post' },
		{ name: 'Pages (page)', value: 'page' },
		{ name: 'Media (attachment)', value: 'attachment' },
	]);
	expect((await site.listSearch('CUSTOM.wdmSite', 'searchSiteTaxonomy', { filter: 'tag' })).results).toEqual([{ name: 'Tags (post_tag)', value: 'post_tag' }]);
	const statuses = (await harness('wp/v2').listSearch('CUSTOM.wdmSite', 'searchSiteStatus')).results.map((r) => r.value);
	expect(statuses).toEqual(['publish', 'future', 'draft', 'pending', 'private', 'trash']);
});
