import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_KEY, connectedDevice, eventually, findMessage, startGateway, type Client, type Device } from '../helpers/server';
import type { App } from '../../server/src/app';

/** POST /send/media (URL, Base64, data URI), the stored file at `fileURL`, and POST /message/download. */

const CONTACT = '5511999990001';
const MEDIA_TIMEOUT_MS = 300;
const MEDIA_MAX_BYTES = 4096;

/** A real 1x1 PNG. */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 1)]);

/** The files the test's own web server hands out, and how often each was asked for. */
let files: http.Server;
let filesUrl: string;
const hits = new Map<string, number>();
const timers = new Set<NodeJS.Timeout>();

function serveTestFiles(req: http.IncomingMessage, res: http.ServerResponse) {
	const path = (req.url ?? '/').split('?')[0];
	hits.set(path, (hits.get(path) ?? 0) + 1);
	const later = (ms: number, fn: () => void) => {
		const t = setTimeout(() => {
			timers.delete(t);
			fn();
		}, ms);
		timers.add(t);
	};
	switch (path) {
		case '/pic.png':
			return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
		case '/download':
			// No useful type from the server: the content says what it is.
			return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PNG);
		case '/files/report%202024.pdf':
			return res.writeHead(200, { 'content-type': 'application/pdf; charset=binary' }).end(PDF);
		case '/bad%zz.png':
			return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
		case '/slow':
			return later(2000, () => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
		case '/trickle': {
			// Answers at once, then sends a byte every 50 ms: never idle, but far too slow overall.
			res.writeHead(200, { 'content-type': 'image/png' });
			let i = 0;
			const drip = () => {
				if (res.destroyed) return;
				if (i >= PNG.length) return void res.end();
				res.write(PNG.subarray(i, ++i));
				later(50, drip);
			};
			return drip();
		}
		case '/big.png':
			return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG, Buffer.alloc(MEDIA_MAX_BYTES)]));
		case '/big-chunked.png':
			res.writeHead(200, { 'content-type': 'image/png' });
			res.write(PNG);
			return res.end(Buffer.alloc(MEDIA_MAX_BYTES));
		default:
			return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
	}
}

let server: App;
let api: Client;
let sandbox: Client;
let dev: Device;

beforeAll(async () => {
	files = http.createServer(serveTestFiles);
	await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
	filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
	({ server, api, sandbox } = await startGateway({ mediaTimeoutMs: MEDIA_TIMEOUT_MS, mediaMaxBytes: MEDIA_MAX_BYTES }));
	dev = await connectedDevice(server, 'media');
});
afterAll(async () => {
	for (const t of timers) clearTimeout(t);
	files.closeAllConnections();
	await new Promise((resolve) => files.close(resolve));
	await server.close();
});

const sendMedia = (body: Record<string, unknown>, token = dev.token) => api.post('/send/media', body, { token });
const download = (body: Record<string, unknown>, token = dev.token) => api.post('/message/download', body, { token });

/** Fetches a `fileURL` and returns its bytes and headers. */
async function fetchFile(url: string) {
	const res = await fetch(url);
	return { status: res.status, type: res.headers.get('content-type'), length: res.headers.get('content-length'), data: Buffer.from(await res.arrayBuffer()) };
}

const findOne = (id: string) => findMessage(api, dev.token, id);

