import { z } from 'zod';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import type { ContentRow, UserRow } from '../../store/types';
import { sanitizeTitle } from '../content/render';
import { checkAccess, idParam, invalidParam, NS, need, ok, okAnswer } from './common';
import { checkConditions, conditionAnswer, conditionsParam } from './conditions';
import {
	BUILDER_TEMPLATE_TYPE,
	CONTENT_TYPES,
	getTemplate,
	indexTemplate,
	liveTemplates,
	saveTemplateConditions,
	TEMPLATE_POST_TYPE,
	templateConditions,
	TEMPLATE_TYPES,
	templateMeta,
	templateType,
	templateAnswer,
	templateView,
} from './model';

/** Templates (header, footer, single, archive, page, section): create, change, their conditions, the list by type. */

const TITLE_MAX = 200;

/** `themecore-header` -> `Header`. */
const typeLabel = (type: string) => type.replace(/^themecore-/, '').replace(/^./, (c) => c.toUpperCase());

const now = () => Math.floor(Date.now() / 1000) * 1000;

function createTemplate(store: Store, user: UserRow, name: string, type: string, contentType: string): ContentRow {
	return store.tx(() => {
		const meta = {
			_builder_template_type: BUILDER_TEMPLATE_TYPE,
			_builder_edit_mode: contentType === 'builder' ? 'builder' : '',
			_builder_data: '[]',
			_themecore_template_type: type,
			_themecore_content_type: contentType,
		};
		const at = now();
		const row = store.content.insert({ type: TEMPLATE_POST_TYPE, status: 'publish', author: user.id, title: name, meta: JSON.stringify(meta), date_gmt: at, modified_gmt: at });
		// As the plugin names an unnamed one: after its type and id.
		const title = name || `${typeLabel(type)} Template #${row.id}`;
		return store.content.save({ ...row, title, slug: sanitizeTitle(title) || String(row.id) });
	});
}

const templateDataSchema = z
	.object({
		title: z.string().trim().min(1).max(TITLE_MAX).optional(),
		/** The builder's data: a free JSON document, kept as `meta._builder_data`. */
		content: z.unknown().optional(),
		status: z.enum(['publish', 'draft']).optional(),
		content_type: z.enum(CONTENT_TYPES).optional(),
	})
	.strict();
type TemplateData = z.output<typeof templateDataSchema>;

const CHANGEABLE = ['title', 'content', 'status', 'content_type'] as const;

function updateTemplate(store: Store, row: ContentRow, data: TemplateData): ContentRow {
	const meta = templateMeta(row);
	if (data.content !== undefined) meta._builder_data = JSON.stringify(data.content);
	if (data.content_type) {
		meta._themecore_content_type = data.content_type;
		meta._builder_edit_mode = data.content_type === 'builder' ? 'builder' : '';
	}
	const title = data.title ?? row.title;
	return store.content.save({
		...row,
		title,
		slug: data.title ? sanitizeTitle(title) || String(row.id) : row.slug,
		status: data.status ?? row.status,
		// A status given takes the template out of the trash.
		...(data.status ? { trashed_status: null, trashed_slug: null } : {}),
		meta: JSON.stringify(meta),
		modified_gmt: now(),
	});
}

/** Where a template applies, as the conditions routes answer it. */
const templateConditionsAnswer = okAnswer(z.object({ template_id: z.number().int(), type: z.string(), conditions: z.array(conditionAnswer) }));

export const templateRoutes: Route[] = [
	route({
		method: 'POST',
		path: `${NS}/create-template`,
		auth: 'site',
		summary: 'Create a template (header, footer, single, archive, page or section), published, with empty builder data',
		body: z.object({
			name: z.string().trim().max(TITLE_MAX).prefault(''),
			type: z.enum(TEMPLATE_TYPES).prefault('themecore-header'),
			content_type: z.enum(CONTENT_TYPES).prefault('default'),
		}),
		answer: okAnswer(z.object({ newTemplateId: z.number().int(), template: templateAnswer })),
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'theme');
			const row = createTemplate(services.store, siteUser!, body.name, body.type, body.content_type);
			return ok('Template has been created', { newTemplateId: row.id, template: templateView(services.store, row) });
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/update-template-data`,
		auth: 'site',
		summary: 'Change a template: its title, builder data (`content`), status or content type',
		body: z.object({ template_id: idParam.optional(), template_data: templateDataSchema.optional() }),
		answer: okAnswer(templateAnswer),
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'theme');
			const id = need(body.template_id, 'template_id');
			const data = need(body.template_data, 'template_data');
			if (!CHANGEABLE.some((key) => data[key] !== undefined)) {
				throw invalidParam('template_data', `template_data must set at least one of: ${CHANGEABLE.join(', ')}`);
			}
			const store = services.store;
			const row = store.tx(() => {
				const updated = updateTemplate(store, getTemplate(store, id), data);
				// Published or not decides whether it applies anywhere.
				if (data.status) indexTemplate(store, updated, templateConditions(store, id));
				return updated;
			});
			return ok('Template has been updated', templateView(store, row));
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/get-template-conditions`,
		auth: 'site',
		summary: 'Read where a template applies',
		body: z.object({ template_id: idParam.optional() }),
		answer: templateConditionsAnswer,
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'read');
			const row = getTemplate(services.store, need(body.template_id, 'template_id'));
			const view = templateView(services.store, row);
			return ok('Success', { template_id: row.id, type: view.type, conditions: view.conditions });
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/update-template-conditions`,
		auth: 'site',
		summary: 'Set where a template applies (replaces its conditions; an empty list applies it nowhere) and update the site index',
		body: z.object({ template_id: idParam.optional(), conditions: conditionsParam.prefault([]) }),
		answer: templateConditionsAnswer,
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'theme');
			const store = services.store;
			const id = need(body.template_id, 'template_id');
			const conditions = store.tx(() => {
				const row = getTemplate(store, id);
				const checked = checkConditions(store, body.conditions, 'conditions');
				saveTemplateConditions(store, id, checked);
				indexTemplate(store, row, checked);
				return checked;
			});
			return ok('Conditions have been saved', { template_id: id, type: templateType(getTemplate(store, id)), conditions });
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/get-structure-template-list`,
		auth: 'site',
		summary: 'List the templates of one type (every template without `type`, or with an empty one), trashed ones left out',
		body: z.object({ type: z.enum(['', ...TEMPLATE_TYPES]).optional() }),
		answer: okAnswer(z.array(templateAnswer)),
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'read');
			const rows = liveTemplates(services.store).filter((row) => !body.type || templateType(row) === body.type);
			return ok('Success', rows.map((row) => templateView(services.store, row)));
		},
	}),
];
