import { z } from 'zod';
import { notFound } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, requestContext, route } from '../../http/route';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { engineDoc, KINDS, type PostTypeDoc, type TaxonomyDoc } from '../engine/documents';
import { can } from '../roles';
import { type SitePostType, type SiteTaxonomy, sitePostTypes, siteTaxonomies } from '../registry';
import { denied } from './capabilities';
import { contentNamespace } from './namespace';
import { contextParam } from './params';
import { ALL, type Context, EDIT, VIEW_EDIT } from '../contexts';
import { PAGE_CAPS, POST_CAPS, type TypeCaps } from './types';
import { contentBase, inContext } from './views';
import { contextTable, itemAnswer, withLinks, wpItemSchema } from '../item-schema';

/**
 * `/cms/v2/types`, `/cms/v2/taxonomies` and `/cms/v2/statuses` (WordPress's post types, taxonomies and
 * post statuses controllers), read from the site's one registry (`site/registry.ts`): the engine's
 * post types and taxonomies appear as soon as it adds them. The collections answer an object keyed by
 * slug, as WordPress's do.
 */

const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** The primitive capabilities of a post type (WordPress's `$post_type->cap`). */
const capsOf = (type: SitePostType): TypeCaps => (type.slug === 'page' ? PAGE_CAPS : POST_CAPS);

const mayEdit = (user: UserRow | null, type: SitePostType) => can(user, capsOf(type).edit_posts);

/** Taxonomies' terms are assigned by whoever can edit posts (WordPress's `assign_terms`). */
const mayAssign = (user: UserRow | null) => can(user, 'edit_posts');

function checkContext(context: Context, allowed: boolean, user: UserRow | null, code: string, message: string) {
	if (context === 'edit' && !allowed) throw denied(user, code, message);
}

// ---- Post types ----

/** A post type as WordPress's post types controller answers it (its item schema, `type`). */
export const typeItem = z.object({
	capabilities: z.record(z.string(), z.string()).meta({ description: 'All capabilities used by the post type.', context: EDIT, readonly: true }),
	description: z.string().meta({ description: 'A human-readable description of the post type.', context: VIEW_EDIT, readonly: true }),
	hierarchical: z.boolean().meta({ description: 'Whether or not the post type should have children.', context: VIEW_EDIT, readonly: true }),
	viewable: z.boolean().meta({ description: 'Whether or not the post type can be viewed.', context: EDIT, readonly: true }),
	labels: z.record(z.string(), z.string().nullable()).meta({ description: 'Human-readable labels for the post type for various contexts.', context: EDIT, readonly: true }),
	name: z.string().meta({ description: 'The title for the post type.', context: ALL, readonly: true }),
	slug: z.string().meta({ description: 'An alphanumeric identifier for the post type.', context: ALL, readonly: true }),
	supports: z.record(z.string(), z.unknown()).meta({ description: 'All features, supported by the post type.', context: EDIT, readonly: true }),
	has_archive: z.union([z.string(), z.boolean()]).meta({ description: 'The archive slug, or false: the post type has no archive.', context: VIEW_EDIT, readonly: true }),
	taxonomies: z.array(z.string()).meta({ description: 'Taxonomies associated with post type.', context: VIEW_EDIT, readonly: true }),
	rest_base: z.string().meta({ description: 'REST base route for the post type.', context: ALL, readonly: true }),
	rest_namespace: z.string().meta({ description: "REST route's namespace for the post type.", context: ALL, readonly: true }),
	visibility: z
		.object({
			show_ui: z.boolean().meta({ description: 'Whether to generate a default UI for managing this post type.' }),
			show_in_nav_menus: z.boolean().meta({ description: 'Whether to make the post type available for selection in navigation menus.' }),
		})
		.meta({ description: 'The visibility settings for the post type.', context: EDIT, readonly: true }),
	icon: z.string().nullable().meta({ description: 'The icon for the post type.', context: ALL, readonly: true }),
});
const TYPE_FIELDS = contextTable(typeItem);
/** The labels WordPress's `get_post_type_labels` gives every type from the post's or the page's defaults. */
function defaultLabels(noun: 'post' | 'page'): Record<string, string> {
	const Noun = noun === 'post' ? 'Post' : 'Page';
	return {
		insert_into_item: `Insert into ${noun}`,
		uploaded_to_this_item: `Uploaded to this ${noun}`,
		featured_image: 'Featured image',
		set_featured_image: 'Set featured image',
		remove_featured_image: 'Remove featured image',
		use_featured_image: 'Use as featured image',
		filter_by_date: 'Filter by date',
		item_published: `${Noun} published.`,
		item_published_privately: `${Noun} published privately.`,
		item_reverted_to_draft: `${Noun} reverted to draft.`,
		item_scheduled: `${Noun} scheduled.`,
		item_updated: `${Noun} updated.`,
		item_link: `${Noun} Link`,
		item_link_description: `A link to a ${noun}.`,
	};
}

/** WordPress's menu icons of its own types. */
const ICONS: Record<string, string> = { post: 'dashicons-admin-post', page: 'dashicons-admin-page', attachment: 'dashicons-admin-media' };

/** WordPress's labels of a type from its two names (the engine's own labels win). */
function typeLabels(type: SitePostType, own: Record<string, string> = {}) {
	const one = type.singular_name;
	const many = type.name;
	const lower = many.toLowerCase();
	const labels: Record<string, string | null> = {
		name: many,
		singular_name: one,
		add_new: 'Add New',
		add_new_item: `Add New ${one}`,
		edit_item: `Edit ${one}`,
		new_item: `New ${one}`,
		view_item: `View ${one}`,
		view_items: `View ${many}`,
		search_items: `Search ${many}`,
		not_found: `No ${lower} found.`,
		not_found_in_trash: `No ${lower} found in Trash.`,
		parent_item_colon: type.hierarchical ? `Parent ${one}:` : null,
		all_items: `All ${many}`,
		archives: `${one} Archives`,
		attributes: `${one} Attributes`,
		filter_items_list: `Filter ${lower} list`,
		items_list_navigation: `${many} list navigation`,
		items_list: `${many} list`,
		menu_name: many,
		name_admin_bar: one,
		// WordPress's defaults for what the type does not name: a post's, or a page's for a hierarchical type.
		...defaultLabels(type.hierarchical ? 'page' : 'post'),
	};
	for (const [key, value] of Object.entries(own)) if (value) labels[key] = value;
	return labels;
}

function typeView(services: Services, type: SitePostType, context: Context) {
	const caps = capsOf(type);
	const own = type.builtin ? undefined : engineDoc<PostTypeDoc>(services.store, KINDS.postType, String(type.id))?.data.labels;
	const base = contentBase(services);
	const single = type.slug === 'page' ? 'page' : 'post';
	const full = {
		capabilities: {
			[`edit_${single}`]: `edit_${single}`,
			[`read_${single}`]: `read_${single}`,
			[`delete_${single}`]: `delete_${single}`,
			edit_posts: caps.edit_posts,
			edit_others_posts: caps.edit_others_posts,
			delete_posts: caps.delete_posts,
			publish_posts: caps.publish_posts,
			read_private_posts: caps.read_private_posts,
			read: 'read',
			delete_private_posts: caps.delete_private_posts,
			delete_published_posts: caps.delete_published_posts,
			delete_others_posts: caps.delete_others_posts,
			edit_private_posts: caps.edit_private_posts,
			edit_published_posts: caps.edit_published_posts,
			// Uploading is what makes media (WordPress maps `create_posts` of attachments to it).
			create_posts: type.slug === 'attachment' ? 'upload_files' : caps.edit_posts,
		},
		description: '',
		hierarchical: type.hierarchical,
		has_archive: false,
		visibility: { show_in_nav_menus: type.public, show_ui: true },
		viewable: type.public,
		labels: typeLabels(type, own),
		name: type.name,
		icon: ICONS[type.slug] ?? null,
		slug: type.slug,
		supports: Object.fromEntries(type.supports.map((feature) => [feature, true])),
		taxonomies: type.taxonomies,
		rest_base: type.rest_base,
		rest_namespace: contentNamespace(services),
		_links: {
			collection: [{ href: `${base}/types` }],
			'wp:items': [{ href: `${base}/${type.rest_base}` }],
			curies: CURIES,
		},
	};
	return inContext(full, TYPE_FIELDS, context);
}

const CANNOT_EDIT_TYPE = 'Sorry, you are not allowed to edit posts in this post type.';

// ---- Taxonomies ----

/** A taxonomy as WordPress's taxonomies controller answers it (its item schema, `taxonomy`). */
export const taxonomyItem = z.object({
	capabilities: z.record(z.string(), z.string()).meta({ description: 'All capabilities used by the taxonomy.', context: EDIT, readonly: true }),
	description: z.string().meta({ description: 'A human-readable description of the taxonomy.', context: VIEW_EDIT, readonly: true }),
	hierarchical: z.boolean().meta({ description: 'Whether or not the taxonomy should have children.', context: VIEW_EDIT, readonly: true }),
	labels: z.record(z.string(), z.string().nullable()).meta({ description: 'Human-readable labels for the taxonomy for various contexts.', context: EDIT, readonly: true }),
	name: z.string().meta({ description: 'The title for the taxonomy.', context: ALL, readonly: true }),
	slug: z.string().meta({ description: 'An alphanumeric identifier for the taxonomy.', context: ALL, readonly: true }),
	show_cloud: z.boolean().meta({ description: 'Whether or not the term cloud should be displayed.', context: EDIT, readonly: true }),
	types: z.array(z.string()).meta({ description: 'Types associated with the taxonomy.', context: VIEW_EDIT, readonly: true }),
	rest_base: z.string().meta({ description: 'REST base route for the taxonomy.', context: ALL, readonly: true }),
	rest_namespace: z.string().meta({ description: 'REST namespace route for the taxonomy.', context: ALL, readonly: true }),
	visibility: z
		.object({
			public: z.boolean().meta({ description: 'Whether a taxonomy is intended for use publicly.' }),
			publicly_queryable: z.boolean().meta({ description: 'Whether the taxonomy is publicly queryable.' }),
			show_ui: z.boolean().meta({ description: 'Whether to generate a default UI for managing this taxonomy.' }),
			show_admin_column: z.boolean().meta({ description: 'Whether to allow automatic creation of taxonomy columns on associated post-types table.' }),
			show_in_nav_menus: z.boolean().meta({ description: 'Whether to make the taxonomy available for selection in navigation menus.' }),
			show_in_quick_edit: z.boolean().meta({ description: 'Whether to show the taxonomy in the quick/bulk edit panel.' }),
		})
		.meta({ description: 'The visibility settings for the taxonomy.', context: EDIT, readonly: true }),
});
const TAXONOMY_FIELDS = contextTable(taxonomyItem);
function taxonomyLabels(tax: SiteTaxonomy, own: Record<string, string> = {}) {
	const one = tax.singular_name;
	const many = tax.name;
	const lower = many.toLowerCase();
	const labels: Record<string, string | null> = {
		name: many,
		singular_name: one,
		search_items: `Search ${many}`,
		popular_items: tax.hierarchical ? null : `Popular ${many}`,
		all_items: `All ${many}`,
		parent_item: tax.hierarchical ? `Parent ${one}` : null,
		parent_item_colon: tax.hierarchical ? `Parent ${one}:` : null,
		// The help texts of the term form, WordPress's defaults (`WP_Taxonomy::get_default_labels`, 5.9+).
		name_field_description: 'The name is how it appears on your site.',
		slug_field_description:
			'The &#8220;slug&#8221; is the URL-friendly version of the name. It is usually all lowercase and contains only letters, numbers, and hyphens.',
		parent_field_description: tax.hierarchical
			? 'Assign a parent term to create a hierarchy. The term Jazz, for example, would be the parent of Bebop and Big Band.'
			: null,
		desc_field_description: 'The description is not prominent by default; however, some themes may show it.',
		edit_item: `Edit ${one}`,
		view_item: `View ${one}`,
		update_item: `Update ${one}`,
		add_new_item: `Add New ${one}`,
		new_item_name: `New ${one} Name`,
		separate_items_with_commas: tax.hierarchical ? null : `Separate ${lower} with commas`,
		add_or_remove_items: tax.hierarchical ? null : `Add or remove ${lower}`,
		choose_from_most_used: tax.hierarchical ? null : `Choose from the most used ${lower}`,
		not_found: `No ${lower} found.`,
		no_terms: `No ${lower}`,
		filter_by_item: tax.hierarchical ? `Filter by ${one.toLowerCase()}` : null,
		items_list_navigation: `${many} list navigation`,
		items_list: `${many} list`,
		most_used: 'Most Used',
		back_to_items: `&larr; Go to ${many}`,
		item_link: `${one} Link`,
		item_link_description: `A link to a ${one.toLowerCase()}.`,
		menu_name: many,
		// WordPress registers its own taxonomies without labels, so their admin-bar name falls back to the
		// taxonomy's name (`_get_custom_object_labels`); one registered with labels gets its singular name.
		name_admin_bar: tax.builtin ? tax.slug : one,
	};
	for (const [key, value] of Object.entries(own)) if (value) labels[key] = value;
	return labels;
}

/**
 * The capabilities a taxonomy names (WordPress's `create_initial_taxonomies`, and `register_taxonomy`'s
 * defaults for the others). Those of categories and tags are meta capabilities that `map_meta_cap` maps
 * to `manage_categories` (manage, edit, delete) and `edit_posts` (assign): the primitives the routes check.
 */
function taxonomyCaps(tax: SiteTaxonomy): Record<'manage_terms' | 'edit_terms' | 'delete_terms' | 'assign_terms', string> {
	if (tax.builtin && tax.slug === 'category') {
		return { manage_terms: 'manage_categories', edit_terms: 'edit_categories', delete_terms: 'delete_categories', assign_terms: 'assign_categories' };
	}
	if (tax.builtin && tax.slug === 'post_tag') {
		return { manage_terms: 'manage_post_tags', edit_terms: 'edit_post_tags', delete_terms: 'delete_post_tags', assign_terms: 'assign_post_tags' };
	}
	return { manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories', assign_terms: 'edit_posts' };
}

function taxonomyView(services: Services, tax: SiteTaxonomy, context: Context) {
	const own = tax.builtin ? undefined : engineDoc<TaxonomyDoc>(services.store, KINDS.taxonomy, String(tax.id))?.data.labels;
	const base = contentBase(services);
	const full = {
		capabilities: taxonomyCaps(tax),
		description: '',
		hierarchical: tax.hierarchical,
		labels: taxonomyLabels(tax, own),
		name: tax.name,
		slug: tax.slug,
		show_cloud: tax.public,
		types: tax.object_types,
		rest_base: tax.rest_base,
		rest_namespace: contentNamespace(services),
		visibility: {
			public: tax.public,
			publicly_queryable: tax.public,
			show_admin_column: tax.builtin,
			show_in_nav_menus: tax.public,
			show_in_quick_edit: true,
			show_ui: true,
		},
		_links: {
			collection: [{ href: `${base}/taxonomies` }],
			'wp:items': [{ href: `${base}/${tax.rest_base}` }],
			curies: CURIES,
		},
	};
	return inContext(full, TAXONOMY_FIELDS, context);
}

const CANNOT_MANAGE_TERMS = 'Sorry, you are not allowed to manage terms in this taxonomy.';

// ---- Statuses ----

interface Status {
	name: string;
	/** WordPress's flags of the status. */
	private: boolean;
	protected: boolean;
	public: boolean;
	queryable: boolean;
	show_in_list: boolean;
	date_floating: boolean;
}

/** The statuses WordPress's controller lists (those not internal, and the trash), in its order. */
export const STATUSES: Record<string, Status> = {
	publish: { name: 'Published', private: false, protected: false, public: true, queryable: true, show_in_list: true, date_floating: false },
	future: { name: 'Scheduled', private: false, protected: true, public: false, queryable: false, show_in_list: true, date_floating: false },
	draft: { name: 'Draft', private: false, protected: true, public: false, queryable: false, show_in_list: true, date_floating: true },
	pending: { name: 'Pending', private: false, protected: true, public: false, queryable: false, show_in_list: true, date_floating: true },
	private: { name: 'Private', private: true, protected: false, public: false, queryable: false, show_in_list: true, date_floating: false },
	trash: { name: 'Trash', private: false, protected: false, public: false, queryable: false, show_in_list: false, date_floating: false },
};

/** Statuses WordPress registers as internal (no list shows them, and no one may read them). */
const INTERNAL_STATUSES = ['auto-draft', 'inherit', 'request-pending', 'request-confirmed', 'request-failed', 'request-completed'];

const flag = (description: string, context: readonly string[]) => z.boolean().meta({ description, context, readonly: true });
/** A post status as WordPress's statuses controller answers it (its item schema, `status`). */
export const statusItem = z.object({
	name: z.string().meta({ description: 'The title for the status.', context: ALL, readonly: true }),
	private: flag('Whether posts with this status should be private.', EDIT),
	protected: flag('Whether posts with this status should be protected.', EDIT),
	public: flag('Whether posts of this status should be shown in the front end of the site.', VIEW_EDIT),
	queryable: flag('Whether posts with this status should be publicly-queryable.', VIEW_EDIT),
	show_in_list: flag('Whether to include posts in the edit listing for their post type.', EDIT),
	slug: z.string().meta({ description: 'An alphanumeric identifier for the status.', context: ALL, readonly: true }),
	date_floating: flag('Whether posts of this status may have floating published dates.', VIEW_EDIT),
});
const STATUS_FIELDS = contextTable(statusItem);
/** Whoever can edit items of some post type sees every status; others the public ones only. */
const mayEditSome = (services: Services, user: UserRow | null) => sitePostTypes(services.store).some((type) => mayEdit(user, type));

function statusView(services: Services, slug: string, context: Context) {
	const status = STATUSES[slug];
	const posts = `${contentBase(services)}/posts`;
	const full = {
		...status,
		slug,
		_links: { archives: [{ href: slug === 'publish' ? posts : `${posts}?status=${slug}` }] },
	};
	return inContext(full, STATUS_FIELDS, context);
}

// ---- Routes ----

const contextQuery = phpQuery({ context: contextParam });

// What the routes answer (the contract); a collection keys its items, each with its links.
const TYPE_ANSWER = itemAnswer(typeItem);
const TAXONOMY_ANSWER = itemAnswer(taxonomyItem);
const STATUS_ANSWER = itemAnswer(statusItem);

/** An empty collection is a JSON object all the same (WordPress answers `{}`). */
const keyed = <T>(entries: [string, T][]): Record<string, T> => Object.fromEntries(entries);

export const registryRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/cms/v2/types',
		auth: 'site',
		summary: "The site's post types (the engine's included), keyed by slug; edit context: those the caller may edit",
		query: contextQuery,
		schema: () => wpItemSchema('type', typeItem),
		allowed: ({ services, siteUser, request }) => requestContext(request) !== 'edit' || sitePostTypes(services.store).some((t) => mayEdit(siteUser, t)),
		answer: z.record(z.string(), withLinks(TYPE_ANSWER)),
		errors: [403],
		handler: ({ services, siteUser: user, query }) => {
			const types = sitePostTypes(services.store);
			checkContext(query.context, types.some((t) => mayEdit(user, t)), user, 'rest_cannot_view', CANNOT_EDIT_TYPE);
			const shown = types.filter((t) => query.context !== 'edit' || mayEdit(user, t));
			return keyed(shown.map((t) => [t.slug, typeView(services, t, query.context)]));
		},
	}),
	route({
		method: 'GET',
		path: '/cms/v2/types/{type}',
		auth: 'site',
		summary: 'One post type of the site by its slug',
		params: z.object({ type: z.string().meta({ description: 'An alphanumeric identifier for the post type.', required: false }) }),
		patterns: { type: '[\\w-]+' },
		query: contextQuery,
		schema: () => wpItemSchema('type', typeItem),
		// WordPress's permission callback looks at the context only; the callback answers an unknown type.
		allowed: ({ services, siteUser, params, request }) => {
			const type = sitePostTypes(services.store).find((t) => t.slug === params.type);
			return requestContext(request) !== 'edit' || (type !== undefined && mayEdit(siteUser, type));
		},
		answer: TYPE_ANSWER,
		errors: [403],
		handler: ({ services, siteUser: user, params, query }) => {
			const type = sitePostTypes(services.store).find((t) => t.slug === params.type);
			if (!type) throw notFound('Invalid post type.', 'rest_type_invalid');
			checkContext(query.context, mayEdit(user, type), user, 'rest_forbidden_context', CANNOT_EDIT_TYPE);
			return typeView(services, type, query.context);
		},
	}),
	route({
		method: 'GET',
		path: '/cms/v2/taxonomies',
		auth: 'site',
		summary: "The site's taxonomies (the engine's included), keyed by slug; `type` keeps those of one post type",
		query: phpQuery({ context: contextParam, type: z.string().max(200).optional() }),
		schema: () => wpItemSchema('taxonomy', taxonomyItem),
		allowed: ({ siteUser, request }) => requestContext(request) !== 'edit' || mayAssign(siteUser),
		answer: z.record(z.string(), withLinks(TAXONOMY_ANSWER)),
		errors: [403],
		handler: ({ services, siteUser: user, query }) => {
			checkContext(query.context, mayAssign(user), user, 'rest_cannot_view', CANNOT_MANAGE_TERMS);
			const all = siteTaxonomies(services.store);
			const shown = query.type === undefined ? all : all.filter((tax) => tax.object_types.includes(query.type!));
			return keyed(shown.map((tax) => [tax.slug, taxonomyView(services, tax, query.context)]));
		},
	}),
	route({
		method: 'GET',
		path: '/cms/v2/taxonomies/{taxonomy}',
		auth: 'site',
		summary: 'One taxonomy of the site by its slug',
		params: z.object({ taxonomy: z.string().meta({ description: 'An alphanumeric identifier for the taxonomy.', required: false }) }),
		patterns: { taxonomy: '[\\w-]+' },
		query: contextQuery,
		schema: () => wpItemSchema('taxonomy', taxonomyItem),
		allowed: ({ siteUser, request }) => requestContext(request) !== 'edit' || mayAssign(siteUser),
		answer: TAXONOMY_ANSWER,
		errors: [403],
		handler: ({ services, siteUser: user, params, query }) => {
			const tax = siteTaxonomies(services.store).find((t) => t.slug === params.taxonomy);
			if (!tax) throw notFound('Invalid taxonomy.', 'rest_taxonomy_invalid');
			checkContext(query.context, mayAssign(user), user, 'rest_forbidden_context', CANNOT_MANAGE_TERMS);
			return taxonomyView(services, tax, query.context);
		},
	}),
	route({
		method: 'GET',
		path: '/cms/v2/statuses',
		auth: 'site',
		summary: 'The post statuses, keyed by slug: all six to whoever can edit posts, `publish` to others',
		query: contextQuery,
		schema: () => wpItemSchema('status', statusItem),
		allowed: ({ services, siteUser, request }) => requestContext(request) !== 'edit' || mayEditSome(services, siteUser),
		answer: z.record(z.string(), withLinks(STATUS_ANSWER)),
		errors: [403],
		handler: ({ services, siteUser: user, query }) => {
			const editor = mayEditSome(services, user);
			checkContext(query.context, editor, user, 'rest_cannot_view', 'Sorry, you are not allowed to manage post statuses.');
			const shown = Object.keys(STATUSES).filter((slug) => STATUSES[slug].public || editor);
			return keyed(shown.map((slug) => [slug, statusView(services, slug, query.context)]));
		},
	}),
	route({
		method: 'GET',
		path: '/cms/v2/statuses/{status}',
		auth: 'site',
		summary: 'One post status by its slug',
		params: z.object({ status: z.string().meta({ description: 'An alphanumeric identifier for the status.', required: false }) }),
		patterns: { status: '[\\w-]+' },
		query: contextQuery,
		schema: () => wpItemSchema('status', statusItem),
		allowed: ({ services, siteUser, params }) => Object.hasOwn(STATUSES, params.status) && (STATUSES[params.status].public || mayEditSome(services, siteUser)),
		answer: STATUS_ANSWER,
		errors: [403],
		handler: ({ services, siteUser: user, params, query }) => {
			const status = Object.hasOwn(STATUSES, params.status) ? STATUSES[params.status] : undefined;
			const internal = INTERNAL_STATUSES.includes(params.status);
			if (!status && !internal) throw notFound('Invalid status.', 'rest_status_invalid');
			// WordPress's internal statuses exist but are shown to no one.
			if (!status || (!status.public && !mayEditSome(services, user))) throw denied(user, 'rest_cannot_read_status', 'Cannot view status.');
			return statusView(services, params.status, query.context);
		},
	}),
];
