import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { client, expectWpError } from '../helpers/server';

/** Document media import, library connect, send-event, feedback, the v4 opt-in and the AI permissions. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let api: ReturnType<typeof client>;

const as = (user: SiteUser) => ({ headers: user.headers });
const FORBIDDEN = 'Sorry, you are not allowed to do that.';
/** A 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	api = client(server.url, '/wp-json/builder/v1');
});
afterAll(() => server.close());

async function upload(user: SiteUser) {
	const res = await fetch(`${server.url}/wp-json/cms/v2/media`, {
		method: 'POST',
		headers: { ...user.headers, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="logo.png"' },
		body: Buffer.from(PNG, 'base64'),
	});
	return (await res.json()) as { id: number; source_url: string };
}

describe('documents media import', () => {
	test('data: URIs become media items of the site, own URLs are linked, others skipped; the document points at them', async () => {
		const logo = await upload(u.editor);
		const data = [
			{ id: 'e1', elType: 'widget', settings: { image: { url: `data:image/png;base64,${PNG}`, id: '' } } },
			{ id: 'e2', elType: 'container', settings: { background_image: { url: logo.source_url, id: 0 } }, elements: [{ id: 'e3', settings: { image: { url: `data:image/png;base64,${PNG}` } } }] },
			{ id: 'e4', settings: { image: { url: 'https://example.com/cat.png', id: 5 }, link: { url: 'data:text/html,<b>x</b>' } } },
		];
		const page = await cms.create('/pages', u.editor, { title: 'With images', status: 'publish', meta: { _builder_data: JSON.stringify(data) } });

		const res = await api.post(`/documents/${page.id}/media/import`, {}, as(u.editor));
		expect(res.status).toBe(200);
		const [created, linked] = res.body.imported;
		expect(res.body.imported).toEqual([
			{ from: 'data', id: created.id, source_url: expect.stringContaining(`/wp-content/uploads/wdm/`) },
			{ from: 'site', id: logo.id, source_url: logo.source_url },
		]);
		expect(linked.id).toBe(logo.id);
		expect(res.body.skipped).toEqual([
			{ url: 'https://example.com/cat.png', reason: 'not on this site (the site has no outside network)' },
			{ url: 'data:text/html,<b>x</b>', reason: 'not an image that can be imported (text/html)' },
		]);

		// The new media item is what cms/v2 serves, attached to the page, its file served at its URL.
		const media = (await cms.get(`/media/${created.id}`, u.anonymous)).body;
		expect(media).toMatchObject({ id: created.id, mime_type: 'image/png', media_details: { width: 1, height: 1 }, post: page.id, source_url: created.source_url });
		const file = await fetch(created.source_url);
		expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(PNG, 'base64'))).toBe(true);

		// The document now points at the media; the same URI twice is one media item.
		const stored = JSON.parse((await cms.get(`/pages/${page.id}`, u.editor, { context: 'edit' })).body.meta._builder_data);
		expect(stored[0].settings.image).toEqual({ url: created.source_url, id: created.id, source: 'library' });
		expect(stored[1].settings.background_image).toEqual({ url: logo.source_url, id: logo.id, source: 'library' });
		expect(stored[1].elements[0].settings.image.id).toBe(created.id);
		expect(stored[2].settings.image).toEqual({ url: 'https://example.com/cat.png', id: 5 });
		expect(res.body.elements).toEqual(stored);

		// Importing again finds only the site's own media: nothing new.
		const again = await api.post(`/documents/${page.id}/media/import`, {}, as(u.editor));
		expect(again.body.imported.every((m: { from: string }) => m.from === 'site')).toBe(true);
		expect((await cms.get('/media', u.editor, { per_page: 100 })).headers.get('x-wp-total')).toBe('2');
	});

	test('components and templates are documents too; errors and roles', async () => {
		const data = [{ id: 'c', settings: { image: { url: `data:image/png;base64,${PNG}` } } }];
		const created = await api.post('/components', { status: 'publish', items: [{ uid: 'img', title: 'With image', elements: data }] }, as(u.admin));
		const componentId = created.body.img;
		const res = await api.post(`/documents/${componentId}/media/import`, {}, as(u.admin));
		expect(res.body.imported).toHaveLength(1);
		expect((await cms.get(`/media/${res.body.imported[0].id}`, u.admin)).body.post).toBeNull();

		expectWpError(await api.post('/documents/999999/media/import', {}, as(u.editor)), 404, 'rest_post_invalid_id', 'Invalid post ID.');
		expectWpError(await api.post('/documents/abc/media/import', {}, as(u.editor)), 404, 'rest_no_route', 'no route matches POST /builder/v1/documents/abc/media/import');
		const other = await cms.create('/posts', u.author2, { title: 'Not yours', status: 'draft', meta: { _builder_data: '[]' } });
		expectWpError(await api.post(`/documents/${other.id}/media/import`, {}, as(u.author)), 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
		const own = await cms.create('/posts', u.contributor, { title: 'Contributor draft', meta: { _builder_data: '[]' } });
		expectWpError(await api.post(`/documents/${own.id}/media/import`, {}, as(u.contributor)), 403, 'rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.');
		expectWpError(await api.post(`/documents/${own.id}/media/import`, {}), 401, 'rest_forbidden', FORBIDDEN);
		const broken = await cms.create('/posts', u.editor, { title: 'Broken', meta: { _builder_data: '{not json' } });
		expectWpError(await api.post(`/documents/${broken.id}/media/import`, {}, as(u.editor)), 400, 'rest_invalid_builder_data', "The document's builder data is not valid JSON.");
		const empty = await cms.create('/posts', u.editor, { title: 'Empty' });
		expect((await api.post(`/documents/${empty.id}/media/import`, {}, as(u.editor))).body).toEqual({ id: empty.id, imported: [], skipped: [], elements: [] });
	});
});

describe('library connect, events, feedback, opt-in', () => {
	test('library connect: a token per user, replaced by a new one, removed by DELETE', async () => {
		const first = await api.post('/library/connect', { token: 'tok-1' }, as(u.editor));
		expect(first.body).toMatchObject({ success: true, connected: true, reconnected: false });
		expect((await api.post('/library/connect', { token: 'tok-2' }, as(u.editor))).body.reconnected).toBe(true);
		// The token is kept as a digest only.
		expect(JSON.stringify(server.services.store.objects.list('builder', 'library-connection'))).not.toContain('tok-2');
		expect((await api.delete('/library/connect', as(u.editor))).body).toEqual({ success: true, connected: false, was_connected: true });
		expect((await api.delete('/library/connect', as(u.editor))).body.was_connected).toBe(false);
		const missing = await api.post('/library/connect', {}, as(u.editor));
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['token'] } });
		expect((await api.post('/library/connect', { token: '  ' }, as(u.editor))).body.data.params.token).toBe('token must be at least 1 characters long');
		expectWpError(await api.post('/library/connect', { token: 'x' }, as(u.subscriber)), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await api.delete('/library/connect'), 401, 'rest_forbidden', FORBIDDEN);
	});

	test('send-event stores events that GET pages through, newest first, the caller’s own', async () => {
		for (const event of ['editor_loaded', 'panel_opened', 'editor_saved']) {
			const res = await api.post('/send-event', { event_data: { event, details: { at: 'top' } } }, as(u.author));
			expect(res.status).toBe(201);
		}
		await api.post('/send-event', { event_data: { event: 'other_user' } }, as(u.editor));
		const page = await api.get('/send-event?per_page=2', as(u.author));
		expect(page.headers.get('x-wp-total')).toBe('3');
		expect(page.body.map((e: { event: string }) => e.event)).toEqual(['editor_saved', 'panel_opened']);
		expect(page.body[0]).toMatchObject({ event_data: { event: 'editor_saved', details: { at: 'top' } } });
		expect((await api.get('/send-event?search=loaded', as(u.author))).body.map((e: { event: string }) => e.event)).toEqual(['editor_loaded']);
		const missing = await api.post('/send-event', {}, as(u.author));
		expect(missing.body.data.params).toEqual(['event_data']);
		expect((await api.post('/send-event', { event_data: 'x' }, as(u.author))).body.data.params.event_data).toBe('event_data must be an object (got string "x")');
		expectWpError(await api.get('/send-event', as(u.subscriber)), 403, 'rest_forbidden', FORBIDDEN);
	});

	test('feedback is stored with who sent it', async () => {
		const res = await api.post('/feedback/submit', { rating: 4, message: 'Nice editor' }, as(u.editor));
		expect(res.status).toBe(201);
		const stored = server.services.store.objects.get<{ user_id: number; data: object }>('builder', 'feedback', String(res.body.id))!.data;
		expect(stored).toMatchObject({ user_id: u.editor.id, data: { rating: 4, message: 'Nice editor' } });
		expect((await api.post('/feedback/submit', { message: 'Again' }, as(u.editor))).body.id).toBe(res.body.id + 1);
		expect((await api.post('/feedback/submit', {}, as(u.editor))).body.data.params.body).toBe('the feedback must have at least one member (e.g. "message")');
		expectWpError(await api.post('/feedback/submit', { message: 'x' }), 401, 'rest_forbidden', FORBIDDEN);
	});

	test('opt-in-v4 is a site setting made once, by administrators', async () => {
		expectWpError(await api.post('/operations/opt-in-v4', {}, as(u.editor)), 403, 'rest_forbidden', FORBIDDEN);
		const first = await api.post('/operations/opt-in-v4', {}, as(u.admin));
		expect(first.body).toMatchObject({ success: true, opted_in: true, already_opted_in: false });
		const again = await api.post('/operations/opt-in-v4', {}, as(u.admin));
		expect(again.body).toMatchObject({ already_opted_in: true, opted_in_at: first.body.opted_in_at });
	});
});

test('the namespace indexes of documents, feedback and builder-ai list their routes', async () => {
	const indexes = [
		['builder/v1/documents', '/builder/v1/documents/(?P<id>\\d+)/media/import', ['POST']],
		['builder/v1/feedback', '/builder/v1/feedback/submit', ['POST']],
		['builder-ai/v1', '/builder-ai/v1/permissions', ['GET']],
	] as const;
	for (const [namespace, path, methods] of indexes) {
		const index = await client(server.url, `/wp-json/${namespace}`).get('', as(u.editor));
		expect(index.status).toBe(200);
		expect(index.body.namespace).toBe(namespace);
		expect(index.body.routes[path].methods).toEqual(methods);
	}
});

describe('builder-ai permissions', () => {
	test('from the role of the signed-in user', async () => {
		const ai = client(server.url, '/wp-json/builder-ai/v1');
		expect((await ai.get('/permissions', as(u.admin))).body).toEqual({
			role: 'administrator',
			can_use_ai: true,
			can_generate_text: true,
			can_generate_code: true,
			can_generate_images: true,
			can_edit_images: true,
			can_manage_settings: true,
			can_connect: true,
		});
		expect((await ai.get('/permissions', as(u.author))).body).toMatchObject({ can_use_ai: true, can_generate_code: false, can_generate_images: true, can_manage_settings: false });
		expect((await ai.get('/permissions', as(u.contributor))).body).toMatchObject({ can_use_ai: true, can_generate_images: false });
		expect((await ai.get('/permissions', as(u.subscriber))).body).toMatchObject({ role: 'subscriber', can_use_ai: false, can_generate_text: false });
		expectWpError(await ai.get('/permissions'), 401, 'rest_forbidden', FORBIDDEN);
	});
});
