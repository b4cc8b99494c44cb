import { createHash } from 'node:crypto';
import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { expectWpError, readReply, type Reply } from '../helpers/server';

/** `cms/v2/media` over real HTTP: uploads (raw and multipart), the stored file, filters, updates, deletion, rights. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite({ bodyLimit: 64 * 1024 }));
});
afterAll(() => server.close());

// ---- files whose header says their size ----

/** A PNG: signature and IHDR (the size), then IEND; the chunk checksums are not checked by anyone here. */
function png(width: number, height: number): Buffer {
	const ihdr = Buffer.alloc(25);
	ihdr.writeUInt32BE(13, 0);
	ihdr.write('IHDR', 4, 'latin1');
	ihdr.writeUInt32BE(width, 8);
	ihdr.writeUInt32BE(height, 12);
	ihdr.set([8, 2, 0, 0, 0], 16);
	return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.from('0000000049454e44ae426082', 'hex')]);
}

function gif(width: number, height: number): Buffer {
	const head = Buffer.alloc(13);
	head.write('GIF89a', 0, 'latin1');
	head.writeUInt16LE(width, 6);
	head.writeUInt16LE(height, 8);
	return Buffer.concat([head, Buffer.from([0x3b])]);
}

/** A JPEG with an APP0 segment before the frame header (SOF0), as cameras write them. */
function jpeg(width: number, height: number): Buffer {
	const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
	const sof = Buffer.alloc(19);
	sof.set([0xff, 0xc0, 0x00, 0x11, 0x08]);
	sof.writeUInt16BE(height, 5);
	sof.writeUInt16BE(width, 7);
	return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A lossless WebP (VP8L): 14-bit width-1 and height-1 after the signature byte. */
function webp(width: number, height: number): Buffer {
	const body = Buffer.alloc(30);
	body.write('RIFF', 0, 'latin1');
	body.writeUInt32LE(22, 4);
	body.write('WEBPVP8L', 8, 'latin1');
	body.writeUInt32LE(10, 16);
	body[20] = 0x2f;
	body.writeUInt32LE((width - 1) | ((height - 1) << 14), 21);
	return body;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

// ---- requests ----

const mediaUrl = (path = '', query = '') => `${server.url}/wp-json/cms/v2/media${path}${query ? `?${query}` : ''}`;

/** A raw upload: the body is the file; `headers` may override or drop (undefined) the defaults. */
async function uploadRaw(
	user: SiteUser,
	data: Buffer | string,
	options: { name?: string; type?: string; query?: string; headers?: Record<string, string | undefined> } = {},
): Promise<Reply> {
	const headers: Record<string, string | undefined> = {
		...user.headers,
		'content-type': options.type ?? 'image/png',
		'content-disposition': `attachment; filename="${options.name ?? 'photo.png'}"`,
		...options.headers,
	};
	const defined = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
	return readReply(await fetch(mediaUrl('', options.query), { method: 'POST', headers: defined, body: data }));
}

/** A multipart upload through the platform's own FormData (as browsers and most clients send it). */
async function uploadForm(user: SiteUser, fields: Record<string, string>, file?: { data: Buffer; name: string; type?: string }, query = '') {
	const form = new FormData();
	for (const [k, v] of Object.entries(fields)) form.append(k, v);
	if (file) form.append('file', new Blob([file.data], file.type ? { type: file.type } : {}), file.name);
	return readReply(await fetch(mediaUrl('', query), { method: 'POST', headers: user.headers, body: form }));
}

async function upload(user: SiteUser, data: Buffer | string, options: Parameters<typeof uploadRaw>[2] = {}) {
	const res = await uploadRaw(user, data, options);
	if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body;
}

const createPost = (user: SiteUser, body: Record<string, unknown>) => cms.create('/posts', user, body);

const stored = async (id: number) => (await cms.get(`/media/${id}`, u.admin, { context: 'edit' })).body;
const ids = (body: { id: number }[]) => body.map((m) => m.id);

describe('upload', () => {
	test('raw body: 201 with Location; the item in the edit context, read back the same; the file is served as sent', async () => {
		const data = png(40, 30);
		const res = await uploadRaw(u.admin, data, { name: 'Sunset Photo.png' });
		expect(res.status).toBe(201);
		const media = res.body;
		// The `wp` curie comes with `wp:` relations only (the edit context's actions), as WordPress compacts links.
		expect(media._links).toHaveProperty('curies');
		expect((await cms.get(`/media/${media.id}`, u.anonymous)).body._links).not.toHaveProperty('curies');
		expect(res.headers.get('location')).toBe(mediaUrl(`/${media.id}`));
		expect(res.headers.get('x-wp-upload-attachment-id')).toBe(String(media.id));
		expect(media).toMatchObject({
			type: 'attachment',
			status: 'inherit',
			slug: 'sunset-photo',
			title: { raw: 'Sunset Photo', rendered: 'Sunset Photo' },
			link: `${server.url}/?attachment_id=${media.id}`,
			author: u.admin.id,
			featured_media: 0,
			comment_status: 'open',
			ping_status: 'closed',
			template: '',
			alt_text: '',
			caption: { raw: '', rendered: '' },
			description: { raw: '', rendered: '' },
			media_type: 'image',
			mime_type: 'image/png',
			post: null,
			missing_image_sizes: [],
			generated_slug: 'sunset-photo',
		});
		expect(media.media_details).toEqual({ width: 40, height: 30, filesize: data.length, file: expect.stringMatching(/\/Sunset-Photo\.png$/), sizes: {} });
		expect(media.source_url).toMatch(new RegExp(`^${server.url}/wp-content/uploads/wdm/[^/]+/Sunset-Photo\\.png$`));
		expect(media.guid).toEqual({ raw: media.source_url, rendered: media.source_url });
		expect(media).not.toHaveProperty('content');
		expect(media).not.toHaveProperty('password');
		expect(await stored(media.id)).toEqual(media);

		const file = await fetch(media.source_url);
		expect(file.status).toBe(200);
		expect(file.headers.get('content-type')).toBe('image/png');
		expect(Buffer.from(await file.arrayBuffer()).equals(data)).toBe(true);
		expect(file.headers.get('content-disposition')).toBe('inline; filename="Sunset-Photo.png"');
		expect(file.headers.get('x-content-type-options')).toBe('nosniff');
		expect(file.headers.get('content-security-policy')).toBe('sandbox');
	});

	test('an uploaded HTML page or SVG image is served as a download, sandboxed, never sniffed', async () => {
		const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
		for (const [name, type] of [['page.html', 'text/html'], ['logo.svg', 'image/svg+xml'], ['app.js', 'text/javascript']]) {
			const media = await upload(u.admin, svg, { name, type });
			const file = await fetch(media.source_url);
			expect(file.status).toBe(200);
			expect(file.headers.get('content-type')).toBe(type);
			expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
			expect(file.headers.get('x-content-type-options')).toBe('nosniff');
			expect(file.headers.get('content-security-policy')).toBe('sandbox');
		}
	});

	test('fields ride in the query string with a raw body; caption and description are rendered, alt text cleaned', async () => {
		const post = await createPost(u.admin, { title: 'Holiday', status: 'publish' });
		const query = new URLSearchParams({
			title: 'Beach',
			alt_text: ' A <b>sandy</b>\nbeach ',
			caption: 'At noon',
			description: 'First line\n\nSecond',
			post: String(post.id),
			slug: 'beach-shot',
		}).toString();
		const media = await upload(u.admin, png(2, 2), { query });
		expect(media).toMatchObject({
			title: { raw: 'Beach' },
			slug: 'beach-shot',
			alt_text: 'A sandy beach',
			caption: { raw: 'At noon', rendered: '<p>At noon</p>\n' },
			description: { raw: 'First line\n\nSecond', rendered: '<p>First line</p>\n\n<p>Second</p>\n' },
			post: post.id,
		});
		expect(media._links['wp:attached-to']).toEqual([
			{ embeddable: true, href: `${server.url}/wp-json/cms/v2/posts/${post.id}`, post_type: 'post', id: post.id },
		]);
		expect(media._links).not.toHaveProperty('wp:attachment');
		// WordPress's links of an attachment: about its type, its author, its replies; no revisions.
		const rest = `${server.url}/wp-json/cms/v2`;
		expect(media._links).toMatchObject({
			about: [{ href: `${rest}/types/attachment` }],
			author: [{ embeddable: true, href: `${rest}/users/${u.admin.id}` }],
			replies: [{ embeddable: true, href: `${rest}/comments?post=${media.id}` }],
		});
		expect(media._links).not.toHaveProperty('version-history');
		// Edit context: the caller's actions (no publishing of media); none in view context.
		expect(Object.keys(media._links).filter((rel) => rel.startsWith('wp:action-'))).toEqual(['wp:action-unfiltered-html', 'wp:action-assign-author']);
		const viewed = (await cms.get(`/media/${media.id}`, u.anonymous)).body;
		expect(Object.keys(viewed._links).filter((rel) => rel.startsWith('wp:action-'))).toEqual([]);
		expect(viewed.class_list).toEqual([`post-${media.id}`, 'attachment', 'type-attachment', 'status-inherit', 'hentry']);
	});

	test('multipart/form-data: the file in `file`, fields beside it; a generic type is sniffed from the bytes', async () => {
		const data = gif(7, 9);
		const res = await uploadForm(u.admin, { title: 'Tiny', alt_text: 'dot', 'meta[footnotes]': 'fn' }, { data, name: 'my pic (1).gif', type: 'application/octet-stream' });
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({
			title: { raw: 'Tiny' },
			alt_text: 'dot',
			mime_type: 'image/gif',
			media_details: { width: 7, height: 9, filesize: data.length },
			meta: { footnotes: 'fn' },
		});
		expect(res.body.source_url).toMatch(/\/my-pic-1\.gif$/);
		const file = await fetch(res.body.source_url);
		expect(file.headers.get('content-type')).toBe('image/gif');
		expect(Buffer.from(await file.arrayBuffer()).equals(data)).toBe(true);
	});

	test('a hand-written multipart body: quoted boundary, preamble, a `__proto__` field, a `;` in the file name', async () => {
		const data = png(3, 4);
		const body = Buffer.concat([
			Buffer.from(
				'preamble\r\n--b1\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\n{"polluted":true}\r\n' +
					'--b1\r\nContent-Disposition: form-data; name="caption"\r\n\r\nLine one\r\nline two\r\n' +
					'--b1\r\nContent-Disposition: form-data; name="file"; filename="a;b \\"c\\".png"\r\nContent-Type: image/png\r\n\r\n',
			),
			data,
			Buffer.from('\r\n--b1--\r\n'),
		]);
		const res = await readReply(
			await fetch(mediaUrl(), { method: 'POST', headers: { ...u.admin.headers, 'content-type': 'multipart/form-data; boundary="b1"' }, body }),
		);
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ caption: { raw: 'Line one\r\nline two' }, title: { raw: 'a;b "c"' }, media_details: { width: 3, height: 4 } });
		expect(res.body.source_url).toMatch(/\/ab-c\.png$/);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		const file = await fetch(res.body.source_url);
		expect(Buffer.from(await file.arrayBuffer()).equals(data)).toBe(true);
	});

	test('multipart without a title takes the original file name', async () => {
		const res = await uploadForm(u.admin, {}, { data: PDF, name: 'Annual Report.pdf', type: 'application/pdf' });
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ title: { raw: 'Annual Report' }, media_type: 'file', mime_type: 'application/pdf', media_details: { filesize: PDF.length } });
		expect(res.body.media_details).not.toHaveProperty('width');
	});

	test('JPEG and WebP sizes come from their headers; a name without extension gets the type\'s', async () => {
		const photo = await upload(u.admin, jpeg(640, 480), { name: 'camera', type: 'image/jpeg' });
		expect(photo.media_details).toMatchObject({ width: 640, height: 480 });
		expect(photo.source_url).toMatch(/\/camera\.jpg$/);
		const web = await upload(u.admin, webp(300, 200), { name: 'web.webp', type: 'application/octet-stream' });
		expect(web).toMatchObject({ mime_type: 'image/webp', media_details: { width: 300, height: 200 } });
	});

	test('a declared specific type is kept; RFC 5987 file names are read', async () => {
		const res = await uploadRaw(u.admin, 'hello, world\n', {
			type: 'text/plain; charset=utf-8',
			headers: { 'content-disposition': `attachment; filename="na-ve.txt"; filename*=UTF-8''na%C3%AFve.txt` },
		});
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ mime_type: 'text/plain', media_type: 'file', title: { raw: 'naïve' } });
		expect(res.body.source_url).toMatch(/\/na%C3%AFve\.txt$/);
	});

	test('a slug is unique across posts, pages and media', async () => {
		await createPost(u.admin, { title: 'Shared Name', status: 'publish' });
		const media = await upload(u.admin, png(1, 1), { name: 'Shared Name.png' });
		expect(media.slug).toBe('shared-name-2');
	});

	test('Content-MD5 is checked when given', async () => {
		const data = png(3, 3);
		const good = createHash('md5').update(data).digest('hex');
		expect((await uploadRaw(u.admin, data, { headers: { 'content-md5': good } })).status).toBe(201);
		const bad = await uploadRaw(u.admin, data, { headers: { 'content-md5': '0'.repeat(32) } });
		expect(bad.status).toBe(412);
		expect(bad.body).toMatchObject({ code: 'rest_upload_hash_mismatch', message: 'Content hash did not match expected.' });
	});
});