describe('POST /send/media from a URL', () => {
	test('downloads, stores and serves the file back at fileURL', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/pic.png`, text: 'a pixel' });
		expect(res.status).toBe(200);
		const m = res.body.data;
		expect(m).toMatchObject({
			messageType: 'image',
			text: 'a pixel',
			mimetype: 'image/png',
			fileName: 'pic.png',
			status: 'sent',
			content: { size: PNG.length },
		});
		expect(m.fileURL).toMatch(new RegExp(`^${server.url}/wp-content/uploads/wdm/[0-9a-f]{32}/pic\\.png$`));
		const served = await fetchFile(m.fileURL);
		expect(served).toMatchObject({ status: 200, type: 'image/png', length: String(PNG.length) });
		expect(served.data.equals(PNG)).toBe(true);
		expect((await findOne(m.id)).fileURL).toBe(m.fileURL);
	});

	test('an octet-stream answer is typed from its content', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/download` });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ mimetype: 'image/png', fileName: 'download' });
		expect((await fetchFile(res.body.data.fileURL)).type).toBe('image/png');
	});

	test('the URL path gives the file name (decoded), the Content-Type the MIME type', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'document', file: `${filesUrl}/files/report%202024.pdf` });
		expect(res.body.data).toMatchObject({ mimetype: 'application/pdf', fileName: 'report 2024.pdf' });
		expect(res.body.data.fileURL).toMatch(/\/report%202024\.pdf$/);
		const served = await fetchFile(res.body.data.fileURL);
		expect(served.type).toBe('application/pdf');
		expect(served.data.equals(PDF)).toBe(true);
	});

	test('a file name that is not valid percent-encoding is kept as written', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/bad%zz.png` });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ mimetype: 'image/png', fileName: 'bad%zz.png' });
		expect((await fetchFile(res.body.data.fileURL)).data.equals(PNG)).toBe(true);
	});

	test('a URL nothing answers on is a clear 400', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: 'http://127.0.0.1:1/x.png' });
		expect(res).toMatchObject({ status: 400, body: { success: false, message: 'file: could not fetch http://127.0.0.1:1/x.png' } });
	});

	test('a URL that answers too slowly is a clear 400', async () => {
		const started = Date.now();
		const res = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/slow` });
		expect(res.status).toBe(400);
		expect(res.body.message).toBe(`file: could not fetch ${filesUrl}/slow: it took longer than ${MEDIA_TIMEOUT_MS} ms`);
		expect(Date.now() - started).toBeLessThan(1500);
	});

	test('a URL that never goes idle but takes too long overall is a clear 400 too', async () => {
		const started = Date.now();
		const res = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/trickle` });
		expect(res.status).toBe(400);
		expect(res.body.message).toBe(`file: could not fetch ${filesUrl}/trickle: it took longer than ${MEDIA_TIMEOUT_MS} ms`);
		expect(Date.now() - started).toBeLessThan(1500);
	});

	test('a file larger than mediaMaxBytes is a 400, with or without Content-Length', async () => {
		for (const name of ['big.png', 'big-chunked.png']) {
			const res = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/${name}` });
			expect(res.status).toBe(400);
			expect(res.body.message).toBe(`file: could not fetch ${filesUrl}/${name}: it is larger than ${MEDIA_MAX_BYTES} bytes`);
		}
	});

	test('a URL that answers 404 is a 400 that does not repeat the status (the server is no probe of other hosts)', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/missing.png` });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ success: false, message: `file: could not fetch ${filesUrl}/missing.png` });
	});

	test('nothing is downloaded for a message that could not go out', async () => {
		hits.delete('/pic.png');
		const created = await api.post('/devices', { name: 'media-offline' }, { key: ADMIN_KEY });
		const offline = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/pic.png` }, created.body.data.token);
		expect(offline.status).toBe(500);
		expect(offline.body.message).toMatch(/^device 'media-offline' is not connected/);
		await sandbox.post('/numbers', { number: '5511999990099', onNetwork: false }, { key: ADMIN_KEY });
		const absent = await sendMedia({ number: '5511999990099', type: 'image', file: `${filesUrl}/pic.png` });
		expect(absent).toMatchObject({ status: 500, body: { success: false, message: '5511999990099 is not on the network' } });
		const badReply = await sendMedia({ number: CONTACT, type: 'image', file: `${filesUrl}/pic.png`, replyid: 'nope' });
		expect(badReply).toMatchObject({ status: 400, body: { message: 'replyid: no message with id "nope" on this device' } });
		expect(hits.get('/pic.png')).toBeUndefined();
	});
});

