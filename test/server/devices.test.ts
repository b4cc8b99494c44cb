import Database from 'better-sqlite3';
import path from 'node:path';
import { ADMIN_KEY, connectedDevice, eventually, startGateway, tempDataDir, type Client, storedDevice } from '../helpers/server';
import zlib from 'node:zlib';
import { sleep } from '../helpers/webhooks';
import type { App } from '../../server/src/app';
import { Store } from '../../server/src/store';
import { migrations } from '../../server/src/store/schema';

/** Device routes (Bearer): create, list, delete, QR, status, logout, and the pairing lifecycle. */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A 1x1 PNG, to give a device a media message through the sandbox. */
const PIXEL_PNG =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/**
 * Decodes a `data:image/png;base64,` URI and checks it is a whole PNG: signature, chunks with valid
 * CRCs, IHDR first and IEND last, and image data that inflates to exactly the size IHDR announces.
 */
function png(dataUri: string) {
	const match = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUri);
	if (!match) throw new Error(`not a PNG data URI: ${dataUri.slice(0, 40)}`);
	const bytes = Buffer.from(match[1], 'base64');
	const chunks: { type: string; data: Buffer }[] = [];
	for (let at = 8; at < bytes.length; ) {
		const length = bytes.readUInt32BE(at);
		const type = bytes.subarray(at + 4, at + 8);
		const data = bytes.subarray(at + 8, at + 8 + length);
		if (zlib.crc32(data, zlib.crc32(type)) !== bytes.readUInt32BE(at + 8 + length)) throw new Error(`bad CRC in ${type}`);
		chunks.push({ type: type.toString('ascii'), data });
		at += 12 + length;
	}
	const ihdr = chunks[0].data;
	const [width, height, bitDepth, colorType] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]];
	const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType]!;
	const pixels = zlib.inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
	return {
		signature: bytes.subarray(0, 8),
		chunkTypes: chunks.map((c) => c.type),
		width,
		height,
		// Each row: one filter byte, then the pixels.
		dataComplete: pixels.length === height * (1 + Math.ceil((width * channels * bitDepth) / 8)),
	};
}

