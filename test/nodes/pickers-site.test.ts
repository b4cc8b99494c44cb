import type { INodeProperties } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { PNG } from '../helpers/files';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { fileItem, firstJson, harnessFor, NODE_TYPES, nodeRunner, siteCredential, siteHarness, type NodeParameters } from '../helpers/nodes';
import { locatorValue, pickedEntry, type N8nTestHarness } from '../helpers/n8n';

/**
 * The site nodes' pickers (post, page, media, category, tag), run as n8n's editor runs them: each
 * list search through n8n's LoadOptionsContext against the live site, then the picked value (From
 * List, By ID, By URL as the editor stores it) through a real operation that must succeed.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let harness: N8nTestHarness;

const post = nodeRunner('CUSTOM.wdmPost', () => harness);
const page = nodeRunner('CUSTOM.wdmPage', () => harness);
const media = nodeRunner('CUSTOM.wdmMedia', () => harness);
const comment = nodeRunner('CUSTOM.wdmComment', () => harness);
const siteNode = nodeRunner('CUSTOM.wdmSite', () => harness);

/** The one entry a list search with `filter` finds (`parameters`: the node's other fields, as the editor sends them). */
async function onlyMatch(type: string, method: string, filter: string, parameters?: NodeParameters) {
	const { results } = await harness.listSearch(type, method, { filter, parameters });
	expect(results).toHaveLength(1);
	return results[0];
}

const fromList = (value: string) => ({ __rl: true, mode: 'list', value });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
/** A node's property by name, or an entry of a collection by `collection.entry`. */
const property = (type: string, path: string) =>
	path.split('.').reduce<INodeProperties[]>((found, name, i) => {
		const options = i === 0 ? NODE_TYPES[type].description.properties : (found[0].options as INodeProperties[]);
		return options.filter((p) => p.name === name);
	}, [])[0];
/** By URL, with the `__regex` the editor adds. */
const byUrl = (type: string, name: string, url: string) => locatorValue(property(type, name), 'url', url);

let drafted: { id: number; link: string };
let about: { id: number; link: string };
let photo: { id: number; link: string };

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	harness = siteHarness(server.url);
	// 55 published posts: more than a page of the picker.
	for (let i = 1; i <= 55; i++) await cms.create('/posts', u.admin, { title: `Post ${i}`, status: 'publish' });
	drafted = await cms.create('/posts', u.admin, { title: 'Unfinished story', status: 'draft' });
	about = await cms.create('/pages', u.admin, { title: 'About us', status: 'publish' });
	await cms.create('/pages', u.admin, { title: 'Contact', status: 'publish' });
	await cms.create('/categories', u.admin, { name: 'Recipes' });
	await cms.create('/tags', u.admin, { name: 'vegan' });
	photo = firstJson(await media({ operation: 'upload', options: { title: 'Team photo' } }, { input: [fileItem(PNG, 'image/png', 'team.png')] })) as { id: number; link: string };
});
afterAll(() => server.close());

