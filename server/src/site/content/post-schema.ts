import { z } from 'zod';
import { itemAnswer, wpItemSchema } from '../item-schema';
import { REST_PREFIX } from '../../http/dispatch';
import type { Services } from '../../services';
import { contentNamespace } from './namespace';
import { FILTER_STATUSES, FORMATS, type PostType, WRITABLE_STATUSES } from './types';

/**
 * The item schema of a post type (WordPress's posts controller `get_item_schema`): what `contentView`
 * answers, each field with its contexts and whether a client may write it. The site index and OPTIONS
 * show it (the route's `schema`), and the create and update arguments of `title`, `content` and
 * `excerpt` take their form from it, as WordPress's `get_endpoint_args_for_item_schema` does.
 */

// WordPress's context lists, in its order.
const ALL = ['view', 'edit', 'embed'];
const VIEW_EDIT = ['view', 'edit'];
const EDIT = ['edit'];

const ctx = (context: readonly string[], more: Record<string, unknown> = {}) => ({ context: [...context], ...more });
const readonly = (context: readonly string[]) => ctx(context, { readonly: true });


/** `title`: `{raw, rendered}`, raw in the edit context only. */
export const titleField = (noun = 'post') =>
	z
		.object({
			raw: z.string().optional().meta({ description: `Title for the ${noun}, as it exists in the database.`, ...ctx(EDIT) }),
			rendered: z.string().meta({ description: `HTML title for the ${noun}, transformed for display.`, ...readonly(ALL) }),
		})
		.meta({ description: `The title for the ${noun}.`, ...ctx(ALL) });

export const contentField = z
	.object({
		raw: z.string().optional().meta({ description: 'Content for the post, as it exists in the database.', ...ctx(EDIT) }),
		rendered: z.string().meta({ description: 'HTML content for the post, transformed for display.', ...readonly(VIEW_EDIT) }),
		block_version: z.int().optional().meta({ description: 'Version of the content block format used by the post.', ...readonly(EDIT) }),
		protected: z.boolean().meta({ description: 'Whether the content is protected with a password.', ...readonly(ALL) }),
	})
	.meta({ description: 'The content for the post.', ...ctx(VIEW_EDIT) });

export const excerptField = z
	.object({
		raw: z.string().optional().meta({ description: 'Excerpt for the post, as it exists in the database.', ...ctx(EDIT) }),
		rendered: z.string().meta({ description: 'HTML excerpt for the post, transformed for display.', ...readonly(ALL) }),
		protected: z.boolean().meta({ description: 'Whether the excerpt is protected with a password.', ...readonly(ALL) }),
	})
	.meta({ description: 'The excerpt for the post.', ...ctx(ALL) });

/** Media's `caption` and `description` (WordPress's attachments controller). */
export const captionField = z
	.object({
		raw: z.string().optional().meta({ description: 'Caption for the attachment, as it exists in the database.', ...ctx(EDIT) }),
		rendered: z.string().meta({ description: 'HTML caption for the attachment, transformed for display.', ...readonly(ALL) }),
	})
	.meta({ description: 'The attachment caption.', ...ctx(ALL) });

export const descriptionField = z
	.object({
		raw: z.string().optional().meta({ description: 'Description for the attachment, as it exists in the database.', ...ctx(EDIT) }),
		rendered: z.string().meta({ description: 'HTML description for the attachment, transformed for display.', ...readonly(VIEW_EDIT) }),
	})
	.meta({ description: 'The attachment description.', ...ctx(VIEW_EDIT) });

const dateField = (description: string, context: readonly string[]) =>
	z.string().nullable().meta({ description, format: 'date-time', ...ctx(context) });

/** The features WordPress's schema gives its own types whatever they support (`get_item_schema`'s fixed schemas). */
const FIXED_FEATURES: Record<string, readonly string[]> = {
	post: ['title', 'editor', 'author', 'excerpt', 'thumbnail', 'comments', 'revisions', 'post-formats', 'custom-fields'],
	page: ['title', 'editor', 'author', 'excerpt', 'thumbnail', 'comments', 'revisions', 'page-attributes', 'custom-fields'],
	attachment: ['title', 'author', 'comments', 'revisions', 'custom-fields'],
};

