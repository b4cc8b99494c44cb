import type { App } from '../../server/src/app';
import { ADMIN_KEY, startGateway, type Client, storedDevice } from '../helpers/server';
import { nodeRunner, runNode, userHarness } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let server: App;
let harness: N8nTestHarness;
let api: Client;
let sandbox: Client;

/** Runs the WDM Device node with the admin's credential. */
const device = nodeRunner('CUSTOM.wdmDevice', () => harness);

/** The device as the server stores it. */
const stored = (name: string) => storedDevice(server.services.store, name);

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	harness = userHarness(server);
});
afterAll(() => server.close());

describe('devices', () => {
	test('create and list devices through the engine', async () => {
		const created = await device({ operation: 'create', name: 'eng1' });
		expect(created.error).toBeUndefined();
		expect(created.items).toHaveLength(1);
		expect(created.items[0].json).toMatchObject({ name: 'eng1', status: 'disconnected', profileName: 'eng1', phone: null });
		const listed = await device({ operation: 'getAll' });
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((i) => i.json.name)).toEqual(['eng1']);
	});

	test('create with a profile name: the answer carries the instance token the server accepts', async () => {
		const created = await device({ operation: 'create', name: 'shop', additionalFields: { profileName: 'Corner Shop' } });
		expect(created.error).toBeUndefined();
		const json = created.items[0].json;
		expect(json).toMatchObject({ name: 'shop', status: 'disconnected', profileName: 'Corner Shop', isBusiness: true });
		expect(typeof json.token).toBe('string');
		expect(stored('shop')).toMatchObject({ name: 'shop', profile_name: 'Corner Shop', status: 'disconnected' });
		// The token is the device's instance token: the server resolves it to this device.
		expect(server.services.store.devices.byToken(json.token as string)?.name).toBe('shop');
	});

	test('create takes the device name from each input item', async () => {
		const created = await device(
			{ operation: 'create', name: '={{ $json.name }}', additionalFields: { profileName: '={{ $json.profile }}' } },
			{ input: [{ json: { name: 'multi-a', profile: 'A' } }, { json: { name: 'multi_b', profile: 'B' } }] },
		);
		expect(created.error).toBeUndefined();
		expect(created.items.map((i) => [i.json.name, i.json.profileName])).toEqual([
			['multi-a', 'A'],
			['multi_b', 'B'],
		]);
		expect(stored('multi-a')?.profile_name).toBe('A');
		expect(stored('multi_b')?.profile_name).toBe('B');
	});

	test('getAll lists every device of the user with its token, as the server does', async () => {
		const listed = await device({ operation: 'getAll' });
		expect(listed.error).toBeUndefined();
		const direct = await api.get('/devices', { key: ADMIN_KEY });
		expect(direct.status).toBe(200);
		expect(listed.items.map((i) => i.json)).toEqual(direct.body.data);
		expect(listed.items.map((i) => i.json.name).sort()).toEqual(['eng1', 'multi-a', 'multi_b', 'shop']);
		for (const item of listed.items) {
			expect(server.services.store.devices.byToken(item.json.token as string)?.name).toBe(item.json.name);
		}
	});

	test('getQr: the QR as a data URI and as a PNG binary, the pair code, and the device now connecting', async () => {
		const qr = await device({ operation: 'getQr', device: 'shop' });
		expect(qr.error).toBeUndefined();
		expect(qr.items).toHaveLength(1);
		const { json, binary } = qr.items[0];
		expect(json).toMatchObject({ name: 'shop', status: 'connecting' });
		expect(json.paircode).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
		expect(json.qrcode).toMatch(/^data:image\/png;base64,/);
		expect(json.paircode).toBe(stored('shop')?.pair_code);
		expect(json.qrcode).toBe(stored('shop')?.qr_code);

		const image = binary?.qr;
		expect(image).toBeDefined();
		expect(image).toMatchObject({ mimeType: 'image/png', fileName: 'shop-qr.png', fileExtension: 'png' });
		// Without a binary data manager n8n keeps the file in the item, Base64 in `data`.
		const png = Buffer.from(image!.data, 'base64');
		expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
		expect(png.toString('base64')).toBe((json.qrcode as string).split(',')[1]);
	});

	test('getQr writes the image to the chosen binary property; a valid QR is handed out again', async () => {
		const qr = await device({ operation: 'getQr', device: 'shop', outputPropertyName: 'image' });
		expect(qr.error).toBeUndefined();
		const { json, binary } = qr.items[0];
		expect(Object.keys(binary ?? {})).toEqual(['image']);
		expect(Buffer.from(binary!.image.data, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
		expect(json.paircode).toBe(stored('shop')?.pair_code);
	});

	test('getStatus: connecting, then connected once the phone scans the QR', async () => {
		const connecting = await device({ operation: 'getStatus', device: 'shop' });
		expect(connecting.error).toBeUndefined();
		expect(connecting.items[0].json).toMatchObject({ name: 'shop', status: 'connecting', connected: false, phone: null });
		expect(connecting.items[0].json.paircode).toBe(stored('shop')?.pair_code);

		const paired = await sandbox.post('/devices/shop/pair', { phone: '5511988880001' }, { key: ADMIN_KEY });
		expect(paired.status).toBe(200);

		const connected = await device({ operation: 'getStatus', device: 'shop' });
		expect(connected.error).toBeUndefined();
		expect(connected.items[0].json).toMatchObject({
			name: 'shop',
			status: 'connected',
			connected: true,
			phone: '5511988880001',
			jid: '5511988880001@s.whatsapp.net',
		});
		expect(connected.items[0].json).not.toHaveProperty('qrcode');
	});

	test('getQr on a connected device answers it connected, with no QR: a pairing workflow runs again (issue 39, point 7)', async () => {
		const qr = await device({ operation: 'getQr', device: 'shop' });
		expect(qr.error).toBeUndefined();
		expect(qr.items).toHaveLength(1);
		expect(qr.items[0].json).toMatchObject({ name: 'shop', status: 'connected', phone: '5511988880001', qrcode: null, paircode: null });
		expect(qr.items[0].binary).toBeUndefined();
	});

	test('logout: the device is disconnected and says why', async () => {
		const out = await device({ operation: 'logout', device: 'shop' });
		expect(out.error).toBeUndefined();
		expect(out.items[0].json).toMatchObject({ name: 'shop', status: 'disconnected', lastDisconnectReason: 'logout' });
		expect(stored('shop')).toMatchObject({ status: 'disconnected', last_disconnect_reason: 'logout' });
		const status = await device({ operation: 'getStatus', device: 'shop' });
		expect(status.items[0].json).toMatchObject({ status: 'disconnected', connected: false });
		expect(typeof status.items[0].json.lastDisconnect).toBe('number');
	});

	test('delete: the device is gone afterwards', async () => {
		const deleted = await device({ operation: 'delete', device: 'eng1' });
		expect(deleted.error).toBeUndefined();
		expect(deleted.items[0].json).toEqual({ name: 'eng1', deleted: true });
		expect(stored('eng1')).toBeUndefined();
		const listed = await device({ operation: 'getAll' });
		expect(listed.items.map((i) => i.json.name)).not.toContain('eng1');
		const status = await device({ operation: 'getStatus', device: 'eng1' });
		expect(status.error).toMatchObject({ httpCode: '404', message: "device 'eng1' not found" });
	});
});

describe('webhooks', () => {
	const url = 'https://hooks.example.com/wdm/in';
	const other = 'https://hooks.example.com/wdm/other';
	const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
	const row = (hookUrl: string) => server.services.store.webhooks.byUrl(stored('hooked')!.id, hookUrl);

	beforeAll(async () => {
		expect((await api.post('/devices', { name: 'hooked' }, { key: ADMIN_KEY })).status).toBe(201);
	});

	test('getWebhooks of a device without subscriptions: no items', async () => {
		const listed = await device({ operation: 'getWebhooks', device: 'hooked' });
		expect(listed.error).toBeUndefined();
		expect(listed.items).toEqual([]);
	});

	test('setWebhook add with events, exclusions and a secret: stored as given, secret not echoed', async () => {
		const added = await device({
			operation: 'setWebhook',
			device: 'hooked',
			mode: 'add',
			url,
			events: ['messages', 'connection'],
			excludeMessages: ['wasSentByApi', 'isGroupYes'],
			options: { secret },
		});
		expect(added.error).toBeUndefined();
		expect(added.items).toHaveLength(1);
		expect(added.items[0].json).toMatchObject({
			url,
			events: ['messages', 'connection'],
			excludeMessages: ['wasSentByApi', 'isGroupYes'],
			enabled: true,
		});
		expect(added.items[0].json).not.toHaveProperty('secret');
		expect(row(url)).toMatchObject({ secret, enabled: 1, events: '["messages","connection"]', exclude_messages: '["wasSentByApi","isGroupYes"]' });
	});

	test('setWebhook add without a secret: the generated secret is returned once, never listed', async () => {
		const added = await device({ operation: 'setWebhook', device: 'hooked', url: other });
		expect(added.error).toBeUndefined();
		const generated = added.items[0].json.secret as string;
		expect(generated).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
		expect(row(other)?.secret).toBe(generated);
		expect(added.items[0].json).toMatchObject({ url: other, events: [], excludeMessages: [], enabled: true });

		// Upserting the same URL keeps the secret and does not show it again.
		const again = await device({ operation: 'setWebhook', device: 'hooked', mode: 'add', url: other, events: ['presence'] });
		expect(again.items[0].json).not.toHaveProperty('secret');
		expect(row(other)).toMatchObject({ secret: generated, events: '["presence"]' });

		const listed = await device({ operation: 'getWebhooks', device: 'hooked' });
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((i) => i.json.url).sort()).toEqual([url, other].sort());
		for (const item of listed.items) expect(item.json).not.toHaveProperty('secret');
	});

	test('setWebhook update changes the subscription and keeps its secret', async () => {
		const updated = await device({
			operation: 'setWebhook',
			device: 'hooked',
			mode: 'update',
			url,
			events: ['messages_update'],
			excludeMessages: [],
			options: { enabled: false },
		});
		expect(updated.error).toBeUndefined();
		expect(updated.items[0].json).toMatchObject({ url, events: ['messages_update'], excludeMessages: [], enabled: false });
		expect(row(url)).toMatchObject({ secret, enabled: 0, events: '["messages_update"]' });
		const listed = await device({ operation: 'getWebhooks', device: 'hooked' });
		expect(listed.items.find((i) => i.json.url === url)?.json).toMatchObject({ events: ['messages_update'], enabled: false });
	});

	test('setWebhook update of a URL that is not subscribed is a 400 naming the url', async () => {
		const updated = await device({ operation: 'setWebhook', device: 'hooked', mode: 'update', url: 'https://hooks.example.com/none' });
		expect(updated.error).toMatchObject({ httpCode: '400', message: "url: no webhook with this url on device 'hooked' to update" });
		expect(row('https://hooks.example.com/none')).toBeUndefined();
	});

	test('setWebhook delete removes the subscription; deleting it again is a 404', async () => {
		const id = row(url)!.id;
		const deleted = await device({ operation: 'setWebhook', device: 'hooked', mode: 'delete', url });
		expect(deleted.error).toBeUndefined();
		expect(deleted.items[0].json).toEqual({ id, url, deleted: true });
		expect(row(url)).toBeUndefined();
		const listed = await device({ operation: 'getWebhooks', device: 'hooked' });
		expect(listed.items.map((i) => i.json.url)).toEqual([other]);

		const again = await device({ operation: 'setWebhook', device: 'hooked', mode: 'delete', url });
		expect(again.error).toMatchObject({ httpCode: '404', message: `no webhook ${url} on device 'hooked'` });
	});

	test('setWebhook with a URL that is not http(s) is a 400 naming the field', async () => {
		const bad = await device({ operation: 'setWebhook', device: 'hooked', url: 'ftp://example.com/x' });
		expect(bad.error).toMatchObject({ httpCode: '400', message: 'url must be an http:// or https:// URL' });
	});
});

