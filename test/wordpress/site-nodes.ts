// The cases of the site-nodes e2e (site-nodes.wp.ts): every operation of WDM Post, Page, Media, Comment,
// User and Site, as one chain of nodes a site runs in order. A case names its node, operation and
// parameters (other cases' outputs by n8n expressions), and says what its output must be: a check, the
// error code WordPress refuses it with, or, for an option a later WordPress brings, the node's own error
// on WordPress 6.1 (and the check on the reference server, which has the option).
export type NodeName = 'wdmPost' | 'wdmPage' | 'wdmMedia' | 'wdmComment' | 'wdmUser' | 'wdmSite';

/** A node's output item as `n8n execute` prints it: with `error` when the node continued on a failure. */
export interface Item {
	json: any;
	binary?: Record<string, { fileName?: string; mimeType?: string; fileSize?: string }>;
	error?: { message: string; description?: string };
}

/** One chain: its node names, unique strings, and the other cases' outputs once it has run. */
export interface Chain {
	/** Short and unique among the chains: in node names, user names, titles and search words. */
	tag: string;
	/** The content namespace of its credential: `wp/v2` or `cms/v2`. */
	namespace: string;
	/** The name of the application password the chain signs in with (Introspect answers it). */
	appPassword: string;
	/** `$('<tag>: <case>').first().json`: a case's output in an n8n expression. */
	json: (name: string) => string;
	/** The first output item of a case (for checks). */
	out: (name: string) => any;
}

export interface Case {
	/** Unique in a chain; the node's name is `<tag>: <name>`. */
	name: string;
	node: NodeName;
	operation: string;
	parameters: Record<string, unknown>;
	/** Signs in as the chain's spare administrator (Delete Me), not as `admin`. */
	spare?: boolean;
	/** Its input item carries the chain's image, as n8n's Convert to File makes it (Upload). */
	image?: boolean;
	/** WordPress refuses it: its error code (the node's error description starts with it). */
	refused?: string;
	/** An option of a later WordPress: WordPress 6.1 gets the node's error naming it ("<option> needs WordPress ..."). */
	newer?: string;
	check?: (items: Item[], c: Chain) => void;
}

const ids = (items: Item[]) => items.map((item) => item.json.id);
const one = (items: Item[]) => {
	expect(items).toHaveLength(1);
	return items[0].json;
};
/** `={{ <js> }}`: an expression. */
const expr = (js: string) => `={{ ${js} }}`;
/** A picker's value chosen From List, as the editor saves it (other values of pickers are saved By ID, see editorParameters). */
const fromList = (value: string, cachedResultName: string) => ({ __rl: true, mode: 'list', value, cachedResultName });