/** The zod schema of a post type's item, in the order WordPress declares its fields. */
export function postItemZod(def: PostType) {
	const supports = (feature: string) => (FIXED_FEATURES[def.type] ?? def.supports).includes(feature);
	return z.object({
		date: dateField("The date the post was published, in the site's timezone.", ALL),
		date_gmt: dateField('The date the post was published, as GMT.', VIEW_EDIT),
		guid: z
			.object({
				raw: z.string().optional().meta({ description: 'GUID for the post, as it exists in the database.', ...readonly(EDIT) }),
				rendered: z.string().meta({ description: 'GUID for the post, transformed for display.', ...readonly(VIEW_EDIT) }),
			})
			.meta({ description: 'The globally unique identifier for the post.', ...readonly(VIEW_EDIT) }),
		id: z.int().meta({ description: 'Unique identifier for the post.', ...readonly(ALL) }),
		link: z.string().meta({ description: 'URL to the post.', format: 'uri', ...readonly(ALL) }),
		modified: z.string().meta({ description: "The date the post was last modified, in the site's timezone.", format: 'date-time', ...readonly(VIEW_EDIT) }),
		modified_gmt: z.string().meta({ description: 'The date the post was last modified, as GMT.', format: 'date-time', ...readonly(VIEW_EDIT) }),
		slug: z.string().meta({ description: 'An alphanumeric identifier for the post unique to its type.', ...ctx(ALL) }),
		status: z.enum(WRITABLE_STATUSES).meta({ description: 'A named status for the post.', ...ctx(VIEW_EDIT) }),
		type: z.string().meta({ description: 'Type of post.', ...readonly(ALL) }),
		password: z.string().meta({ description: 'A password to protect access to the content and excerpt.', ...ctx(EDIT) }),
		permalink_template: z.string().meta({ description: 'Permalink template for the post.', ...readonly(EDIT) }),
		generated_slug: z.string().meta({ description: 'Slug automatically generated from the post title.', ...readonly(EDIT) }),
		...(def.hierarchical ? { parent: z.int().meta({ description: 'The ID for the parent of the post.', ...ctx(VIEW_EDIT) }) } : {}),
		...(supports('title') ? { title: titleField() } : {}),
		...(supports('editor') ? { content: contentField } : {}),
		...(supports('author') ? { author: z.int().meta({ description: 'The ID for the author of the post.', ...ctx(ALL) }) } : {}),
		...(supports('excerpt') ? { excerpt: excerptField } : {}),
		...(supports('thumbnail') ? { featured_media: z.int().meta({ description: 'The ID of the featured media for the post.', ...ctx(ALL) }) } : {}),
		...(supports('comments')
			? {
					comment_status: z.enum(['open', 'closed']).meta({ description: 'Whether or not comments are open on the post.', ...ctx(VIEW_EDIT) }),
					ping_status: z.enum(['open', 'closed']).meta({ description: 'Whether or not the post can be pinged.', ...ctx(VIEW_EDIT) }),
				}
			: {}),
		...(def.hierarchical ? { menu_order: z.int().meta({ description: 'The order of the post in relation to other posts.', ...ctx(VIEW_EDIT) }) } : {}),
		...(def.formats ? { format: z.enum(FORMATS).meta({ description: 'The format for the post.', ...ctx(VIEW_EDIT) }) } : {}),
		...(supports('custom-fields') ? { meta: z.looseObject({}).meta({ description: 'Meta fields.', ...ctx(VIEW_EDIT) }) } : {}),
		...(def.sticky ? { sticky: z.boolean().meta({ description: 'Whether or not the post should be treated as sticky.', ...ctx(VIEW_EDIT) }) } : {}),
		template: z.string().meta({ description: 'The theme file to use to display the post.', ...ctx(VIEW_EDIT) }),
		...Object.fromEntries(
			def.taxonomies.map((tax) => [
				tax.base,
				z.array(z.int()).meta({ description: `The terms assigned to the post in the ${tax.name} taxonomy.`, ...ctx(VIEW_EDIT) }),
			]),
		),
	});
}

