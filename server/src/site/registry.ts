import type { Store } from '../store';
import { ATTACHMENT_SUPPORTS, DEFAULT_SUPPORTS, PAGE_SUPPORTS, POST_SUPPORTS } from './content/types';
import { type BuiltInDoc, engineDoc, engineDocs, KINDS, type PostTypeDoc, type TaxonomyDoc } from './engine/documents';

/**
 * The site's post types and taxonomies: ONE registry that every namespace reads (`cms/v2` serves a
 * collection per post type, the builder's lookups and the theme core list them, the engine adds,
 * edits and removes them). The built-in ones are WordPress's; the engine's are stored by the engine
 * (`engine/v2` post types and taxonomies) and appear here as soon as they are added.
 */
export interface SitePostType {
	/** The type's name, stored as `content.type`: `post`, `page`, `attachment`, `book`. */
	slug: string;
	/** Its collection under `cms/v2`: `posts`, `pages`, `media`, `books`. */
	rest_base: string;
	/** Plural and singular labels. */
	name: string;
	singular_name: string;
	public: boolean;
	hierarchical: boolean;
	/** Taxonomy slugs whose terms items of the type carry. */
	taxonomies: string[];
	/** WordPress's own types (post, page, attachment); the engine may relabel them but not remove them. */
	builtin: boolean;
	/** WordPress's `supports` features of the type. */
	supports: string[];
	/** The engine's id of an added type (digits in its routes). */
	id?: number;
}

export interface SiteTaxonomy {
	/** As stored in `terms.taxonomy`: `category`, `post_tag`, `genre`. */
	slug: string;
	/** Its term collection under `cms/v2`: `categories`, `tags`, `genres`. */
	rest_base: string;
	name: string;
	singular_name: string;
	public: boolean;
	hierarchical: boolean;
	/** Post type slugs the taxonomy is assigned to. */
	object_types: string[];
	builtin: boolean;
	id?: number;
}

export const BUILTIN_POST_TYPES: readonly SitePostType[] = [
	{ slug: 'post', rest_base: 'posts', name: 'Posts', singular_name: 'Post', public: true, hierarchical: false, taxonomies: ['category', 'post_tag'], builtin: true, supports: POST_SUPPORTS },
	{ slug: 'page', rest_base: 'pages', name: 'Pages', singular_name: 'Page', public: true, hierarchical: true, taxonomies: [], builtin: true, supports: PAGE_SUPPORTS },
	{ slug: 'attachment', rest_base: 'media', name: 'Media', singular_name: 'Media', public: true, hierarchical: false, taxonomies: [], builtin: true, supports: ATTACHMENT_SUPPORTS },
];

export const BUILTIN_TAXONOMIES: readonly SiteTaxonomy[] = [
	{ slug: 'category', rest_base: 'categories', name: 'Categories', singular_name: 'Category', public: true, hierarchical: true, object_types: ['post'], builtin: true },
	{ slug: 'post_tag', rest_base: 'tags', name: 'Tags', singular_name: 'Tag', public: true, hierarchical: false, object_types: ['post'], builtin: true },
];

/** A built-in as the engine may have relabelled it (labels and `public`; its slug and REST base stay). */
function relabelled<T extends SitePostType | SiteTaxonomy>(store: Store, kind: string, builtin: T): T {
	const override = engineDoc<BuiltInDoc>(store, kind, builtin.slug)?.data;
	if (!override) return { ...builtin };
	const visible = override.advanced_settings.public;
	return {
		...builtin,
		name: override.labels.name || builtin.name,
		singular_name: override.labels.singular_name || builtin.singular_name,
		public: typeof visible === 'boolean' ? visible : builtin.public,
	};
}

const addedTaxonomies = (store: Store) => engineDocs<TaxonomyDoc>(store, KINDS.taxonomy);

/** Every post type of the site: the built-in ones (as the engine may have relabelled them), then the engine's. */
export function sitePostTypes(store: Store): SitePostType[] {
	const taxonomies = addedTaxonomies(store);
	const added = engineDocs<PostTypeDoc>(store, KINDS.postType).map(({ key, data }): SitePostType => {
		const slug = data.general_settings.slug;
		const name = data.labels.name || data.general_settings.name;
		return {
			slug,
			rest_base: data.advanced_settings.rest_base,
			name,
			singular_name: data.labels.singular_name || name,
			public: data.advanced_settings.public,
			hierarchical: data.advanced_settings.hierarchical,
			taxonomies: taxonomies.filter((t) => t.data.general_settings.object_type.includes(slug)).map((t) => t.data.general_settings.slug),
			builtin: false,
			supports: Array.isArray(data.advanced_settings.supports) ? [...data.advanced_settings.supports] : [...DEFAULT_SUPPORTS],
			id: Number(key),
		};
	});
	return [...BUILTIN_POST_TYPES.map((t) => relabelled(store, KINDS.builtInPostType, t)), ...added];
}

/** Every taxonomy of the site: the built-in ones (as the engine may have relabelled them), then the engine's. */
export function siteTaxonomies(store: Store): SiteTaxonomy[] {
	const added = addedTaxonomies(store).map(({ key, data }): SiteTaxonomy => {
		const name = data.labels.name || data.general_settings.name;
		return {
			slug: data.general_settings.slug,
			rest_base: data.advanced_settings.rest_base,
			name,
			singular_name: data.labels.singular_name || name,
			public: data.advanced_settings.public,
			hierarchical: data.advanced_settings.hierarchical,
			object_types: [...data.general_settings.object_type],
			builtin: false,
			id: Number(key),
		};
	});
	return [...BUILTIN_TAXONOMIES.map((t) => relabelled(store, KINDS.builtInTax, t)), ...added];
}
