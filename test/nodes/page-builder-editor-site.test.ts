import type { App } from '../../server/src/app';
import { activeTheme, sitePlugin } from '../../server/src/site/plugins';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { firstJson, nodeRunner, siteHarness, type NodeParameters } from '../helpers/nodes';

/**
 * WDM Page Builder, resources Template, Checklist, Onboarding, Library, Event, Feedback, Document and
 * AI: every operation run by n8n's engine against a live server, in both addressing styles.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
	({ server, cms, u } = await startSite());
});
afterAll(() => server.close());

describe.each(['restRoute', 'wpJson'])('addressing %s', (addressing) => {
	const builder = nodeRunner('CUSTOM.wdmPageBuilder', () => siteHarness(server.url, addressing));
	const run = (resource: string, operation: string, parameters: NodeParameters = {}) => builder({ resource, operation, ...parameters });
	const jsons = (r: Awaited<ReturnType<typeof run>>) => {
		expect(r.error).toBeUndefined();
		return r.items.map((i) => i.json);
	};

	test('Template: Create and Get Many', async () => {
		const content = { content: [{ id: `t-${addressing}`, elType: 'e-flexbox', elements: [] }] };
		const created = firstJson(await run('template', 'createTemplate', { templateType: 'section', templateTitle: `Hero ${addressing}`, templateContent: JSON.stringify(content) }));
		expect(created).toMatchObject({ title: `Hero ${addressing}`, type: 'section', status: 'publish', content });
		const list = jsons(await run('template', 'getTemplates'));
		expect(list[0]).toMatchObject({ template_id: created.template_id, content });
		const bad = await run('template', 'createTemplate', { templateType: 'page', templateContent: '[1]' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): content' });
		const broken = await run('template', 'createTemplate', { templateType: 'page', templateContent: '{nope' });
		expect(broken.error?.message).toMatch(/^Content is not valid JSON/);
	});

	test('Checklist: Get Many, Get Item, Get Steps, Get Step, Update Step, Get Progress, Update Progress', async () => {
		const all = await run('checklist', 'getChecklist', { returnAll: true });
		expect(jsons(all).map((s) => s.id)).toEqual(['add_logo', 'set_fonts_and_colors', 'create_pages', 'setup_header', 'assign_homepage']);
		expect(jsons(await run('checklist', 'getChecklist', { returnAll: false, limit: 2, pagedSearch: 'e' })).map((s) => s.id)).toEqual(['set_fonts_and_colors', 'create_pages']);
		expect(firstJson(await run('checklist', 'getChecklistItem', { checklistPosition: 4 })).id).toBe('setup_header');
		expect(jsons(await run('checklist', 'getChecklistSteps'))).toHaveLength(5);
		const updated = firstJson(await run('checklist', 'updateChecklistStep', { checklistStepId: 'setup_header', isMarkedCompleted: true, isImmutableCompleted: false }));
		expect(updated).toMatchObject({ id: 'setup_header', is_marked_completed: true, is_completed: true });
		expect(firstJson(await run('checklist', 'getChecklistStep', { checklistPosition: 4 }))).toMatchObject({ is_marked_completed: true });
		const missing = await run('checklist', 'getChecklistStep', { checklistPosition: 9 });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'Invalid checklist step ID.' });

		const progress = firstJson(await run('checklist', 'updateChecklistProgress', { checklistProgress: { editorVisitCount: 2, isPopupMinimized: true, lastOpened: 1700000000 } }));
		expect(progress).toMatchObject({ editor_visit_count: 2, is_popup_minimized: true, last_opened_timestamp: 1700000000 });
		expect(firstJson(await run('checklist', 'getChecklistProgress'))).toMatchObject({ editor_visit_count: 2, steps_total: 5 });
	});

	test('Onboarding: steps, progress, choices, Pro and theme installs, opt-in', async () => {
		expect(jsons(await run('onboarding', 'getOnboardingSteps', { returnAll: true }))).toHaveLength(5);
		const progress = firstJson(await run('onboarding', 'updateOnboardingProgress', { onboardingProgress: { completeStep: 'site_about', currentStep: 'theme_selection', exitType: 'user_exit' } }));
		expect(progress).toMatchObject({ current_step: 'theme_selection', exit_type: 'user_exit' });
		expect(firstJson(await run('onboarding', 'getOnboardingProgress')).completed_steps).toContain('site_about');
		const choices = firstJson(await run('onboarding', 'updateOnboardingChoices', { onboardingChoices: { buildingFor: 'client', siteAbout: 'shop, blog', themeSelection: 'hello-biz', experienceLevel: 'advanced' } }));
		expect(choices).toMatchObject({ building_for: 'client', site_about: ['shop', 'blog'], theme_selection: 'hello-biz' });
		expect(firstJson(await run('onboarding', 'getOnboardingChoices'))).toMatchObject({ experience_level: 'advanced' });

		expect(firstJson(await run('onboarding', 'getProInstallScreen'))).toHaveProperty('plugin.slug', 'builder-pro');
		expect(firstJson(await run('onboarding', 'getProInstallStatus'))).toHaveProperty('slug', 'builder-pro');
		expect(firstJson(await run('onboarding', 'installPro'))).toMatchObject({ success: true, plugin: { status: 'active' } });
		expect(sitePlugin(server.services.store, 'builder-pro').status).toBe('active');
		expect(firstJson(await run('onboarding', 'getThemeInstallStatus'))).toMatchObject({ slug: 'hello-biz' });
		expect(firstJson(await run('onboarding', 'installTheme'))).toMatchObject({ success: true, theme: { slug: 'hello-biz', active: true } });
		expect(activeTheme(server.services.store).slug).toBe('hello-biz');

		expect(firstJson(await run('onboarding', 'optInV4'))).toMatchObject({ success: true, opted_in: true });
		expect(server.services.store.objects.get('builder', 'site-option', 'opt_in_v4')).toBeDefined();
	});

	test('Library: Connect and Disconnect; Event: Send and Get Many; Feedback: Submit; AI: Get Permissions', async () => {
		expect(firstJson(await run('library', 'connectLibrary', { connectToken: `token-${addressing}` }))).toMatchObject({ connected: true });
		expect(firstJson(await run('library', 'disconnectLibrary'))).toEqual({ success: true, connected: false, was_connected: true });
		expect(firstJson(await run('library', 'disconnectLibrary')).was_connected).toBe(false);

		const sent = firstJson(await run('event', 'sendEvent', { eventData: JSON.stringify({ event: `opened-${addressing}`, panel: 'styles' }) }));
		expect(sent).toMatchObject({ success: true, event: `opened-${addressing}` });
		const events = jsons(await run('event', 'getEvents', { returnAll: false, limit: 5, pagedSearch: `opened-${addressing}` }));
		expect(events).toEqual([expect.objectContaining({ id: sent.id, event_data: { event: `opened-${addressing}`, panel: 'styles' } })]);

		const feedback = firstJson(await run('feedback', 'submitFeedback', { feedbackMessage: `Nice ${addressing}`, feedbackRating: 5 }));
		expect(server.services.store.objects.get<{ data: object }>('builder', 'feedback', String(feedback.id))!.data.data).toEqual({ message: `Nice ${addressing}`, rating: 5 });

		expect(firstJson(await run('ai', 'getAiPermissions'))).toMatchObject({ role: 'administrator', can_use_ai: true, can_manage_settings: true });
	});

	test('Document: Import Media', async () => {
		const data = [{ id: 'img', settings: { image: { url: `data:image/png;base64,${PNG}` } } }];
		const page = await cms.create('/pages', u.admin, { title: `Doc ${addressing}`, meta: { _builder_data: JSON.stringify(data) } });
		const result = firstJson(await run('document', 'importDocumentMedia', { documentId: page.id }));
		expect(result.imported).toEqual([expect.objectContaining({ from: 'data' })]);
		const media = (await cms.get(`/media/${result.imported[0].id}`, u.admin)).body;
		expect(media).toMatchObject({ mime_type: 'image/png', post: page.id });
		const stored = JSON.parse((await cms.get(`/pages/${page.id}`, u.admin, { context: 'edit' })).body.meta._builder_data);
		expect(stored[0].settings.image).toMatchObject({ id: media.id, url: media.source_url });
		const missing = await run('document', 'importDocumentMedia', { documentId: 999999 });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'Invalid post ID.' });
	});
});
