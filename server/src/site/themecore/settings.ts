import { z } from 'zod';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import { wpBool } from '../content/params';
import { activeTheme } from '../plugins';
import { checkAccess, NS, ok, okAnswer, readObject, STORE_NS } from './common';
import { type PageTemplate, PARTS, pageTemplates, savePageTemplate } from './page-templates';
import { conditionsIndex, conditionsIndexAnswer, isPublished, liveTemplates, rebuildIndex, TEMPLATE_POST_TYPE, templateType } from './model';

/** The plugin's settings, and the two syncs that rebuild its state from the site's content. */

const settingsSchema = z
	.object({
		/** Hide the active theme's own header and footer where a theme-core template applies. */
		disable_theme_parts: wpBool,
		/** Apply templates on the site's own pages only for signed-in editors (to preview before going live). */
		preview_mode: wpBool,
	})
	.partial()
	.strict();
type Settings = Required<z.output<typeof settingsSchema>>;

const DEFAULTS: Settings = { disable_theme_parts: false, preview_mode: false };

const settings = (store: Store): Settings => ({ ...DEFAULTS, ...readObject<Partial<Settings>>(store, 'settings', 'plugin', {}) });

/** How many templates of each type are live: the dashboard's summary. */
const templateCountsAnswer = z.record(z.string(), z.number().int()).meta({ description: 'How many templates of each type there are (trashed ones left out)' });

function templateCounts(store: Store): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const row of liveTemplates(store)) counts[templateType(row)] = (counts[templateType(row)] ?? 0) + 1;
	return counts;
}

const syncAnswer = z.object({
	templates: templateCountsAnswer,
	removed_conditions: z.array(z.number().int()).meta({ description: 'The deleted templates whose conditions were dropped' }),
	unlinked: z
		.array(z.object({ page_template_id: z.number().int(), part: z.enum(PARTS), template_id: z.number().int() }))
		.meta({ description: 'The page template parts emptied: they showed a template no longer published' }),
	conditions: conditionsIndexAnswer,
});

/**
 * `sync-templates`: the theme core's own state after changes made to the templates elsewhere (a
 * template trashed, deleted or unpublished since): conditions of deleted templates are dropped, page
 * template parts that show a template no longer published are emptied, and the index is rebuilt.
 */
function syncTemplates(store: Store): z.output<typeof syncAnswer> {
	const removed: number[] = [];
	for (const { key } of store.objects.list(STORE_NS, 'template-conditions')) {
		if (store.content.get(Number(key))?.type !== TEMPLATE_POST_TYPE) {
			store.objects.delete(STORE_NS, 'template-conditions', key);
			removed.push(Number(key));
		}
	}
	const unlinked: z.output<typeof syncAnswer>['unlinked'] = [];
	for (const template of pageTemplates(store)) {
		const layout = structuredClone(template.layout);
		for (const part of PARTS) {
			const id = layout[part].id;
			if (id !== null && !isPublished(store.content.get(id))) {
				unlinked.push({ page_template_id: template.id, part, template_id: id });
				layout[part].id = null;
			}
		}
		if (unlinked.some((entry) => entry.page_template_id === template.id)) savePageTemplate(store, { ...template, layout } satisfies PageTemplate);
	}
	const index = rebuildIndex(store);
	return { templates: templateCounts(store), removed_conditions: removed, unlinked, conditions: index };
}

export const settingsRoutes: Route[] = [
	route({
		method: 'POST',
		path: `${NS}/plugin-settings`,
		auth: 'site',
		summary: 'Change the settings given (none: read them); answers them with the active theme, the template counts and the conditions index',
		body: settingsSchema,
		answer: okAnswer(
			z.object({
				settings: z.object({ disable_theme_parts: z.boolean(), preview_mode: z.boolean() }),
				active_theme: z.object({ slug: z.string(), name: z.string(), status: z.enum(['active', 'inactive']), version: z.string() }),
				templates: templateCountsAnswer,
				conditions: conditionsIndexAnswer,
			}),
		),
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'options');
			const store = services.store;
			if (Object.keys(body).length) store.objects.put(STORE_NS, 'settings', 'plugin', { ...settings(store), ...body });
			return ok('Settings have been saved', {
				settings: settings(store),
				active_theme: activeTheme(store),
				templates: templateCounts(store),
				conditions: conditionsIndex(store),
			});
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/sync-templates`,
		auth: 'site',
		summary: 'Re-read the templates from the content: drop what refers to deleted or unpublished ones, rebuild the conditions index',
		answer: okAnswer(syncAnswer),
		errors: [403],
		handler: ({ services, siteUser }) => {
			checkAccess(siteUser, 'theme');
			return ok('Templates have been synchronized', services.store.tx(() => syncTemplates(services.store)));
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/sync-conditions-option`,
		auth: 'site',
		summary: 'Rebuild the site-wide index of which template applies where, from the published templates and their conditions',
		answer: okAnswer(conditionsIndexAnswer),
		errors: [403],
		handler: ({ services, siteUser }) => {
			checkAccess(siteUser, 'theme');
			return ok('Conditions have been synchronized', services.store.tx(() => rebuildIndex(services.store)));
		},
	}),
];