describe('upload errors', () => {
	test('anonymous 401, roles without upload_files 403, before the file is looked at', async () => {
		const anonymous = await uploadRaw(u.anonymous, png(1, 1));
		expectWpError(anonymous, 401, 'rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.');
		for (const user of [u.subscriber, u.contributor]) {
			const res = await uploadRaw(user, Buffer.alloc(0));
			expect(res.status).toBe(403);
			expect(res.body.code).toBe('rest_cannot_create');
		}
		expect((await uploadRaw(u.author, png(1, 1))).status).toBe(201);
	});

	test.each([
		['an empty body', Buffer.alloc(0), {}, 'rest_upload_no_data', 'No data supplied.'],
		['no Content-Type', png(1, 1), { 'content-type': undefined }, 'rest_upload_no_content_type', 'No Content-Type supplied.'],
		['no Content-Disposition', png(1, 1), { 'content-disposition': undefined }, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.'],
		['a disposition without a file name', png(1, 1), { 'content-disposition': 'attachment' }, 'rest_upload_invalid_disposition', /^Invalid Content-Disposition supplied/],
		['a JSON body without disposition', '{"title":"x"}', { 'content-type': 'application/json', 'content-disposition': undefined }, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.'],
	])('400 for %s', async (_what, data, headers, code, message) => {
		const res = await uploadRaw(u.admin, data as Buffer, { headers: headers as Record<string, string | undefined> });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe(code);
		expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
	});

	test('multipart without a file part, with an empty file, or malformed', async () => {
		const noFile = await uploadForm(u.admin, { title: 'x' });
		expect(noFile.status).toBe(400);
		expect(noFile.body.code).toBe('rest_upload_no_data');
		const empty = await uploadForm(u.admin, {}, { data: Buffer.alloc(0), name: 'e.png' });
		expect(empty.body.code).toBe('rest_upload_no_data');
		const broken = await readReply(
			await fetch(mediaUrl(), {
				method: 'POST',
				headers: { ...u.admin.headers, 'content-type': 'multipart/form-data; boundary=XYZ' },
				body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nno closing boundary',
			}),
		);
		expect(broken.status).toBe(400);
		expect(broken.body).toMatchObject({ code: 'rest_upload_invalid_multipart', message: expect.stringContaining('closing boundary') });
	});

	test('invalid fields are WordPress\'s rest_invalid_param with data.params', async () => {
		const res = await uploadRaw(u.admin, png(1, 1), { query: 'status=bogus&post=abc' });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('rest_invalid_param');
		expect(Object.keys(res.body.data.params).sort()).toEqual(['post', 'status']);
		const form = await uploadForm(u.admin, { comment_status: 'maybe' }, { data: png(1, 1), name: 'a.png' });
		expect(form.status).toBe(400);
		expect(form.body.data.params).toHaveProperty('comment_status');
	});

	test('post: must exist (403, as no one may edit it), be a post or page (400), and be editable by the uploader (403)', async () => {
		const missing = await uploadRaw(u.admin, png(1, 1), { query: 'post=999999' });
		expect(missing.status).toBe(403);
		expect(missing.body).toMatchObject({ code: 'rest_cannot_edit', message: 'Sorry, you are not allowed to upload media to this post.' });
		const media = await upload(u.admin, png(1, 1));
		const onMedia = await uploadRaw(u.admin, png(1, 1), { query: `post=${media.id}` });
		expect(onMedia.body).toMatchObject({ code: 'rest_invalid_param', message: 'Invalid parent type.' });
		const others = await createPost(u.editor, { title: 'Editor post', status: 'publish' });
		const denied = await uploadRaw(u.author, png(1, 1), { query: `post=${others.id}` });
		expect(denied.status).toBe(403);
		expect(denied.body).toMatchObject({ code: 'rest_cannot_edit', message: 'Sorry, you are not allowed to upload media to this post.' });
		const own = await createPost(u.author, { title: 'Author post', status: 'publish' });
		expect((await uploadRaw(u.author, png(1, 1), { query: `post=${own.id}` })).status).toBe(201);
	});

	test('pages and scripts only from users with unfiltered_html; others may upload them as plain data', async () => {
		const html = '<script>alert(1)</script>';
		const author = await uploadRaw(u.author, html, { type: 'text/html', name: 'x.html' });
		expect(author.status).toBe(400);
		expect(author.body).toMatchObject({ code: 'rest_upload_sideload_error', message: expect.stringContaining('text/html') });
		expect((await uploadRaw(u.editor, html, { type: 'text/html', name: 'x.html' })).status).toBe(201);
	});

	test('a body over the limit is a 413; other routes still take JSON only', async () => {
		const big = await uploadRaw(u.admin, Buffer.alloc(70 * 1024, 1), { type: 'application/octet-stream', name: 'big.bin' });
		expect(big.status).toBe(413);
		const text = await readReply(
			await fetch(`${server.url}/wp-json/cms/v2/posts`, { method: 'POST', headers: { ...u.admin.headers, 'content-type': 'text/plain' }, body: 'title' }),
		);
		expect(text.status).toBe(415);
	});
});

describe('list', () => {
	let post: { id: number };
	let draft: { id: number };
	const mine: Record<string, { id: number }> = {};

	beforeAll(async () => {
		post = await createPost(u.admin, { title: 'Gallery', status: 'publish' });
		draft = await createPost(u.author, { title: 'Unfinished' });
		mine.png = await upload(u.admin, png(5, 5), { name: 'list-a.png', query: `post=${post.id}` });
		mine.pdf = await upload(u.admin, PDF, { name: 'list-b.pdf', type: 'application/pdf', query: `post=${post.id}` });
		mine.text = await upload(u.admin, 'notes', { name: 'list-c.txt', type: 'text/plain' });
		mine.hidden = await upload(u.author, png(1, 1), { name: 'list-d.png', query: `post=${draft.id}` });
		mine.private = await upload(u.admin, png(1, 1), { name: 'list-e.png', query: 'status=private' });
	});

	test('filters by media_type and mime_type (merged), parent and parent_exclude', async () => {
		const images = await cms.get('/media', u.admin, { parent: post.id, media_type: 'image' });
		expect(ids(images.body)).toEqual([mine.png.id]);
		const either = await cms.get('/media', u.admin, { parent: post.id, media_type: 'image', mime_type: 'application/pdf' });
		expect(ids(either.body).sort()).toEqual([mine.png.id, mine.pdf.id].sort());
		const byMime = await cms.get('/media', u.admin, { mime_type: 'TEXT/PLAIN', search: 'list' });
		expect(ids(byMime.body)).toEqual([mine.text.id]);
		const outside = await cms.get('/media', u.admin, { parent_exclude: post.id, search: 'list' });
		expect(ids(outside.body)).toEqual([mine.hidden.id, mine.text.id]);
		const bad = await cms.get('/media', u.admin, { media_type: 'movie' });
		expect(bad.status).toBe(400);
		expect(bad.body.data.params).toHaveProperty('media_type');
	});

	test('status defaults to inherit; private needs the right to edit posts', async () => {
		const all = await cms.get('/media', u.admin, { search: 'list', per_page: 100 });
		expect(ids(all.body)).not.toContain(mine.private.id);
		const priv = await cms.get('/media', u.admin, { status: 'private' });
		expect(ids(priv.body)).toEqual([mine.private.id]);
		const both = await cms.get('/media', u.admin, { status: ['inherit', 'private'], search: 'list' });
		expect(ids(both.body)).toContain(mine.private.id);
		const anonymous = await cms.get('/media', u.anonymous, { status: 'private' });
		// WordPress's status sanitizer fails: a 400 whose details name the refusal.
		expect(anonymous.status).toBe(400);
		expect(anonymous.body).toMatchObject({ code: 'rest_invalid_param', data: { details: { status: { code: 'rest_forbidden_status', data: { status: 401 } } } } });
		expect((await cms.get('/media', u.admin, { status: 'publish' })).status).toBe(400);
		expect((await cms.get('/media', u.admin, { status: 'trash' })).body).toEqual([]);
	});

	test('an attached item is as readable as its post: media of a draft shows to its author only', async () => {
		const anonymous = await cms.get('/media', u.anonymous, { search: 'list', per_page: 100 });
		expect(ids(anonymous.body).sort()).toEqual([mine.png.id, mine.pdf.id, mine.text.id].sort());
		expect(anonymous.headers.get('x-wp-total')).toBe('3');
		const author = await cms.get('/media', u.author, { search: 'list', per_page: 100 });
		expect(ids(author.body)).toContain(mine.hidden.id);
		expect((await cms.get(`/media/${mine.hidden.id}`, u.anonymous)).status).toBe(401);
		expect((await cms.get(`/media/${mine.hidden.id}`, u.author2)).status).toBe(403);
		expect((await cms.get(`/media/${mine.hidden.id}`, u.author)).status).toBe(200);
		expect((await cms.get(`/media/${mine.private.id}`, u.anonymous)).status).toBe(401);
		expect((await cms.get(`/media/${mine.text.id}`, u.anonymous)).status).toBe(200);
	});

	test('paging headers and Link; view and embed contexts; edit needs edit_posts', async () => {
		const page = await cms.get('/media', u.admin, { search: 'list', per_page: 1, page: 2 });
		expect(page.headers.get('x-wp-total')).toBe('4');
		expect(page.headers.get('x-wp-totalpages')).toBe('4');
		expect(page.headers.get('link')).toContain('rel="prev"');
		expect(page.headers.get('link')).toContain('rel="next"');
		const view = (await cms.get(`/media/${mine.png.id}`, u.anonymous)).body;
		expect(view.title).toEqual({ rendered: 'list-a' });
		expect(view.caption).toEqual({ rendered: '' });
		expect(view).not.toHaveProperty('meta');
		expect(view).toHaveProperty('post', post.id);
		const embed = (await cms.get(`/media/${mine.png.id}`, u.anonymous, { context: 'embed' })).body;
		expect(embed).not.toHaveProperty('description');
		expect(embed).not.toHaveProperty('post');
		expect(embed).toHaveProperty('source_url');
		expect((await cms.get('/media', u.subscriber, { context: 'edit' })).body.code).toBe('rest_forbidden_context');
		expect((await cms.get('/media/abc', u.admin)).body.code).toBe('rest_no_route');
		expect((await cms.get('/media/999999', u.admin)).body).toMatchObject({ code: 'rest_post_invalid_id', data: { status: 404 } });
		expect((await cms.get(`/posts/${mine.png.id}`, u.admin)).status).toBe(404);
	});
});

describe('update', () => {
	test('POST, PUT and PATCH change the writable fields; read back', async () => {
		const media = await upload(u.author, png(1, 1), { name: 'edit-me.png' });
		const post = await createPost(u.author, { title: 'Mine', status: 'publish' });
		const a = await cms.post(`/media/${media.id}`, u.author, { title: 'New title', alt_text: 'Alt', caption: { raw: 'Cap' }, post: post.id });
		expect(a.status).toBe(200);
		expect(a.body).toMatchObject({ title: { raw: 'New title' }, alt_text: 'Alt', caption: { raw: 'Cap' }, post: post.id, slug: 'edit-me' });
		const b = await cms.put(`/media/${media.id}`, u.author, { description: 'Desc', slug: 'renamed' });
		expect(b.body).toMatchObject({ description: { raw: 'Desc' }, slug: 'renamed', alt_text: 'Alt' });
		const c = await cms.patch(`/media/${media.id}`, u.author, { post: 0, status: 'private' });
		expect(c.body).toMatchObject({ post: null, status: 'private' });
		expect(await stored(media.id)).toMatchObject({ title: { raw: 'New title' }, description: { raw: 'Desc' }, post: null, status: 'private' });
		// `publish` (or any status but private) is `inherit` for media, as WordPress stores it.
		expect((await cms.post(`/media/${media.id}`, u.author, { status: 'publish' })).body.status).toBe('inherit');
	});

	test('rights and checks: others\' media, unknown post, bad fields', async () => {
		const media = await upload(u.author, png(1, 1));
		const other = await cms.post(`/media/${media.id}`, u.author2, { title: 'x' });
		expect(other.status).toBe(403);
		expect(other.body.code).toBe('rest_cannot_edit');
		expect((await cms.post(`/media/${media.id}`, u.anonymous, { title: 'x' })).status).toBe(401);
		expect((await cms.post(`/media/${media.id}`, u.editor, { title: 'By the editor' })).status).toBe(200);
		expect((await cms.post(`/media/${media.id}`, u.author, { post: 999999 })).body.code).toBe('rest_cannot_edit');
		expect((await cms.post(`/media/${media.id}`, u.author, { alt_text: 5 })).body.data.params).toHaveProperty('alt_text');
		expect((await cms.post('/media/999999', u.admin, { title: 'x' })).status).toBe(404);
	});
});

describe('delete', () => {
	test('no trash: without force 501; with force the item and its file go', async () => {
		const media = await upload(u.author, png(4, 4));
		const noForce = await cms.delete(`/media/${media.id}`, u.author);
		expect(noForce.status).toBe(501);
		expect(noForce.body).toMatchObject({ code: 'rest_trash_not_supported', message: "The post does not support trashing. Set 'force=true' to delete." });
		expect((await cms.delete(`/media/${media.id}`, u.anonymous, { force: true })).status).toBe(401);
		expect((await cms.delete(`/media/${media.id}`, u.author2, { force: true })).status).toBe(403);
		const gone = await cms.delete(`/media/${media.id}`, u.author, { force: true });
		expect(gone.status).toBe(200);
		expect(gone.body).toMatchObject({ deleted: true, previous: { id: media.id, source_url: media.source_url } });
		expect((await cms.get(`/media/${media.id}`, u.admin)).status).toBe(404);
		expect((await fetch(media.source_url)).status).toBe(404);
		const row = server.services.store.db.prepare('SELECT count(*) AS n FROM attachments WHERE content_id = ?').get(media.id) as { n: number };
		expect(row.n).toBe(0);
	});
});

describe('delete of the post', () => {
	test('its media stay, attached to nothing, and public again', async () => {
		const post = await createPost(u.author, { title: 'Short-lived' });
		const media = await upload(u.author, png(2, 2), { query: `post=${post.id}` });
		expect((await cms.get(`/media/${media.id}`, u.anonymous)).status).toBe(401);
		expect((await cms.delete(`/posts/${post.id}`, u.author, { force: true })).status).toBe(200);
		const after = await cms.get(`/media/${media.id}`, u.anonymous);
		expect(after.status).toBe(200);
		expect(after.body.post).toBeNull();
	});
});

describe('featured media of posts', () => {
	test('a post may show an image media item; not a file, not an unknown id (an update refuses them, a creation ignores them as WordPress does)', async () => {
		const image = await upload(u.admin, png(8, 8));
		const post = await createPost(u.admin, { title: 'With image', featured_media: image.id });
		expect(post.featured_media).toBe(image.id);
		expect(post._links['wp:featuredmedia'][0].href).toBe(mediaUrl(`/${image.id}`));
		const pdf = await upload(u.admin, PDF, { name: 'f.pdf', type: 'application/pdf' });
		expect((await cms.post(`/posts/${post.id}`, u.admin, { featured_media: pdf.id })).body.code).toBe('rest_invalid_featured_media');
		expect((await cms.post(`/posts/${post.id}`, u.admin, { featured_media: 999999 })).body.code).toBe('rest_invalid_featured_media');
		expect((await cms.post('/posts', u.admin, { title: 'PDF', featured_media: pdf.id })).body.featured_media).toBe(0);
	});
});

describe('index', () => {
	test('the media routes are listed with their arguments', async () => {
		const index = await readReply(await fetch(`${server.url}/wp-json/cms/v2`));
		const collection = index.body.routes['/cms/v2/media'];
		expect(collection.methods).toEqual(['GET', 'POST']);
		const list = collection.endpoints[0].args;
		expect(list.status.items.enum).toEqual(['inherit', 'private', 'trash']);
		expect(list.media_type.items.enum).toEqual(['image', 'video', 'text', 'application', 'audio']);
		expect(list).toHaveProperty('media_type');
		expect(list).toHaveProperty('mime_type');
		expect(list).toHaveProperty('parent_exclude');
		expect(collection.endpoints[1].args).toHaveProperty('alt_text');
		expect(index.body.routes['/cms/v2/media/(?P<id>[^/]+)'].methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
	});
});