describe('POST /send/media from Base64', () => {
	test('plain Base64: MIME type detected from the content, file name from it', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: PNG.toString('base64') });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ mimetype: 'image/png', fileName: 'file.png', content: { size: PNG.length } });
		expect((await fetchFile(res.body.data.fileURL)).data.equals(PNG)).toBe(true);
	});

	test('Base64 with line breaks and base64url are read too', async () => {
		const wrapped = PNG.toString('base64').replace(/(.{20})/g, '$1\n');
		expect((await sendMedia({ number: CONTACT, type: 'image', file: wrapped })).body.data.mimetype).toBe('image/png');
		const url = await sendMedia({ number: CONTACT, type: 'sticker', file: PNG.toString('base64url') });
		expect(url.status).toBe(200);
		expect((await fetchFile(url.body.data.fileURL)).data.equals(PNG)).toBe(true);
	});

	test('a data URI gives its MIME type', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: `data:image/png;base64,${PNG.toString('base64')}` });
		expect(res.body.data).toMatchObject({ mimetype: 'image/png', fileName: 'file.png' });
		const served = await fetchFile(res.body.data.fileURL);
		expect(served.type).toBe('image/png');
		expect(served.data.equals(PNG)).toBe(true);
	});

	test('a PDF is detected from its header; docName is the file name', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'document', file: PDF.toString('base64'), docName: 'Invoice #7.pdf', text: 'your invoice' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ messageType: 'document', mimetype: 'application/pdf', fileName: 'Invoice #7.pdf', text: 'your invoice' });
		expect(res.body.data.fileURL).toMatch(/\/Invoice%20%237\.pdf$/);
		const served = await fetchFile(res.body.data.fileURL);
		expect(served.type).toBe('application/pdf');
		expect(served.data.equals(PDF)).toBe(true);
		// Without docName the name comes from the detected type.
		expect((await sendMedia({ number: CONTACT, type: 'document', file: PDF.toString('base64') })).body.data.fileName).toBe('file.pdf');
	});

	test('unknown content: the docName extension, else application/octet-stream; a given mimetype wins', async () => {
		const csv = Buffer.from('a,b\n1,2\n').toString('base64');
		expect((await sendMedia({ number: CONTACT, type: 'document', file: csv, docName: 'table.csv' })).body.data.mimetype).toBe('text/csv');
		expect((await sendMedia({ number: CONTACT, type: 'document', file: csv })).body.data).toMatchObject({
			mimetype: 'application/octet-stream',
			fileName: 'file.bin',
		});
		const given = await sendMedia({ number: CONTACT, type: 'document', file: csv, mimetype: 'text/plain' });
		expect(given.body.data).toMatchObject({ mimetype: 'text/plain', fileName: 'file.txt' });
		expect((await fetchFile(given.body.data.fileURL)).type).toBe('text/plain');
	});

	test('caption placeholders, thumbnail, track fields and forward are kept', async () => {
		const res = await sendMedia({
			number: CONTACT,
			type: 'video',
			file: Buffer.from('fake video').toString('base64'),
			mimetype: 'video/mp4',
			text: 'for {{who}}',
			placeholders: { who: 'Ana' },
			thumbnail: 'data:image/png;base64,AAAA',
			track_source: 'media-test',
			track_id: 'v1',
			forward: true,
		});
		expect(res.status).toBe(200);
		const m = await findOne(res.body.data.id);
		expect(m).toMatchObject({
			messageType: 'video',
			text: 'for Ana',
			mimetype: 'video/mp4',
			fileName: 'file.mp4',
			forwarded: true,
			track_source: 'media-test',
			track_id: 'v1',
			content: { size: 10, thumbnail: 'data:image/png;base64,AAAA' },
		});
	});

	test('a voice note with a delay shows recording first', async () => {
		const number = '5511999990070';
		const pending = sendMedia({ number, type: 'ptt', file: OGG.toString('base64'), mimetype: 'audio/ogg', delay: 300 });
		const shown = await eventually(async () => {
			const res = await sandbox.get('/devices/media/presence', { key: ADMIN_KEY });
			return res.body.data.find((p: { chatid: string }) => p.chatid === `${number}@s.whatsapp.net`);
		});
		expect(shown.presence).toBe('recording');
		const res = await pending;
		expect(res.body.data).toMatchObject({ messageType: 'ptt', mimetype: 'audio/ogg', status: 'sent' });
		expect((await sandbox.get('/devices/media/presence', { key: ADMIN_KEY })).body.data).toEqual([]);
	});

	test('async media: queued at once with its file already served, sent by the queue', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: PNG.toString('base64'), async: true });
		expect(res.body.data).toMatchObject({ status: 'queued', mimetype: 'image/png' });
		expect((await fetchFile(res.body.data.fileURL)).data.equals(PNG)).toBe(true);
		await eventually(async () => (await findOne(res.body.data.id)).status === 'delivered');
	});

	test('the type must match the file', async () => {
		const pdfAsImage = await sendMedia({ number: CONTACT, type: 'image', file: PDF.toString('base64') });
		expect(pdfAsImage.status).toBe(400);
		expect(pdfAsImage.body.message).toBe('file: an image message needs an image/* file (got application/pdf)');
		const pngAsAudio = await sendMedia({ number: CONTACT, type: 'ptt', file: PNG.toString('base64') });
		expect(pngAsAudio.body.message).toBe('file: a ptt message needs an audio/* file (got image/png)');
		const declared = await sendMedia({ number: CONTACT, type: 'video', file: PNG.toString('base64'), mimetype: 'image/png' });
		expect(declared.status).toBe(400);
		// A document takes any file.
		expect((await sendMedia({ number: CONTACT, type: 'document', file: PNG.toString('base64') })).status).toBe(200);
	});

	test('invalid fields', async () => {
		const cases: [Record<string, unknown>, string | RegExp][] = [
			[{ number: CONTACT, type: 'image' }, 'file is required'],
			[{ number: CONTACT, file: PNG.toString('base64') }, "type is required"],
			[{ number: CONTACT, type: 'gif', file: PNG.toString('base64') }, /^type must be one of/],
			[{ number: CONTACT, type: 'image', file: '' }, 'file must be at least 1 characters long'],
			[{ number: CONTACT, type: 'image', file: 'not base64 %%%' }, 'file must be an http(s) URL, a data URI or Base64 content'],
			[{ number: CONTACT, type: 'image', file: 'ftp://example.com/a.png' }, 'file must be an http(s) URL, a data URI or Base64 content'],
			[{ number: CONTACT, type: 'image', file: PNG.toString('base64'), mimetype: 'png' }, 'mimetype must be a MIME type such as image/png'],
			[{ number: CONTACT, type: 'document', file: PDF.toString('base64'), docName: '' }, 'docName must be at least 1 characters long'],
			[{ number: CONTACT, type: 'image', file: PNG.toString('base64'), caption: 'x' }, 'body has unknown field(s): caption'],
			[{ number: CONTACT, type: 'image', file: PNG.toString('base64'), delay: 300001 }, 'delay must be at most 300000'],
			[{ number: 'abc', type: 'image', file: PNG.toString('base64') }, /^number must be an international phone number/],
		];
		for (const [body, message] of cases) {
			const res = await sendMedia(body);
			expect({ body, status: res.status, success: res.body.success }).toEqual({ body, status: 400, success: false });
			if (typeof message === 'string') expect(res.body.message).toBe(message);
			else expect(res.body.message).toMatch(message);
		}
	});

	test('Base64 larger than mediaMaxBytes is a 400', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'document', file: Buffer.alloc(MEDIA_MAX_BYTES + 1, 7).toString('base64') });
		expect(res).toMatchObject({ status: 400, body: { message: `file is larger than ${MEDIA_MAX_BYTES} bytes` } });
	});

	test('wrong token is 401 before anything else', async () => {
		const res = await sendMedia({ number: CONTACT, type: 'image', file: PNG.toString('base64') }, 'bad');
		expect(res).toMatchObject({ status: 401, body: { success: false, message: 'invalid instance token' } });
	});
});

