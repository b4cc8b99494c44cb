import type { App } from '../../server/src/app';
import { siteUser, siteSuite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { type Client, expectWpError } from '../helpers/server';

/** `builder/v1/components`: create, validate, list, styles, overridable props, publish, locks, archive, renames. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let api: Client;
siteSuite('builder/v1', (site) => ({ server, cms, u, api: api } = site));

const as = (user: SiteUser) => ({ headers: user.headers });
const heading = (text: string) => ({
	id: `h-${text}`,
	elType: 'widget',
	widgetType: 'e-heading',
	settings: { title: text },
	styles: { [`s-${text}`]: { id: `s-${text}`, type: 'class', variants: [] } },
});
const box = (uid: string, title: string, settings?: Record<string, unknown>) => ({
	uid,
	title,
	elements: [{ id: `box-${uid}`, elType: 'e-flexbox', elements: [heading(uid)] }],
	...(settings ? { settings } : {}),
});

async function createComponents(items: unknown[], status = 'publish', user = u.admin) {
	const res = await api.post('/components', { status, items }, as(user));
	expect(res.status).toBe(201);
	return res.body as Record<string, number>;
}

describe('create, list and read back', () => {
	test('components are stored as content of their own type, listed with their uid, styles and overridable props', async () => {
		const ids = await createComponents([box('card', 'Card', { overridable_props: { props: { title: { label: 'Title' } } } }), box('hero', '  Hero <b>x</b> ')]);
		expect(Object.keys(ids)).toEqual(['card', 'hero']);

		const list = await api.get('/components', as(u.contributor));
		expect(list.status).toBe(200);
		expect(list.body).toEqual(
			expect.arrayContaining([
				{ id: ids.card, name: 'Card', uid: 'card', status: 'publish', isArchived: false },
				{ id: ids.hero, name: 'Hero x', uid: 'hero', status: 'publish', isArchived: false },
			]),
		);

		// The elements are the item's `_builder_data`; the type is the builder's component type.
		const row = server.services.store.content.get(ids.card)!;
		expect(row.type).toBe('builder_component');
		const meta = JSON.parse(row.meta);
		expect(meta._builder_template_type).toBe('builder_component');
		expect(JSON.parse(meta._builder_data)[0].id).toBe('box-card');
		// Not a post: cms/v2 does not serve it.
		expectWpError(await cms.get(`/posts/${ids.card}`, u.admin), 404, 'rest_post_invalid_id', 'Invalid post ID.');

		const styles = await api.get('/components/styles', as(u.author));
		expect(styles.body[String(ids.card)]).toEqual({ 's-card': { id: 's-card', type: 'class', variants: [] } });

		const props = await api.get(`/components/overridable-props?componentId=${ids.card}`, as(u.contributor));
		expect(props.body).toEqual({ componentId: ids.card, overridable_props: { props: { title: { label: 'Title' } } } });
		expect((await api.get(`/components/overridable-props?componentId=${ids.hero}`, as(u.admin))).body.overridable_props).toBeNull();
		expectWpError(await api.get('/components/overridable-props?componentId=999999', as(u.admin)), 404, 'rest_builder_component_invalid_id', 'Invalid component ID.');
	});

	test('an autosave stores drafts; publishing them changes their status', async () => {
		const ids = await createComponents([box('draft-a', 'Draft A'), box('draft-b', 'Draft B')], 'autosave');
		expect(server.services.store.content.get(ids['draft-a'])!.status).toBe('draft');
		const res = await api.call('PUT', '/components/status', { status: 'publish', ids: [ids['draft-a'], 999999] }, as(u.admin));
		expect(res.body).toEqual({ success: [ids['draft-a']], failed: [999999] });
		const list = (await api.get('/components', as(u.admin))).body as Array<{ id: number; status: string }>;
		expect(list.find((c) => c.id === ids['draft-a'])!.status).toBe('publish');
		expect(list.find((c) => c.id === ids['draft-b'])!.status).toBe('draft');
		const bad = await api.call('PUT', '/components/status', { status: 'draft', ids: [1] }, as(u.admin));
		expect(bad.status).toBe(400);
		expect(bad.body.data.params.status).toBe('status must be one of: "publish"');
	});
});

describe('validation', () => {
	test('create-validate checks titles and duplicates without storing anything', async () => {
		await createComponents([box('unique', 'Unique')]);
		const before = (await api.get('/components', as(u.admin))).body.length;
		expect((await api.post('/components/create-validate', { items: [box('new-one', 'New one')] }, as(u.admin))).body).toEqual({ valid: true, count: 1 });
		const dup = await api.post('/components/create-validate', { items: [box('other', 'Unique'), box('unique', 'Another')] }, as(u.admin));
		expect(dup.status).toBe(422);
		expect(dup.body).toMatchObject({
			code: 'components_validation_failed',
			message: "Validation failed: Component name 'Unique' is duplicated., Component uid 'unique' is duplicated.",
		});
		// Twice in one request is a duplicate too.
		const twice = await api.post('/components/create-validate', { items: [box('x1', 'Same'), box('x2', 'Same')] }, as(u.admin));
		expect(twice.body.message).toBe("Validation failed: Component name 'Same' is duplicated.");
		expect((await api.get('/components', as(u.admin))).body.length).toBe(before);
	});

	test('bad items name the parameter and the rule; nothing is half-written', async () => {
		const before = (await api.get('/components', as(u.admin))).body.length;
		const missing = await api.post('/components', { items: [box('a', 'Aa')] }, as(u.admin));
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['status'] } });
		const badStatus = await api.post('/components', { status: 'pending', items: [box('a', 'Aa')] }, as(u.admin));
		expect(badStatus.body.data.params.status).toBe('status must be one of: "publish", "draft", "autosave"');
		const short = await api.post('/components', { status: 'publish', items: [box('a', 'Ok title'), box('b', 'B')] }, as(u.admin));
		expect(short.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { items: 'items[1].title must be at least 2 characters long' } } });
		const long = await api.post('/components', { status: 'publish', items: [box('a', 'x'.repeat(201))] }, as(u.admin));
		expect(long.body.data.params.items).toBe('items[0].title must be at most 200 characters long');
		const tags = await api.post('/components', { status: 'publish', items: [box('a', '<i></i>x')] }, as(u.admin));
		expect(tags.body.data.params).toEqual({ 'items[0].title': 'items[0].title must have at least 2 characters of text (tags and surrounding spaces do not count)' });
		const noUid = await api.post('/components', { status: 'publish', items: [{ title: 'No uid', elements: [] }] }, as(u.admin));
		expect(noUid.body.data.params.items).toBe('items[0].uid is required');
		const elements = await api.post('/components', { status: 'publish', items: [{ uid: 'e', title: 'Elements', elements: 'none' }] }, as(u.admin));
		expect(elements.body.data.params.items).toBe('items[0].elements must be an array (got string "none")');
		const notObjects = await api.post('/components', { status: 'publish', items: [{ uid: 'e', title: 'Elements', elements: [1] }] }, as(u.admin));
		expect(notObjects.body.data.params.items).toBe('items[0].elements[0] must be an object (got number 1)');
		const noItems = await api.post('/components', { status: 'publish', items: [] }, as(u.admin));
		expect(noItems.body.data.params.items).toBe('items must have at least 1 items');
		// A duplicate in the second item: the first is not stored either.
		await createComponents([box('taken', 'Taken')]);
		const dup = await api.post('/components', { status: 'publish', items: [box('fresh', 'Fresh'), box('taken2', 'Taken')] }, as(u.admin));
		expect(dup.status).toBe(422);
		expect((await api.get('/components', as(u.admin))).body.length).toBe(before + 1);
	});
});

describe('roles', () => {
	test('reading needs edit_posts, writing manage_options', async () => {
		expectWpError(await api.get('/components'), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await api.get('/components', as(u.subscriber)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await api.get('/components/styles', as(u.subscriber)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await api.post('/components', { status: 'publish', items: [box('ed', 'Editor')] }, as(u.editor)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await api.post('/components/create-validate', { items: [box('ed', 'Editor')] }, as(u.editor)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await api.post('/components/lock', { componentId: 1 }, as(u.editor)), 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
		expectWpError(await api.post('/components/archive', { componentIds: [1], status: 'publish' }), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
	});
});

describe('locks', () => {
	let other: SiteUser;
	beforeAll(() => {
		other = siteUser(server, 'olga', 'administrator');
	});

	test('a lock belongs to a user: others see who holds it and cannot change the component until it is released', async () => {
		const { locked } = await createComponents([box('locked', 'Locked one')]);
		const free = await api.get(`/components/lock-status?componentId=${locked}`, as(u.editor));
		expect(free.body).toEqual({ componentId: locked, is_current_user_allow_to_edit: true, locked_by: null, locked_at: null });

		const lock = await api.post('/components/lock', { componentId: String(locked) }, as(u.admin));
		expect(lock.body).toMatchObject({ locked: true, componentId: locked, locked_by: 'admin' });
		// Locking again renews the caller's own lock.
		expect((await api.post('/components/lock', { componentId: locked }, as(u.admin))).status).toBe(200);

		const seen = await api.get(`/components/lock-status?componentId=${locked}`, as(other));
		expect(seen.body).toMatchObject({ is_current_user_allow_to_edit: false, locked_by: 'admin' });
		expect((await api.get(`/components/lock-status?componentId=${locked}`, as(u.admin))).body.is_current_user_allow_to_edit).toBe(true);

		const refused = 'Component ' + locked + ' is locked by admin.';
		expectWpError(await api.post('/components/lock', { componentId: locked }, as(other)), 409, 'builder_component_locked', refused);
		expectWpError(await api.post('/components/unlock', { componentId: locked }, as(other)), 409, 'builder_component_locked', refused);
		expectWpError(
			await api.post('/components/update-titles', { components: [{ componentId: locked, title: 'Taken over' }], status: 'publish' }, as(other)),
			409,
			'builder_component_locked',
			refused,
		);
		expectWpError(await api.post('/components/archive', { componentIds: [locked], status: 'publish' }, as(other)), 409, 'builder_component_locked', refused);
		expectWpError(await api.call('PUT', '/components/status', { status: 'publish', ids: [locked] }, as(other)), 409, 'builder_component_locked', refused);
		expect(server.services.store.content.get(locked)!.title).toBe('Locked one');

		// The holder may edit; once released, so may the other user.
		const renamed = await api.post('/components/update-titles', { components: [{ componentId: locked, title: 'Locked two' }], status: 'publish' }, as(u.admin));
		expect(renamed.body).toEqual({ successIds: [locked], failedIds: [] });
		expect((await api.post('/components/unlock', { componentId: locked }, as(u.admin))).body).toEqual({ unlocked: true, componentId: locked, was_locked: true });
		expect((await api.get(`/components/lock-status?componentId=${locked}`, as(other))).body.is_current_user_allow_to_edit).toBe(true);
		expect((await api.post('/components/lock', { componentId: locked }, as(other))).body.locked_by).toBe('olga');
		await api.post('/components/unlock', { componentId: locked }, as(other));
	});

	test('lock errors: unknown ids, missing and malformed ids', async () => {
		expectWpError(await api.post('/components/lock', { componentId: 999999 }, as(u.admin)), 404, 'rest_builder_component_invalid_id', 'Invalid component ID.');
		expectWpError(await api.get('/components/lock-status?componentId=999999', as(u.admin)), 404, 'rest_builder_component_invalid_id', 'Invalid component ID.');
		const missing = await api.post('/components/unlock', {}, as(u.admin));
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['componentId'] } });
		const word = await api.get('/components/lock-status?componentId=abc', as(u.admin));
		expect(word.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { componentId: 'componentId must be a component ID (digits)' } } });
		const noId = await api.get('/components/lock-status', as(u.admin));
		expect(noId.body.data.params).toEqual(['componentId']);
		const text = await api.post('/components/lock', { componentId: 'one' }, as(u.admin));
		expect(text.body.data.params.componentId).toBe('componentId must be an integer');
	});
});

describe('archive and renames', () => {
	test('archived components stay listed, marked; renames keep titles unique', async () => {
		const ids = await createComponents([box('arch-a', 'Archive A'), box('arch-b', 'Archive B')]);
		const archived = await api.post('/components/archive', { componentIds: [ids['arch-a'], 424242], status: 'draft' }, as(u.admin));
		expect(archived.body).toEqual({ successIds: [ids['arch-a']], failedIds: [424242] });
		const list = (await api.get('/components', as(u.admin))).body as Array<{ id: number; isArchived: boolean; status: string }>;
		expect(list.find((c) => c.id === ids['arch-a'])).toMatchObject({ isArchived: true, status: 'draft' });
		expect(list.find((c) => c.id === ids['arch-b'])!.isArchived).toBe(false);

		const dup = await api.post('/components/update-titles', { components: [{ componentId: ids['arch-b'], title: 'Archive A' }], status: 'publish' }, as(u.admin));
		expect(dup.status).toBe(422);
		expect(dup.body.message).toBe("Validation failed: Component name 'Archive A' is duplicated.");
		// Swapping two titles in one request is fine.
		const swap = await api.post(
			'/components/update-titles',
			{ components: [{ componentId: ids['arch-a'], title: 'Archive B' }, { componentId: ids['arch-b'], title: 'Archive A' }, { componentId: 777777, title: 'Ghost' }], status: 'publish' },
			as(u.admin),
		);
		expect(swap.body).toEqual({ successIds: [ids['arch-a'], ids['arch-b']], failedIds: [777777] });
		const names = (await api.get('/components', as(u.admin))).body as Array<{ id: number; name: string }>;
		expect(names.find((c) => c.id === ids['arch-a'])!.name).toBe('Archive B');

		const short = await api.post('/components/update-titles', { components: [{ componentId: ids['arch-a'], title: 'A' }], status: 'publish' }, as(u.admin));
		expect(short.body.data.params.components).toBe('components[0].title must be at least 2 characters long');
		const noStatus = await api.post('/components/update-titles', { components: [{ componentId: ids['arch-a'], title: 'Abc' }] }, as(u.admin));
		expect(noStatus.body.data.params).toEqual(['status']);
		const noIds = await api.post('/components/archive', { status: 'publish' }, as(u.admin));
		expect(noIds.body.data.params).toEqual(['componentIds']);
		const badIds = await api.post('/components/archive', { componentIds: ['x'], status: 'publish' }, as(u.admin));
		expect(badIds.body.data.params.componentIds).toBe('componentIds[0] must be an integer');
	});
});