describe('errors', () => {
	test('a wrong API key: 401 with the gateway\'s message', async () => {
		const wrong = userHarness(server, 'not-the-key-0123456789');
		const listed = await runNode(wrong, 'CUSTOM.wdmDevice', { operation: 'getAll' });
		expect(listed.items).toEqual([]);
		expect(listed.error).toMatchObject({ name: 'NodeApiError', httpCode: '401', message: 'invalid API key' });
	});

	test("another user's device: 404 (names are per user) and nothing changes", async () => {
		const { apiKey } = server.services.store.users.create('bob');
		expect((await api.post('/devices', { name: 'bobs' }, { key: apiKey })).status).toBe(201);
		const status = await device({ operation: 'getStatus', device: 'bobs' });
		expect(status.error).toMatchObject({ httpCode: '404', message: "device 'bobs' not found" });
		const deleted = await device({ operation: 'delete', device: 'bobs' });
		expect(deleted.error).toMatchObject({ httpCode: '404', message: "device 'bobs' not found" });
		expect(stored('bobs')).toBeDefined();
		// Bob's own credential reaches it.
		const bob = userHarness(server, apiKey);
		const own = await runNode(bob, 'CUSTOM.wdmDevice', { operation: 'getAll' });
		expect(own.items.map((i) => i.json.name)).toEqual(['bobs']);
	});

	test('an unknown device: 404', async () => {
		for (const operation of ['getQr', 'getStatus', 'logout', 'delete', 'getWebhooks']) {
			const run = await device({ operation, device: 'nobody' });
			expect(run.error).toMatchObject({ httpCode: '404', message: "device 'nobody' not found" });
		}
	});

	test('a name the gateway refuses: 400 with the message naming the field', async () => {
		const created = await device({ operation: 'create', name: 'bad name!' });
		expect(created.error).toMatchObject({ httpCode: '400', message: 'name must be 1 to 64 letters, digits, "-" or "_"' });
		expect(stored('bad name!')).toBeUndefined();
	});

	test('a name already taken: 409', async () => {
		const created = await device({ operation: 'create', name: 'shop' });
		expect(created.error).toMatchObject({ httpCode: '409', message: "you already have a device named 'shop'" });
	});

	test("onError 'continueRegularOutput' turns the failure into an error item", async () => {
		const created = await device({ operation: 'create', name: 'bad name!' }, { onError: 'continueRegularOutput' });
		expect(created.error).toBeUndefined();
		expect(created.items).toHaveLength(1);
		expect(created.items[0].json).toEqual({ error: 'name must be 1 to 64 letters, digits, "-" or "_"' });
		expect(created.items[0].error).toMatchObject({ message: 'name must be 1 to 64 letters, digits, "-" or "_"' });
		expect(created.run.data.resultData.error).toBeUndefined();
	});
});