describe('post (WDM Post)', () => {
	test('pages through every post, drafts included, newest first: 50, then the rest', async () => {
		const first = await harness.listSearch('CUSTOM.wdmPost', 'searchPost');
		expect(first.results).toHaveLength(50);
		expect(first.results[0]).toEqual({ name: 'Unfinished story', value: String(drafted.id), url: drafted.link });
		expect(first.paginationToken).toBe('2');
		const second = await harness.listSearch('CUSTOM.wdmPost', 'searchPost', { paginationToken: first.paginationToken });
		expect(second.paginationToken).toBeUndefined();
		const titles = [...first.results, ...second.results].map((r) => r.name);
		expect(titles).toHaveLength(56); // 55 and the draft
		expect(titles).toEqual(expect.arrayContaining(['Post 1', 'Post 55', 'Unfinished story']));
	});

	test("the filter is WordPress's search", async () => {
		const found = await harness.listSearch('CUSTOM.wdmPost', 'searchPost', { filter: 'unfinished' });
		expect(found.results.map((r) => r.value)).toEqual([String(drafted.id)]);
	});

	test('From List, By ID and By URL (link, edit link, REST URL) all name the post Get reads', async () => {
		const values = [
			fromList(String(drafted.id)),
			{ __rl: true, mode: 'id', value: String(drafted.id) },
			byUrl('CUSTOM.wdmPost', 'postId', drafted.link),
			byUrl('CUSTOM.wdmPost', 'postId', `${server.url}/wp-admin/post.php?post=${drafted.id}&action=edit`),
			byUrl('CUSTOM.wdmPost', 'postId', `${server.url}/wp-json/cms/v2/posts/${drafted.id}`),
		];
		for (const postId of values) {
			const got = await post({ operation: 'get', postId, options: { context: 'edit' } });
			expect(got.error).toBeUndefined();
			expect(got.items[0].json).toMatchObject({ id: drafted.id, title: { raw: 'Unfinished story' } });
		}
	});

	test('By URL with an expression: each item names its own post by its link (n8n hands $parameter the expression unresolved)', async () => {
		const other = await cms.create('/posts', u.admin, { title: 'Linked from an item', status: 'publish' });
		const input = [{ json: { link: drafted.link } }, { json: { link: other.link } }];
		const got = await post({ operation: 'get', postId: byUrl('CUSTOM.wdmPost', 'postId', '={{ $json.link }}'), options: { context: 'edit' } }, { input });
		expect(got.error).toBeUndefined();
		expect(got.items.map((item) => item.json.id)).toEqual([drafted.id, other.id]);
		// A write too, and a page: Update reaches the page its item links.
		const renamed = await page({ operation: 'update', pageId: byUrl('CUSTOM.wdmPage', 'pageId', '={{ $json.link }}'), updateFields: { title: 'About (linked)' } }, { input: [{ json: { link: about.link } }] });
		expect(renamed.error).toBeUndefined();
		expect((await cms.get(`/pages/${about.id}`, u.admin, { context: 'edit' })).body.title.raw).toBe('About (linked)');
		await cms.post(`/pages/${about.id}`, u.admin, { title: 'About us' });
	});

	test('a picked post is the one Update changes', async () => {
		const updated = await post({ operation: 'update', postId: fromList(String(drafted.id)), updateFields: { title: 'Finished story' } });
		expect(updated.error).toBeUndefined();
		expect((await cms.get(`/posts/${drafted.id}`, u.admin, { context: 'edit' })).body.title.raw).toBe('Finished story');
	});

	test('By URL refuses a URL that names no post: n8n does not run the node', async () => {
		await expect(post({ operation: 'get', postId: byUrl('CUSTOM.wdmPost', 'postId', `${server.url}/about`) })).rejects.toThrow(/workflow has issues/);
		const { validation } = property('CUSTOM.wdmPost', 'postId').modes!.find((m) => m.name === 'url')!;
		expect(validation).toEqual([{ type: 'regex', properties: expect.objectContaining({ errorMessage: 'Not a URL of a post: its link, edit link or REST URL' }) }]);
	});
});

describe('page (WDM Page)', () => {
	test('lists and searches the pages; a picked page is the one Update changes', async () => {
		const all = await harness.listSearch('CUSTOM.wdmPage', 'searchPage');
		expect(all.results.map((r) => r.name)).toEqual(expect.arrayContaining(['About us', 'Contact']));
		const [found] = (await harness.listSearch('CUSTOM.wdmPage', 'searchPage', { filter: 'about' })).results;
		expect(found).toEqual({ name: 'About us', value: String(about.id), url: about.link });
		const updated = await page({ operation: 'update', pageId: fromList(String(found.value)), updateFields: { title: 'About the team' } });
		expect(updated.error).toBeUndefined();
		expect(updated.items[0].json).toMatchObject({ id: about.id });
		const byLink = await page({ operation: 'get', pageId: byUrl('CUSTOM.wdmPage', 'pageId', about.link) });
		expect(byLink.items[0].json).toMatchObject({ id: about.id, title: { rendered: 'About the team' } });
	});
});

describe('pickers inside collections (Update Fields)', () => {
	test('a page picked as Parent Page, a media item given by URL as Featured Media', async () => {
		const child = await cms.create('/pages', u.admin, { title: 'Team', status: 'publish' });
		const moved = await page({ operation: 'update', pageId: child.id, updateFields: { parent: fromList(String(about.id)), featured_media: byUrl('CUSTOM.wdmPage', 'updateFields.featured_media', photo.link) } });
		expect(moved.error).toBeUndefined();
		const stored = (await cms.get(`/pages/${child.id}`, u.admin, { context: 'edit' })).body;
		expect({ parent: stored.parent, featured_media: stored.featured_media }).toEqual({ parent: about.id, featured_media: photo.id });
	});
});

