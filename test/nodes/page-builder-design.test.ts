import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { runNode, siteHarness } from '../helpers/nodes';
import { client } from '../helpers/server';

/**
 * WDM Page Builder, design system: every operation of the globals, settings, kit defaults, favorites,
 * user data, global classes, variables and design-system resources, run by n8n's engine against the
 * live server in both addressing styles, with what it did read back.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let builder: ReturnType<typeof client>;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	builder = client(server.url, '/wp-json/builder/v1');
});
afterAll(() => server.close());

const NODE = 'CUSTOM.wdmPageBuilder';
const asAdmin = () => ({ headers: u.admin.headers });

describe.each([
	['index.php?rest_route=', 'restRoute'],
	['/wp-json', 'wpJson'],
])('addressing %s', (_, addressing) => {
	const run = (resource: string, operation: string, parameters: Record<string, unknown> = {}) =>
		runNode(siteHarness(server.url, addressing), NODE, { resource, operation, ...parameters } as never);
	/** A name of this addressing style's own, so that the two runs do not meet. */
	const own = (name: string) => `${name}_${addressing}`;

	test('Globals: get all, colors and typographies as items; save, get and delete a color and a typography', async () => {
		const all = await run('global', 'getAllGlobals');
		expect(all.error).toBeUndefined();
		expect(Object.keys(all.items[0].json.colors as object)).toEqual(expect.arrayContaining(['primary', 'accent']));

		const colors = await run('global', 'getGlobalColors');
		expect(colors.items.map((i) => i.json.id)).toEqual(expect.arrayContaining(['primary', 'secondary', 'text', 'accent']));

		const saved = await run('global', 'saveGlobalColor', { globalId: own('brand'), globalTitle: 'Brand', globalColorValue: '#123456' });
		expect(saved.error).toBeUndefined();
		expect(saved.items[0].json).toEqual({ id: own('brand'), title: 'Brand', value: '#123456' });
		expect((await builder.get(`/globals/colors/${own('brand')}`, asAdmin())).body.value).toBe('#123456');
		const got = await run('global', 'getGlobalColor', { globalId: own('brand') });
		expect(got.items[0].json.title).toBe('Brand');
		const deleted = await run('global', 'deleteGlobalColor', { globalId: own('brand') });
		expect(deleted.items[0].json).toMatchObject({ deleted: true, previous: { id: own('brand') } });
		expect((await builder.get(`/globals/colors/${own('brand')}`, asAdmin())).status).toBe(404);

		const typography = { typography_font_family: 'Inter', typography_font_size: { unit: 'px', size: 18 } };
		const savedType = await run('global', 'saveGlobalTypography', { globalId: own('lead'), globalTitle: 'Lead', globalTypographyValue: JSON.stringify(typography) });
		expect(savedType.error).toBeUndefined();
		expect((await run('global', 'getGlobalTypography', { globalId: own('lead') })).items[0].json).toEqual({ id: own('lead'), title: 'Lead', value: typography });
		const typographies = await run('global', 'getGlobalTypographies');
		expect(typographies.items.map((i) => i.json.id)).toContain(own('lead'));
		expect((await run('global', 'deleteGlobalTypography', { globalId: own('lead') })).items[0].json.deleted).toBe(true);
		expect((await builder.get('/globals/typography', asAdmin())).body[own('lead')]).toBeUndefined();

		const bad = await run('global', 'saveGlobalColor', { globalId: own('bad'), globalTitle: 'Bad', globalColorValue: 'not a colour' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): value' });
		expect(bad.error?.description).toContain('value must be a CSS colour');
		const system = await run('global', 'deleteGlobalColor', { globalId: 'primary' });
		expect(system.error).toMatchObject({ httpCode: '400', message: 'The system global color "primary" cannot be deleted; replace its value instead.' });
	});

	test('Variables: create, update, delete, restore, list, and a batch guarded by the watermark', async () => {
		const created = await run('variable', 'createVariable', { variableType: 'global-size-variable', variableLabel: own('gap'), variableValue: '8px' });
		expect(created.error).toBeUndefined();
		const id = (created.items[0].json.variable as { id: string }).id;
		expect(created.items[0].json.variable).toMatchObject({ label: own('gap'), value: '8px', type: 'global-size-variable' });

		const updated = await run('variable', 'updateVariable', { variableId: id, variableLabel: own('gap'), variableValue: '12px', variableOptions: { order: 7 } });
		expect(updated.items[0].json.variable).toMatchObject({ value: '12px', order: 7 });
		expect((await run('variable', 'deleteVariable', { variableId: id })).items[0].json.variable).toMatchObject({ deleted: true });
		const restored = await run('variable', 'restoreVariable', { variableId: id, variableOptions: { value: '10px' } });
		expect(restored.items[0].json.variable).toMatchObject({ value: '10px' });
		expect(restored.items[0].json.variable).not.toHaveProperty('deleted');

		const listed = await run('variable', 'getVariables');
		const watermark = listed.items[0].json.watermark as number;
		expect((listed.items[0].json.variables as Record<string, { value: string }>)[id].value).toBe('10px');

		const batch = await run('variable', 'batchVariables', {
			variableWatermark: watermark,
			variableOperations: {
				operation: [
					{ action: 'create', id: 'temp-a', type: 'global-color-variable', label: own('ink'), value: '#111111' },
					{ action: 'update', id, label: '', value: '14px' },
					{ action: 'delete', id },
				],
			},
		});
		expect(batch.error).toBeUndefined();
		expect(batch.items[0].json.watermark).toBe(watermark + 1);
		const results = batch.items[0].json.results as Array<{ type: string; temp_id?: string }>;
		expect(results.map((r) => r.type)).toEqual(['create', 'update', 'delete']);
		expect(results[0].temp_id).toBe('temp-a');
		const after = (await builder.get('/variables/list', asAdmin())).body;
		expect(after.variables[id]).toMatchObject({ value: '14px', deleted: true });

		const stale = await run('variable', 'batchVariables', { variableWatermark: watermark, variableOperations: { operation: [{ action: 'restore', id }] } });
		expect(stale.error).toMatchObject({ httpCode: '409' });
		expect(stale.error?.message).toMatch(/^The variables changed since watermark/);
		expect((await builder.get('/variables/list', asAdmin())).body).toEqual(after);
	});

	test('Global classes: update (add, modify, delete), get in both contexts, usage from a published page', async () => {
		const variants = [{ meta: { breakpoint: 'desktop', state: null }, props: { color: { $$type: 'color', value: '#222222' } } }];
		const added = await run('globalClass', 'updateGlobalClasses', {
			globalClassRows: {
				class: [
					{ id: own('g-card'), label: own('Card'), change: 'added', variants: JSON.stringify(variants) },
					{ id: own('g-old'), label: own('Old'), change: 'added', variants: '[]' },
				],
			},
		});
		expect(added.error).toBeUndefined();
		expect((added.items[0].json.meta as { order: string[] }).order).toEqual(expect.arrayContaining([own('g-card'), own('g-old')]));

		const changed = await run('globalClass', 'updateGlobalClasses', {
			globalClassRows: { class: [{ id: own('g-card'), label: own('Card big'), change: 'modified', variants: JSON.stringify(variants) }] },
			deletedClassIds: own('g-old'),
		});
		expect(changed.error).toBeUndefined();
		const read = await run('globalClass', 'getGlobalClasses');
		const data = read.items[0].json.data as Record<string, { label: string }>;
		expect(data[own('g-card')].label).toBe(own('Card big'));
		expect(data[own('g-old')]).toBeUndefined();

		const preview = await run('globalClass', 'updateGlobalClasses', {
			classContext: 'preview',
			globalClassRows: { class: [{ id: own('g-draft'), label: own('Draft'), change: 'added', variants: '[]' }] },
		});
		expect(preview.error).toBeUndefined();
		expect(Object.keys((await run('globalClass', 'getGlobalClasses', { classContext: 'preview' })).items[0].json.data as object)).toContain(own('g-draft'));
		expect(Object.keys((await builder.get('/global-classes', asAdmin())).body.data)).not.toContain(own('g-draft'));

		const page = await cms.create('/pages', u.admin, {
			title: own('Page'),
			status: 'publish',
			meta: { _builder_data: JSON.stringify([{ id: 'e1', elType: 'e-flexbox', settings: { classes: { $$type: 'classes', value: [own('g-card')] } }, elements: [] }]) },
		});
		const usage = await run('globalClass', 'getGlobalClassesUsage');
		expect(usage.error).toBeUndefined();
		expect((usage.items[0].json.data as Record<string, unknown>)[own('g-card')]).toEqual({
			total: 1,
			posts: [{ id: page.id, title: own('Page'), type: 'page', status: 'publish', total: 1, elements: ['e1'] }],
		});

		const disagree = await run('globalClass', 'updateGlobalClasses', {
			globalClassRows: { class: [{ id: own('g-card'), label: 'X', change: 'added', variants: '[]' }] },
		});
		expect(disagree.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): changes' });
		expect(disagree.error?.description).toContain('which is already a class (list it in modified)');
	});

	test('Design system: the stylesheet follows the globals and is generated again after Clear Cache', async () => {
		await run('global', 'saveGlobalColor', { globalId: 'accent', globalTitle: 'Accent', globalColorValue: `#00${addressing === 'wpJson' ? 'AA' : 'BB'}00` });
		const first = await run('designSystem', 'getDesignStylesheet');
		expect(first.error).toBeUndefined();
		expect(first.items[0].json.css).toContain(`--builder-global-color-accent: #00${addressing === 'wpJson' ? 'AA' : 'BB'}00;`);
		const kept = await run('designSystem', 'getDesignStylesheet');
		expect(kept.items[0].json).toMatchObject({ regenerated: false, generation: first.items[0].json.generation });

		const cleared = await run('designSystem', 'clearBuilderCache');
		expect(cleared.items[0].json).toEqual({ deleted: true, cleared: 1 });
		const again = await run('designSystem', 'getDesignStylesheet');
		expect(again.items[0].json.regenerated).toBe(true);
		expect(again.items[0].json.generation as number).toBeGreaterThan(first.items[0].json.generation as number);
	});

	test('Settings: get and update a setting; a bad value is the site error', async () => {
		const value = addressing === 'wpJson' ? 'swap' : 'block';
		const updated = await run('settings', 'updateBuilderSetting', { settingKey: 'font_display', settingValue: JSON.stringify(value) });
		expect(updated.error).toBeUndefined();
		expect(updated.items[0].json).toEqual({ key: 'font_display', value, default: 'auto' });
		expect((await run('settings', 'getBuilderSetting', { settingKey: 'font_display' })).items[0].json.value).toBe(value);
		const list = await run('settings', 'updateBuilderSetting', { settingKey: 'cpt_support', settingValue: '["post"]' });
		expect((await builder.get('/settings/cpt_support', asAdmin())).body.value).toEqual(['post']);
		expect(list.items[0].json.value).toEqual(['post']);
		const bad = await run('settings', 'updateBuilderSetting', { settingKey: 'container_width', settingValue: '"wide"' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): value' });
	});

	test('Kit defaults: save, get and delete the defaults of an element type', async () => {
		const type = addressing === 'wpJson' ? 'e-heading' : 'heading';
		const saved = await run('kitDefault', 'saveKitDefaults', { elementType: type, elementSettings: '{"title_color": "#444444"}' });
		expect(saved.error).toBeUndefined();
		expect(saved.items[0].json).toEqual({ type, settings: { title_color: '#444444' } });
		expect((await run('kitDefault', 'getKitDefaults')).items[0].json[type]).toEqual({ title_color: '#444444' });
		expect((await run('kitDefault', 'deleteKitDefaults', { elementType: type })).items[0].json).toMatchObject({ deleted: true });
		expect((await builder.get('/kit-elements-defaults', asAdmin())).body[type]).toBeUndefined();
		const unknown = await run('kitDefault', 'saveKitDefaults', { elementType: 'marquee', elementSettings: '{}' });
		expect(unknown.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): type' });
	});

	test('Favorites: add, get (Return All and Limit, search) and remove', async () => {
		for (const favorite of ['heading', 'e-button', 'image']) {
			expect((await run('favorite', 'addFavorite', { favoritesType: 'widgets', favorite: own(favorite) })).error).toBeUndefined();
		}
		const mine = (items: { json: Record<string, unknown> }[]) => items.map((i) => i.json.favorite).filter((f) => String(f).endsWith(addressing));
		const all = await run('favorite', 'getFavorites', { returnAll: true });
		expect(mine(all.items)).toEqual([own('heading'), own('e-button'), own('image')]);
		const limited = await run('favorite', 'getFavorites', { returnAll: false, limit: 2 });
		expect(limited.items).toHaveLength(2);
		const searched = await run('favorite', 'getFavorites', { returnAll: true, favoritesSearch: `BUTTON_${addressing}` });
		expect(searched.items.map((i) => i.json)).toEqual([{ type: 'widgets', favorite: own('e-button') }]);

		const removed = await run('favorite', 'removeFavorite', { favoritesType: 'widgets', favorite: own('image') });
		expect(removed.error).toBeUndefined();
		expect(removed.items[0].json.favorites).not.toContain(own('image'));
		expect(mine((await builder.get('/favorites?per_page=100', asAdmin())).body.map((json: Record<string, unknown>) => ({ json })))).toEqual([own('heading'), own('e-button')]);
		const missing = await run('favorite', 'removeFavorite', { favoritesType: 'widgets', favorite: own('image') });
		expect(missing.error).toMatchObject({ httpCode: '404' });
	});

	test('User data: get and update the suppressed messages of the signed-in user', async () => {
		const messages = [own('tip'), 'announcement'];
		const updated = await run('userData', 'updateCurrentUserData', { suppressedMessages: { values: messages.map((message) => ({ message })) } });
		expect(updated.error).toBeUndefined();
		expect(updated.items[0].json).toMatchObject({ name: 'admin', suppressedMessages: messages });
		const got = await run('userData', 'getCurrentUserData');
		expect(got.items[0].json.suppressedMessages).toEqual(messages);
		expect((await builder.get('/user-data/current-user', asAdmin())).body.suppressedMessages).toEqual(messages);
	});
});
