import { z } from 'zod';
import type { Store } from '../../store';
import type { ContentRow } from '../../store/types';
import { formatGmt } from '../content/dates';
import { invalidId, readObject, STORE_NS } from './common';
import { type Condition, conditionAnswer, stillValid } from './conditions';

/**
 * Theme-core templates are content items of the site (type `themecore_template`, not in the registry,
 * so no `cms/v2` collection lists them): title, author, dates and status as any item, the builder's
 * data in `meta._builder_data`. Their conditions and the site-wide index of them are theme-core objects.
 */

export const TEMPLATE_POST_TYPE = 'themecore_template';

/** The structures a template can be (the spec's `create-template` default is `themecore-header`). */
export const TEMPLATE_TYPES = [
	'themecore-header',
	'themecore-footer',
	'themecore-single',
	'themecore-archive',
	'themecore-page',
	'themecore-section',
] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/** How the template is edited: the block editor (`default`) or the page builder. */
export const CONTENT_TYPES = ['default', 'builder'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/**
 * The builder's document type of every theme-core template: the spec's meta enum has one value for
 * them (`themecore-not-supported`: the builder edits it, but it is no document of its own library).
 */
export const BUILDER_TEMPLATE_TYPE = 'themecore-not-supported';

interface TemplateMeta {
	_builder_template_type?: string;
	_builder_edit_mode?: string;
	_builder_data?: string;
	_themecore_template_type?: string;
	_themecore_content_type?: string;
	[key: string]: unknown;
}

export function templateMeta(row: ContentRow): TemplateMeta {
	try {
		const meta = JSON.parse(row.meta) as unknown;
		return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as TemplateMeta) : {};
	} catch {
		return {};
	}
}

export const templateType = (row: ContentRow) => String(templateMeta(row)._themecore_template_type ?? '');

/** A template by id (trashed ones too: they can be restored); 404 for anything else. */
export function getTemplate(store: Store, id: number): ContentRow {
	const row = store.content.get(id);
	if (!row || row.type !== TEMPLATE_POST_TYPE) throw invalidId('rest_themecore_template_invalid_id', 'Invalid template ID.');
	return row;
}

/** Every template that is not in the trash, oldest first. */
export function liveTemplates(store: Store): ContentRow[] {
	return store.content.find({ sql: "c.type = ? AND c.status <> 'trash'", params: [TEMPLATE_POST_TYPE] }, { sql: 'c.id', params: [] }, null, 0).rows;
}

/** Whether a template is in use on the site: published (drafts and trashed ones apply nowhere). */
export const isPublished = (row: ContentRow | undefined) => row?.type === TEMPLATE_POST_TYPE && row.status === 'publish';

// ---- conditions of a template, and the site-wide index ----

export const templateConditions = (store: Store, id: number) => readObject<{ conditions: Condition[] }>(store, 'template-conditions', String(id), { conditions: [] }).conditions;

export const saveTemplateConditions = (store: Store, id: number, conditions: Condition[]) =>
	store.objects.put(STORE_NS, 'template-conditions', String(id), { conditions });

/** The index: for each template type, the published templates with conditions, newest first (the first match wins). */
export const conditionsIndexAnswer = z.object({
	types: z.record(z.string(), z.array(z.object({ template_id: z.number().int(), conditions: z.array(conditionAnswer) }))).meta({
		description: 'For each template type, the published templates with conditions, newest first (the first match wins)',
	}),
	synced: z.string().nullable().meta({ description: 'When it was last rebuilt in full (sync), ISO time; null before the first sync' }),
});
export type ConditionsIndex = z.output<typeof conditionsIndexAnswer>;

export const conditionsIndex = (store: Store) => readObject<ConditionsIndex>(store, 'index', 'conditions', { types: {}, synced: null });

/** Puts one template's entry first in its type (or removes it), as the plugin does when conditions are saved. */
export function indexTemplate(store: Store, row: ContentRow, conditions: Condition[]) {
	const index = conditionsIndex(store);
	for (const type of Object.keys(index.types)) index.types[type] = index.types[type].filter((entry) => entry.template_id !== row.id);
	if (isPublished(row) && conditions.length) {
		const type = templateType(row);
		index.types[type] = [{ template_id: row.id, conditions }, ...(index.types[type] ?? [])];
	}
	store.objects.put(STORE_NS, 'index', 'conditions', index);
}

/**
 * Rebuilds the index from the templates as they are now: published ones only, each with the
 * conditions that still fit the site (a type the engine removed, an item deleted since, drop out).
 */
export function rebuildIndex(store: Store): ConditionsIndex {
	const types: ConditionsIndex['types'] = {};
	for (const row of [...liveTemplates(store)].reverse()) {
		if (!isPublished(row)) continue;
		const conditions = templateConditions(store, row.id).filter((condition) => stillValid(store, condition));
		if (conditions.length) (types[templateType(row)] ??= []).push({ template_id: row.id, conditions });
	}
	const index = { types, synced: new Date().toISOString() };
	store.objects.put(STORE_NS, 'index', 'conditions', index);
	return index;
}

// ---- the view ----

function builderData(meta: TemplateMeta): unknown {
	if (!meta._builder_data) return [];
	try {
		return JSON.parse(meta._builder_data);
	} catch {
		return meta._builder_data;
	}
}

/** A template as the routes answer it. */
export const templateAnswer = z.object({
	id: z.number().int(),
	title: z.string(),
	type: z.string().meta({ description: 'The structure: themecore-header, themecore-footer, themecore-single, ...' }),
	content_type: z.string().meta({ description: 'default (block editor) or builder' }),
	status: z.string(),
	author: z.number().int(),
	date: z.string().meta({ description: 'GMT, as WordPress writes dates (no zone)' }),
	modified: z.string(),
	conditions: z.array(conditionAnswer),
	data: z.unknown().meta({ description: "The builder's data, a free JSON document as the client wrote it" }),
});

export function templateView(store: Store, row: ContentRow): z.output<typeof templateAnswer> {
	const meta = templateMeta(row);
	return {
		id: row.id,
		title: row.title,
		type: templateType(row),
		content_type: String(meta._themecore_content_type ?? 'default'),
		status: row.status,
		author: row.author,
		date: formatGmt(row.date_gmt),
		modified: formatGmt(row.modified_gmt),
		conditions: templateConditions(store, row.id),
		data: builderData(meta),
	};
}
