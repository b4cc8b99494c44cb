import { ADMIN_KEY, connectedDevice, eventually, expectError, startGateway, type Client, type Device, storedDevice } from '../helpers/server';
import { OGG, PDF, PNG } from '../helpers/files';
import type { App } from '../../server/src/app';

/** POST /send/status: the device's status posts, in the chat status@broadcast. */

const STATUS = 'status@broadcast';

let server: App;
let api: Client;
let sandbox: Client;
let dev: Device;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	dev = await connectedDevice(server, 'poster');
});
afterAll(() => server.close());

const status = (body: unknown, token = dev.token) => api.post('/send/status', body, { token });
const feed = async (token = dev.token) => (await api.post('/message/find', { chatid: STATUS }, { token })).body.data;

describe('POST /send/status', () => {
	test('a text status: stored in status@broadcast as the device\'s own, readable by find', async () => {
		const res = await status({ type: 'text', text: 'Open until 10pm today', background_color: 8, font: 2, track_source: 'promo', track_id: 's-1' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			chatid: STATUS,
			sender: dev.jid,
			fromMe: true,
			isGroup: false,
			messageType: 'text',
			text: 'Open until 10pm today',
			status: 'sent',
			content: { background_color: 8, font: 2 },
			track_source: 'promo',
			track_id: 's-1',
			wasSentByApi: true,
		});
		const found = await feed();
		expect(found.messages.map((m: { id: string }) => m.id)).toContain(res.body.data.id);
		// The status feed is not a conversation: no chat is listed for it.
		expect(server.services.store.chats.get(storedDevice(server.services.store, 'poster')!.id, STATUS)).toBeUndefined();
		await eventually(async () => (await api.post('/message/find', { id: res.body.data.id }, { token: dev.token })).body.data.messages[0].status === 'delivered');
	});

	test('defaults: gray background (19) and the plain font (0); 656 characters is the limit, emoji count once', async () => {
		const res = await status({ type: 'text', text: '😀'.repeat(656) });
		expect(res.status).toBe(200);
		expect(res.body.data.content).toEqual({ background_color: 19, font: 0 });
		expectError(await status({ type: 'text', text: 'x'.repeat(657) }), 400, 'text must be at most 656 characters long for a text status');
	});

	test('an image status with a caption, from Base64; the file is served', async () => {
		const res = await status({ type: 'image', file: PNG.toString('base64'), text: 'New arrivals', thumbnail: 'https://example.com/t.jpg' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ chatid: STATUS, messageType: 'image', text: 'New arrivals', mimetype: 'image/png', content: { size: PNG.length, thumbnail: 'https://example.com/t.jpg' } });
		const file = await fetch(res.body.data.fileURL);
		expect(file.status).toBe(200);
		expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
	});

	test('audio, myaudio and ptt statuses take audio files', async () => {
		for (const type of ['audio', 'myaudio', 'ptt']) {
			const res = await status({ type, file: `data:audio/ogg;base64,${OGG.toString('base64')}` });
			expect(res.status).toBe(200);
			expect(res.body.data).toMatchObject({ messageType: type, mimetype: 'audio/ogg', text: null });
		}
	});

	test('async with a delay: queued at once, published when due; no typing is shown', async () => {
		const started = Date.now();
		const res = await status({ type: 'text', text: 'later', async: true, delay: 300 });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ status: 'queued', chatid: STATUS });
		expect((await sandbox.get('/devices/poster/presence', { key: ADMIN_KEY })).body.data).toEqual([]);
		const sent = await eventually(async () => {
			const m = (await api.post('/message/find', { id: res.body.data.id }, { token: dev.token })).body.data.messages[0];
			return m.status !== 'queued' && m;
		});
		expect(['sent', 'delivered']).toContain(sent.status);
		expect(sent.messageTimestamp).toBeGreaterThanOrEqual(started + 290);
	});

	test('delay without async waits, then publishes', async () => {
		const started = Date.now();
		const res = await status({ type: 'text', text: 'after a pause', delay: 200 });
		expect(res.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(190);
		expect(res.body.data.status).toBe('sent');
	});

	test('status posts stay with the device: another device does not get them', async () => {
		const other = await connectedDevice(server, 'poster-friend');
		await status({ type: 'text', text: 'only mine' });
		expect((await feed(other.token)).total).toBe(0);
	});
});