/** The cases of chain `c`, in the order they run. */
export function cases(c: Chain): Case[] {
	const id = (name: string) => expr(`${c.json(name)}.id`);
	const post = 'Create Post';
	const page = 'Create Page';
	return [
		// ---- The signed-in user and the site ----
		{ name: 'Get Me', node: 'wdmUser', operation: 'getMe', parameters: { options: { context: 'edit' } }, check: (items) => expect(one(items)).toMatchObject({ username: 'admin', roles: ['administrator'] }) },
		{
			name: 'Get Index',
			node: 'wdmSite',
			operation: 'getIndex',
			parameters: { simplify: true },
			check: (items) => {
				expect(one(items).namespaces).toEqual(expect.arrayContaining(['wp/v2', 'oembed/1.0']));
				expect(items[0].json.routes).toBeUndefined();
			},
		},
		{
			name: 'Get Namespace Index',
			node: 'wdmSite',
			operation: 'getNamespaceIndex',
			parameters: { namespace: 'cms/v2' },
			check: (items, c) => {
				expect(one(items).namespace).toBe(c.namespace);
				expect(Object.keys(items[0].json.routes)).toEqual(expect.arrayContaining([`/${c.namespace}/posts`, `/${c.namespace}/media`]));
			},
		},
		{ name: 'Get Settings', node: 'wdmSite', operation: 'getSettings', parameters: {}, check: (items) => expect(one(items)).toMatchObject({ title: expect.any(String), posts_per_page: 10 }) },
		{
			name: 'Update Settings',
			node: 'wdmSite',
			operation: 'updateSettings',
			parameters: { settings: { description: `Tagline ${c.tag}`, posts_per_page: 5 } },
			check: (items, c) => expect(one(items)).toMatchObject({ description: `Tagline ${c.tag}`, posts_per_page: 5 }),
		},
		{ name: 'Reset Settings', node: 'wdmSite', operation: 'updateSettings', parameters: { reset: ['posts_per_page'] }, check: (items) => expect(one(items).posts_per_page).toBe(10) },
		{ name: 'Get Post Type', node: 'wdmSite', operation: 'getType', parameters: { postType: fromList('post', 'Posts (post)') }, check: (items) => expect(one(items)).toMatchObject({ slug: 'post', rest_base: 'posts' }) },
		{ name: 'Get Many Post Types', node: 'wdmSite', operation: 'getManyTypes', parameters: {}, check: (items) => expect(items.map((i) => i.json.slug)).toEqual(expect.arrayContaining(['post', 'page', 'attachment'])) },
		{ name: 'Get Taxonomy', node: 'wdmSite', operation: 'getTaxonomy', parameters: { taxonomy: fromList('category', 'Categories (category)') }, check: (items) => expect(one(items)).toMatchObject({ slug: 'category', rest_base: 'categories' }) },
		{ name: 'Get Many Taxonomies', node: 'wdmSite', operation: 'getManyTaxonomies', parameters: {}, check: (items) => expect(items.map((i) => i.json.slug)).toEqual(expect.arrayContaining(['category', 'post_tag'])) },
		{ name: 'Get Status', node: 'wdmSite', operation: 'getStatus', parameters: { status: fromList('publish', 'Published (publish)') }, check: (items) => expect(one(items)).toMatchObject({ slug: 'publish', public: true }) },
		{ name: 'Get Many Statuses', node: 'wdmSite', operation: 'getManyStatuses', parameters: {}, check: (items) => expect(items.map((i) => i.json.slug)).toEqual(expect.arrayContaining(['publish', 'draft', 'future', 'pending', 'private'])) },

		// ---- Categories and tags ----
		{ name: 'Create Category', node: 'wdmPost', operation: 'createCategory', parameters: { termName: `News ${c.tag}`, termFields: { description: 'Made by n8n' } }, check: (items, c) => expect(one(items)).toMatchObject({ name: `News ${c.tag}`, description: 'Made by n8n', taxonomy: 'category' }) },
		{ name: 'Get Category', node: 'wdmPost', operation: 'getCategory', parameters: { categoryId: id('Create Category') }, check: (items, c) => expect(one(items).id).toBe(c.out('Create Category').id) },
		{
			name: 'Update Category',
			node: 'wdmPost',
			operation: 'updateCategory',
			parameters: { categoryId: id('Create Category'), termUpdateFields: { name: `News ${c.tag} renamed`, slug: `news-${c.tag}` } },
			check: (items, c) => expect(one(items)).toMatchObject({ name: `News ${c.tag} renamed`, slug: `news-${c.tag}` }),
		},
		{ name: 'Get Many Categories', node: 'wdmPost', operation: 'getManyCategories', parameters: { returnAll: true, termFilters: { search: `News ${c.tag}` } }, check: (items, c) => expect(ids(items)).toEqual([c.out('Create Category').id]) },
		{ name: 'Get Many Categories (Limit)', node: 'wdmPost', operation: 'getManyCategories', parameters: { returnAll: false, limit: 1 }, check: (items) => expect(items).toHaveLength(1) },
		{ name: 'Create Tag', node: 'wdmPost', operation: 'createTag', parameters: { termName: `n8n ${c.tag}` }, check: (items, c) => expect(one(items)).toMatchObject({ name: `n8n ${c.tag}`, taxonomy: 'post_tag' }) },
		{ name: 'Get Tag', node: 'wdmPost', operation: 'getTag', parameters: { tagId: id('Create Tag') }, check: (items, c) => expect(one(items).id).toBe(c.out('Create Tag').id) },
		{ name: 'Update Tag', node: 'wdmPost', operation: 'updateTag', parameters: { tagId: id('Create Tag'), termUpdateFields: { description: 'Renamed by n8n' } }, check: (items) => expect(one(items).description).toBe('Renamed by n8n') },
		{ name: 'Get Many Tags', node: 'wdmPost', operation: 'getManyTags', parameters: { returnAll: true, termFilters: { search: `n8n ${c.tag}` } }, check: (items, c) => expect(ids(items)).toEqual([c.out('Create Tag').id]) },
		{ name: 'Get Many Tags (Limit)', node: 'wdmPost', operation: 'getManyTags', parameters: { returnAll: false, limit: 1 }, check: (items) => expect(items).toHaveLength(1) },

		// ---- Media ----
		{
			name: 'Upload Media',
			node: 'wdmMedia',
			operation: 'upload',
			image: true,
			parameters: { binaryPropertyName: 'data', fileName: `cover-${c.tag}.png`, options: { title: `Cover ${c.tag}`, alt_text: 'A green rectangle', caption: 'Made by n8n' } },
			check: (items, c) => expect(one(items)).toMatchObject({ mime_type: 'image/png', media_type: 'image', alt_text: 'A green rectangle', title: { raw: `Cover ${c.tag}` } }),
		},
		{ name: 'Get Media', node: 'wdmMedia', operation: 'get', parameters: { mediaId: id('Upload Media'), context: 'edit' }, check: (items, c) => expect(one(items)).toMatchObject({ id: c.out('Upload Media').id, caption: { raw: 'Made by n8n' } }) },
		{ name: 'Update Media', node: 'wdmMedia', operation: 'update', parameters: { mediaId: id('Upload Media'), updateFields: { description: 'Updated by n8n' } }, check: (items) => expect(one(items).description.raw).toBe('Updated by n8n') },
		{
			name: 'Download Media',
			node: 'wdmMedia',
			operation: 'download',
			// By URL: the item's REST URL, as a user pastes it.
			parameters: { mediaId: { __rl: true, mode: 'url', value: expr(`${c.json('Upload Media')}._links.self[0].href`) }, outputPropertyName: 'data' },
			check: (items) => expect(items[0].binary?.data).toMatchObject({ mimeType: 'image/png', fileName: expect.stringMatching(/^cover-.*\.png$/) }),
		},
		{ name: 'Generate Missing Sizes', node: 'wdmMedia', operation: 'generateSizes', parameters: { mediaId: id('Upload Media') }, check: (items, c) => expect(one(items).id).toBe(c.out('Upload Media').id) },
		{
			name: 'Edit Image',
			node: 'wdmMedia',
			operation: 'editImage',
			parameters: { mediaId: id('Upload Media'), rotate: 90, crop: { width: 50, height: 50 } },
			check: (items, c) => {
				const edited = one(items);
				expect(edited.id).not.toBe(c.out('Upload Media').id);
				expect(edited.media_details).toMatchObject({ width: 100, height: 160 });
			},
		},
		{ name: 'Get Many Media', node: 'wdmMedia', operation: 'getMany', parameters: { returnAll: true, filters: { media_type: ['image'], search: `Cover ${c.tag}` } }, check: (items, c) => expect(ids(items)).toContain(c.out('Upload Media').id) },
		{ name: 'Get Many Media (Limit)', node: 'wdmMedia', operation: 'getMany', parameters: { returnAll: false, limit: 1 }, check: (items) => expect(items).toHaveLength(1) },
		{
			name: 'Get Many Media (Two Types)',
			node: 'wdmMedia',
			operation: 'getMany',
			parameters: { returnAll: true, filters: { media_type: ['image', 'video'] } },
			newer: 'Media Types needs WordPress 6.9 or newer',
			check: (items, c) => expect(ids(items)).toContain(c.out('Upload Media').id),
		},
		{
			name: 'Get Many Media (Two MIME Types)',
			node: 'wdmMedia',
			operation: 'getMany',
			parameters: { returnAll: true, filters: { mime_type: ['image/png', 'image/jpeg'] } },
			newer: 'MIME Types needs WordPress 6.9 or newer',
			check: (items, c) => expect(ids(items)).toContain(c.out('Upload Media').id),
		},
		{ name: 'Delete Media', node: 'wdmMedia', operation: 'delete', parameters: { mediaId: id('Edit Image') }, check: (items, c) => expect(one(items)).toMatchObject({ deleted: true, previous: { id: c.out('Edit Image').id } }) },

		// ---- Posts ----
		{
			name: post,
			node: 'wdmPost',
			operation: 'create',
			parameters: {
				title: `Hello ${c.tag}`,
				content: 'The first version of a post written by n8n, long enough for an excerpt of a few words.',
				additionalFields: {
					status: 'publish',
					author: id('Get Me'),
					categories: expr(`[${c.json('Create Category')}.id]`),
					tags: expr(`[${c.json('Create Tag')}.id]`),
					featured_media: id('Upload Media'),
					format: 'aside',
					sticky: true,
					comment_status: 'open',
				},
			},
			check: (items, c) =>
				expect(one(items)).toMatchObject({
					title: { raw: `Hello ${c.tag}` },
					status: 'publish',
					author: c.out('Get Me').id,
					categories: [c.out('Create Category').id],
					tags: [c.out('Create Tag').id],
					featured_media: c.out('Upload Media').id,
					format: 'aside',
					sticky: true,
				}),
		},
		{ name: 'Get Post', node: 'wdmPost', operation: 'get', parameters: { postId: id(post), options: { context: 'edit' } }, check: (items, c) => expect(one(items)).toMatchObject({ id: c.out(post).id, title: { raw: `Hello ${c.tag}` } }) },
		{
			name: 'Get Post (By URL)',
			node: 'wdmPost',
			operation: 'get',
			parameters: { postId: { __rl: true, mode: 'url', value: expr(`${c.json(post)}._links.self[0].href`) } },
			check: (items, c) => expect(one(items).id).toBe(c.out(post).id),
		},
		{ name: 'Get Post (Missing)', node: 'wdmPost', operation: 'get', parameters: { postId: '987654' }, refused: 'rest_post_invalid_id' },
		{
			name: 'Get Post (Excerpt Length)',
			node: 'wdmPost',
			operation: 'get',
			parameters: { postId: id(post), options: { excerpt_length: 3 } },
			newer: 'Excerpt Length needs WordPress 6.6 or newer',
			check: (items) => expect(one(items).excerpt.rendered).toMatch(/^<p>The first version \[&hellip;\]<\/p>/),
		},
		{
			name: 'Update Post',
			node: 'wdmPost',
			operation: 'update',
			parameters: { postId: id(post), updateFields: { title: `Hello again ${c.tag}`, content: 'The second version, changed by n8n.' } },
			check: (items, c) => expect(one(items)).toMatchObject({ id: c.out(post).id, title: { raw: `Hello again ${c.tag}` } }),
		},
		{
			name: 'Get Revisions',
			node: 'wdmPost',
			operation: 'getRevisions',
			parameters: { postId: id(post), returnAll: true },
			check: (items, c) => {
				expect(items.length).toBeGreaterThanOrEqual(1);
				expect(items.map((i) => i.json.parent)).toEqual(items.map(() => c.out(post).id));
			},
		},
		{ name: 'Get Revisions (Limit)', node: 'wdmPost', operation: 'getRevisions', parameters: { postId: id(post), returnAll: false, limit: 1 }, check: (items) => expect(items).toHaveLength(1) },
		{ name: 'Get Revision', node: 'wdmPost', operation: 'getRevision', parameters: { postId: id(post), revisionId: id('Get Revisions') }, check: (items, c) => expect(one(items)).toMatchObject({ id: c.out('Get Revisions').id, parent: c.out(post).id }) },
		{ name: 'Delete Revision', node: 'wdmPost', operation: 'deleteRevision', parameters: { postId: id(post), revisionId: id('Get Revisions') }, refused: 'rest_cannot_delete' },
		{
			name: 'Create Autosave',
			node: 'wdmPost',
			operation: 'createAutosave',
			parameters: { postId: id(post), autosaveFields: { title: 'Not saved yet', content: 'Unsaved words' } },
			check: (items, c) => expect(one(items)).toMatchObject({ parent: c.out(post).id, title: { raw: 'Not saved yet' } }),
		},
		{ name: 'Get Autosaves', node: 'wdmPost', operation: 'getAutosaves', parameters: { postId: id(post) }, check: (items, c) => expect(ids(items)).toEqual([c.out('Create Autosave').id]) },
		{ name: 'Get Autosave', node: 'wdmPost', operation: 'getAutosave', parameters: { postId: id(post), autosaveId: id('Create Autosave') }, check: (items, c) => expect(one(items).id).toBe(c.out('Create Autosave').id) },
		{
			name: 'Get Many Posts',
			node: 'wdmPost',
			operation: 'getMany',
			parameters: { returnAll: true, filters: { search: `again ${c.tag}`, categories: id('Create Category'), tags: id('Create Tag') } },
			check: (items, c) => expect(ids(items)).toEqual([c.out(post).id]),
		},
		{ name: 'Get Many Posts (Limit)', node: 'wdmPost', operation: 'getMany', parameters: { returnAll: false, limit: 1, filters: { status: ['publish', 'draft'] } }, check: (items) => expect(items).toHaveLength(1) },
		{
			name: 'Get Many Posts (Formats)',
			node: 'wdmPost',
			operation: 'getMany',
			parameters: { returnAll: true, filters: { format: ['aside'] } },
			newer: 'Formats needs WordPress 6.7 or newer',
			check: (items, c) => {
				expect(ids(items)).toContain(c.out(post).id);
				expect(new Set(items.map((i) => i.json.format))).toEqual(new Set(['aside']));
			},
		},
		{
			name: 'Get Many Posts (Search In)',
			node: 'wdmPost',
			operation: 'getMany',
			parameters: { returnAll: true, filters: { search: `again ${c.tag}`, search_columns: ['post_title'] } },
			newer: 'Search In needs WordPress 6.2 or newer',
			check: (items, c) => expect(ids(items)).toEqual([c.out(post).id]),
		},
		{
			name: 'Get Many Posts (Exact Search)',
			node: 'wdmPost',
			operation: 'getMany',
			parameters: { returnAll: true, filters: { search: `hello again ${c.tag}`, exact: true } },
			newer: 'Exact Search needs WordPress 6.9 or newer',
			check: (items, c) => expect(ids(items)).toEqual([c.out(post).id]),
		},
		{
			name: 'Get Many Posts (Sticky First)',
			node: 'wdmPost',
			operation: 'getMany',
			parameters: { returnAll: false, limit: 5, filters: { stickyFirst: true } },
			newer: 'Sticky Posts First needs WordPress 6.8 or newer',
			check: (items) => expect(items[0].json.sticky).toBe(true),
		},
		{
			name: 'Create Protected Post',
			node: 'wdmPost',
			operation: 'create',
			parameters: { title: `Members ${c.tag}`, content: 'The secret recipe', additionalFields: { status: 'publish', password: 'open sesame' } },
			check: (items) => expect(one(items)).toMatchObject({ status: 'publish', password: 'open sesame' }),
		},
		{ name: 'Get Protected Post', node: 'wdmPost', operation: 'get', parameters: { postId: id('Create Protected Post'), options: { password: 'open sesame' } }, check: (items) => expect(one(items).content).toMatchObject({ protected: true, rendered: expect.stringContaining('The secret recipe') }) },
		{ name: 'Get Protected Post (Wrong Password)', node: 'wdmPost', operation: 'get', parameters: { postId: id('Create Protected Post'), options: { password: 'not the password' } }, refused: 'rest_post_incorrect_password' },

		// ---- Comments on the post ----
		{ name: 'Create Comment', node: 'wdmComment', operation: 'create', parameters: { postId: id(post), commentContent: 'A comment from n8n' }, check: (items, c) => expect(one(items)).toMatchObject({ post: c.out(post).id, status: 'approved' }) },
		{ name: 'Get Comment', node: 'wdmComment', operation: 'get', parameters: { commentId: id('Create Comment'), context: 'edit' }, check: (items) => expect(one(items).content.raw).toBe('A comment from n8n') },
		{ name: 'Update Comment', node: 'wdmComment', operation: 'update', parameters: { commentId: id('Create Comment'), updateFields: { content: 'A comment from n8n, edited' } }, check: (items) => expect(one(items).content.raw).toBe('A comment from n8n, edited') },
		{ name: 'Moderate Comment', node: 'wdmComment', operation: 'moderate', parameters: { commentId: id('Create Comment'), moderation: 'hold' }, check: (items) => expect(one(items).status).toBe('hold') },
		{ name: 'Get Many Comments', node: 'wdmComment', operation: 'getMany', parameters: { returnAll: true, filters: { post: id(post), status: 'all' } }, check: (items, c) => expect(ids(items)).toEqual([c.out('Create Comment').id]) },
		{ name: 'Get Many Comments (Limit)', node: 'wdmComment', operation: 'getMany', parameters: { returnAll: false, limit: 1, filters: { status: 'all' } }, check: (items) => expect(items).toHaveLength(1) },
		{ name: 'Trash Comment', node: 'wdmComment', operation: 'delete', parameters: { commentId: id('Create Comment'), force: false }, check: (items) => expect(one(items).status).toBe('trash') },
		{ name: 'Delete Comment', node: 'wdmComment', operation: 'delete', parameters: { commentId: id('Create Comment'), force: true }, check: (items, c) => expect(one(items)).toMatchObject({ deleted: true, previous: { id: c.out('Create Comment').id } }) },

		// ---- Pages ----
		{ name: 'Create Parent Page', node: 'wdmPage', operation: 'create', parameters: { title: `Parent ${c.tag}`, additionalFields: { status: 'publish' } }, check: (items) => expect(one(items)).toMatchObject({ type: 'page', status: 'publish' }) },
		{
			name: page,
			node: 'wdmPage',
			operation: 'create',
			parameters: { title: `About ${c.tag}`, content: 'A page written by n8n, long enough for an excerpt of a few words.', additionalFields: { status: 'publish', parent: id('Create Parent Page'), menu_order: 3 } },
			check: (items, c) => expect(one(items)).toMatchObject({ type: 'page', parent: c.out('Create Parent Page').id, menu_order: 3 }),
		},
		{ name: 'Get Page', node: 'wdmPage', operation: 'get', parameters: { pageId: id(page), options: { context: 'edit' } }, check: (items, c) => expect(one(items)).toMatchObject({ id: c.out(page).id, title: { raw: `About ${c.tag}` } }) },
		{
			name: 'Get Page (Excerpt Length)',
			node: 'wdmPage',
			operation: 'get',
			parameters: { pageId: id(page), options: { excerpt_length: 3 } },
			newer: 'Excerpt Length needs WordPress 6.6 or newer',
			check: (items) => expect(one(items).excerpt.rendered).toMatch(/^<p>A page written \[&hellip;\]<\/p>/),
		},
		{ name: 'Update Page', node: 'wdmPage', operation: 'update', parameters: { pageId: id(page), updateFields: { title: `About us ${c.tag}` } }, check: (items, c) => expect(one(items).title.raw).toBe(`About us ${c.tag}`) },
		{ name: 'Get Page Revisions', node: 'wdmPage', operation: 'getRevisions', parameters: { pageId: id(page), returnAll: true }, check: (items, c) => expect(items.map((i) => i.json.parent)).toEqual(items.map(() => c.out(page).id)) },
		{ name: 'Get Page Revisions (Limit)', node: 'wdmPage', operation: 'getRevisions', parameters: { pageId: id(page), returnAll: false, limit: 1 }, check: (items) => expect(items).toHaveLength(1) },
		{ name: 'Get Page Revision', node: 'wdmPage', operation: 'getRevision', parameters: { pageId: id(page), revisionId: id('Get Page Revisions') }, check: (items, c) => expect(one(items).id).toBe(c.out('Get Page Revisions').id) },
		{ name: 'Delete Page Revision', node: 'wdmPage', operation: 'deleteRevision', parameters: { pageId: id(page), revisionId: id('Get Page Revisions') }, refused: 'rest_cannot_delete' },
		{ name: 'Create Page Autosave', node: 'wdmPage', operation: 'createAutosave', parameters: { pageId: id(page), autosaveFields: { content: 'Unsaved page words' } }, check: (items, c) => expect(one(items).parent).toBe(c.out(page).id) },
		{ name: 'Get Page Autosaves', node: 'wdmPage', operation: 'getAutosaves', parameters: { pageId: id(page) }, check: (items, c) => expect(ids(items)).toEqual([c.out('Create Page Autosave').id]) },
		{ name: 'Get Page Autosave', node: 'wdmPage', operation: 'getAutosave', parameters: { pageId: id(page), autosaveId: id('Create Page Autosave') }, check: (items, c) => expect(one(items).id).toBe(c.out('Create Page Autosave').id) },
		{ name: 'Get Many Pages', node: 'wdmPage', operation: 'getMany', parameters: { returnAll: true, filters: { parent: id('Create Parent Page') } }, check: (items, c) => expect(ids(items)).toEqual([c.out(page).id]) },
		{ name: 'Get Many Pages (Limit)', node: 'wdmPage', operation: 'getMany', parameters: { returnAll: false, limit: 1 }, check: (items) => expect(items).toHaveLength(1) },
		{
			name: 'Get Many Pages (Search In)',
			node: 'wdmPage',
			operation: 'getMany',
			parameters: { returnAll: true, filters: { search: `us ${c.tag}`, search_columns: ['post_title'] } },
			newer: 'Search In needs WordPress 6.2 or newer',
			check: (items, c) => expect(ids(items)).toEqual([c.out(page).id]),
		},
		{
			name: 'Get Many Pages (Exact Search)',
			node: 'wdmPage',
			operation: 'getMany',
			parameters: { returnAll: true, filters: { search: `about us ${c.tag}`, exact: true } },
			newer: 'Exact Search needs WordPress 6.9 or newer',
			check: (items, c) => expect(ids(items)).toEqual([c.out(page).id]),
		},
		{ name: 'Trash Page', node: 'wdmPage', operation: 'delete', parameters: { pageId: id(page), force: false }, check: (items) => expect(one(items).status).toBe('trash') },
		{ name: 'Delete Page', node: 'wdmPage', operation: 'delete', parameters: { pageId: id(page), force: true }, check: (items, c) => expect(one(items)).toMatchObject({ deleted: true, previous: { id: c.out(page).id } }) },

		// ---- Search, batch, oEmbed ----
		{ name: 'Search', node: 'wdmSite', operation: 'search', parameters: { search: `again ${c.tag}`, returnAll: true }, check: (items, c) => expect(items.map((i) => [i.json.id, i.json.subtype])).toEqual([[c.out(post).id, 'post']]) },
		{ name: 'Search (Limit)', node: 'wdmSite', operation: 'search', parameters: { search: '', returnAll: false, limit: 1 }, check: (items) => expect(items).toHaveLength(1) },
		{
			name: 'Batch',
			node: 'wdmSite',
			operation: 'batch',
			parameters: { requests: { request: [{ method: 'POST', path: '/cms/v2/posts', body: `{"title": "Batched ${c.tag}", "status": "draft"}` }] } },
			check: (items, c) => expect(one(items)).toMatchObject({ status: 201, body: { title: { raw: `Batched ${c.tag}` }, status: 'draft' } }),
		},
		{ name: 'OEmbed Embed', node: 'wdmSite', operation: 'oembedEmbed', parameters: { url: expr(`${c.json(post)}.link`) }, check: (items, c) => expect(one(items)).toMatchObject({ type: 'rich', title: `Hello again ${c.tag}` }) },
		{ name: 'OEmbed Proxy', node: 'wdmSite', operation: 'oembedProxy', parameters: { url: expr(`${c.json(post)}.link`) }, check: (items, c) => expect(one(items)).toMatchObject({ type: 'rich', title: `Hello again ${c.tag}` }) },

		// ---- Users and application passwords ----
		{
			name: 'Create User',
			node: 'wdmUser',
			operation: 'create',
			parameters: { username: `nate-${c.tag}`, email: `nate-${c.tag}@example.com`, password: 'a login password', additionalFields: { name: 'Nate', roles: 'author' } },
			check: (items, c) => expect(one(items)).toMatchObject({ username: `nate-${c.tag}`, name: 'Nate', roles: ['author'] }),
		},
		{ name: 'Get User', node: 'wdmUser', operation: 'get', parameters: { userId: id('Create User'), options: { context: 'edit' } }, check: (items, c) => expect(one(items)).toMatchObject({ id: c.out('Create User').id, email: `nate-${c.tag}@example.com` }) },
		{ name: 'Update User', node: 'wdmUser', operation: 'update', parameters: { userId: id('Create User'), updateFields: { first_name: 'Nathan', description: 'Made by n8n' } }, check: (items) => expect(one(items)).toMatchObject({ first_name: 'Nathan', description: 'Made by n8n' }) },
		{ name: 'Update Me', node: 'wdmUser', operation: 'updateMe', parameters: { updateFields: { description: `Runs n8n (${c.tag})` } }, check: (items, c) => expect(one(items)).toMatchObject({ username: 'admin', description: `Runs n8n (${c.tag})` }) },
		{ name: 'Get Many Users', node: 'wdmUser', operation: 'getMany', parameters: { returnAll: true, filters: { search: `nate-${c.tag}` } }, check: (items, c) => expect(ids(items)).toEqual([c.out('Create User').id]) },
		{ name: 'Get Many Users (Limit)', node: 'wdmUser', operation: 'getMany', parameters: { returnAll: false, limit: 1 }, check: (items) => expect(items).toHaveLength(1) },
		{ name: 'Create Application Password', node: 'wdmUser', operation: 'createAppPassword', parameters: { userId: id('Create User'), appName: 'n8n' }, check: (items) => expect(one(items)).toMatchObject({ name: 'n8n', uuid: expect.any(String), password: expect.any(String) }) },
		{ name: 'Get Application Password', node: 'wdmUser', operation: 'getAppPassword', parameters: { userId: id('Create User'), uuid: expr(`${c.json('Create Application Password')}.uuid`) }, check: (items) => expect(one(items).name).toBe('n8n') },
		{ name: 'Get Many Application Passwords', node: 'wdmUser', operation: 'getManyAppPasswords', parameters: { userId: id('Create User') }, check: (items, c) => expect(items.map((i) => i.json.uuid)).toEqual([c.out('Create Application Password').uuid]) },
		{
			name: 'Update Application Password',
			node: 'wdmUser',
			operation: 'updateAppPassword',
			parameters: { userId: id('Create User'), uuid: expr(`${c.json('Create Application Password')}.uuid`), appName: 'n8n renamed' },
			check: (items) => expect(one(items).name).toBe('n8n renamed'),
		},
		{ name: 'Introspect Application Password', node: 'wdmUser', operation: 'introspectAppPassword', parameters: { userId: 'me' }, check: (items, c) => expect(one(items).name).toBe(c.appPassword) },
		{
			name: 'Delete Application Password',
			node: 'wdmUser',
			operation: 'deleteAppPassword',
			parameters: { userId: id('Create User'), uuid: expr(`${c.json('Create Application Password')}.uuid`) },
			check: (items) => expect(one(items)).toMatchObject({ deleted: true, previous: { name: 'n8n renamed' } }),
		},
		{ name: 'Create Another Application Password', node: 'wdmUser', operation: 'createAppPassword', parameters: { userId: id('Create User'), appName: 'another' }, check: (items) => expect(one(items).name).toBe('another') },
		{ name: 'Delete All Application Passwords', node: 'wdmUser', operation: 'deleteAllAppPasswords', parameters: { userId: id('Create User') }, check: (items) => expect(one(items)).toEqual({ deleted: true, count: 1 }) },
		{ name: 'Delete User', node: 'wdmUser', operation: 'delete', parameters: { userId: id('Create User'), reassign: id('Get Me') }, check: (items, c) => expect(one(items)).toMatchObject({ deleted: true, previous: { id: c.out('Create User').id } }) },
		{ name: 'Delete Me', node: 'wdmUser', operation: 'deleteMe', spare: true, parameters: { reassign: id('Get Me') }, check: (items, c) => expect(one(items)).toMatchObject({ deleted: true, previous: { username: `spare-${c.tag}` } }) },

		// ---- Deletes last: the post and its terms ----
		{ name: 'Trash Post', node: 'wdmPost', operation: 'delete', parameters: { postId: id(post), force: false }, check: (items) => expect(one(items).status).toBe('trash') },
		{ name: 'Delete Post', node: 'wdmPost', operation: 'delete', parameters: { postId: id(post), force: true }, check: (items, c) => expect(one(items)).toMatchObject({ deleted: true, previous: { id: c.out(post).id } }) },
		{ name: 'Delete Category', node: 'wdmPost', operation: 'deleteCategory', parameters: { categoryId: id('Create Category') }, check: (items) => expect(one(items)).toMatchObject({ deleted: true }) },
		{ name: 'Delete Tag', node: 'wdmPost', operation: 'deleteTag', parameters: { tagId: id('Create Tag') }, check: (items) => expect(one(items)).toMatchObject({ deleted: true }) },
	];
}
