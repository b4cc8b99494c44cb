import { z } from 'zod';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import type { UserRow } from '../../store/types';
import { formatGmt } from '../content/dates';
import { searchParam, wpBool, wpInt } from '../content/params';
import { checkAccess, idParam, invalidId, invalidParam, NS, need, ok, okAnswer, STORE_NS } from './common';
import { checkConditions, conditionAnswer, conditionsParam } from './conditions';
import { isPublished, templateType } from './model';

/**
 * Page templates (the plugin's "structure" of a page): which header, body and footer template make up
 * the page, and where it applies (conditions joined by `or` or `and`). Theme-core objects, kind
 * `page-template`, with WordPress-style numeric ids.
 */

const KIND = 'page-template';
export const PARTS = ['header', 'body', 'footer'] as const;
type Part = (typeof PARTS)[number];

/** The template types each part may show. */
const PART_TYPES: Record<Part, string[]> = {
	header: ['themecore-header'],
	body: ['themecore-single', 'themecore-archive', 'themecore-page'],
	footer: ['themecore-footer'],
};

const RELATIONS = ['or', 'and'] as const;

const layoutPartAnswer = z.object({
	id: z.number().int().nullable().meta({ description: "The template shown, or null for none (the theme's own part)" }),
	enabled: z.boolean(),
	override: z.boolean().meta({ description: "Whether it replaces the theme's part (else it is added to it)" }),
});
type LayoutPart = z.output<typeof layoutPartAnswer>;
export type Layout = Record<Part, LayoutPart>;

/** A page template as stored and answered. */
export const pageTemplateAnswer = z.object({
	id: z.number().int(),
	templateName: z.string(),
	type: z.string().meta({ description: 'unassigned, or the type of the body template (themecore-single, ...)' }),
	conditions: z.array(conditionAnswer),
	relationType: z.enum(RELATIONS),
	layout: z.object({ header: layoutPartAnswer, body: layoutPartAnswer, footer: layoutPartAnswer }),
	author: z.number().int(),
	date: z.string(),
	modified: z.string(),
});
export type PageTemplate = z.output<typeof pageTemplateAnswer>;

/** The answer of a change that made one: its id, and the list as it is now. */
const createdAnswer = okAnswer(z.object({ newTemplateId: z.number().int(), list: z.array(pageTemplateAnswer) }));

const partSchema = z
	.object({
		// The plugin writes "no template" as false; 0 and null say the same.
		id: z.union([z.literal(false), z.null(), wpInt(0)]).optional(),
		enabled: wpBool.optional(),
		override: wpBool.optional(),
	})
	.strict();
const layoutSchema = z.object({ header: partSchema.optional(), body: partSchema.optional(), footer: partSchema.optional() }).strict();
type LayoutInput = z.output<typeof layoutSchema>;

const NAME_MAX = 200;
const nameSchema = z.string().trim().max(NAME_MAX);

const EMPTY_PART: LayoutPart = { id: null, enabled: true, override: true };
const emptyLayout = (): Layout => ({ header: { ...EMPTY_PART }, body: { ...EMPTY_PART }, footer: { ...EMPTY_PART } });

/**
 * The layout with `input`'s parts laid over `base`, each template checked: published, of the part's
 * types (a 400 for `param`, naming the part at `path`).
 */
function mergeLayout(store: Store, base: Layout, input: LayoutInput, param: string, path = param): Layout {
	const layout = structuredClone(base);
	for (const part of PARTS) {
		const given = input[part];
		if (!given) continue;
		const id = given.id === undefined ? layout[part].id : given.id || null;
		if (id !== null) {
			const row = store.content.get(id);
			if (!isPublished(row) || !PART_TYPES[part].includes(templateType(row!))) {
				throw invalidParam(param, `${path}.${part}.id ${id} is no published template of type ${PART_TYPES[part].join(' or ')}`);
			}
		}
		layout[part] = { id, enabled: given.enabled ?? layout[part].enabled, override: given.override ?? layout[part].override };
	}
	return layout;
}

/** A page template's type is its body's. */
function typeOf(store: Store, layout: Layout): string {
	const body = layout.body.id === null ? undefined : store.content.get(layout.body.id);
	return body ? templateType(body) : 'unassigned';
}

export const pageTemplates = (store: Store) => store.objects.list<PageTemplate>(STORE_NS, KIND).map((object) => object.data);

function getPageTemplate(store: Store, id: number): PageTemplate {
	const found = store.objects.get<PageTemplate>(STORE_NS, KIND, String(id));
	if (!found) throw invalidId('rest_themecore_page_template_invalid_id', 'Invalid page template ID.');
	return found.data;
}

/** Saves a page template, its type following its body and `modified` the time of the change. */
export function savePageTemplate(store: Store, template: PageTemplate): PageTemplate {
	const next = { ...template, type: typeOf(store, template.layout), modified: formatGmt(Date.now()) };
	return store.objects.put(STORE_NS, KIND, String(next.id), next).data;
}

function createPageTemplate(store: Store, user: UserRow, fields: Omit<PageTemplate, 'id' | 'type' | 'author' | 'date' | 'modified'>): PageTemplate {
	const id = store.objects.nextId(STORE_NS, KIND);
	const date = formatGmt(Date.now());
	const templateName = fields.templateName || `Page Template #${id}`;
	return savePageTemplate(store, { ...fields, id, templateName, type: 'unassigned', author: user.id, date, modified: date });
}