describe('stored files', () => {
	test('an unknown file id is 404', async () => {
		const res = await fetch(`${server.url}/wp-content/uploads/wdm/${'0'.repeat(32)}/x.png`);
		expect(res.status).toBe(404);
	});

	test('every file is served with nosniff and a sandbox CSP; only passive types are inline', async () => {
		const served = async (file: string, mimetype?: string) => {
			const res = await sendMedia({ number: CONTACT, type: 'document', file: Buffer.from(file).toString('base64'), mimetype, docName: 'f' });
			expect(res.status).toBe(200);
			const got = await fetch(res.body.data.fileURL);
			expect(got.headers.get('x-content-type-options')).toBe('nosniff');
			expect(got.headers.get('content-security-policy')).toBe('sandbox');
			return { type: got.headers.get('content-type'), disposition: got.headers.get('content-disposition')?.split(';')[0] };
		};
		const page = '<html><script>alert(document.cookie)</script></html>';
		expect(await served(page, 'text/html')).toEqual({ type: 'text/html', disposition: 'attachment' });
		for (const active of ['application/xhtml+xml', 'image/svg+xml', 'text/xml', 'application/xml', 'text/javascript', 'application/pdf', 'application/octet-stream']) {
			expect(await served(page, active)).toMatchObject({ disposition: 'attachment' });
		}
		for (const passive of ['text/plain', 'image/png', 'audio/ogg', 'video/mp4']) {
			expect(await served('x', passive)).toEqual({ type: passive, disposition: 'inline' });
		}
	});
});