describe('manual pairing', () => {
	let server: App;
	let api: Client;
	let sandbox: Client;
	const key = ADMIN_KEY;

	beforeAll(async () => {
		({ server, api, sandbox } = await startGateway({ qrTtlMs: 1000 }));
	});
	afterAll(() => server.close());

	describe('POST /devices', () => {
		test('creates a disconnected device and answers 201 with its instance token', async () => {
			const before = Date.now();
			const res = await api.post('/devices', { name: 'create-1' }, { key });
			expect(res.status).toBe(201);
			expect(res.body.success).toBe(true);
			expect(res.body.data).toEqual({
				name: 'create-1',
				status: 'disconnected',
				phone: null,
				jid: null,
				profileName: 'create-1',
				isBusiness: true,
				createdAt: expect.any(Number),
				lastDisconnect: null,
				lastDisconnectReason: null,
				token: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/),
			});
			expect(res.body.data.createdAt).toBeGreaterThanOrEqual(before);
			expect(res.body.data.createdAt).toBeLessThanOrEqual(Date.now());

			// The token is a working instance token for this device.
			const find = await api.post('/message/find', {}, { token: res.body.data.token });
			expect(find.status).toBe(200);
			expect(find.body.data.messages).toEqual([]);
		});

		test('keeps a given profile name and trims the name', async () => {
			const res = await api.post('/devices', { name: '  create_2  ', profileName: 'My Shop' }, { key });
			expect(res.status).toBe(201);
			expect(res.body.data).toMatchObject({ name: 'create_2', profileName: 'My Shop' });
			expect((await api.get('/devices/create_2/status', { key })).body.data.profileName).toBe('My Shop');
		});

		test('a name the user already has is 409; another user may have the same name (names are per user)', async () => {
			await api.post('/devices', { name: 'dup' }, { key });
			const again = await api.post('/devices', { name: 'dup' }, { key });
			expect(again.status).toBe(409);
			expect(again.body).toEqual({ success: false, message: "you already have a device named 'dup'" });

			const bob = server.services.store.users.create('bob-dup').apiKey;
			const other = await api.post('/devices', { name: 'dup' }, { key: bob });
			expect(other.status).toBe(201);
			expect(other.body.data.token).not.toBe(again.body.data?.token);
			// Each user sees and drives their own `dup`.
			expect((await api.get('/devices', { key: bob })).body.data.map((d: { name: string }) => d.name)).toEqual(['dup']);
			expect((await api.delete('/devices/dup', { key: bob })).status).toBe(200);
			expect((await api.get('/devices/dup/status', { key })).status).toBe(200);
			expect((await api.get('/devices/dup/status', { key: bob })).status).toBe(404);
		});

		test.each([
			[{ name: 'has space' }, 'name must be 1 to 64 letters, digits, "-" or "_"'],
			[{ name: 'x'.repeat(65) }, 'name must be 1 to 64 letters, digits, "-" or "_"'],
			[{ name: 'ünïcode' }, 'name must be 1 to 64 letters, digits, "-" or "_"'],
			[{ name: '' }, 'name must be 1 to 64 letters, digits, "-" or "_"'],
			[{ name: 5 }, 'name must be a string (got number 5)'],
			[{}, 'name is required'],
			[{ name: 'ok-name', profileName: 'p'.repeat(101) }, 'profileName must be at most 100 characters long'],
			[{ name: 'ok-name', profileName: true }, 'profileName must be a string (got boolean true)'],
		])('invalid body %j is 400: %s', async (body, message) => {
			const res = await api.post('/devices', body, { key });
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ success: false, message });
		});

		test('an invalid name creates nothing', async () => {
			const names = (await api.get('/devices', { key })).body.data.map((d: { name: string }) => d.name);
			expect(names).not.toContain('has space');
			expect(names).not.toContain('ok-name');
		});

		test('a 64-character name is accepted', async () => {
			const name = 'n'.repeat(64);
			const res = await api.post('/devices', { name }, { key });
			expect(res.status).toBe(201);
			expect(res.body.data.name).toBe(name);
		});
	});

	describe('GET /devices', () => {
		test("lists only the caller's devices, each with its token", async () => {
			const carol = server.services.store.users.create('carol').apiKey;
			const a = await api.post('/devices', { name: 'carol-a' }, { key: carol });
			const b = await api.post('/devices', { name: 'carol-b' }, { key: carol });
			const list = await api.get('/devices', { key: carol });
			expect(list.status).toBe(200);
			expect(list.body.data).toEqual([a.body.data, b.body.data]);
			expect(list.body.data.map((d: { token: string }) => d.token)).toEqual([a.body.data.token, b.body.data.token]);

			const mine = (await api.get('/devices', { key })).body.data.map((d: { name: string }) => d.name);
			expect(mine).toContain('create-1');
			expect(mine).not.toContain('carol-a');
		});

		test('a new user has no devices', async () => {
			const dave = server.services.store.users.create('dave').apiKey;
			expect((await api.get('/devices', { key: dave })).body).toEqual({ success: true, data: [] });
		});
	});

	describe('QR code and pairing', () => {
		test('GET qr puts the device in connecting with a real PNG QR and a pair code', async () => {
			await api.post('/devices', { name: 'qr-1' }, { key });
			const before = Date.now();
			const res = await api.get('/devices/qr-1/qr', { key });
			expect(res.status).toBe(200);
			expect(res.body.data).toMatchObject({ name: 'qr-1', status: 'connecting', phone: null, jid: null });
			expect(res.body.data.paircode).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
			expect(res.body.data.expiresAt).toBeGreaterThanOrEqual(before + 1000);
			expect(res.body.data.expiresAt).toBeLessThanOrEqual(Date.now() + 1000);
			expect(res.body.data).not.toHaveProperty('token');

			const image = png(res.body.data.qrcode);
			expect(image.signature.equals(PNG_SIGNATURE)).toBe(true);
			expect(image.chunkTypes[0]).toBe('IHDR');
			expect(image.chunkTypes).toContain('IDAT');
			expect(image.chunkTypes.at(-1)).toBe('IEND');
			expect(image.width).toBe(264);
			expect(image.height).toBe(264);
			expect(image.dataComplete).toBe(true);

			// The status route shows the same pending QR.
			const status = await api.get('/devices/qr-1/status', { key });
			expect(status.body.data).toMatchObject({
				status: 'connecting',
				connected: false,
				qrcode: res.body.data.qrcode,
				paircode: res.body.data.paircode,
				expiresAt: res.body.data.expiresAt,
			});
		});

		test('the same QR is returned while valid, a new one after it expires', async () => {
			await api.post('/devices', { name: 'qr-ttl' }, { key });
			const first = (await api.get('/devices/qr-ttl/qr', { key })).body.data;
			const second = (await api.get('/devices/qr-ttl/qr', { key })).body.data;
			expect(second.qrcode).toBe(first.qrcode);
			expect(second.paircode).toBe(first.paircode);
			expect(second.expiresAt).toBe(first.expiresAt);

			await sleep(first.expiresAt - Date.now() + 5);
			const renewed = (await api.get('/devices/qr-ttl/qr', { key })).body.data;
			expect(renewed.status).toBe('connecting');
			expect(renewed.qrcode).not.toBe(first.qrcode);
			expect(renewed.paircode).not.toBe(first.paircode);
			expect(renewed.expiresAt).toBeGreaterThan(first.expiresAt);
			expect(png(renewed.qrcode)).toMatchObject({ width: 264, height: 264, dataComplete: true });
			expect((await api.get('/devices/qr-ttl/status', { key })).body.data.qrcode).toBe(renewed.qrcode);
		});

		test('parallel QR requests all get the one QR the device keeps', async () => {
			await api.post('/devices', { name: 'qr-race' }, { key });
			const answers = await Promise.all(Array.from({ length: 6 }, () => api.get('/devices/qr-race/qr', { key })));
			expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
			const status = (await api.get('/devices/qr-race/status', { key })).body.data;
			expect(new Set(answers.map((a) => a.body.data.qrcode))).toEqual(new Set([status.qrcode]));
		});

		test('the sandbox completes the pairing with a chosen phone', async () => {
			await api.post('/devices', { name: 'pair-1' }, { key });
			await api.get('/devices/pair-1/qr', { key });
			const paired = await sandbox.post('/devices/pair-1/pair', { phone: '5511988887777' }, { key });
			expect(paired.status).toBe(200);
			expect(paired.body.data).toMatchObject({
				name: 'pair-1',
				status: 'connected',
				phone: '5511988887777',
				jid: '5511988887777@s.whatsapp.net',
			});

			const status = await api.get('/devices/pair-1/status', { key });
			expect(status.body.data).toMatchObject({ status: 'connected', connected: true, phone: '5511988887777' });
			expect(status.body.data).not.toHaveProperty('qrcode');
			expect(status.body.data).not.toHaveProperty('paircode');
			const listed = (await api.get('/devices', { key })).body.data.find((d: { name: string }) => d.name === 'pair-1');
			expect(listed).toMatchObject({ status: 'connected', phone: '5511988887777' });
		});

		test('pairing without a phone hands out a new simulated number', async () => {
			const a = await connectedDevice(server, 'pair-auto-number-a');
			const b = await connectedDevice(server, 'pair-auto-number-b');
			expect(a.phone).toMatch(/^551199\d{8}$/);
			expect(b.phone).toMatch(/^551199\d{8}$/);
			expect(b.phone).not.toBe(a.phone);
			expect(a.jid).toBe(`${a.phone}@s.whatsapp.net`);
		});

		test('QR on a connected device answers it connected, with no code (nothing to pair), and leaves it connected', async () => {
			const res = await api.get('/devices/pair-1/qr', { key });
			expect(res.status).toBe(200);
			expect(res.body.data).toMatchObject({ name: 'pair-1', status: 'connected', phone: '5511988887777', qrcode: null, paircode: null, expiresAt: null });
			expect((await api.get('/devices/pair-1/status', { key })).body.data.status).toBe('connected');
		});

		test('a phone connected on another device is 409; the device stays connecting', async () => {
			await api.post('/devices', { name: 'pair-clash' }, { key });
			await api.get('/devices/pair-clash/qr', { key });
			const res = await sandbox.post('/devices/pair-clash/pair', { phone: '5511988887777' }, { key });
			expect(res.status).toBe(409);
			expect(res.body).toEqual({ success: false, message: "phone 5511988887777 is already connected on device 'pair-1'" });
			expect((await api.get('/devices/pair-clash/status', { key })).body.data).toMatchObject({ status: 'connecting', phone: null });

			// Another phone works.
			const ok = await sandbox.post('/devices/pair-clash/pair', { phone: '5511988886666' }, { key });
			expect(ok.body.data).toMatchObject({ status: 'connected', phone: '5511988886666' });
		});

		test('pairing a device that has no QR yet is 400', async () => {
			await api.post('/devices', { name: 'pair-noqr' }, { key });
			const res = await sandbox.post('/devices/pair-noqr/pair', {}, { key });
			expect(res.status).toBe(400);
			expect(res.body).toEqual({
				success: false,
				message: "device 'pair-noqr' is disconnected; request a QR code first to start pairing",
			});
			expect((await api.get('/devices/pair-noqr/status', { key })).body.data.status).toBe('disconnected');
		});

		test.each([
			[{ phone: '12ab' }, 'phone must be 8 to 15 digits'],
			[{ phone: '1'.repeat(16) }, 'phone must be 8 to 15 digits'],
			[{ phone: 5511988880000 }, 'phone must be a string (got number 5511988880000)'],
			[{ phone: '5511988880000', extra: 1 }, 'body has unknown field(s): extra'],
		])('sandbox pair with %j is 400: %s', async (body, message) => {
			await api.post('/devices', { name: 'pair-bad' }, { key });
			await api.get('/devices/pair-bad/qr', { key });
			const res = await sandbox.post('/devices/pair-bad/pair', body, { key });
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ success: false, message });
			expect((await api.get('/devices/pair-bad/status', { key })).body.data.status).toBe('connecting');
		});
	});

	describe('logout', () => {
		test('a connected device goes disconnected with the time and reason', async () => {
			const d = await connectedDevice(server, 'logout-1', key, '5511977776666');
			const before = Date.now();
			const res = await api.post('/devices/logout-1/logout', undefined, { key });
			expect(res.status).toBe(200);
			expect(res.body.data).toMatchObject({
				name: 'logout-1',
				status: 'disconnected',
				phone: null,
				jid: null,
				lastDisconnectReason: 'logout',
			});
			expect(res.body.data.lastDisconnect).toBeGreaterThanOrEqual(before);
			expect(res.body.data.lastDisconnect).toBeLessThanOrEqual(Date.now());

			const status = (await api.get('/devices/logout-1/status', { key })).body.data;
			expect(status).toMatchObject({ status: 'disconnected', connected: false, lastDisconnect: res.body.data.lastDisconnect, lastDisconnectReason: 'logout' });
			expect(status).not.toHaveProperty('qrcode');

			// A disconnected device cannot send.
			const send = await api.post('/send/text', { number: '5511999990001', text: 'hi' }, { token: d.token });
			expect(send.status).toBe(500);
			expect(send.body.success).toBe(false);
			expect(send.body.message).toContain('not connected');
		});

		test('logging out ends the typing indicators the device was showing', async () => {
			const d = await connectedDevice(server, 'logout-presence');
			const typing = await api.post('/message/presence', { number: '5511999990002', presence: 'composing' }, { token: d.token });
			expect(typing.status).toBe(200);
			expect((await sandbox.get('/devices/logout-presence/presence', { key })).body.data).toEqual([
				expect.objectContaining({ chatid: '5511999990002@s.whatsapp.net', presence: 'composing' }),
			]);
			await api.post('/devices/logout-presence/logout', undefined, { key });
			expect((await sandbox.get('/devices/logout-presence/presence', { key })).body.data).toEqual([]);
		});

		test('logging out again changes nothing', async () => {
			const first = (await api.get('/devices/logout-1/status', { key })).body.data;
			const again = await api.post('/devices/logout-1/logout', {}, { key });
			expect(again.status).toBe(200);
			expect(again.body.data).toMatchObject({ status: 'disconnected', lastDisconnect: first.lastDisconnect, lastDisconnectReason: 'logout' });
		});

		test('pairing again after logout keeps the phone number', async () => {
			const qr = await api.get('/devices/logout-1/qr', { key });
			expect(qr.body.data.status).toBe('connecting');
			const paired = await sandbox.post('/devices/logout-1/pair', {}, { key });
			expect(paired.status).toBe(200);
			expect(paired.body.data).toMatchObject({ status: 'connected', phone: '5511977776666', jid: '5511977776666@s.whatsapp.net' });
			// The last disconnect stays on record.
			expect(paired.body.data.lastDisconnectReason).toBe('logout');
		});

		test('logging out a connecting device drops its QR', async () => {
			await api.post('/devices', { name: 'logout-connecting' }, { key });
			await api.get('/devices/logout-connecting/qr', { key });
			const res = await api.post('/devices/logout-connecting/logout', undefined, { key });
			expect(res.body.data).toMatchObject({ status: 'disconnected', lastDisconnectReason: 'logout' });
			const status = (await api.get('/devices/logout-connecting/status', { key })).body.data;
			expect(status.status).toBe('disconnected');
			expect(status).not.toHaveProperty('qrcode');
			const pair = await sandbox.post('/devices/logout-connecting/pair', {}, { key });
			expect(pair.status).toBe(400);
		});

		test('a phone kept by a logged-out device can be taken by another device, and then is 409 for the first', async () => {
			const first = await connectedDevice(server, 'keep-1', key, '5511966665555');
			await api.post('/devices/keep-1/logout', undefined, { key });
			const second = await connectedDevice(server, 'keep-2', key, '5511966665555');
			expect(second.phone).toBe(first.phone);

			await api.get('/devices/keep-1/qr', { key });
			const res = await sandbox.post('/devices/keep-1/pair', {}, { key });
			expect(res.status).toBe(409);
			expect(res.body.message).toBe("phone 5511966665555 is already connected on device 'keep-2'");
		});
	});

	describe('DELETE /devices/{name}', () => {
		const count = (table: string, deviceId: string) =>
			(server.services.store.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE device_id = ?`).get(deviceId) as { n: number }).n;

		test('removes the device with its messages, chats, webhooks and media', async () => {
			const d = await connectedDevice(server, 'del-1');
			const row = storedDevice(server.services.store, 'del-1')!;
			const hook = await api.post('/devices/del-1/webhook', { url: 'http://127.0.0.1:9/hook', events: ['chats'] }, { key });
			expect(hook.status).toBe(200);
			const inbound = await sandbox.post(
				'/devices/del-1/inbound',
				{ from: '5511955554444', type: 'image', file: `data:image/png;base64,${PIXEL_PNG}` },
				{ key },
			);
			expect(inbound.status).toBe(200);
			const text = await sandbox.post('/devices/del-1/inbound', { from: '5511955554444', text: 'hello' }, { key });
			expect(text.status).toBe(200);
			expect(count('messages', row.id)).toBe(2);
			expect(count('chats', row.id)).toBe(1);
			expect(count('webhooks', row.id)).toBe(1);
			const fileUrl: string = inbound.body.data.fileURL;
			expect((await fetch(fileUrl)).status).toBe(200);
			await api.post('/message/presence', { number: '5511955554444', presence: 'recording' }, { token: d.token });
			expect(server.services.presence.of(row)).toHaveLength(1);

			const res = await api.delete('/devices/del-1', { key });
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ success: true, data: { name: 'del-1', deleted: true } });

			expect(storedDevice(server.services.store, 'del-1')).toBeUndefined();
			expect(count('messages', row.id)).toBe(0);
			expect(count('chats', row.id)).toBe(0);
			expect(count('webhooks', row.id)).toBe(0);
			expect((server.services.store.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n).toBe(0);
			expect(server.services.presence.of(row)).toEqual([]);
			// Its media is no longer served.
			expect((await fetch(fileUrl)).status).toBe(404);

			// Gone for every route, and its token no longer works.
			expect((await api.get('/devices/del-1/status', { key })).status).toBe(404);
			expect((await api.delete('/devices/del-1', { key })).status).toBe(404);
			expect((await api.get('/devices', { key })).body.data.map((x: { name: string }) => x.name)).not.toContain('del-1');
			const send = await api.post('/message/find', {}, { token: d.token });
			expect(send.status).toBe(401);
			expect(send.body).toEqual({ success: false, message: 'invalid instance token' });
		});

		test('a media file shared with another device of the server stays for that device', async () => {
			const a = await connectedDevice(server, 'share-a');
			const b = await connectedDevice(server, 'share-b');
			const sent = await api.post('/send/media', { number: b.phone, type: 'image', file: PIXEL_PNG }, { token: a.token });
			expect(sent.status).toBe(200);
			const copy = await eventually(async () => (await api.post('/message/find', {}, { token: b.token })).body.data.messages[0]);
			expect(copy.fileURL).toBe(sent.body.data.fileURL);

			expect((await api.delete('/devices/share-a', { key })).status).toBe(200);
			expect((await fetch(copy.fileURL)).status).toBe(200);
		});

		test('the name can be used again, with a new token', async () => {
			const before = await api.post('/devices', { name: 'del-reuse' }, { key });
			await api.delete('/devices/del-reuse', { key });
			const after = await api.post('/devices', { name: 'del-reuse' }, { key });
			expect(after.status).toBe(201);
			expect(after.body.data.status).toBe('disconnected');
			expect(after.body.data.token).not.toBe(before.body.data.token);
			expect((await api.post('/message/find', {}, { token: before.body.data.token })).status).toBe(401);
			expect((await api.post('/message/find', {}, { token: after.body.data.token })).status).toBe(200);
		});

		test('deleting a connecting device stops its pairing', async () => {
			await api.post('/devices', { name: 'del-connecting' }, { key });
			await api.get('/devices/del-connecting/qr', { key });
			expect((await api.delete('/devices/del-connecting', { key })).status).toBe(200);
			expect((await sandbox.post('/devices/del-connecting/pair', {}, { key })).status).toBe(404);
		});
	});

	test('each state change is one connection event, also when QRs are asked for in parallel', async () => {
		await api.post('/devices', { name: 'events-1' }, { key });
		const hook = await api.post('/devices/events-1/webhook', { url: 'http://127.0.0.1:9/events', events: ['connection'] }, { key });
		expect(hook.status).toBe(200);
		await Promise.all(Array.from({ length: 4 }, () => api.get('/devices/events-1/qr', { key })));
		await sandbox.post('/devices/events-1/pair', { phone: '5511922221111' }, { key });
		await api.post('/devices/events-1/logout', undefined, { key });
		await api.post('/devices/events-1/logout', undefined, { key });

		const bodies = server.services.store.outbox.ofWebhook(hook.body.data.id).map((row) => JSON.parse(row.body));
		expect(bodies.map((b) => [b.event, b.device, b.data.status])).toEqual([
			['connection', 'events-1', 'connecting'],
			['connection', 'events-1', 'connected'],
			['connection', 'events-1', 'disconnected'],
		]);
		expect(bodies[1].data).toMatchObject({ phone: '5511922221111', jid: '5511922221111@s.whatsapp.net' });
		expect(bodies[2].data).toMatchObject({ lastDisconnectReason: 'logout' });
	});

	describe('unknown devices and other users', () => {
		let eve: string;
		beforeAll(async () => {
			eve = server.services.store.users.create('eve').apiKey;
			await connectedDevice(server, 'owned', key, '5511944443333');
		});

		test.each([
			['GET', '/devices/nope/qr'],
			['GET', '/devices/nope/status'],
			['POST', '/devices/nope/logout'],
			['DELETE', '/devices/nope'],
		])('%s %s is 404', async (method, route) => {
			const res = await api.call(method, route, undefined, { key });
			expect(res.status).toBe(404);
			expect(res.body).toEqual({ success: false, message: "device 'nope' not found" });
		});

		test.each([
			['GET', '/devices/owned/qr'],
			['GET', '/devices/owned/status'],
			['POST', '/devices/owned/logout'],
			['DELETE', '/devices/owned'],
		])("%s %s on another user's device is 404 and changes nothing", async (method, route) => {
			const res = await api.call(method, route, undefined, { key: eve });
			expect(res.status).toBe(404);
			expect(res.body).toEqual({ success: false, message: "device 'owned' not found" });
			expect((await api.get('/devices/owned/status', { key })).body.data).toMatchObject({ status: 'connected', phone: '5511944443333' });
		});
	});
});

test('a store from before per-user device names is upgraded with every row kept, and then takes a name per user', () => {
	const mine = migrations.findIndex((sql) => sql.includes('UNIQUE (user_id, name)'));
	expect(mine).toBeGreaterThan(0);
	const data = tempDataDir();
	const old = new Database(path.join(data, 'wdm.sqlite'));
	old.pragma('foreign_keys = ON');
	for (const sql of migrations.slice(0, mine)) old.exec(sql);
	old.pragma(`user_version = ${mine}`);
	old.exec(`INSERT INTO users (id, name, api_key_hash, created_at) VALUES (1, 'ann', 'h1', 0), (2, 'ben', 'h2', 0);
		INSERT INTO devices (id, user_id, name, token_hash, created_at, status, phone) VALUES ('d1', 1, 'shop', 't1', 0, 'connected', '5511900000001');
		INSERT INTO messages (id, device_id, messageid, chatid, sender, from_me, is_group, message_type, text, timestamp, status)
			VALUES ('m1', 'd1', 'm1', '5511988880001@s.whatsapp.net', '5511900000001', 1, 0, 'conversation', 'kept', 0, 'sent');`);
	old.close();

	const store = Store.open(data);
	try {
		// Rebuilding the devices table deleted nothing that refers to it (foreign keys were off for it).
		expect(store.devices.byName(1, 'shop')).toMatchObject({ id: 'd1', status: 'connected', phone: '5511900000001' });
		expect(store.db.prepare("SELECT text FROM messages WHERE device_id = 'd1'").all()).toEqual([{ text: 'kept' }]);
		expect(store.db.prepare("SELECT count(*) AS n FROM labels WHERE device_id = 'd1'").get()).toEqual({ n: 5 });
		// Ben may now have a `shop` too, with the business labels the trigger gives; ann may not have two.
		store.devices.insert({ id: 'd2', user_id: 2, name: 'shop', profile_name: 'shop' }, 't2');
		expect(store.db.prepare("SELECT count(*) AS n FROM labels WHERE device_id = 'd2'").get()).toEqual({ n: 5 });
		expect(() => store.devices.insert({ id: 'd3', user_id: 1, name: 'shop', profile_name: 'shop' }, 't3')).toThrow(/UNIQUE/);
		// Foreign keys are on again: deleting the device deletes its messages.
		store.db.prepare("DELETE FROM devices WHERE id = 'd1'").run();
		expect(store.db.prepare("SELECT count(*) AS n FROM messages WHERE device_id = 'd1'").get()).toEqual({ n: 0 });
	} finally {
		store.close();
	}
});

describe('automatic pairing', () => {
	let server: App;
	let api: Client;
	let sandbox: Client;
	const key = ADMIN_KEY;
	const pairDelayMs = 60;

	beforeAll(async () => {
		({ server, api, sandbox } = await startGateway({ pairing: 'auto', pairDelayMs }));
	});
	afterAll(() => server.close());

	const status = async (name: string) => (await api.get(`/devices/${name}/status`, { key })).body.data;

	test('disconnected -> connecting on QR -> connected after the pair delay', async () => {
		const created = await api.post('/devices', { name: 'auto-1' }, { key });
		expect(created.body.data.status).toBe('disconnected');
		const started = Date.now();
		const qr = await api.get('/devices/auto-1/qr', { key });
		expect(qr.body.data.status).toBe('connecting');

		const connected = await eventually(async () => {
			const s = await status('auto-1');
			return s.status === 'connected' && s;
		});
		expect(Date.now() - started).toBeGreaterThanOrEqual(pairDelayMs - 5);
		expect(connected).toMatchObject({ connected: true, phone: expect.stringMatching(/^551199\d{8}$/) });
		expect(connected.jid).toBe(`${connected.phone}@s.whatsapp.net`);
	});

	test('logout and a new QR pair again with the same number', async () => {
		const phone = (await status('auto-1')).phone;
		await api.post('/devices/auto-1/logout', undefined, { key });
		expect(await status('auto-1')).toMatchObject({ status: 'disconnected', phone: null, lastDisconnectReason: 'logout' });
		await api.get('/devices/auto-1/qr', { key });
		const again = await eventually(async () => {
			const s = await status('auto-1');
			return s.status === 'connected' && s;
		});
		expect(again.phone).toBe(phone);
	});

	test('logging out while connecting cancels the automatic pairing', async () => {
		await api.post('/devices', { name: 'auto-cancel' }, { key });
		await api.get('/devices/auto-cancel/qr', { key });
		await api.post('/devices/auto-cancel/logout', undefined, { key });
		await sleep(pairDelayMs * 3);
		expect((await status('auto-cancel')).status).toBe('disconnected');
	});

	test('the sandbox can complete a pairing before the timer does', async () => {
		await api.post('/devices', { name: 'auto-sandbox' }, { key });
		await api.get('/devices/auto-sandbox/qr', { key });
		const paired = await sandbox.post('/devices/auto-sandbox/pair', { phone: '5511933332222' }, { key });
		expect(paired.body.data).toMatchObject({ status: 'connected', phone: '5511933332222' });
		await sleep(pairDelayMs * 2);
		expect(await status('auto-sandbox')).toMatchObject({ status: 'connected', phone: '5511933332222' });
	});

	test('when its kept number was taken meanwhile, automatic pairing gives a new number and the server keeps running', async () => {
		await api.post('/devices', { name: 'auto-kept' }, { key });
		await api.get('/devices/auto-kept/qr', { key });
		const first = await eventually(async () => {
			const s = await status('auto-kept');
			return s.status === 'connected' && s;
		});
		await api.post('/devices/auto-kept/logout', undefined, { key });
		// Another device takes the number while auto-kept is logged out.
		await api.post('/devices', { name: 'auto-taker' }, { key });
		await api.get('/devices/auto-taker/qr', { key });
		expect((await sandbox.post('/devices/auto-taker/pair', { phone: first.phone }, { key })).status).toBe(200);

		await api.get('/devices/auto-kept/qr', { key });
		const again = await eventually(async () => {
			const s = await status('auto-kept');
			return s.status === 'connected' && s;
		});
		expect(again.phone).toMatch(/^551199\d{8}$/);
		expect(again.phone).not.toBe(first.phone);
		expect(await status('auto-taker')).toMatchObject({ status: 'connected', phone: first.phone });
	});
});