describe('media (WDM Media)', () => {
	test('lists the media items; By URL takes the attachment link', async () => {
		const found = await harness.listSearch('CUSTOM.wdmMedia', 'searchMedia', { filter: 'team' });
		expect(found.results).toEqual([{ name: 'Team photo', value: String(photo.id), url: photo.link }]);
		const got = await media({ operation: 'get', mediaId: byUrl('CUSTOM.wdmMedia', 'mediaId', photo.link) });
		expect(got.error).toBeUndefined();
		expect(got.items[0].json).toMatchObject({ id: photo.id, mime_type: 'image/png' });
		const picked = await media({ operation: 'get', mediaId: fromList(String(photo.id)) });
		expect(picked.items[0].json).toMatchObject({ id: photo.id });
	});

	test('By URL with an expression: each item names its own media item by its link; Update writes the one linked', async () => {
		const logo = firstJson(await media({ operation: 'upload', options: { title: 'Logo' } }, { input: [fileItem(PNG, 'image/png', 'logo.png')] })) as { id: number; link: string };
		const input = [{ json: { link: photo.link } }, { json: { link: logo.link } }];
		const got = await media({ operation: 'get', mediaId: byUrl('CUSTOM.wdmMedia', 'mediaId', '={{ $json.link }}') }, { input });
		expect(got.error).toBeUndefined();
		expect(got.items.map((item) => item.json.id)).toEqual([photo.id, logo.id]);
		const updated = await media({ operation: 'update', mediaId: byUrl('CUSTOM.wdmMedia', 'mediaId', '={{ $json.link }}'), updateFields: { alt_text: 'Our logo' } }, { input: [{ json: { link: logo.link } }] });
		expect(updated.error).toBeUndefined();
		expect((await cms.get(`/media/${logo.id}`, u.admin, { context: 'edit' })).body.alt_text).toBe('Our logo');
		expect((await cms.get(`/media/${photo.id}`, u.admin, { context: 'edit' })).body.alt_text).not.toBe('Our logo');
	});
});

describe('category and tag (WDM Post)', () => {
	test('list every term, empty ones too; a picked term is the one Get reads', async () => {
		const categories = await harness.listSearch('CUSTOM.wdmPost', 'searchCategory');
		expect(categories.results.map((r) => r.name)).toEqual(expect.arrayContaining(['Recipes', 'Uncategorized']));
		const [recipes] = (await harness.listSearch('CUSTOM.wdmPost', 'searchCategory', { filter: 'recip' })).results;
		const category = await post({ operation: 'getCategory', categoryId: fromList(String(recipes.value)) });
		expect(category.error).toBeUndefined();
		expect(category.items[0].json).toMatchObject({ name: 'Recipes', taxonomy: 'category' });

		const [vegan] = (await harness.listSearch('CUSTOM.wdmPost', 'searchTag', { filter: 'vegan' })).results;
		expect(vegan.name).toBe('vegan');
		const tag = await post({ operation: 'getTag', tagId: fromList(String(vegan.value)) });
		expect(tag.items[0].json).toMatchObject({ name: 'vegan', taxonomy: 'post_tag' });
	});
});

describe('Category Names or IDs, Tag Names or IDs (WDM Post, options loaded as the editor loads them)', () => {
	test('every category and tag is an option; the chosen ones are the terms the new post carries', async () => {
		const categories = await harness.loadOptions('CUSTOM.wdmPost', 'listCategory');
		expect(categories.map((o) => o.name)).toEqual(expect.arrayContaining(['Recipes', 'Uncategorized']));
		const tags = await harness.loadOptions('CUSTOM.wdmPost', 'listTag');
		expect(tags.map((o) => o.name)).toEqual(['vegan']);
		const recipes = categories.find((o) => o.name === 'Recipes')!.value;
		const created = await post({ operation: 'create', title: 'Lentil soup', content: '', additionalFields: { categories: [recipes], tags: [tags[0].value] } });
		expect(created.error).toBeUndefined();
		const stored = (await cms.get(`/posts/${created.items[0].json.id}`, u.admin, { context: 'edit' })).body;
		expect({ categories: stored.categories, tags: stored.tags }).toEqual({ categories: [Number(recipes)], tags: [Number(tags[0].value)] });
	});
});