describe('POST /message/download', () => {
	let image: { id: string; fileURL: string; messageid: string };
	let audio: { id: string };
	let text: { id: string };

	beforeAll(async () => {
		image = (await sendMedia({ number: CONTACT, type: 'image', file: PNG.toString('base64') })).body.data;
		audio = (await sendMedia({ number: CONTACT, type: 'audio', file: OGG.toString('base64'), mimetype: 'audio/ogg' })).body.data;
		text = (await api.post('/send/text', { number: CONTACT, text: 'no media' }, { token: dev.token })).body.data;
	});

	test('by default answers the link and the file details', async () => {
		const res = await download({ id: image.id });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({ id: image.id, mimetype: 'image/png', fileName: 'file.png', size: PNG.length, fileURL: image.fileURL });
	});

	test('return_base64 gives the content; return_link false leaves the link out', async () => {
		const res = await download({ id: image.messageid, return_base64: true, return_link: false });
		expect(res.body.data).toEqual({ id: image.id, mimetype: 'image/png', fileName: 'file.png', size: PNG.length, base64Data: PNG.toString('base64') });
		const both = await download({ id: image.id, return_base64: true });
		expect(both.body.data).toMatchObject({ fileURL: image.fileURL, base64Data: PNG.toString('base64') });
	});

	test('download_quoted gives the media of the quoted message', async () => {
		const reply = (await api.post('/send/text', { number: CONTACT, text: 'about that pic', replyid: image.id }, { token: dev.token })).body.data;
		const res = await download({ id: reply.id, download_quoted: true, return_base64: true });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ id: image.id, mimetype: 'image/png', fileURL: image.fileURL, base64Data: PNG.toString('base64') });
		const notQuoting = await download({ id: text.id, download_quoted: true });
		expect(notQuoting).toMatchObject({ status: 400, body: { message: `download_quoted: message "${text.id}" does not quote another message` } });
	});

	test('media that arrived from a contact can be downloaded', async () => {
		const inbound = await sandbox.post(
			'/devices/media/inbound',
			{ from: '5511999990080', type: 'document', file: PDF.toString('base64'), fileName: 'contract.pdf' },
			{ key: ADMIN_KEY },
		);
		expect(inbound.body.data).toMatchObject({ fromMe: false, mimetype: 'application/pdf', fileName: 'contract.pdf' });
		const res = await download({ id: inbound.body.data.id, return_base64: true });
		expect(Buffer.from(res.body.data.base64Data, 'base64').equals(PDF)).toBe(true);
	});

	test('generate_mp3 and transcribe are a clear 501: nothing is configured for them', async () => {
		const mp3 = await download({ id: audio.id, generate_mp3: true });
		expect(mp3).toMatchObject({
			status: 501,
			body: { success: false, message: 'generate_mp3: this server has no audio converter configured; download the original audio instead' },
		});
		const transcribe = await download({ id: audio.id, transcribe: true, vendor_apikey: 'sk-test' });
		expect(transcribe).toMatchObject({
			status: 501,
			body: { success: false, message: 'transcribe: this server has no transcription vendor configured, so it cannot transcribe audio' },
		});
		expect(await download({ id: image.id, generate_mp3: true })).toMatchObject({ status: 400, body: { message: 'generate_mp3 applies to audio messages only' } });
	});

	test('errors: unknown id, no media, bad fields, wrong token', async () => {
		expect(await download({ id: 'nope' })).toMatchObject({ status: 404, body: { success: false, message: 'id: no message with id "nope" on this device' } });
		expect(await download({ id: text.id })).toMatchObject({ status: 400, body: { message: `id: message "${text.id}" has no media to download` } });
		expect(await download({})).toMatchObject({ status: 400, body: { message: 'id is required' } });
		expect(await download({ id: image.id, return_base64: 'yes' })).toMatchObject({ status: 400, body: { message: 'return_base64 must be a boolean (got string "yes")' } });
		expect(await download({ id: image.id, extra: 1 })).toMatchObject({ status: 400, body: { message: 'body has unknown field(s): extra' } });
		expect(await download({ id: image.id }, 'bad')).toMatchObject({ status: 401 });
		// Another device cannot download this device's media by id.
		const other = await connectedDevice(server, 'media-other');
		expect((await download({ id: image.id }, other.token)).status).toBe(404);
	});
});
