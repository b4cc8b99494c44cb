import type { App } from '../../server/src/app';
import { PDF, PNG } from '../helpers/files';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { fileItem, firstJson, nodeRunner, siteHarness, type NodeParameters } from '../helpers/nodes';

/** WDM Media: every operation through n8n's engine against a live site, state read back over REST. */

let server: App;
/** The `cms/v2` routes, to set up content and read back what the node did. */
let cms: CmsClient;
let users: SiteUsers;

beforeAll(async () => {
	({ server, cms, u: users } = await startSite());
});
afterAll(() => server.close());

const site = (addressing?: string) => siteHarness(server.url, addressing);
const media = nodeRunner('CUSTOM.wdmMedia', () => site());

const uploaded = async (data: Buffer, mimeType: string, fileName: string, parameters: NodeParameters = {}) =>
	firstJson(await media({ operation: 'upload', ...parameters }, { input: [fileItem(data, mimeType, fileName)] }));

describe.each([
	['index.php?rest_route=', 'restRoute'],
	['/wp-json', 'wpJson'],
])('addressing %s', (_, addressing) => {
	test('Upload, then Download: the same bytes, type and name come back', async () => {
		const up = await media(
			{
				operation: 'upload',
				binaryPropertyName: 'photo',
				options: { title: 'Team photo', alt_text: 'The team', caption: 'All of us', description: 'Taken in May', status: 'publish' },
			},
			{ input: [fileItem(PNG, 'image/png', 'Team Photo.png', 'photo')] },
			site(addressing),
		);
		expect(up.error).toBeUndefined();
		const item = up.items[0].json as any;
		expect(item).toMatchObject({
			type: 'attachment',
			status: 'inherit',
			title: { raw: 'Team photo' },
			alt_text: 'The team',
			caption: { raw: 'All of us' },
			description: { raw: 'Taken in May' },
			mime_type: 'image/png',
			media_type: 'image',
			media_details: { width: 1, height: 1, filesize: PNG.length },
		});
		const read = await cms.get(`/media/${item.id}?context=edit`, users.admin);
		expect(read.body).toMatchObject({ alt_text: 'The team', source_url: item.source_url });

		const down = await media({ operation: 'download', mediaId: item.id, outputPropertyName: 'file' }, {}, site(addressing));
		expect(down.error).toBeUndefined();
		const { json, binary } = down.items[0];
		expect(json).toMatchObject({ id: item.id, source_url: item.source_url });
		expect(binary!.file).toMatchObject({ mimeType: 'image/png', fileName: 'Team-Photo.png' });
		expect(Buffer.from(binary!.file.data, 'base64').equals(PNG)).toBe(true);
	});
});

