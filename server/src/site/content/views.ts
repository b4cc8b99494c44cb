import type { Services } from '../../services';
import type { ContentRow, UserRow } from '../../store/types';
import { metaFieldsOf } from '../engine/documents';
import { type Field, shownValues } from '../engine/fields';
import { siteSettings } from '../settings';
import { can } from '../roles';
import { canEdit, canManageTerms } from './capabilities';
import { formatGmt, formatLocal } from './dates';
import { META_DEFAULTS } from './params';
import { ALL, type Context, type Contexts, type ContextTable, EDIT, VIEW_EDIT } from '../contexts';
import { autop, blockVersion, renderExcerpt, sanitizeTitle } from './render';
import { contentNamespace } from './namespace';
import type { PostType } from './types';

/** What a view needs besides the row: who asks, in which context, and the site's settings. */
export interface ViewEnv {
	services: Services;
	user: UserRow | null;
	def: PostType;
	context: Context;
	/** Site time zone (IANA) for local dates. */
	zone: string;
	/** The `password` the client gave for protected content (item GET). */
	password?: string;
	/** `excerpt_length` (item GET): words of a generated excerpt. */
	excerptLength?: number;
	/** The engine's meta fields of the type, read once per request (see `contentView`). */
	metaFields?: Field[];
}

export function viewEnv(services: Services, user: UserRow | null, def: PostType, context: Context, extra: Partial<ViewEnv> = {}): ViewEnv {
	return { services, user, def, context, zone: siteSettings(services.store).timezone, ...extra };
}

/** `https://site/wp-json` */
export const restBase = (services: Services) => `${services.baseUrl}/wp-json`;
/** `https://site/wp-json/cms/v2`, or `…/wp/v2` when the caller asked there (see namespace.ts). */
export const contentBase = (services: Services) => `${restBase(services)}/${contentNamespace(services)}`;
export const itemUrl = (services: Services, def: PostType, id: number) => `${contentBase(services)}/${def.base}/${id}`;
export const collectionUrl = (services: Services, def: PostType) => `${contentBase(services)}/${def.base}`;

/** Plain permalinks (`?p=1`, `?page_id=2`): the site has no rewrite rules. */
export const permalink = (services: Services, def: PostType, id: number) => `${services.baseUrl}/?${def.permalinkKey}=${id}`;

/** An item's `Link` header: its page on the site. */
export const alternateLink = (services: Services, def: PostType, id: number) => `<${permalink(services, def, id)}>; rel="alternate"; type=text/html`;

/** A `{ raw, rendered }` field shown in these contexts; `raw` in the edit context only. */
export const rawRendered = (contexts: Contexts) => ({ self: contexts, fields: { raw: EDIT, rendered: contexts } });

export const POST_FIELDS: ContextTable = {
	id: ALL,
	date: ALL,
	date_gmt: VIEW_EDIT,
	guid: rawRendered(VIEW_EDIT),
	modified: VIEW_EDIT,
	modified_gmt: VIEW_EDIT,
	password: EDIT,
	slug: ALL,
	status: VIEW_EDIT,
	type: ALL,
	link: ALL,
	title: rawRendered(ALL),
	content: { self: VIEW_EDIT, fields: { raw: EDIT, rendered: VIEW_EDIT, protected: VIEW_EDIT, block_version: EDIT } },
	excerpt: { self: ALL, fields: { raw: EDIT, rendered: ALL, protected: ALL } },
	author: ALL,
	featured_media: ALL,
	parent: VIEW_EDIT,
	menu_order: VIEW_EDIT,
	comment_status: VIEW_EDIT,
	ping_status: VIEW_EDIT,
	sticky: VIEW_EDIT,
	template: VIEW_EDIT,
	format: VIEW_EDIT,
	// The spec shows meta fields in the edit context only.
	meta: EDIT,
	categories: VIEW_EDIT,
	tags: VIEW_EDIT,
	permalink_template: EDIT,
	generated_slug: EDIT,
	// WordPress 6.5+ (Debian's 6.1 has no `class_list`).
	class_list: VIEW_EDIT,
};

const REVISION_FIELDS: ContextTable = {
	author: ALL,
	date: ALL,
	date_gmt: VIEW_EDIT,
	guid: rawRendered(VIEW_EDIT),
	id: ALL,
	modified: VIEW_EDIT,
	modified_gmt: VIEW_EDIT,
	parent: ALL,
	slug: ALL,
	title: rawRendered(ALL),
	content: rawRendered(VIEW_EDIT),
	excerpt: rawRendered(ALL),
	preview_link: EDIT,
};

/** Keeps the fields (and sub-fields) the context shows, in the order they were built. */
export function inContext(full: Record<string, unknown>, table: ContextTable, context: Context): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(full)) {
		if (key === '_links') {
			out[key] = value;
			continue;
		}
		const rule = table[key];
		if (!rule) continue;
		if (Array.isArray(rule)) {
			if (rule.includes(context)) out[key] = value;
			continue;
		}
		const { self, fields } = rule as { self: Contexts; fields: Record<string, Contexts> };
		if (!self.includes(context)) continue;
		out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([sub]) => fields[sub]?.includes(context)));
	}
	return out;
}

