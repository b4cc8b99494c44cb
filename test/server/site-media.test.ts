import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';
import { withIptc } from '../helpers/files';
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

/** WordPress's `image_meta` of an image without EXIF or IPTC: written out on purpose, as WordPress answers it (the server's own is what is checked). */
const EMPTY_IMAGE_META = {
	aperture: '0',
	credit: '',
	camera: '',
	caption: '',
	created_timestamp: '0',
	copyright: '',
	focal_length: '0',
	iso: '0',
	shutter_speed: '0',
	title: '',
	orientation: '0',
	keywords: [],
};

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
		expect(media.media_details).toEqual({ width: 40, height: 30, file: expect.stringMatching(/\/Sunset-Photo\.png$/), filesize: data.length, sizes: {}, image_meta: EMPTY_IMAGE_META });
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
		for (const [name, type] of [['page.html', 'text/html'], ['logo.png', 'image/svg+xml'], ['app.js', 'text/javascript']]) {
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
		// WordPress 6.1 links no attached post (`wp:attached-to` came with a later version).
		expect(media._links).not.toHaveProperty('wp:attached-to');
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

	test('post: must be a post or page (400), editable by the uploader (403; no one may edit one that does not exist)', async () => {
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

	test('pages and scripts only from users with unfiltered_html; file types WordPress does not take from nobody', async () => {
		const html = '<script>alert(1)</script>';
		const refused = { code: 'rest_upload_sideload_error', message: 'Sorry, you are not allowed to upload this file type.', data: { status: 500 } };
		for (const [name, type] of [['x.html', 'text/html'], ['x.js', 'text/javascript'], ['x.txt', 'text/html']]) {
			const author = await uploadRaw(u.author, html, { type, name });
			expect(author.status).toBe(500);
			expect(author.body).toMatchObject(refused);
		}
		expect((await uploadRaw(u.editor, html, { type: 'text/html', name: 'x.html' })).status).toBe(201);
		// Not in WordPress's list (no SVG, no programs, unknown extensions), whoever uploads.
		for (const [name, type] of [['logo.svg', 'image/svg+xml'], ['setup.exe', 'application/x-msdownload'], ['tool.xyz', 'application/octet-stream']]) {
			const admin = await uploadRaw(u.admin, html, { type, name });
			expect(admin.status).toBe(500);
			expect(admin.body).toMatchObject(refused);
		}
		expect((await cms.get('/media', u.admin, { search: 'setup' })).body).toEqual([]);
	});

	test('a body over the limit is a 413; other routes read no fields from a text body, as WordPress', async () => {
		const big = await uploadRaw(u.admin, Buffer.alloc(70 * 1024, 1), { type: 'application/octet-stream', name: 'big.bin' });
		expect(big.status).toBe(413);
		const text = await readReply(
			await fetch(`${server.url}/wp-json/cms/v2/posts`, { method: 'POST', headers: { ...u.admin.headers, 'content-type': 'text/plain' }, body: 'title' }),
		);
		expect({ status: text.status, code: text.body.code }).toEqual({ status: 400, code: 'empty_content' });
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
		// The total counts what the list shows, not the hidden item (issue 37; WordPress's `found_posts` counts it).
		expect(anonymous.headers.get('x-wp-total')).toBe('3');
		const author = await cms.get('/media', u.author, { search: 'list', per_page: 100 });
		expect(ids(author.body)).toContain(mine.hidden.id);
		expect(author.headers.get('x-wp-total')).toBe(String(author.body.length));
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
		// An unknown post is stored as given (WordPress checks only the parent's type on update).
		const unknown = await cms.post(`/media/${media.id}`, u.author, { post: 999999 });
		expect(unknown.body).toMatchObject({ post: 999999 });
		expect((await stored(media.id)).post).toBe(999999);
		expect((await cms.get(`/media/${media.id}`, u.anonymous)).status).toBe(200);
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
	test('a post may show an image media item; a file removes it, an unknown id changes nothing (ignored by create and update, as WordPress 6.1)', async () => {
		const image = await upload(u.admin, png(8, 8));
		const post = await createPost(u.admin, { title: 'With image', featured_media: image.id });
		expect(post.featured_media).toBe(image.id);
		expect(post._links['wp:featuredmedia'][0].href).toBe(mediaUrl(`/${image.id}`));
		const pdf = await upload(u.admin, PDF, { name: 'f.pdf', type: 'application/pdf' });
		expect((await cms.post(`/posts/${post.id}`, u.admin, { featured_media: 999999 })).body.featured_media).toBe(image.id);
		expect((await cms.post(`/posts/${post.id}`, u.admin, { featured_media: pdf.id })).body.featured_media).toBe(0);
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
		// A list, as the spec and WordPress 6.9 declare it (6.1: one type), null by default.
		expect(list.media_type).toMatchObject({ type: 'array', items: { type: 'string', enum: ['image', 'video', 'text', 'application', 'audio'] }, default: null });
		expect(list.mime_type).toMatchObject({ type: 'array', items: { type: 'string' }, default: null });
		expect(list.status.default).toBe('inherit');
		const edit = index.body.routes['/cms/v2/media/(?P<id>[\\d]+)/edit'].endpoints[0].args;
		expect(edit.rotation).toMatchObject({ type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 360, exclusiveMaximum: true });
		expect(edit.modifiers.items.oneOf.map((o: { title: string }) => o.title)).toEqual(['Rotation', 'Crop']);
		expect(collection.endpoints[1].args.caption).toMatchObject({ type: 'object', properties: { raw: { context: ['edit'] }, rendered: { readonly: true } } });
		expect(list).toHaveProperty('media_type');
		expect(list).toHaveProperty('mime_type');
		expect(list).toHaveProperty('parent_exclude');
		expect(collection.endpoints[1].args).toHaveProperty('alt_text');
		expect(index.body.routes['/cms/v2/media/(?P<id>[\\d]+)'].methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
	});
});

describe('image sizes and metadata (WordPress 6.x)', () => {
	/** A real image of one colour, made with sharp. */
	const solid = (width: number, height: number, format: 'png' | 'jpeg') =>
		sharp({ create: { width, height, channels: 3, background: '#3a7' } })[format]().toBuffer();

	/** What the site serves at `url`, and the image's real size read back by decoding it. */
	async function served(url: string) {
		const res = await fetch(url);
		const data = Buffer.from(await res.arrayBuffer());
		const decoded = res.status === 200 ? await sharp(data).metadata() : undefined;
		return { status: res.status, type: res.headers.get('content-type'), length: data.length, width: decoded?.width, height: decoded?.height };
	}

	/** An upload to either namespace (the raw body). */
	async function uploadTo(namespace: 'cms/v2' | 'wp/v2', user: SiteUser, data: Buffer, name: string, type: string, query = '') {
		const res = await readReply(
			await fetch(`${server.url}/wp-json/${namespace}/media${query ? `?${query}` : ''}`, {
				method: 'POST',
				headers: { ...user.headers, 'content-type': type, 'content-disposition': `attachment; filename="${name}"` },
				body: data,
			}),
		);
		if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body;
	}

	const sizeUrls = (media: { media_details: { sizes: Record<string, { source_url: string }> } }) => Object.values(media.media_details.sizes).map((s) => s.source_url);

	test.each(['cms/v2', 'wp/v2'] as const)('%s: the default sizes smaller than the original are made, served beside it at their size', async (namespace) => {
		const data = await solid(1600, 1200, 'png');
		const media = await uploadTo(namespace, u.author, data, 'wide.png', 'image/png');
		const { sizes, ...details } = media.media_details;
		expect(details).toEqual({ width: 1600, height: 1200, file: expect.stringMatching(/\/wide\.png$/), filesize: data.length, image_meta: EMPTY_IMAGE_META });
		// WordPress's defaults: thumbnail cropped to 150x150, the others fitted in their box; 2048x2048 is larger than the image.
		const expected: Record<string, [number, number]> = {
			medium: [300, 225],
			large: [1024, 768],
			thumbnail: [150, 150],
			medium_large: [768, 576],
			'1536x1536': [1536, 1152],
			full: [1600, 1200],
		};
		expect(Object.keys(sizes).sort()).toEqual(Object.keys(expected).sort());
		const folder = media.source_url.slice(0, media.source_url.lastIndexOf('/') + 1);
		for (const [name, [width, height]] of Object.entries(expected)) {
			const size = sizes[name];
			const file = name === 'full' ? 'wide.png' : `wide-${width}x${height}.png`;
			expect(size).toEqual({
				file,
				width,
				height,
				...(name === 'full' ? {} : { filesize: expect.any(Number) }),
				mime_type: 'image/png',
				source_url: `${folder}${file}`,
			});
			const got = await served(size.source_url);
			expect(got).toEqual({ status: 200, type: 'image/png', length: name === 'full' ? data.length : size.filesize, width, height });
		}
		expect(sizes.full.source_url).toBe(media.source_url);
		// Nothing is missing, and the item reads back the same in both namespaces.
		const edit = (await cms.get(`/media/${media.id}`, u.author, { context: 'edit' })).body;
		expect(edit.missing_image_sizes).toEqual([]);
		expect(edit.media_details).toEqual(media.media_details);
		const twin = await readReply(await fetch(`${server.url}/wp-json/${namespace === 'wp/v2' ? 'cms/v2' : 'wp/v2'}/media/${media.id}`));
		expect(twin.body.media_details).toEqual(media.media_details);
	});

	test('a JPEG with EXIF: image_meta as WordPress reads it, its title and caption by default; the request wins', async () => {
		const data = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2a6' } })
			.jpeg()
			.withExif({
				IFD0: { Model: 'Testcam X100', Artist: 'Ada Lovelace', Copyright: '(c) Ada', ImageDescription: 'Green field' },
				IFD2: { FNumber: '28/10', ExposureTime: '1/250', ISOSpeedRatings: '200', FocalLength: '50/1', DateTimeDigitized: '2024:01:02 03:04:05' },
			})
			.toBuffer();
		const media = await uploadTo('wp/v2', u.editor, data, 'field.jpg', 'image/jpeg');
		expect(media.media_details.image_meta).toEqual({
			aperture: '2.8',
			credit: 'Ada Lovelace',
			camera: 'Testcam X100',
			caption: 'Green field',
			created_timestamp: String(Date.UTC(2024, 0, 2, 3, 4, 5) / 1000),
			copyright: '(c) Ada',
			focal_length: '50',
			iso: '200',
			shutter_speed: '0.004',
			title: 'Green field',
			orientation: '1',
			keywords: [],
		});
		expect(media).toMatchObject({ title: { raw: 'Green field' }, caption: { raw: 'Green field' } });
		expect(Object.keys(media.media_details.sizes).sort()).toEqual(['full', 'medium', 'thumbnail']);
		expect(await served(media.media_details.sizes.medium.source_url)).toMatchObject({ status: 200, type: 'image/jpeg', width: 300, height: 225 });
		const given = await uploadTo('cms/v2', u.editor, data, 'field.jpg', 'image/jpeg', 'title=Mine&caption=Said+so');
		expect(given).toMatchObject({ title: { raw: 'Mine' }, caption: { raw: 'Said so' } });
	});

	test('a JPEG with IPTC: headline as title, caption, byline as credit, copyright, date and time with its offset, keywords', async () => {
		const base = await solid(320, 240, 'jpeg');
		const data = withIptc(base, [
			[105, 'Harbour at dawn'],
			[120, 'Boats in the morning fog'],
			[80, 'Grace Hopper'],
			[116, '(c) Grace'],
			[55, '20230405'],
			[60, '061500+0200'],
			[25, 'harbour'],
			[25, 'boats'],
		]);
		const media = await uploadTo('wp/v2', u.author, data, 'harbour.jpg', 'image/jpeg');
		expect(media.media_details.image_meta).toEqual({
			...EMPTY_IMAGE_META,
			credit: 'Grace Hopper',
			caption: 'Boats in the morning fog',
			created_timestamp: String(Date.UTC(2023, 3, 5, 4, 15) / 1000),
			copyright: '(c) Grace',
			title: 'Harbour at dawn',
			keywords: ['harbour', 'boats'],
		});
		expect(media).toMatchObject({ title: { raw: 'Harbour at dawn' }, caption: { raw: 'Boats in the morning fog' } });
		// A title that is only a number is not taken: the file name is.
		const numbered = await uploadTo('cms/v2', u.author, withIptc(base, [[105, '2023']]), 'IMG_0042.jpg', 'image/jpeg');
		expect(numbered.title.raw).toBe('IMG_0042');
	});

	test('a JPEG over the big-image threshold (2560) is served scaled; the upload is kept beside it as original_image', async () => {
		const data = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#48c' } }).jpeg({ quality: 40 }).toBuffer();
		const media = await uploadTo('wp/v2', u.author, data, 'big.jpg', 'image/jpeg');
		const details = media.media_details;
		expect(media.source_url).toMatch(/\/big-scaled\.jpg$/);
		expect(details).toMatchObject({ width: 2560, height: 1707, file: expect.stringMatching(/\/big-scaled\.jpg$/), original_image: 'big.jpg' });
		// The sizes are made from the upload (2048x2048 fits in it), named after it.
		const dims = Object.fromEntries(Object.entries(details.sizes as Record<string, { file: string; width: number; height: number }>).map(([k, v]) => [k, [v.file, v.width, v.height]]));
		expect(dims).toEqual({
			medium: ['big-300x200.jpg', 300, 200],
			large: ['big-1024x683.jpg', 1024, 683],
			thumbnail: ['big-150x150.jpg', 150, 150],
			medium_large: ['big-768x512.jpg', 768, 512],
			'1536x1536': ['big-1536x1024.jpg', 1536, 1024],
			'2048x2048': ['big-2048x1365.jpg', 2048, 1365],
			full: ['big-scaled.jpg', 2560, 1707],
		});
		expect(await served(media.source_url)).toMatchObject({ status: 200, type: 'image/jpeg', length: details.filesize, width: 2560, height: 1707 });
		const folder = media.source_url.slice(0, media.source_url.lastIndexOf('/') + 1);
		expect(await served(`${folder}big.jpg`)).toEqual({ status: 200, type: 'image/jpeg', length: data.length, width: 3000, height: 2000 });
		expect(await served(details.sizes['2048x2048'].source_url)).toMatchObject({ status: 200, width: 2048, height: 1365 });
		expect((await cms.get(`/media/${media.id}`, u.author, { context: 'edit' })).body.missing_image_sizes).toEqual([]);
		// Deleted with the item, the upload too.
		expect((await cms.delete(`/media/${media.id}`, u.author, { force: true })).status).toBe(200);
		expect((await served(`${folder}big.jpg`)).status).toBe(404);
		expect((await served(media.source_url)).status).toBe(404);
	});

	test('a JPEG whose EXIF turns it is served upright (-rotated), its sizes too; orientation is then 1', async () => {
		const data = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#c84' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
		const media = await uploadTo('cms/v2', u.editor, data, 'turned.jpg', 'image/jpeg');
		expect(media.source_url).toMatch(/\/turned-rotated\.jpg$/);
		expect(media.media_details).toMatchObject({ width: 240, height: 320, original_image: 'turned.jpg', image_meta: { orientation: 1 } });
		expect(Object.keys(media.media_details.sizes).sort()).toEqual(['full', 'medium', 'thumbnail']);
		expect(media.media_details.sizes.medium).toMatchObject({ file: 'turned-225x300.jpg', width: 225, height: 300 });
		expect(await served(media.source_url)).toMatchObject({ status: 200, width: 240, height: 320 });
		expect(await served(media.media_details.sizes.medium.source_url)).toMatchObject({ status: 200, width: 225, height: 300 });
	});

	test('an image that cannot be decoded keeps its header size; the sizes WordPress would make are missing', async () => {
		const media = await upload(u.admin, png(400, 300));
		expect(media.media_details).toMatchObject({ width: 400, height: 300, sizes: {} });
		expect(media.missing_image_sizes).toEqual(['medium', 'thumbnail']);
		expect((await cms.get(`/media/${media.id}`, u.anonymous)).body).not.toHaveProperty('missing_image_sizes');
	});

	test('an image over 50 megapixels (a decompression bomb is a small file) keeps its size and gets no copies', async () => {
		const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#000' } }).png({ palette: true, colours: 2, compressionLevel: 9 }).toBuffer();
		expect(bomb.length).toBeLessThan(16 * 1024);
		const media = await upload(u.admin, bomb, { name: 'bomb.png' });
		expect(media.media_details).toMatchObject({ width: 8000, height: 8000, sizes: {} });
		expect(media.missing_image_sizes).toEqual(['medium', 'large', 'thumbnail', 'medium_large', '1536x1536', '2048x2048']);
		expect((await served(media.source_url)).status).toBe(200);
	});

	test('any other file: media_details is its size only', async () => {
		const media = await upload(u.admin, PDF, { name: 'sheet.pdf', type: 'application/pdf' });
		expect(media.media_details).toEqual({ filesize: PDF.length, sizes: {} });
		expect(media.missing_image_sizes).toEqual([]);
	});

	test.each(['cms/v2', 'wp/v2'] as const)('%s: deleting the item deletes every size; who may delete it decides', async (namespace) => {
		const media = await uploadTo(namespace, u.author, await solid(800, 600, 'jpeg'), 'gone.jpg', 'image/jpeg');
		const urls = sizeUrls(media);
		expect(urls).toHaveLength(4);
		const files = () => server.services.store.db.prepare('SELECT count(*) AS n FROM attachment_sizes WHERE content_id = ?').get(media.id) as { n: number };
		expect(files().n).toBe(3);
		const remove = async (user: SiteUser) =>
			readReply(await fetch(`${server.url}/wp-json/${namespace}/media/${media.id}?force=true`, { method: 'DELETE', headers: user.headers }));
		expect((await remove(u.contributor)).status).toBe(403);
		expect((await remove(u.author2)).status).toBe(403);
		for (const url of urls) expect((await served(url)).status).toBe(200);
		const gone = await remove(u.editor);
		expect(gone.status).toBe(200);
		expect(gone.body.previous.media_details.sizes).toEqual(media.media_details.sizes);
		expect(gone.body.previous).not.toHaveProperty('_links');
		for (const url of urls) expect((await served(url)).status).toBe(404);
		expect(files().n).toBe(0);
	});

	test('a user deleted with their content takes the files of their images along', async () => {
		const media = await upload(u.author2, await solid(400, 400, 'png'), { name: 'owned.png' });
		const urls = sizeUrls(media);
		expect(urls.length).toBeGreaterThan(1);
		server.services.store.db.prepare('DELETE FROM content WHERE id = ?').run(media.id);
		for (const url of urls) expect((await served(url)).status).toBe(404);
	});
});

describe('post-process (create-image-subsizes)', () => {
	/** An image as an older server stored it: its width, height and size, no sizes made. */
	async function withoutSizes(user: SiteUser) {
		const data = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#963' } }).png().toBuffer();
		const media = await upload(user, data, { name: 'older.png' });
		const { store } = server.services;
		store.db.prepare('DELETE FROM attachment_sizes WHERE content_id = ?').run(media.id);
		store.attachments.setDetails(media.id, JSON.stringify({ width: 640, height: 480, filesize: data.length }));
		return media;
	}

	test.each(['cms/v2', 'wp/v2'] as const)('%s: makes the missing sizes, served at their size; again, nothing more', async (namespace) => {
		const media = await withoutSizes(u.author);
		expect((await stored(media.id)).missing_image_sizes).toEqual(['medium', 'thumbnail']);
		const url = `${server.url}/wp-json/${namespace}/media/${media.id}/post-process`;
		const res = await readReply(await fetch(url, { method: 'POST', headers: { ...u.author.headers, 'content-type': 'application/json' }, body: JSON.stringify({ action: 'create-image-subsizes' }) }));
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ id: media.id, missing_image_sizes: [] });
		expect(res.body.media_details.sizes).toMatchObject({
			medium: { file: 'older-300x225.png', width: 300, height: 225 },
			thumbnail: { file: 'older-150x150.png', width: 150, height: 150 },
			full: { file: 'older.png', width: 640, height: 480 },
		});
		const medium = await fetch(res.body.media_details.sizes.medium.source_url);
		expect(medium.status).toBe(200);
		expect(await sharp(Buffer.from(await medium.arrayBuffer())).metadata()).toMatchObject({ width: 300, height: 225 });
		expect((await stored(media.id)).media_details).toEqual(res.body.media_details);
		// The action may ride in the query string; with every size made there is nothing to do.
		const again = await readReply(await fetch(`${url}?action=create-image-subsizes`, { method: 'POST', headers: u.author.headers }));
		expect(again.body.media_details).toEqual(res.body.media_details);
		const rows = server.services.store.db.prepare('SELECT count(*) AS n FROM attachment_sizes WHERE content_id = ?').get(media.id) as { n: number };
		expect(rows.n).toBe(2);
	});

	test('action required and known; the rights to edit the item; a file other than an image is answered as it is', async () => {
		const media = await withoutSizes(u.author);
		const path = `/media/${media.id}/post-process`;
		const none = await cms.post(path, u.author, {});
		expect(none.status).toBe(400);
		expect(none.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['action'] } });
		const bad = await cms.post(path, u.author, { action: 'make-coffee' });
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('rest_invalid_param');
		const action = { action: 'create-image-subsizes' };
		expect((await cms.post(path, u.anonymous, action)).status).toBe(401);
		const other = await cms.post(path, u.author2, action);
		expect(other.status).toBe(403);
		expect(other.body.code).toBe('rest_cannot_edit');
		expect((await cms.post('/media/999999/post-process', u.admin, action)).body).toMatchObject({ code: 'rest_post_invalid_id', data: { status: 404 } });
		expect((await stored(media.id)).missing_image_sizes).toEqual(['medium', 'thumbnail']);
		expect((await cms.post(path, u.editor, action)).body.missing_image_sizes).toEqual([]);
		const pdf = await upload(u.author, PDF, { name: 'plain.pdf', type: 'application/pdf' });
		const answered = await cms.post(`/media/${pdf.id}/post-process`, u.author, action);
		expect(answered.status).toBe(200);
		expect(answered.body.media_details).toEqual({ filesize: PDF.length, sizes: {} });
	});
});