describe('/send/status errors', () => {
	test('field rules', async () => {
		expectError(await status({}), 400, "type is required");
		expectError(await status({ type: 'document', file: PDF.toString('base64') }), 400, /^type must be one of: "text", "image", "video", "audio", "myaudio", "ptt"/);
		expectError(await status({ type: 'text' }), 400, 'text is required for a text status');
		expectError(await status({ type: 'text', text: '   ' }), 400, 'text is required for a text status');
		expectError(await status({ type: 'image' }), 400, 'file is required for an image status');
		expectError(await status({ type: 'video', text: 'caption only' }), 400, 'file is required for a video status');
		expectError(
			await status({ type: 'image', file: PNG.toString('base64'), background_color: 8, font: 1 }),
			400,
			'background_color applies to text statuses (type "text") only; font applies to text statuses (type "text") only',
		);
		expectError(
			await status({ type: 'text', text: 'x', file: PNG.toString('base64'), mimetype: 'image/png' }),
			400,
			'file applies to media statuses (image, video, audio) only; mimetype applies to media statuses (image, video, audio) only',
		);
		expectError(await status({ type: 'text', text: 'x', background_color: 20 }), 400, 'background_color must be at most 19');
		expectError(await status({ type: 'text', text: 'x', background_color: 0 }), 400, 'background_color must be at least 1');
		expectError(await status({ type: 'text', text: 'x', font: 1.5 }), 400, /^font must be an integer/);
		expectError(await status({ type: 'text', text: 'x', font: 11 }), 400, 'font must be at most 10');
		expectError(await status({ type: 'image', file: PDF.toString('base64') }), 400, 'file: an image message needs an image/* file (got application/pdf)');
		expectError(await status({ type: 'image', file: 'not base64 !' }), 400, 'file must be an http(s) URL, a data URI or Base64 content');
		expectError(await status({ type: 'text', text: 'x', delay: -1 }), 400, 'delay must be at least 0');
	});

	test('fields the route does not list are refused: no number, no reply, no read flags', async () => {
		expectError(await status({ type: 'text', text: 'x', number: '5511988880001' }), 400, 'body has unknown field(s): number');
		expectError(await status({ type: 'text', text: 'x', replyid: 'a', mentions: 'b', readchat: true, forward: true, placeholders: {} }), 400, 'body has unknown field(s): replyid, mentions, readchat, forward, placeholders');
	});

	test('the status feed is not a recipient of the other send routes', async () => {
		expectError(await api.post('/send/text', { number: STATUS, text: 'x' }, { token: dev.token }), 400, "number: status@broadcast is the device's status feed; publish a status with /send/status");
		expectError(
			await api.post('/send/media', { number: STATUS, type: 'image', file: PNG.toString('base64') }, { token: dev.token }),
			400,
			"number: status@broadcast is the device's status feed; publish a status with /send/status",
		);
	});

	test('bad token 401; a device that is not connected cannot publish (500), checked before any download', async () => {
		expectError(await status({ type: 'text', text: 'x' }, 'wrong'), 401, 'invalid instance token');
		expectError(await api.post('/send/status', { type: 'text', text: 'x' }), 401, /^missing instance token/);
		const idle = await api.post('/devices', { name: 'idle-poster' }, { key: ADMIN_KEY });
		const msg = "device 'idle-poster' is not connected (status: disconnected); pair it with a QR code first";
		expectError(await status({ type: 'text', text: 'x' }, idle.body.data.token), 500, msg);
		expectError(await status({ type: 'text', text: 'x', async: true }, idle.body.data.token), 500, msg);
		// The URL would not answer: the device check comes first.
		expectError(await status({ type: 'image', file: 'http://127.0.0.1:1/x.png' }, idle.body.data.token), 500, msg);
		expect((await feed(idle.body.data.token)).total).toBe(0);
	});
});