/** The meta fields with their defaults filled in, then the engine's fields of the item's type (`fields`). */
export function metaOf(row: ContentRow, fields: Field[] = []): typeof META_DEFAULTS & Record<string, unknown> {
	const stored = JSON.parse(row.meta) as Record<string, unknown>;
	const own = Object.fromEntries(Object.keys(META_DEFAULTS).filter((key) => key in stored).map((key) => [key, stored[key]]));
	return { ...META_DEFAULTS, ...own, ...shownValues(fields, stored) };
}

/**
 * `date` and `date_gmt`, as WordPress 6.x shows them: a draft whose date follows its saves (stored
 * with `post_date_gmt` 0000-00-00) shows the time of its last save in both, `date_gmt` worked out
 * from the local date (`get_gmt_from_date`), so neither is null.
 */
function dates(row: ContentRow, zone: string) {
	return {
		date: formatLocal(row.date_gmt, zone),
		date_gmt: formatGmt(row.date_gmt),
	};
}

/** Whether protected content is shown: edit context (to whoever may edit the item), or the right password. */
function passwordPassed(env: ViewEnv, row: ContentRow): boolean {
	if (row.password === '') return true;
	if (env.context === 'edit') return canEdit(env.user, env.def, row);
	return env.password !== undefined && env.password === row.password;
}

const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** Whether the type has a feature; WordPress gives posts and pages some links whatever they support. */
const supports = (def: PostType, feature: string) => def.type === 'post' || def.type === 'page' || def.supports.includes(feature);

/**
 * WordPress's `get_available_actions` (edit context): what the CALLER may do with items of the type,
 * as `wp:action-*` links to the item: publish, write unfiltered HTML, make sticky, give the item to
 * another author, create and assign terms of each taxonomy.
 */
function actions(env: ViewEnv): string[] {
	const { user, def } = env;
	if (env.context !== 'edit') return [];
	const out: string[] = [];
	if (def.type !== 'attachment' && can(user, def.caps.publish_posts)) out.push('publish');
	if (can(user, 'unfiltered_html')) out.push('unfiltered-html');
	if (def.type === 'post' && can(user, def.caps.edit_others_posts) && can(user, def.caps.publish_posts)) out.push('sticky');
	if (def.supports.includes('author') && can(user, def.caps.edit_others_posts)) out.push('assign-author');
	for (const tax of def.taxonomies) {
		// Taxonomies' terms are managed with `manage_categories` and assigned with `edit_posts`.
		if (tax.hierarchical ? canManageTerms(user) : can(user, 'edit_posts')) out.push(`create-${tax.base}`);
		if (can(user, 'edit_posts')) out.push(`assign-${tax.base}`);
	}
	return out;
}

function links(env: ViewEnv, row: ContentRow) {
	const { services, def } = env;
	const rest = contentBase(services);
	const self = itemUrl(services, def, row.id);
	const out: Record<string, object[]> = {
		self: [{ href: self }],
		collection: [{ href: collectionUrl(services, def) }],
		about: [{ href: `${rest}/types/${def.type}` }],
	};
	if (supports(def, 'author') && row.author) out.author = [{ embeddable: true, href: `${rest}/users/${row.author}` }];
	if (supports(def, 'comments')) out.replies = [{ embeddable: true, href: `${rest}/comments?post=${row.id}` }];
	if (def.revisions) {
		const revisions = services.store.content.revisions(row.id);
		out['version-history'] = [{ count: revisions.length, href: `${self}/revisions` }];
		if (revisions.length) out['predecessor-version'] = [{ id: revisions[0].id, href: `${self}/revisions/${revisions[0].id}` }];
	}
	if (def.hierarchical && row.parent) out.up = [{ embeddable: true, href: itemUrl(services, def, row.parent) }];
	if (row.featured_media) out['wp:featuredmedia'] = [{ embeddable: true, href: `${rest}/media/${row.featured_media}` }];
	if (def.type !== 'attachment') out['wp:attachment'] = [{ href: `${rest}/media?parent=${row.id}` }];
	if (def.taxonomies.length) {
		out['wp:term'] = def.taxonomies.map((tax) => ({ taxonomy: tax.name, embeddable: true, href: `${rest}/${tax.base}?post=${row.id}` }));
	}
	for (const action of actions(env)) out[`wp:action-${action}`] = [{ href: self }];
	out.curies = CURIES;
	return out;
}

/** Term slugs as CSS classes: WordPress's `sanitize_html_class`, the term id when nothing is left of it. */
function termClass(slug: string, id: number): string {
	const clean = slug.replace(/%[a-fA-F0-9]{2}/g, '').replace(/[^A-Za-z0-9_-]/g, '');
	return clean === '' || /^\d+$/.test(clean) || clean.replace(/-/g, '') === '' ? String(id) : clean;
}

/**
 * WordPress 6.5's `class_list` (its `get_post_class` outside the admin): the item, its type, status and
 * format, whether a password is required (REST requests carry no password cookie) or a thumbnail
 * shown, `hentry`, and a class per term of each taxonomy of the type.
 */