/** One of the schema's `links`: what the current user may do to an item, and the field that shows it (`get_schema_links`). */
const actionLink = (rel: string, title: string, href: string, properties: Record<string, unknown>) => ({
	rel: `https://api.w.org/action-${rel}`,
	title,
	href,
	targetSchema: { type: 'object', properties },
});

function schemaLinks(def: PostType, href: string) {
	const links = [];
	if (def.type !== 'attachment') {
		links.push(actionLink('publish', 'The current user can publish this post.', href, { status: { type: 'string', enum: ['publish', 'future'] } }));
	}
	links.push(actionLink('unfiltered-html', 'The current user can post unfiltered HTML markup and JavaScript.', href, { content: { raw: { type: 'string' } } }));
	if (def.sticky) links.push(actionLink('sticky', 'The current user can sticky this post.', href, { sticky: { type: 'boolean' } }));
	if (def.supports.includes('author')) {
		links.push(actionLink('assign-author', 'The current user can change the author on this post.', href, { author: { type: 'integer' } }));
	}
	for (const tax of def.taxonomies) {
		const terms = { [tax.base]: { type: 'array', items: { type: 'integer' } } };
		links.push(actionLink(`assign-${tax.base}`, `The current user can assign terms in the ${tax.name} taxonomy.`, href, terms));
		links.push(actionLink(`create-${tax.base}`, `The current user can create terms in the ${tax.name} taxonomy.`, href, terms));
	}
	return links;
}

/** WordPress's form of the schema, for the route's `schema` (built once per type and address: converting is the slow part). */
const cache = new Map<string, Record<string, unknown>>();
export function postItemSchema(def: PostType, services: Services): Record<string, unknown> {
	const href = `${services.baseUrl}${REST_PREFIX}/${contentNamespace(services)}/${def.base}/{id}`;
	const key = JSON.stringify([def, href]);
	let known = cache.get(key);
	if (!known) cache.set(key, (known = { ...wpItemSchema(def.type, postItemZod(def)), links: schemaLinks(def, href) }));
	return known;
}

/**
 * A revision's item schema (WordPress's revisions controller, `{type}-revision`): its own dates, ids and
 * slug, and the title, content and excerpt of its post type. An autosave's adds `preview_link`.
 */
export function revisionItemZod(def: PostType, autosave: boolean) {
	const post = postItemZod(def).shape as Record<string, z.ZodType>;
	const text = Object.fromEntries(['title', 'content', 'excerpt'].filter((field) => post[field]).map((field) => [field, post[field]]));
	const date = (description: string, context: readonly string[]) => z.string().meta({ description, format: 'date-time', ...ctx(context) });
	return z.object({
		author: z.int().meta({ description: 'The ID for the author of the revision.', ...ctx(ALL) }),
		date: date("The date the revision was published, in the site's timezone.", ALL),
		date_gmt: date('The date the revision was published, as GMT.', VIEW_EDIT),
		guid: post.guid,
		id: z.int().meta({ description: 'Unique identifier for the revision.', ...ctx(ALL) }),
		modified: date("The date the revision was last modified, in the site's timezone.", VIEW_EDIT),
		modified_gmt: date('The date the revision was last modified, as GMT.', VIEW_EDIT),
		parent: z.int().meta({ description: 'The ID for the parent of the revision.', ...ctx(ALL) }),
		slug: z.string().meta({ description: 'An alphanumeric identifier for the revision unique to its type.', ...ctx(ALL) }),
		...text,
		...(autosave ? { preview_link: z.string().meta({ description: 'Preview link for the post.', format: 'uri', ...readonly(EDIT) }) } : {}),
	});
}

export function revisionItemSchema(def: PostType, autosave: boolean): Record<string, unknown> {
	const key = JSON.stringify([def, autosave ? 'autosave' : 'revision']);
	let known = cache.get(key);
	if (!known) cache.set(key, (known = wpItemSchema(`${def.type}-revision`, revisionItemZod(def, autosave))));
	return known;
}

