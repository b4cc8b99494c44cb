import type { App } from '../../server/src/app';
import { siteUser, startSite, type SiteUsers } from '../helpers/content';
import { firstJson, nodeRunner, siteHarness, type NodeParameters } from '../helpers/nodes';
import { client } from '../helpers/server';

/** WDM Page Builder, resource Component: every operation run by n8n's engine against a live server, in both addressing styles. */

let server: App;
let u: SiteUsers;
let api: ReturnType<typeof client>;

beforeAll(async () => {
	({ server, u } = await startSite());
	api = client(server.url, '/wp-json/builder/v1');
});
afterAll(() => server.close());

const element = (id: string) => ({ id, elType: 'e-flexbox', elements: [], styles: { [`s-${id}`]: { id: `s-${id}`, type: 'class', variants: [] } } });

describe.each(['restRoute', 'wpJson'])('addressing %s', (addressing) => {
	const builder = nodeRunner('CUSTOM.wdmPageBuilder', () => siteHarness(server.url, addressing));
	const run = (operation: string, parameters: NodeParameters = {}) => builder({ resource: 'component', operation, ...parameters });
	const row = (uid: string, title: string, settings = '{}') => ({ uid: `${addressing}-${uid}`, title, elements: JSON.stringify([element(`${addressing}-${uid}`)]), settings });

	test('Validate, Create, Get Many, Get Styles, Get Overridable Props', async () => {
		const items = { component: [row('card', `Card ${addressing}`, '{"overridable_props": {"props": {"t": {"label": "T"}}}}'), row('hero', `Hero ${addressing}`)] };
		expect(firstJson(await run('validateComponents', { componentItems: items }))).toEqual({ valid: true, count: 2 });

		const ids = firstJson(await run('createComponents', { componentStatus: 'draft', componentItems: items }));
		expect(Object.keys(ids)).toEqual([`${addressing}-card`, `${addressing}-hero`]);
		const card = ids[`${addressing}-card`];
		const hero = ids[`${addressing}-hero`];
		expect(server.services.store.content.get(card)!.status).toBe('draft');

		const again = await run('validateComponents', { componentItems: items });
		expect(again.error).toMatchObject({ httpCode: '422', message: `Validation failed: Component name 'Card ${addressing}' is duplicated., Component name 'Hero ${addressing}' is duplicated.` });
		const short = await run('createComponents', { componentStatus: 'publish', componentItems: { component: [row('x', 'X')] } });
		expect(short.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): items' });
		expect(short.error?.description).toContain('items[0].title must be at least 2 characters long');

		const list = await run('getComponents');
		expect(list.error).toBeUndefined();
		expect(list.items.map((i) => i.json)).toEqual(expect.arrayContaining([{ id: card, name: `Card ${addressing}`, uid: `${addressing}-card`, status: 'draft', isArchived: false }]));

		const styles = firstJson(await run('getComponentStyles'));
		expect(styles[String(hero)]).toEqual({ [`s-${addressing}-hero`]: { id: `s-${addressing}-hero`, type: 'class', variants: [] } });

		expect(firstJson(await run('getComponentOverridableProps', { componentId: card }))).toEqual({
			componentId: card,
			overridable_props: { props: { t: { label: 'T' } } },
		});
		const unknown = await run('getComponentOverridableProps', { componentId: 999999 });
		expect(unknown.error).toMatchObject({ httpCode: '404', message: 'Invalid component ID.' });
	});

	test('Publish, Lock, Get Lock Status, Unlock, Update Titles, Archive', async () => {
		const created = (await api.post('/components', { status: 'draft', items: [{ uid: `${addressing}-a`, title: `A ${addressing}`, elements: [] }, { uid: `${addressing}-b`, title: `B ${addressing}`, elements: [] }] }, { headers: u.admin.headers })).body;
		const [a, b] = [created[`${addressing}-a`], created[`${addressing}-b`]];

		expect(firstJson(await run('publishComponents', { componentIds: `${a}, 999999` }))).toEqual({ success: [a], failed: [999999] });
		expect(server.services.store.content.get(a)!.status).toBe('publish');

		expect(firstJson(await run('lockComponent', { componentId: a }))).toMatchObject({ locked: true, componentId: a, locked_by: 'admin' });
		expect(firstJson(await run('getComponentLockStatus', { componentId: a }))).toMatchObject({ is_current_user_allow_to_edit: true, locked_by: 'admin' });
		// Another administrator sees the lock and is refused.
		const other = siteUser(server, `other-${addressing}`, 'administrator');
		const otherNode = nodeRunner('CUSTOM.wdmPageBuilder', () => siteHarness(server.url, addressing, other));
		expect(firstJson(await otherNode({ resource: 'component', operation: 'getComponentLockStatus', componentId: a }))).toMatchObject({ is_current_user_allow_to_edit: false, locked_by: 'admin' });
		const refused = await otherNode({ resource: 'component', operation: 'updateComponentTitles', componentTitles: { title: [{ componentId: a, title: 'Mine' }] }, componentStatus: 'publish' });
		expect(refused.error).toMatchObject({ httpCode: '409', message: `Component ${a} is locked by admin.` });
		expect(firstJson(await run('unlockComponent', { componentId: a }))).toEqual({ unlocked: true, componentId: a, was_locked: true });

		const renamed = firstJson(await run('updateComponentTitles', { componentTitles: { title: [{ componentId: a, title: `A2 ${addressing}` }, { componentId: b, title: `B2 ${addressing}` }] }, componentStatus: 'publish' }));
		expect(renamed).toEqual({ successIds: [a, b], failedIds: [] });
		expect(server.services.store.content.get(b)).toMatchObject({ title: `B2 ${addressing}`, status: 'publish' });

		expect(firstJson(await run('archiveComponents', { componentIds: String(b), componentStatus: 'publish' }))).toEqual({ successIds: [b], failedIds: [] });
		const list = (await run('getComponents')).items.map((i) => i.json);
		expect(list.find((c) => c.id === b)).toMatchObject({ isArchived: true });
		expect(list.find((c) => c.id === a)).toMatchObject({ isArchived: false, name: `A2 ${addressing}` });
	});
});