describe('comments: Post, Author and Parent Comment (WDM Comment)', () => {
	test('a reply picked under its parent, by an author picked from the users; Update moves a comment to a picked post', async () => {
		const recipe = await cms.create('/posts', u.admin, { title: 'Bread recipe', status: 'publish' });
		const other = await cms.create('/posts', u.admin, { title: 'Cake recipe', status: 'publish' });
		const first = firstJson(await comment({ operation: 'create', postId: pickedEntry(await onlyMatch('CUSTOM.wdmComment', 'searchPost', 'bread')), commentContent: 'Lovely crumb' }));
		const parent = await onlyMatch('CUSTOM.wdmComment', 'searchComment', 'crumb');
		expect(parent).toMatchObject({ name: 'admin: Lovely crumb', value: String(first.id) });
		// Any user, subscribers too (a comment's author need not write posts).
		const sam = await onlyMatch('CUSTOM.wdmComment', 'searchAnyUser', 'sam');
		expect(sam).toMatchObject({ name: 'sam (sam)', value: String(u.subscriber.id) });
		const reply = firstJson(await comment({ operation: 'create', postId: recipe.id, commentContent: 'Which flour?', additionalFields: { parent: pickedEntry(parent), author: pickedEntry(sam) } }));
		expect(reply).toMatchObject({ post: recipe.id, parent: first.id, author: u.subscriber.id });

		const moved = firstJson(await comment({ operation: 'update', commentId: first.id, updateFields: { post: pickedEntry(await onlyMatch('CUSTOM.wdmComment', 'searchPost', 'cake')) } }));
		expect(moved).toMatchObject({ id: first.id, post: other.id });
	});
});

describe('media: Attached Post and Author (WDM Media)', () => {
	test('an upload attached to a picked post, by a picked author; Update attaches it to a post given by URL', async () => {
		const gallery = await cms.create('/posts', u.admin, { title: 'Gallery post', status: 'publish' });
		const arthur = await onlyMatch('CUSTOM.wdmMedia', 'searchAuthor', 'arthur');
		const uploaded = firstJson(
			await media(
				{ operation: 'upload', options: { title: 'Attached photo', post: pickedEntry(await onlyMatch('CUSTOM.wdmMedia', 'searchPost', 'gallery')), author: pickedEntry(arthur) } },
				{ input: [fileItem(PNG, 'image/png', 'attached.png')] },
			),
		);
		expect(uploaded).toMatchObject({ post: gallery.id, author: u.author.id });
		const updated = firstJson(await media({ operation: 'update', mediaId: uploaded.id, updateFields: { post: byUrl('CUSTOM.wdmMedia', 'updateFields.post', about.link) } }));
		expect(updated).toMatchObject({ id: uploaded.id, post: about.id });
	});
});

describe("revisions and autosaves: the versions of the item chosen in Post or Page (WDM Post, WDM Page)", () => {
	test('Revision lists the revisions of the chosen post, newest first; a picked one is what Get Revision reads', async () => {
		const versioned = await cms.create('/posts', u.admin, { title: 'Draft one', status: 'publish' });
		for (const title of ['Draft two', 'Draft three']) expect((await post({ operation: 'update', postId: versioned.id, updateFields: { title } })).error).toBeUndefined();
		const postId = fromList(String(versioned.id));
		const { results } = await harness.listSearch('CUSTOM.wdmPost', 'searchRevision', { parameters: { operation: 'getRevision', postId } });
		expect(results.map((r) => r.name.replace(/ \(.*\)$/, ''))).toEqual(['Draft three', 'Draft two']);
		const older = await onlyMatch('CUSTOM.wdmPost', 'searchRevision', 'two', { postId: byUrl('CUSTOM.wdmPost', 'postId', versioned.link) });
		const got = firstJson(await post({ operation: 'getRevision', postId, revisionId: pickedEntry(older), context: 'edit' }));
		expect(got).toMatchObject({ id: Number(older.value), parent: versioned.id, title: { raw: 'Draft two' } });
		await expect(harness.listSearch('CUSTOM.wdmPost', 'searchRevision', { parameters: { postId: fromList('') } })).rejects.toThrow('Choose the Post first: the versions listed are those of the post');
	});

	test("Autosave lists the chosen page's autosaves; a picked one is what Get Autosave reads", async () => {
		const pageId = fromList(String(about.id));
		const saved = firstJson(await page({ operation: 'createAutosave', pageId, autosaveFields: { title: 'About (editing)' } }));
		const [listed] = (await harness.listSearch('CUSTOM.wdmPage', 'searchAutosave', { parameters: { operation: 'getAutosave', pageId } })).results;
		expect(listed).toMatchObject({ name: expect.stringMatching(/^About \(editing\) \(\d{4}-\d\d-\d\d \d\d:\d\d\)$/), value: String(saved.id) });
		const got = firstJson(await page({ operation: 'getAutosave', pageId, autosaveId: pickedEntry(listed) }));
		expect(got).toMatchObject({ id: saved.id, parent: about.id });
	});
});

