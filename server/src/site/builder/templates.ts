import { z } from 'zod';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { ContentRow } from '../../store/types';
import { customPostType } from '../content/types';
import { contentEnv, writeItem } from '../content/write';
import { formatGmt, requireCap } from './editor-common';

/**
 * `builder/v1/template-library/templates`: the site's saved templates. As the builder keeps them, a
 * template is a content item of its library type (`builder_library`, one of the types the post lookup
 * leaves out by default) with its kind in `_builder_template_type` and its content in `_builder_data`.
 * Saving one publishes it, so it takes the right to publish posts.
 */

export const TEMPLATE = customPostType('builder_library', 'builder-library');

export const TEMPLATE_KINDS = ['page', 'section', 'container', 'e-div-block', 'e-flexbox'] as const;

/** A saved template; its content is the builder's, as saved. */
const templateAnswer = z.object({
	template_id: z.int(),
	title: z.string(),
	type: z.string(),
	status: z.string(),
	author: z.string().meta({ description: "The author's display name" }),
	date: z.string(),
	modified: z.string(),
	content: z.unknown().meta({ description: 'The template as the builder saved it' }),
});

function templateView(services: Services, row: ContentRow): z.output<typeof templateAnswer> {
	const meta = JSON.parse(row.meta) as { _builder_template_type?: string; _builder_data?: string };
	let content: unknown = {};
	try {
		content = JSON.parse(meta._builder_data || '{}');
	} catch {
		/* stored by another route as text that is no JSON: shown empty */
	}
	const author = services.store.users.byId(row.author);
	return {
		template_id: row.id,
		title: row.title,
		type: meta._builder_template_type ?? '',
		status: row.status,
		author: author ? (author.display_name ?? author.name) : '',
		date: formatGmt(row.date_gmt),
		modified: formatGmt(row.modified_gmt),
		content,
	};
}

export const templateRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/template-library/templates',
		auth: 'site',
		summary: 'List the saved templates with their kind and content, newest first',
		answer: z.array(templateAnswer),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			const where = { sql: "c.type = ? AND c.status = 'publish'", params: [TEMPLATE.type] };
			return services.store.content.find(where, { sql: 'c.date_gmt DESC, c.id DESC', params: [] }, null, 0).rows.map((row) => templateView(services, row));
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/template-library/templates',
		auth: 'site',
		summary: 'Save a template of a kind (page, section, container, e-div-block, e-flexbox) with its content (201)',
		body: z.object({ title: z.string().max(200).optional(), type: z.enum(TEMPLATE_KINDS), content: z.looseObject({}).prefault({}) }),
		answer: templateAnswer,
		status: 201,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'edit_posts');
			const row = services.store.tx(() =>
				writeItem(
					contentEnv(services, siteUser, TEMPLATE),
					undefined,
					{
						title: body.title?.trim() || `Untitled ${body.type}`,
						status: 'publish',
						meta: { _builder_edit_mode: 'builder', _builder_template_type: body.type, _builder_data: JSON.stringify(body.content) },
					},
					{ revision: false },
				),
			);
			return templateView(services, row);
		},
	}),
];
