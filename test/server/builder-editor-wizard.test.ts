import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { client, expectWpError } from '../helpers/server';

/** The builder's template library, onboarding (with the site's plugins and theme) and checklist. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let api: ReturnType<typeof client>;
let one: ReturnType<typeof client>;

const as = (user: SiteUser) => ({ headers: user.headers });
const FORBIDDEN = 'Sorry, you are not allowed to do that.';

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	api = client(server.url, '/wp-json/builder/v1');
	one = client(server.url, '/wp-json/builder-one/v1');
});
afterAll(() => server.close());

describe('template library', () => {
	test('a saved template is a published library item, listed with its kind and content', async () => {
		const content = { content: [{ id: 'a1', elType: 'e-flexbox', elements: [] }], page_settings: { hide_title: 'yes' } };
		const res = await api.post('/template-library/templates', { title: 'Hero section', type: 'section', content }, as(u.author));
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ title: 'Hero section', type: 'section', status: 'publish', author: 'arthur', content });
		const row = server.services.store.content.get(res.body.template_id)!;
		expect(row.type).toBe('builder_library');
		const untitled = await api.post('/template-library/templates', { type: 'e-div-block' }, as(u.editor));
		expect(untitled.body).toMatchObject({ title: 'Untitled e-div-block', content: {} });

		const list = await api.get('/template-library/templates', as(u.contributor));
		expect(list.body.map((t: { template_id: number }) => t.template_id)).toEqual([untitled.body.template_id, res.body.template_id]);
		// The post lookup leaves the library out by default.
		expect((await api.get('/post?term=Hero', as(u.author))).body).toEqual([]);
	});

	test('errors: the type enum, content an object, contributors cannot publish, anonymous and subscribers refused', async () => {
		const missing = await api.post('/template-library/templates', { title: 'x' }, as(u.editor));
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['type'] } });
		const kind = await api.post('/template-library/templates', { type: 'header' }, as(u.editor));
		expect(kind.body.data.params.type).toBe('type must be one of: "page", "section", "container", "e-div-block", "e-flexbox"');
		const content = await api.post('/template-library/templates', { type: 'page', content: [1] }, as(u.editor));
		expect(content.body.data.params.content).toBe('content must be an object (got an array)');
		const title = await api.post('/template-library/templates', { type: 'page', title: 7 }, as(u.editor));
		expect(title.body.data.params.title).toBe('title must be a string (got number 7)');
		expectWpError(await api.post('/template-library/templates', { type: 'page' }, as(u.contributor)), 403, 'rest_cannot_publish', 'Sorry, you are not allowed to publish posts in this post type.');
		expectWpError(await api.post('/template-library/templates', { type: 'page' }), 401, 'rest_forbidden', FORBIDDEN);
		expectWpError(await api.get('/template-library/templates', as(u.subscriber)), 403, 'rest_forbidden', FORBIDDEN);
	});
});

describe('onboarding', () => {
	test('steps are paged with X-WP-Total; progress and choices are each user’s own', async () => {
		const first = await api.get('/onboarding?per_page=2', as(u.editor));
		expect(first.headers.get('x-wp-total')).toBe('5');
		expect(first.headers.get('x-wp-totalpages')).toBe('3');
		expect(first.body.map((s: { id: string }) => s.id)).toEqual(['building_for', 'site_about']);
		expect((await api.get('/onboarding?page=3&per_page=2', as(u.editor))).body.map((s: { id: string }) => s.id)).toEqual(['site_features']);
		expect((await api.get('/onboarding?search=theme', as(u.editor))).body.map((s: { id: string }) => s.id)).toEqual(['theme_selection']);
		expectWpError(await api.get('/onboarding?page=9', as(u.editor)), 400, 'rest_invalid_page_number', 'The page number requested is larger than the number of pages available.');
		expect((await api.get('/onboarding?per_page=0', as(u.editor))).body.data.params.per_page).toBe('per_page must be at least 1');

		expect((await api.get('/onboarding/user-progress', as(u.editor))).body).toMatchObject({ current_step: 'building_for', completed_steps: [], is_completed: false, started_at: null });
		const progress = await api.post('/onboarding/user-progress', { complete_step: 'site_about', current_step: 'experience_level' }, as(u.editor));
		expect(progress.body).toMatchObject({ current_step: 'experience_level', current_step_index: 2, completed_steps: ['site_about'] });
		await api.call('PATCH', '/onboarding/user-progress', { complete_step: 'building_for', exit_type: 'user_exit' }, as(u.editor));
		expect((await api.get('/onboarding/user-progress', as(u.editor))).body).toMatchObject({ completed_steps: ['building_for', 'site_about'], exit_type: 'user_exit' });
		expect((await api.get('/onboarding', as(u.editor))).body.filter((s: { completed: boolean }) => s.completed).map((s: { id: string }) => s.id)).toEqual(['building_for', 'site_about']);
		// Another user's progress is their own.
		expect((await api.get('/onboarding/user-progress', as(u.author))).body.completed_steps).toEqual([]);
		const all = await api.call('PUT', '/onboarding/user-progress', { completed_steps: ['building_for', 'site_about', 'experience_level', 'theme_selection', 'site_features'] }, as(u.author));
		expect(all.body.is_completed).toBe(true);

		const bad = await api.post('/onboarding/user-progress', { complete_step: 'party' }, as(u.editor));
		expect(bad.body.data.params.complete_step).toMatch(/^complete_step must be one of: "building_for"/);

		const choices = await api.post('/onboarding/user-choices', { building_for: 'business', site_about: ['shop', 'blog'], experience_level: 'beginner' }, as(u.editor));
		expect(choices.body).toEqual({ building_for: 'business', site_about: ['shop', 'blog'], experience_level: 'beginner' });
		await api.call('PATCH', '/onboarding/user-choices', { site_features: 'forms,gallery' }, as(u.editor));
		expect((await api.get('/onboarding/user-choices', as(u.editor))).body).toEqual({ building_for: 'business', site_about: ['shop', 'blog'], experience_level: 'beginner', site_features: ['forms', 'gallery'] });
		expect((await api.get('/onboarding/user-choices', as(u.author))).body).toEqual({});
		const level = await api.call('PUT', '/onboarding/user-choices', { experience_level: 'guru' }, as(u.editor));
		expect(level.body.data.params.experience_level).toBe('experience_level must be one of: "beginner", "intermediate", "advanced"');
		expectWpError(await api.get('/onboarding/user-choices', as(u.subscriber)), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await api.get('/onboarding'), 401, 'rest_forbidden', FORBIDDEN);
	});

	test('progress and choices are written alike by POST, PUT and PATCH', async () => {
		const levels = { POST: 'beginner', PUT: 'intermediate', PATCH: 'advanced' } as const;
		const steps = { POST: 'building_for', PUT: 'site_about', PATCH: 'experience_level' } as const;
		for (const method of ['POST', 'PUT', 'PATCH'] as const) {
			const choices = await api.call(method, '/onboarding/user-choices', { experience_level: levels[method] }, as(u.contributor));
			expect(choices.status).toBe(200);
			expect(choices.body).toEqual({ experience_level: levels[method] });
			expect((await api.get('/onboarding/user-choices', as(u.contributor))).body).toEqual({ experience_level: levels[method] });
			const progress = await api.call(method, '/onboarding/user-progress', { current_step: steps[method], complete_step: steps[method] }, as(u.contributor));
			expect(progress.status).toBe(200);
			expect(progress.body).toMatchObject({ current_step: steps[method], is_completed: false });
		}
		expect((await api.get('/onboarding/user-progress', as(u.contributor))).body).toMatchObject({
			current_step: 'experience_level',
			current_step_index: 2,
			completed_steps: ['building_for', 'site_about', 'experience_level'],
		});
	});

	test('install-pro and install-theme change the site’s plugins and theme, which builder-one reads', async () => {
		expect((await api.get('/onboarding/pro-install-screen', as(u.admin))).body).toMatchObject({ should_show: true, can_install: true, plugin: { slug: 'builder-pro', status: 'not-installed' } });
		expect((await api.get('/onboarding/pro-install-screen', as(u.editor))).body).toMatchObject({ should_show: false, can_install: false });
		expect((await api.get('/onboarding/install-pro', as(u.editor))).body).toMatchObject({ slug: 'builder-pro', installed: false, active: false });
		expectWpError(await api.post('/onboarding/install-pro', {}, as(u.editor)), 403, 'rest_forbidden', FORBIDDEN);

		const pro = await api.post('/onboarding/install-pro', {}, as(u.admin));
		expect(pro.body).toMatchObject({ success: true, already_active: false, plugin: { slug: 'builder-pro', status: 'active', installed: true, active: true, version: '3.30.0' } });
		expect((await api.post('/onboarding/install-pro', {}, as(u.admin))).body.already_active).toBe(true);
		expect((await api.get('/onboarding/pro-install-screen', as(u.admin))).body.should_show).toBe(false);
		const plugins = await one.get('/plugins', as(u.admin));
		if (plugins.status === 200) expect(plugins.body).toEqual(expect.arrayContaining([expect.objectContaining({ slug: 'builder-pro', status: 'active' })]));

		expect((await api.get('/onboarding/install-theme', as(u.admin))).body).toEqual({ slug: 'hello-builder', name: 'Hello Builder', installed: false, active: false, active_theme: 'twentytwentyfive' });
		await api.post('/onboarding/user-choices', { theme_selection: 'hello-biz' }, as(u.admin));
		expectWpError(await api.post('/onboarding/install-theme', {}, as(u.editor)), 403, 'rest_forbidden', FORBIDDEN);
		const theme = await api.post('/onboarding/install-theme', {}, as(u.admin));
		expect(theme.body).toEqual({ success: true, previous_theme: 'twentytwentyfive', theme: { slug: 'hello-biz', name: 'Hello Biz', installed: true, active: true, active_theme: 'hello-biz' } });
		const { activeTheme, siteThemes } = await import('../../server/src/site/plugins');
		expect(activeTheme(server.services.store).slug).toBe('hello-biz');
		expect(siteThemes(server.services.store).find((t) => t.slug === 'twentytwentyfive')!.status).toBe('inactive');
		const bad = await api.post('/onboarding/user-choices', { theme_selection: 'other' }, as(u.admin));
		expect(bad.body.data.params.theme_selection).toBe('theme_selection must be one of: "hello-builder", "hello-biz"');
	});
});

describe('checklist', () => {
	test('steps: paged, by position, marked by administrators; the site’s state completes some', async () => {
		const page = await api.get('/checklist?per_page=2&page=2', as(u.author));
		expect(page.headers.get('x-wp-total')).toBe('5');
		expect(page.body.map((s: { id: string }) => s.id)).toEqual(['create_pages', 'setup_header']);
		expect((await api.get('/checklist/1', as(u.author))).body).toEqual({
			id: 'add_logo',
			position: 1,
			title: 'Add your logo',
			is_marked_completed: false,
			is_immutable_completed: false,
			is_absolute_completed: false,
			is_completed: false,
		});
		expect((await api.get('/checklist/steps', as(u.author))).body).toHaveLength(5);
		expectWpError(await api.get('/checklist/steps/9', as(u.author)), 404, 'rest_checklist_invalid_step', 'Invalid checklist step ID.');
		expectWpError(await api.get('/checklist/steps/add_logo', as(u.author)), 404, 'rest_no_route', 'no route matches GET /builder/v1/checklist/steps/add_logo');

		// Three published pages complete "create pages".
		expect((await api.get('/checklist/3', as(u.author))).body.is_completed).toBe(false);
		for (const title of ['One', 'Two', 'Three']) await cms.create('/pages', u.editor, { title, status: 'publish' });
		expect((await api.get('/checklist/steps/3', as(u.author))).body).toMatchObject({ id: 'create_pages', is_absolute_completed: true, is_completed: true });

		const marked = await api.post('/checklist/steps/add_logo', { is_marked_completed: true }, as(u.admin));
		expect(marked.body).toMatchObject({ id: 'add_logo', is_marked_completed: true, is_completed: true });
		await api.call('PUT', '/checklist/steps/2', { is_immutable_completed: true }, as(u.admin));
		const unmark = await api.call('PATCH', '/checklist/steps/set_fonts_and_colors', { is_immutable_completed: false, is_marked_completed: false }, as(u.admin));
		expect(unmark.body).toMatchObject({ is_immutable_completed: true, is_completed: true });
		expect((await api.get('/checklist/steps/1', as(u.editor))).body.is_marked_completed).toBe(true);

		expectWpError(await api.post('/checklist/steps/nothing', { is_marked_completed: true }, as(u.admin)), 404, 'rest_checklist_invalid_step', 'Invalid checklist step ID.');
		expectWpError(await api.post('/checklist/steps/add_logo', { is_marked_completed: true }, as(u.editor)), 403, 'rest_forbidden', FORBIDDEN);
		const bad = await api.post('/checklist/steps/add_logo', { is_marked_completed: 'perhaps' }, as(u.admin));
		expect(bad.status).toBe(400);
		expect(bad.body.data.params).toHaveProperty('is_marked_completed');
		expectWpError(await api.get('/checklist'), 401, 'rest_forbidden', FORBIDDEN);
	});

	test('user progress is each user’s own and counts the completed steps', async () => {
		const before = await api.get('/checklist/user-progress', as(u.editor));
		expect(before.body).toMatchObject({ last_opened_timestamp: null, is_popup_minimized: false, editor_visit_count: 0, steps_total: 5 });
		const saved = await api.post('/checklist/user-progress', { last_opened_timestamp: 1700000000, is_popup_minimized: true, editor_visit_count: '3' }, as(u.editor));
		expect(saved.body).toMatchObject({ last_opened_timestamp: 1700000000, is_popup_minimized: true, editor_visit_count: 3 });
		await api.call('PATCH', '/checklist/user-progress', { first_closed_checklist_in_editor: true }, as(u.editor));
		expect((await api.get('/checklist/user-progress', as(u.editor))).body).toMatchObject({ first_closed_checklist_in_editor: true, is_popup_minimized: true, editor_visit_count: 3 });
		expect((await api.get('/checklist/user-progress', as(u.author))).body.editor_visit_count).toBe(0);
		const bad = await api.call('PUT', '/checklist/user-progress', { editor_visit_count: -1 }, as(u.editor));
		expect(bad.body.data.params.editor_visit_count).toBe('editor_visit_count must be at least 0');
		expectWpError(await api.get('/checklist/user-progress', as(u.subscriber)), 403, 'rest_forbidden', FORBIDDEN);
	});

	test('user progress is written alike by POST, PUT and PATCH', async () => {
		for (const [count, method] of ['POST', 'PUT', 'PATCH'].entries()) {
			const saved = await api.call(method, '/checklist/user-progress', { editor_visit_count: count + 10, is_popup_minimized: count % 2 === 1 }, as(u.contributor));
			expect(saved.status).toBe(200);
			expect(saved.body).toMatchObject({ editor_visit_count: count + 10, is_popup_minimized: count % 2 === 1, steps_total: 5 });
			expect((await api.get('/checklist/user-progress', as(u.contributor))).body).toMatchObject({ editor_visit_count: count + 10, is_popup_minimized: count % 2 === 1 });
		}
	});
});