describe('categories: Parent, and the Parent and Post filters (WDM Post)', () => {
	test('a category created under a picked parent; Get Many Categories filtered by a picked parent and a picked post', async () => {
		const [recipes] = (await harness.listSearch('CUSTOM.wdmPost', 'searchCategory', { filter: 'recipes' })).results;
		const breads = firstJson(await post({ operation: 'createCategory', termName: 'Breads', termFields: { parent: pickedEntry(recipes) } }));
		expect(breads).toMatchObject({ name: 'Breads', parent: Number(recipes.value) });
		const under = await post({ operation: 'getManyCategories', returnAll: true, termFilters: { parent: pickedEntry(recipes) } });
		expect(under.items.map((item) => item.json.name)).toEqual(['Breads']);
		const tagged = await cms.create('/posts', u.admin, { title: 'Sourdough', status: 'publish', categories: [breads.id] });
		const ofPost = await post({ operation: 'getManyCategories', returnAll: true, termFilters: { post: fromList(String(tagged.id)) } });
		expect(ofPost.items.map((item) => item.json.name)).toEqual(['Breads']);
		const moved = firstJson(await post({ operation: 'updateCategory', categoryId: breads.id, termUpdateFields: { parent: byId('0') } }));
		expect(moved).toMatchObject({ id: breads.id, parent: 0 });
	});
});

describe('site settings and taxonomies (WDM Site)', () => {
	test('Page on Front, Page for Posts and Default Category picked; Get Many Taxonomies of a picked post type', async () => {
		const blog = await cms.create('/pages', u.admin, { title: 'Blog', status: 'publish' });
		const settings = firstJson(
			await siteNode({
				operation: 'updateSettings',
				settings: {
					show_on_front: 'page',
					page_on_front: pickedEntry(await onlyMatch('CUSTOM.wdmSite', 'searchPage', 'about')),
					page_for_posts: byUrl('CUSTOM.wdmSite', 'settings.page_for_posts', blog.link),
					default_category: pickedEntry(await onlyMatch('CUSTOM.wdmSite', 'searchCategory', 'recipes')),
				},
			}),
		);
		await siteNode({ operation: 'updateSettings', reset: ['show_on_front', 'page_on_front', 'page_for_posts', 'default_category'] });
		const [recipes] = (await harness.listSearch('CUSTOM.wdmPost', 'searchCategory', { filter: 'recipes' })).results;
		expect(settings).toMatchObject({ page_on_front: about.id, page_for_posts: blog.id, default_category: Number(recipes.value) });

		const type = await onlyMatch('CUSTOM.wdmSite', 'searchSiteType', 'posts (post)');
		const taxonomies = await siteNode({ operation: 'getManyTaxonomies', options: { type: pickedEntry(type) } });
		expect(taxonomies.items.map((item) => item.json.slug).sort()).toEqual(['category', 'post_tag']);
	});
});

test('with the wp/v2 namespace and /wp-json addressing, the pickers list the same site', async () => {
	const wordpress = harnessFor({ wdmSiteApi: { ...siteCredential(server.url, 'wpJson'), namespace: 'wp/v2' } });
	const found = await wordpress.listSearch('CUSTOM.wdmPage', 'searchPage', { filter: 'contact' });
	expect(found.results.map((r) => r.name)).toEqual(['Contact']);
});

test('a list search raises the site\'s own error (a wrong application password)', async () => {
	const stranger = siteHarness(server.url, 'restRoute', { name: 'admin', password: 'wrong pass word 0000' });
	await expect(stranger.listSearch('CUSTOM.wdmPost', 'searchPost')).rejects.toMatchObject({ httpCode: '401' });
});