/**
 * A media item's schema (WordPress's attachments controller): the post fields attachments have (no
 * password), then the file's. `featured_media` is the spec's media field (WordPress's attachments have none).
 */
export function mediaItemZod(def: PostType) {
	const { password: _password, ...post } = postItemZod(def).shape;
	return z.object({
		...post,
		meta: z.looseObject({}).meta({ description: 'Meta fields.', ...ctx(VIEW_EDIT), properties: {} }),
		featured_media: z.int().meta({ description: 'The ID of the featured media for the post.', ...ctx(ALL) }),
		alt_text: z.string().meta({ description: 'Alternative text to display when attachment is not displayed.', ...ctx(ALL) }),
		caption: captionField,
		description: descriptionField,
		media_type: z.enum(['image', 'file']).meta({ description: 'Attachment type.', ...readonly(ALL) }),
		mime_type: z.string().meta({ description: 'The attachment MIME type.', ...readonly(ALL) }),
		media_details: z.looseObject({}).meta({ description: 'Details about the media file, specific to its type.', ...readonly(ALL), properties: undefined }),
		post: z.int().nullable().meta({ description: 'The ID for the associated post of the attachment.', type: 'integer', ...ctx(VIEW_EDIT) }),
		source_url: z.string().meta({ description: 'URL to the original attachment file.', format: 'uri', ...readonly(ALL) }),
		missing_image_sizes: z.array(z.string()).meta({ description: 'List of the missing image sizes of the attachment.', ...readonly(EDIT) }),
	});
}

export function mediaItemSchema(def: PostType, services: Services): Record<string, unknown> {
	const href = `${services.baseUrl}${REST_PREFIX}/${contentNamespace(services)}/${def.base}/{id}`;
	const key = JSON.stringify([def, href, 'media']);
	let known = cache.get(key);
	if (!known) cache.set(key, (known = { ...wpItemSchema(def.type, mediaItemZod(def)), links: schemaLinks(def, href) }));
	return known;
}

// ---- The contract: what the routes answer (their `answer`), from the item schemas above ----

const classList = z.array(z.string()).meta({ description: "The item's CSS classes (WordPress 6.5's `class_list`).", context: [...VIEW_EDIT] });
/** Any status an item is answered in: a trashed item's `trash`, an attachment's `inherit`. */
const shownStatus = z.enum(FILTER_STATUSES.filter((s) => s !== 'any')).meta({ description: 'A named status for the post.', context: [...VIEW_EDIT] });

/** A post type's item as its routes answer it: the item schema with `class_list` (6.5), and any status (a trashed item). */
export const postAnswer = (def: PostType) => itemAnswer(postItemZod(def).extend({ class_list: classList, status: shownStatus }));

/** A text field of a revision as answered: its post type's, without `protected` (WordPress's schema says it, its answer has none). */
const revisionText = (field: z.ZodType) =>
	field instanceof z.ZodObject && 'protected' in field.shape ? field.omit({ protected: true }).meta(z.globalRegistry.get(field) ?? {}) : field;

/** A revision or autosave as answered: a draft's floating date is null, and the content and excerpt have no `protected`, as WordPress's revisions controller answers. */
export const revisionAnswer = (def: PostType, autosave: boolean) => {
	const item = revisionItemZod(def, autosave);
	const shape: Record<string, z.ZodType> = item.shape;
	const text = Object.fromEntries(['content', 'excerpt'].filter((name) => shape[name]).map((name) => [name, revisionText(shape[name])]));
	return itemAnswer(
		item.extend({
			date: z.string().nullable().meta({ description: "The date the revision was published, in the site's timezone.", context: [...ALL] }),
			date_gmt: z.string().nullable().meta({ description: 'The date the revision was published, as GMT.', context: [...VIEW_EDIT] }),
			...text,
		}),
	);
};

/** A media item as answered. */
export const mediaAnswer = (def: PostType) => itemAnswer(mediaItemZod(def).extend({ class_list: classList, status: shownStatus }));