const ORDERS = ['date', 'name', 'modified'] as const;

/** The list the plugin answers after each change: newest first. */
const list = (store: Store) => [...pageTemplates(store)].reverse();

const pageTemplateData = z
	.object({
		templateName: nameSchema.optional(),
		conditions: conditionsParam.optional(),
		relationType: z.enum(RELATIONS).optional(),
		layout: layoutSchema.optional(),
	})
	.strict();
const CHANGEABLE = ['templateName', 'conditions', 'relationType', 'layout'] as const;

export const pageTemplateRoutes: Route[] = [
	route({
		method: 'POST',
		path: `${NS}/get-page-template-list`,
		auth: 'site',
		summary: 'List the page templates, optionally those whose name contains `templateName`, ordered by `orderBy`',
		body: z.object({ templateName: searchParam.optional(), orderBy: z.enum(ORDERS).prefault('date') }),
		answer: okAnswer(z.object({ list: z.array(pageTemplateAnswer) })),
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'read');
			const search = body.templateName?.toLowerCase() ?? '';
			const found = list(services.store).filter((template) => template.templateName.toLowerCase().includes(search));
			const key: Record<(typeof ORDERS)[number], (a: PageTemplate, b: PageTemplate) => number> = {
				date: (a, b) => b.date.localeCompare(a.date) || b.id - a.id,
				modified: (a, b) => b.modified.localeCompare(a.modified) || b.id - a.id,
				name: (a, b) => a.templateName.localeCompare(b.templateName) || a.id - b.id,
			};
			return ok('Success', { list: found.sort(key[body.orderBy]) });
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/create-page-template`,
		auth: 'site',
		summary: 'Create a page template from a name, conditions, their relation and a layout of header, body and footer templates',
		body: z.object({
			name: nameSchema.prefault(''),
			// The plugin's default is false: no conditions.
			conditions: z.union([z.literal(false), conditionsParam]).prefault([]),
			relationType: z.enum(RELATIONS).prefault('or'),
			layout: z.union([z.literal(false), layoutSchema]).prefault({}),
		}),
		answer: createdAnswer,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'theme');
			const store = services.store;
			const created = store.tx(() =>
				createPageTemplate(store, siteUser!, {
					templateName: body.name,
					conditions: checkConditions(store, body.conditions || [], 'conditions'),
					relationType: body.relationType,
					layout: mergeLayout(store, emptyLayout(), body.layout || {}, 'layout'),
				}),
			);
			return ok('Page template has been created', { newTemplateId: created.id, list: list(store) });
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/copy-page-template`,
		auth: 'site',
		summary: 'Copy a page template (named "<name> copy", with its conditions and layout)',
		body: z.object({ id: idParam.optional() }),
		answer: createdAnswer,
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'theme');
			const store = services.store;
			const copy = store.tx(() => {
				const source = getPageTemplate(store, need(body.id, 'id'));
				const { templateName, conditions, relationType, layout } = source;
				return createPageTemplate(store, siteUser!, { templateName: `${templateName} copy`, conditions, relationType, layout });
			});
			return ok('Page template has been copied', { newTemplateId: copy.id, list: list(store) });
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/delete-page-template`,
		auth: 'site',
		summary: 'Delete a page template for good',
		body: z.object({ id: idParam.optional() }),
		answer: okAnswer(z.object({ deleted: z.literal(true), previous: pageTemplateAnswer, list: z.array(pageTemplateAnswer) })),
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'theme');
			const store = services.store;
			const id = need(body.id, 'id');
			const previous = store.tx(() => {
				const found = getPageTemplate(store, id);
				store.objects.delete(STORE_NS, KIND, String(id));
				return found;
			});
			return ok('Page template has been deleted', { deleted: true as const, previous, list: list(store) });
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/get-page-template-conditions`,
		auth: 'site',
		summary: 'Read where a page template applies and how its conditions combine',
		body: z.object({ template_id: idParam.optional() }),
		answer: okAnswer(pageTemplateAnswer.pick({ conditions: true, relationType: true })),
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'read');
			const template = getPageTemplate(services.store, need(body.template_id, 'template_id'));
			return ok('Success', { conditions: template.conditions, relationType: template.relationType });
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/update-page-template-data`,
		auth: 'site',
		summary: 'Change a page template: `templateName`, `conditions` (replaced), `relationType`, `layout` (the parts given)',
		body: z.object({ template_id: idParam.optional(), template_data: pageTemplateData.optional() }),
		answer: okAnswer(pageTemplateAnswer),
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'theme');
			const store = services.store;
			const id = need(body.template_id, 'template_id');
			const data = need(body.template_data, 'template_data');
			if (!CHANGEABLE.some((key) => data[key] !== undefined)) {
				throw invalidParam('template_data', `template_data must set at least one of: ${CHANGEABLE.join(', ')}`);
			}
			const saved = store.tx(() => {
				const template = getPageTemplate(store, id);
				return savePageTemplate(store, {
					...template,
					templateName: data.templateName || template.templateName,
					conditions: data.conditions ? checkConditions(store, data.conditions, 'template_data', 'template_data.conditions') : template.conditions,
					relationType: data.relationType ?? template.relationType,
					layout: data.layout ? mergeLayout(store, template.layout, data.layout, 'template_data', 'template_data.layout') : template.layout,
				});
			});
			return ok('Page template has been updated', saved);
		},
	}),
];