describe('Upload', () => {
	test('a file name with other characters and a generic type: the type is read from the bytes, the name kept', async () => {
		const item = await uploaded(PDF, 'application/octet-stream', 'Relatório 2024.pdf');
		expect(item).toMatchObject({ mime_type: 'application/pdf', media_type: 'file', title: { raw: 'Relatório 2024' } });
		expect(decodeURIComponent(item.source_url)).toMatch(/\/Relatório-2024\.pdf$/);
		const file = await fetch(item.source_url);
		expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
	});

	test('File Name overrides the binary data\'s own; Attached Post ID attaches it; Private hides it', async () => {
		const post = await cms.create('/posts', users.admin, { title: 'Report post', status: 'publish' });
		const item = await uploaded(PDF, 'application/pdf', 'x.pdf', { fileName: 'annual.pdf', options: { post: post.id, status: 'private' } });
		expect(item).toMatchObject({ post: post.id, status: 'private', title: { raw: 'annual' } });
		expect(item.source_url).toMatch(/\/annual\.pdf$/);
		expect((await fetch(`${server.url}/wp-json/cms/v2/media/${item.id}`)).status).toBe(401);
	});

	test('errors: no binary property, a user who may not upload, an unknown post; continueRegularOutput', async () => {
		const missing = await media({ operation: 'upload' }, { input: [{ json: {} }] });
		expect(missing.error).toMatchObject({ message: 'The input item has no binary property "data"' });

		const reader = siteHarness(server.url, 'restRoute', users.subscriber);
		const refused = await media({ operation: 'upload' }, { input: [fileItem(PNG, 'image/png', 'a.png')] }, reader);
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to upload media on this site.' });
		expect(refused.error?.description).toContain('rest_cannot_create');

		const unknown = await media({ operation: 'upload', options: { post: 999999 } }, { input: [fileItem(PNG, 'image/png', 'a.png')] });
		expect(unknown.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to upload media to this post.' });
		expect(unknown.error?.description).toContain('rest_cannot_edit');

		const run = await media(
			{ operation: 'upload', options: { post: '={{ $json.post }}' } },
			{ input: [fileItem(PNG, 'image/png', 'ok.png', 'data', { post: 0 }), fileItem(PNG, 'image/png', 'bad.png', 'data', { post: 999999 })], onError: 'continueRegularOutput' },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		expect(run.items[0].json).toMatchObject({ mime_type: 'image/png', post: null });
		expect(run.items[1].json).toHaveProperty('error');
	});
});

describe('Get, Get Many, Update, Delete', () => {
	let post: number;
	const ids: Record<string, number> = {};

	beforeAll(async () => {
		post = (await cms.create('/posts', users.admin, { title: 'Gallery post', status: 'publish' })).id;
		ids.png = (await uploaded(PNG, 'image/png', 'gm-a.png', { options: { post } })).id;
		ids.pdf = (await uploaded(PDF, 'application/pdf', 'gm-b.pdf', { options: { post } })).id;
		ids.text = (await uploaded(Buffer.from('notes'), 'text/plain', 'gm-c.txt')).id;
	});

	test('Get: one item, in the context asked for', async () => {
		const view = await media({ operation: 'get', mediaId: ids.png });
		expect(view.error).toBeUndefined();
		expect(view.items[0].json).toMatchObject({ id: ids.png, title: { rendered: 'gm-a' }, post });
		expect(view.items[0].json.title).not.toHaveProperty('raw');
		const edit = await media({ operation: 'get', mediaId: ids.png, context: 'edit' });
		expect(edit.items[0].json.title).toEqual({ raw: 'gm-a', rendered: 'gm-a' });
		const missing = await media({ operation: 'get', mediaId: 999999 });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'Invalid post ID.' });
	});

	test('Get Many: media types, MIME types, attached post, search; Return All and Limit page through', async () => {
		const images = await media({ operation: 'getMany', returnAll: true, filters: { media_type: ['image'], parent: String(post) } });
		expect(images.error).toBeUndefined();
		expect(images.items.map((i) => i.json.id)).toEqual([ids.png]);

		const either = await media({ operation: 'getMany', returnAll: true, filters: { media_type: ['image'], mime_type: ['application/pdf'], parent: `${post}` } });
		expect(either.items.map((i) => i.json.id).sort()).toEqual([ids.png, ids.pdf].sort());

		const text = await media({ operation: 'getMany', returnAll: true, filters: { mime_type: ['text/plain'], search: 'gm' } });
		expect(text.items.map((i) => i.json.id)).toEqual([ids.text]);

		const unattached = await media({ operation: 'getMany', returnAll: true, filters: { parent_exclude: String(post), search: 'gm' } });
		expect(unattached.items.map((i) => i.json.id)).toEqual([ids.text]);

		const ordered = await media({ operation: 'getMany', returnAll: true, filters: { include: `${ids.text}, ${ids.png}` }, options: { orderby: 'include' } });
		expect(ordered.items.map((i) => i.json.id)).toEqual([ids.text, ids.png]);

		const total = Number((await fetch(`${server.url}/wp-json/cms/v2/media?per_page=1`)).headers.get('x-wp-total'));
		const all = await media({ operation: 'getMany', returnAll: true });
		expect(all.items).toHaveLength(total);
		const two = await media({ operation: 'getMany', limit: 2, options: { order: 'asc' } });
		expect(two.items).toHaveLength(2);
		expect((two.items[0].json.id as number) < (two.items[1].json.id as number)).toBe(true);

		const bad = await media({ operation: 'getMany', returnAll: true, options: { orderby: 'relevance' } });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'You need to define a search term to order by relevance.' });
	});

	test('Update: the fields change, read back; others\' media is refused', async () => {
		const run = await media({ operation: 'update', mediaId: ids.text, updateFields: { title: 'Notes', alt_text: 'n', caption: 'c', description: 'd', post, slug: 'my-notes' } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ title: { raw: 'Notes' }, caption: { raw: 'c' }, description: { raw: 'd' }, post, slug: 'my-notes' });
		expect((await cms.get(`/media/${ids.text}?context=edit`, users.admin)).body).toMatchObject({ alt_text: 'n', post, title: { raw: 'Notes' } });

		const detach = await media({ operation: 'update', mediaId: ids.text, updateFields: { post: 0 } });
		expect(detach.items[0].json.post).toBeNull();

		const author = siteHarness(server.url, 'restRoute', users.author);
		const refused = await media({ operation: 'update', mediaId: ids.text, updateFields: { title: 'Mine now' } }, {}, author);
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to edit this post.' });
	});

	test('Delete: gone for good with its file; a second delete is a 404', async () => {
		const item = await uploaded(PNG, 'image/png', 'doomed.png');
		const run = await media({ operation: 'delete', mediaId: item.id });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ deleted: true, previous: { id: item.id } });
		expect((await cms.get(`/media/${item.id}`, users.admin)).status).toBe(404);
		expect((await fetch(item.source_url)).status).toBe(404);
		const again = await media({ operation: 'delete', mediaId: item.id });
		expect(again.error).toMatchObject({ httpCode: '404', message: 'Invalid post ID.' });
	});

	test('Download of an unknown item is the site\'s 404', async () => {
		const run = await media({ operation: 'download', mediaId: 999999 });
		expect(run.error).toMatchObject({ httpCode: '404', message: 'Invalid post ID.' });
	});
});
