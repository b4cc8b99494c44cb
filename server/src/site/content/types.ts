import type { Capability } from '../roles';

/** The primitive capabilities behind one post type's meta capabilities (WordPress's `$post_type->cap`). */
export interface TypeCaps {
	edit_posts: Capability;
	edit_others_posts: Capability;
	edit_published_posts: Capability;
	edit_private_posts: Capability;
	publish_posts: Capability;
	read_private_posts: Capability;
	delete_posts: Capability;
	delete_others_posts: Capability;
	delete_published_posts: Capability;
	delete_private_posts: Capability;
}

export const POST_CAPS: TypeCaps = {
	edit_posts: 'edit_posts',
	edit_others_posts: 'edit_others_posts',
	edit_published_posts: 'edit_published_posts',
	edit_private_posts: 'edit_private_posts',
	publish_posts: 'publish_posts',
	read_private_posts: 'read_private_posts',
	delete_posts: 'delete_posts',
	delete_others_posts: 'delete_others_posts',
	delete_published_posts: 'delete_published_posts',
	delete_private_posts: 'delete_private_posts',
};

export const PAGE_CAPS: TypeCaps = {
	edit_posts: 'edit_pages',
	edit_others_posts: 'edit_others_pages',
	edit_published_posts: 'edit_published_pages',
	edit_private_posts: 'edit_private_pages',
	publish_posts: 'publish_pages',
	read_private_posts: 'read_private_pages',
	delete_posts: 'delete_pages',
	delete_others_posts: 'delete_others_pages',
	delete_published_posts: 'delete_published_pages',
	delete_private_posts: 'delete_private_pages',
};

/** A taxonomy whose terms a post type carries: WordPress's `category` and `post_tag`, or one the engine added. */
export interface Taxonomy {
	/** As stored in `terms.taxonomy` (`category`, `post_tag`, or an engine taxonomy's slug). */
	name: string;
	/** REST base under `cms/v2`, also the post field and the collection filter (`categories`). */
	base: string;
	hierarchical: boolean;
	/** In messages: `unknown category id(s) 9`. */
	noun: string;
}

export const CATEGORY: Taxonomy = { name: 'category', base: 'categories', hierarchical: true, noun: 'category' };
export const TAG: Taxonomy = { name: 'post_tag', base: 'tags', hierarchical: false, noun: 'tag' };

/** The category every post has when it is given none (WordPress's `default_category`). */
export const DEFAULT_CATEGORY = 1;

/**
 * One post type of the content routes. The routes, the collection query, the views and the write path
 * are generated from it, so posts and pages (and media, which adds its own fields and filters) differ
 * only here.
 */
export interface PostType {
	/** Stored `content.type` and the `type` field: `post`, `page`. */
	type: string;
	/** REST base under `cms/v2`: `posts`, `pages`. */
	base: string;
	caps: TypeCaps;
	/** Pages: `parent` and `menu_order` fields and filters; slugs unique among siblings. */
	hierarchical: boolean;
	/** Posts: `format`, `sticky`. */
	formats: boolean;
	sticky: boolean;
	taxonomies: Taxonomy[];
	/** Whether DELETE without `force` moves the item to the trash (else 501, as for WordPress's media without MEDIA_TRASH). */
	trash: boolean;
	/** Whether updates keep revisions and autosaves exist. */
	revisions: boolean;
	/** WordPress's default comment and ping status for new items of the type. */
	discussion: 'open' | 'closed';
	/** Plain permalink query key: `?p=1` for posts, `?page_id=2` for pages. */
	permalinkKey: string;
	/** Types whose slugs a new slug must not repeat (WordPress: pages also against media). */
	slugTypes: readonly string[];
	/** WordPress's `supports` features (`author`, `comments`, ...): which links and classes an item shows. */
	supports: readonly string[];
}

/** WordPress's `supports` of its own post types, and of a registered type that names none. */
export const POST_SUPPORTS = ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'trackbacks', 'custom-fields', 'comments', 'revisions', 'post-formats'];
export const PAGE_SUPPORTS = ['title', 'editor', 'author', 'thumbnail', 'page-attributes', 'custom-fields', 'comments', 'revisions'];
export const ATTACHMENT_SUPPORTS = ['title', 'author', 'comments'];
export const DEFAULT_SUPPORTS = ['title', 'editor'];

export const POST: PostType = {
	type: 'post',
	base: 'posts',
	caps: POST_CAPS,
	hierarchical: false,
	formats: true,
	sticky: true,
	taxonomies: [CATEGORY, TAG],
	trash: true,
	revisions: true,
	discussion: 'open',
	permalinkKey: 'p',
	slugTypes: ['post'],
	supports: POST_SUPPORTS,
};

export const PAGE: PostType = {
	type: 'page',
	base: 'pages',
	caps: PAGE_CAPS,
	hierarchical: true,
	formats: false,
	sticky: false,
	taxonomies: [],
	trash: true,
	revisions: true,
	discussion: 'closed',
	permalinkKey: 'page_id',
	slugTypes: ['page', 'attachment'],
	supports: PAGE_SUPPORTS,
};

/**
 * A post type with WordPress's defaults for a registered type (`register_post_type`): the posts'
 * capabilities, no formats, sticky or revisions, comments closed, plain permalinks `?p=`.
 */
export const customPostType = (type: string, base: string, more: Partial<PostType> = {}): PostType => ({
	type,
	base,
	caps: POST_CAPS,
	hierarchical: false,
	formats: false,
	sticky: false,
	taxonomies: [],
	trash: true,
	revisions: false,
	discussion: 'closed',
	permalinkKey: 'p',
	slugTypes: [type],
	supports: DEFAULT_SUPPORTS,
	...more,
});

/** Statuses a client may write. */
export const WRITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

/** Statuses a collection may be filtered by. */
export const FILTER_STATUSES = [
	...WRITABLE_STATUSES,
	'trash',
	'auto-draft',
	'inherit',
	'request-pending',
	'request-confirmed',
	'request-failed',
	'request-completed',
	'any',
] as const;

/** What `status=any` means: every status but those WordPress keeps out of searches (trash, auto-draft). */
export const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'inherit'];

export const FORMATS = ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'] as const;