describe('edit (rotate, crop) into a new media item', () => {
	/** A 400x200 PNG: its left half red, its right half blue, so that a rotation or a crop can be seen. */
	const halves = () =>
		sharp({ create: { width: 400, height: 200, channels: 3, background: '#f00' } })
			.composite([{ input: { create: { width: 200, height: 200, channels: 3, background: '#00f' } }, left: 200, top: 0 }])
			.png()
			.toBuffer();
	/** The colour of a pixel of an image served at `url`, and its size. */
	async function look(url: string, x: number, y: number) {
		const data = Buffer.from(await (await fetch(url)).arrayBuffer());
		const { data: pixels, info } = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
		const at = (y * info.width + x) * 3;
		const [r, , b] = pixels.subarray(at, at + 3);
		return { width: info.width, height: info.height, colour: r > 200 && b < 50 ? 'red' : b > 200 && r < 50 ? 'blue' : 'other' };
	}

	test.each(['cms/v2', 'wp/v2'] as const)('%s: modifiers rotate then crop; a new item with its own sizes, texts copied, the original kept', async (namespace) => {
		const data = await halves();
		const source = await upload(u.author, data, { name: 'halves.png', query: 'alt_text=Two+colours&caption=Red+and+blue&title=Halves' });
		const res = await readReply(
			await fetch(`${server.url}/wp-json/${namespace}/media/${source.id}/edit`, {
				method: 'POST',
				headers: { ...u.author.headers, 'content-type': 'application/json' },
				body: JSON.stringify({
					src: source.source_url,
					modifiers: [
						{ type: 'rotate', args: { angle: 90 } },
						// The top-left quarter of the turned image (200 wide, 400 high): red, the left half now on top.
						// (A crop that keeps a whole side is skipped, as WordPress's is: it crops when both sides change.)
						{ type: 'crop', args: { left: 0, top: 0, width: 50, height: 50 } },
					],
				}),
			}),
		);
		expect(res.status).toBe(201);
		const edited = res.body;
		expect(res.headers.get('location')).toBe(`${server.url}/wp-json/${namespace}/media/${edited.id}`);
		expect(edited.id).not.toBe(source.id);
		expect(edited).toMatchObject({ title: { rendered: 'Halves' }, caption: { rendered: expect.stringContaining('Red and blue') }, alt_text: 'Two colours', post: null });
		expect(edited.source_url).toMatch(/\/halves-edited\.png$/);
		expect(edited.media_details).toMatchObject({ width: 100, height: 200, parent_image: { attachment_id: String(source.id), file: source.media_details.file } });
		expect(edited).not.toHaveProperty('missing_image_sizes');
		expect(Object.keys(edited.media_details.sizes).sort()).toEqual(['full', 'thumbnail']);
		expect(await look(edited.source_url, 50, 100)).toEqual({ width: 100, height: 200, colour: 'red' });
		expect(edited.media_details.sizes.thumbnail).toMatchObject({ width: 100, height: 150 });
		// The original is as it was.
		expect(await look(source.source_url, 300, 100)).toEqual({ width: 400, height: 200, colour: 'blue' });
		expect((await stored(source.id)).media_details).toEqual(source.media_details);
	});

	test('the older fields: rotation, and x, y, width, height; an edit of an edit keeps one -edited', async () => {
		const source = await upload(u.editor, await halves(), { name: 'pair.png' });
		const rotated = await cms.post(`/media/${source.id}/edit`, u.editor, { src: source.source_url, rotation: 180 });
		expect(rotated.status).toBe(201);
		expect(await look(rotated.body.source_url, 100, 100)).toEqual({ width: 400, height: 200, colour: 'blue' });
		const cropped = await cms.post(`/media/${rotated.body.id}/edit`, u.editor, { src: rotated.body.source_url, x: 50, y: 0, width: 50, height: 50 });
		expect(cropped.status).toBe(201);
		expect(cropped.body.source_url).toMatch(/\/pair-edited\.png$/);
		expect(await look(cropped.body.source_url, 10, 10)).toEqual({ width: 200, height: 100, colour: 'red' });
	});

	test('refusals as WordPress: not an image file of the item, no edit, a type it cannot edit, rights, bad arguments', async () => {
		const source = await upload(u.author, await halves(), { name: 'kept.png' });
		const path = `/media/${source.id}/edit`;
		const rotate = { src: source.source_url, rotation: 90 };
		const other = await upload(u.author, await halves(), { name: 'other.png' });
		expect((await cms.post(path, u.author, { src: other.source_url, rotation: 90 })).body).toMatchObject({ code: 'rest_unknown_attachment', data: { status: 404 } });
		expect((await cms.post(path, u.author, { src: source.source_url })).body).toMatchObject({ code: 'rest_image_not_edited', data: { status: 400 } });
		const pdf = await upload(u.author, PDF, { name: 'doc.pdf', type: 'application/pdf' });
		expect((await cms.post(`/media/${pdf.id}/edit`, u.author, { src: pdf.source_url, rotation: 90 })).body.code).toBe('rest_unknown_attachment');
		expect((await cms.post(path, u.author, { rotation: 90 })).body).toMatchObject({ code: 'rest_missing_callback_param' });
		expect((await cms.post(path, u.author, { ...rotate, rotation: 360 })).body.code).toBe('rest_invalid_param');
		expect((await cms.post(path, u.author, { src: source.source_url, modifiers: [{ type: 'blur', args: {} }] })).body.code).toBe('rest_invalid_param');
		expect((await cms.post(path, u.anonymous, rotate)).status).toBe(401);
		const contributor = await cms.post(path, u.contributor, rotate);
		expect(contributor.status).toBe(403);
		expect(contributor.body.code).toBe('rest_cannot_edit_image');
		expect((await cms.post(path, u.author2, rotate)).body).toMatchObject({ code: 'rest_cannot_edit', data: { status: 403 } });
		expect((await cms.post('/media/999999/edit', u.admin, rotate)).status).toBe(404);
		// A crop outside the image fails as WordPress's does (500), and nothing is made.
		const before = (await cms.get('/media', u.admin, { per_page: 100 })).body.length;
		const outside = await cms.post(path, u.author, { src: source.source_url, modifiers: [{ type: 'crop', args: { left: 90, top: 0, width: 50, height: 50 } }] });
		expect(outside.body).toMatchObject({ code: 'rest_image_crop_failed', data: { status: 500 } });
		expect((await cms.get('/media', u.admin, { per_page: 100 })).body.length).toBe(before);
	});
});
