import { z } from 'zod';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { ContentRow, UserRow } from '../../store/types';
import { canCreate, canEdit, denied } from '../content/capabilities';
import { postTypeDef } from '../content/engine-types';
import { idList, list, wpInt } from '../content/params';
import { inList, Where } from '../content/query';
import { PAGE, POST, type PostType } from '../content/types';
import { restBase } from '../content/views';
import { contentEnv, writeItem } from '../content/write';
import { ADMIN_PATH } from '../index';
import { type SitePostType, siteTaxonomies, sitePostTypes } from '../registry';
import { formatGmt, invalidParam, requireCap } from './editor-common';

/**
 * `builder/v1/site-navigation`: the builder's "recent" list and its "add new" button. Both work on the
 * registry's post types (the engine's too): recent posts are the items edited with the builder
 * (`_builder_edit_mode` `builder`) that the caller may edit, newest change first; a new post is a real
 * draft written through the content write path, marked as edited with the builder.
 */

/** The content routes' definition of a registry type (media are not made this way). */
export function contentDef(services: Services, type: SitePostType): PostType {
	if (type.slug === POST.type) return POST;
	if (type.slug === PAGE.type) return PAGE;
	return postTypeDef(type, siteTaxonomies(services.store));
}

/** The registry's types that hold pages of content (all but media). */
const contentTypes = (services: Services) => sitePostTypes(services.store).filter((type) => type.slug !== 'attachment');

/** Where the builder edits an item (its admin screen). */
export const editUrl = (services: Services, id: number) => `${services.baseUrl}/${ADMIN_PATH}/post.php?post=${id}&action=builder`;

/** The builder's document type of an item: its own, else the content type's (`cms-post`, `cms-page`). */
const docType = (row: ContentRow) => {
	const own = (JSON.parse(row.meta) as { _builder_template_type?: string })._builder_template_type;
	return own || (row.type === 'page' ? 'cms-page' : 'cms-post');
};

const EDITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** An item of the builder's "recent" list. */
const recentAnswer = z.object({
	id: z.int(),
	title: z.string(),
	status: z.string(),
	edit_url: z.string(),
	date_modified: z.string(),
	type: z.object({ post_type: z.string(), doc_type: z.string(), label: z.string() }),
});

function recentPosts(services: Services, user: UserRow, types: SitePostType[], exclude: number[], count: number): z.output<typeof recentAnswer>[] {
	const byType = new Map(types.map((type) => [type.slug, { type, def: contentDef(services, type) }]));
	if (!byType.size) return [];
	const where = new Where()
		.addSql(inList('c.type', [...byType.keys()]))
		.addSql(inList('c.status', EDITABLE_STATUSES))
		.add("json_extract(c.meta, '$._builder_edit_mode') = 'builder'");
	if (exclude.length) where.addSql(inList('c.id', exclude, true));
	const rows = services.store.content.find(where.sql(), { sql: 'c.modified_gmt DESC, c.id DESC', params: [] }, null, 0).rows;
	return rows
		.filter((row) => canEdit(user, byType.get(row.type)!.def, row))
		.slice(0, count)
		.map((row) => {
			const { type } = byType.get(row.type)!;
			return {
				id: row.id,
				title: row.title,
				status: row.status,
				edit_url: editUrl(services, row.id),
				date_modified: formatGmt(row.modified_gmt),
				type: { post_type: type.slug, doc_type: docType(row), label: type.singular_name },
			};
		});
}

export const navigationRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/site-navigation/recent-posts',
		auth: 'site',
		summary: 'The items edited with the builder that the caller may edit, most recently changed first',
		query: phpQuery({
			posts_per_page: wpInt(1, 100),
			post_type: list(z.string()).optional(),
			post__not_in: idList().prefault([]),
		}),
		answer: z.array(recentAnswer),
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, 'edit_posts');
			const all = contentTypes(services);
			const types = query.post_type?.length ? all.filter((type) => query.post_type!.includes(type.slug)) : all.filter((type) => type.public);
			return recentPosts(services, siteUser, types, query.post__not_in, query.posts_per_page);
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/site-navigation/add-new-post',
		auth: 'site',
		summary: 'Create a draft of a post type, to be edited with the builder (201): its id and edit URL',
		body: z.object({ post_type: z.string().prefault('post') }),
		answer: z.object({ id: z.int(), title: z.string(), post_type: z.string(), status: z.string(), edit_url: z.string() }),
		status: 201,
		errors: [403],
		handler: ({ services, siteUser, body, reply }) => {
			requireCap(siteUser, 'edit_posts');
			const types = contentTypes(services);
			const type = types.find((t) => t.slug === body.post_type);
			if (!type) throw invalidParam('post_type', `post_type must be one of the site's post types: ${types.map((t) => t.slug).join(', ')}`);
			const def = contentDef(services, type);
			if (!canCreate(siteUser, def)) throw denied(siteUser, 'rest_cannot_create', 'Sorry, you are not allowed to create posts in this post type.');
			const row = services.store.tx(() => {
				const draft = writeItem(
					contentEnv(services, siteUser, def),
					undefined,
					// A title from the start: WordPress refuses an item whose title, content and excerpt are all empty.
					{ status: 'draft', title: 'Builder', meta: { _builder_edit_mode: 'builder', _builder_template_type: type.slug === 'page' ? 'cms-page' : 'cms-post' } },
					{ revision: false },
				);
				// The builder names a new document after its id.
				return services.store.content.save({ ...draft, title: `Builder #${draft.id}` });
			});
			reply.header('Location', `${restBase(services)}/cms/v2/${type.rest_base}/${row.id}`);
			return { id: row.id, title: row.title, post_type: type.slug, status: row.status, edit_url: editUrl(services, row.id) };
		},
	}),
];