function classList(env: ViewEnv, row: ContentRow): string[] {
	const { services, def } = env;
	const classes = [`post-${row.id}`, def.type, `type-${def.type}`, `status-${row.status}`];
	if (def.supports.includes('post-formats')) classes.push(`format-${row.format && row.format !== 'standard' ? row.format : 'standard'}`);
	if (row.password !== '') classes.push('post-password-required');
	else if (row.featured_media && def.type !== 'attachment') classes.push('has-post-thumbnail');
	classes.push('hentry');
	for (const tax of def.taxonomies) {
		const prefix = tax.name === 'post_tag' ? 'tag' : tax.name;
		for (const id of services.store.content.termIds(row.id, tax.name)) {
			const term = services.store.terms.get(id, tax.name);
			if (term?.slug) classes.push(`${prefix}-${termClass(term.slug, term.id)}`);
		}
	}
	// The post format is a taxonomy of its own in WordPress: `post_format-post-format-aside`.
	if (def.supports.includes('post-formats') && row.format && row.format !== 'standard') classes.push(`post_format-post-format-${row.format}`);
	return [...new Set(classes)];
}

/** A post or page as the content routes answer it, in the env's context. */
export function contentView(env: ViewEnv, row: ContentRow): Record<string, unknown> {
	const { def, services } = env;
	const shown = passwordPassed(env, row);
	const link = permalink(services, def, row.id);
	const full: Record<string, unknown> = {
		id: row.id,
		...dates(row, env.zone),
		guid: { rendered: link, raw: link },
		modified: formatLocal(row.modified_gmt, env.zone),
		modified_gmt: formatGmt(row.modified_gmt),
		password: row.password,
		slug: row.slug,
		status: row.status,
		type: def.type,
		link,
		title: { raw: row.title, rendered: row.title },
		content: {
			raw: row.content,
			rendered: shown ? autop(row.content) : '',
			protected: row.password !== '',
			block_version: blockVersion(row.content),
		},
		excerpt: {
			raw: row.excerpt,
			rendered: shown ? renderExcerpt(row.excerpt, row.content, env.excerptLength) : '',
			protected: row.password !== '',
		},
		author: row.author,
		featured_media: row.featured_media,
		...(def.hierarchical ? { parent: row.parent, menu_order: row.menu_order } : {}),
		comment_status: row.comment_status,
		ping_status: row.ping_status,
		...(def.sticky ? { sticky: row.sticky === 1 } : {}),
		template: row.template,
		...(def.formats ? { format: row.format } : {}),
		meta: metaOf(row, (env.metaFields ??= metaFieldsOf(services.store, 'post', def.type))),
		...Object.fromEntries(def.taxonomies.map((tax) => [tax.base, services.store.content.termIds(row.id, tax.name)])),
		class_list: classList(env, row),
		permalink_template: `${services.baseUrl}/?${def.permalinkKey}=${row.id}`,
		generated_slug: sanitizeTitle(row.title) || String(row.id),
		_links: links(env, row),
	};
	// An engine taxonomy's terms show as categories and tags do.
	const table = def.taxonomies.every((tax) => tax.base in POST_FIELDS) ? POST_FIELDS : { ...POST_FIELDS, ...Object.fromEntries(def.taxonomies.map((tax) => [tax.base, VIEW_EDIT])) };
	return inContext(full, table, env.context);
}

/**
 * A revision or autosave of a post or page, in the env's context. An autosave of one's own draft is
 * the draft itself, shown the same way (as WordPress does).
 */
export function revisionView(env: ViewEnv, row: ContentRow, options: { autosave?: boolean } = {}): Record<string, unknown> {
	const { services, def } = env;
	const isRevision = row.type === 'revision';
	// Revisions are addressed as posts of their own (`?p=`), whatever their post's type.
	const guid = isRevision ? `${services.baseUrl}/?p=${row.id}` : permalink(services, def, row.id);
	const preview = isRevision
		? `${permalink(services, def, row.parent)}&preview_id=${row.parent}&preview=true`
		: `${permalink(services, def, row.id)}&preview=true`;
	const full: Record<string, unknown> = {
		author: row.author,
		// The revisions controller shows a draft's floating date (post_date_gmt 0000-00-00) as null, unlike posts.
		...(row.date_floating ? { date: null, date_gmt: null } : dates(row, env.zone)),
		guid: { rendered: guid, raw: guid },
		id: row.id,
		modified: formatLocal(row.modified_gmt, env.zone),
		modified_gmt: formatGmt(row.modified_gmt),
		parent: row.parent,
		slug: row.slug,
		title: { raw: row.title, rendered: row.title },
		content: { raw: row.content, rendered: autop(row.content) },
		excerpt: { raw: row.excerpt, rendered: renderExcerpt(row.excerpt, row.content) },
		...(options.autosave ? { preview_link: preview } : {}),
		...(row.parent ? { _links: { parent: [{ href: itemUrl(services, def, row.parent) }] } } : {}),
	};
	return inContext(full, REVISION_FIELDS, env.context);
}
