import Database from 'better-sqlite3';
import { ADMIN_KEY, SANDBOX, client, connectedDevice, eventually, startGateway, startServer, tempDataDir, type Client, type Device, storedDevice } from '../helpers/server';
import { type Receiver, startReceiver } from '../helpers/webhooks';
import { migrations } from '../../server/src/store/schema';
import type { App } from '../../server/src/app';
import type { LabelRow } from '../../server/src/store/types';

/** GET /labels, POST /chat/labels, POST /label/edit, their events, and the sandbox route that creates labels. */

const DEFAULT_LABELS = [
	{ id: '1', name: 'New customer', color: 1, colorHex: '#64C4FF' },
	{ id: '2', name: 'New order', color: 2, colorHex: '#FED428' },
	{ id: '3', name: 'Pending payment', color: 16, colorHex: '#FFAE07' },
	{ id: '4', name: 'Paid', color: 15, colorHex: '#83E421' },
	{ id: '5', name: 'Order complete', color: 3, colorHex: '#DFAEF0' },
];

const CONTACT = '5511988880001';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;

let server: App;
let api: Client;
let sandbox: Client;
let receiver: Receiver;
let shop: Device;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	receiver = await startReceiver();
	shop = await connectedDevice(server, 'shop');
	const hook = await api.post('/devices/shop/webhook', { url: `${receiver.url}/shop`, events: ['labels', 'chat_labels', 'chats'] }, { key: ADMIN_KEY });
	expect(hook.status).toBe(200);
});
afterAll(async () => {
	await receiver.close();
	await server.close();
});

const labels = (d: Device) => api.get('/labels', { token: d.token });
const setLabels = (d: Device, body: Record<string, unknown>) => api.post('/chat/labels', body, { token: d.token });
const edit = (d: Device, body: Record<string, unknown>) => api.post('/label/edit', body, { token: d.token });
const createLabel = (device: string, body: Record<string, unknown>, key = ADMIN_KEY) => sandbox.post(`/devices/${device}/labels`, body, { key });
const deviceId = (name: string) => storedDevice(server.services.store, name)!.id;
/** The chat's labels as the store holds them: `chats.labels`, a JSON array of label id strings. */
const storedLabels = (d: Device, chatid: string) => {
	const chat = server.services.store.chats.get(deviceId(d.name), chatid);
	return chat && (JSON.parse(chat.labels) as string[]);
};
/** Events of one kind the shop's webhook received, their `data`. */
const received = (event: string) => receiver.events(event, '/shop').map((hit) => hit.body.data);

describe('GET /labels', () => {
	test('a new device starts with the business labels, each with its color index and hex', async () => {
		const res = await labels(shop);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ success: true, data: DEFAULT_LABELS });
	});

	test('every device has its own labels', async () => {
		const created = await api.post('/devices', { name: 'fresh' }, { key: ADMIN_KEY });
		expect((await createLabel('fresh', { name: 'Only here' })).status).toBe(201);
		expect((await labels({ token: created.body.data.token } as Device)).body.data.map((l: { name: string }) => l.name)).toContain('Only here');
		expect((await labels(shop)).body.data.map((l: { name: string }) => l.name)).not.toContain('Only here');
	});

	test('a store written before labels existed gives its devices the business labels when it is upgraded', () => {
		const mine = migrations.findIndex((sql) => sql.includes('CREATE TABLE labels'));
		expect(mine).toBeGreaterThan(0);
		const db = new Database(':memory:');
		db.pragma('foreign_keys = ON');
		for (const sql of migrations.slice(0, mine)) db.exec(sql);
		db.prepare("INSERT INTO users (id, name, api_key_hash, created_at) VALUES (1, 'old', 'h', 0)").run();
		db.prepare("INSERT INTO devices (id, user_id, name, token_hash, created_at) VALUES ('d-old', 1, 'old', 't', 0)").run();
		db.exec(migrations[mine]);
		const rows = db.prepare("SELECT id, name, color FROM labels WHERE device_id = 'd-old' ORDER BY id").all();
		expect(rows).toEqual(DEFAULT_LABELS.map(({ id, name, color }) => ({ id: Number(id), name, color })));
		// Devices created afterwards get them from the trigger, in the same statement.
		db.prepare("INSERT INTO devices (id, user_id, name, token_hash, created_at) VALUES ('d-new', 1, 'new', 't2', 0)").run();
		expect(db.prepare("SELECT count(*) AS n FROM labels WHERE device_id = 'd-new'").get()).toEqual({ n: 5 });
		db.close();
	});

	test('labels survive a restart', async () => {
		const data = tempDataDir();
		const first = await startServer({ data, pairing: 'manual' });
		const d = await connectedDevice(first, 'keeper');
		await client(first.url, SANDBOX).post('/devices/keeper/labels', { name: 'VIP', color: 6 }, { key: ADMIN_KEY });
		await client(first.url).post('/label/edit', { labelid: '4', name: 'Paid in full' }, { token: d.token });
		await first.close();
		const second = await startServer({ data, pairing: 'manual' });
		const listed = await client(second.url).get('/labels', { token: d.token });
		await second.close();
		expect(listed.body.data.map((l: { name: string }) => l.name)).toEqual(['New customer', 'New order', 'Pending payment', 'Paid in full', 'Order complete', 'VIP']);
	});

	test('401 without a token or with a wrong one', async () => {
		expect(await api.get('/labels')).toMatchObject({ status: 401, body: { success: false, message: 'missing instance token: send the header "token: <instance token>"' } });
		expect(await api.get('/labels', { token: 'nope' })).toMatchObject({ status: 401, body: { success: false, message: 'invalid instance token' } });
	});
});

describe('POST /chat/labels', () => {
	beforeAll(async () => {
		// The chat exists: the contact wrote first.
		const inbound = await sandbox.post('/devices/shop/inbound', { from: CONTACT, text: 'hi' }, { key: ADMIN_KEY });
		expect(inbound.status).toBe(200);
	});

	test('labelids sets all labels of the chat; the chat_labels event says what changed', async () => {
		const res = await setLabels(shop, { number: CONTACT, labelids: ['4', '1', '1'] });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({
			chatid: CONTACT_JID,
			labelids: ['1', '4'],
			labels: [DEFAULT_LABELS[0], DEFAULT_LABELS[3]],
			added: ['1', '4'],
			removed: [],
		});
		expect(storedLabels(shop, CONTACT_JID)).toEqual(['1', '4']);
		const event = await eventually(() => received('chat_labels').find((e) => e.chatid === CONTACT_JID && e.added.length === 2));
		expect(event).toEqual(res.body.data);

		const replaced = await setLabels(shop, { number: CONTACT_JID, labelids: ['2', '4'] });
		expect(replaced.body.data).toMatchObject({ labelids: ['2', '4'], added: ['2'], removed: ['1'] });
		expect(storedLabels(shop, CONTACT_JID)).toEqual(['2', '4']);
	});

	test('add_labelid adds one label, remove_labelid removes one; numbers and ids as clients write them', async () => {
		const added = await setLabels(shop, { number: `+55 11 98888-0001`, add_labelid: 3 });
		expect(added.status).toBe(200);
		expect(added.body.data).toMatchObject({ labelids: ['2', '3', '4'], added: ['3'], removed: [] });
		const removed = await setLabels(shop, { number: CONTACT, remove_labelid: '02' });
		expect(removed.body.data).toMatchObject({ labelids: ['3', '4'], added: [], removed: ['2'] });
		expect(storedLabels(shop, CONTACT_JID)).toEqual(['3', '4']);
	});

	test('a change that changes nothing answers the labels and sends no event', async () => {
		await eventually(() => received('chat_labels').some((e) => e.removed[0] === '2'));
		const before = received('chat_labels').length;
		expect((await setLabels(shop, { number: CONTACT, add_labelid: '4' })).body.data).toMatchObject({ labelids: ['3', '4'], added: [], removed: [] });
		expect((await setLabels(shop, { number: CONTACT, remove_labelid: '1' })).body.data).toMatchObject({ labelids: ['3', '4'] });
		expect((await setLabels(shop, { number: CONTACT, labelids: ['4', '3'] })).body.data).toMatchObject({ labelids: ['3', '4'] });
		// A marker change, to know every event before it has arrived.
		await setLabels(shop, { number: CONTACT, add_labelid: '5' });
		await eventually(() => received('chat_labels').some((e) => e.added[0] === '5'));
		expect(received('chat_labels').length).toBe(before + 1);
	});

	test('an empty labelids clears the chat', async () => {
		const res = await setLabels(shop, { number: CONTACT, labelids: [] });
		expect(res.body.data).toEqual({ chatid: CONTACT_JID, labelids: [], labels: [], added: [], removed: ['3', '4', '5'] });
		expect(storedLabels(shop, CONTACT_JID)).toEqual([]);
	});

	test('labelling a number the device has no chat with opens the chat (chats event)', async () => {
		const number = '5511988880077';
		expect(storedLabels(shop, `${number}@s.whatsapp.net`)).toBeUndefined();
		const res = await setLabels(shop, { number, add_labelid: '2' });
		expect(res.status).toBe(200);
		expect(res.body.data.labelids).toEqual(['2']);
		expect(storedLabels(shop, `${number}@s.whatsapp.net`)).toEqual(['2']);
		const chat = await eventually(() => received('chats').find((c) => c.wa_chatid === `${number}@s.whatsapp.net`));
		expect(chat).toMatchObject({ wa_isGroup: false, wa_unreadCount: 0, wa_lastMsgTimestamp: 0 });
	});

	test('two modes, or none, is a 400 naming the fields', async () => {
		const cases: [Record<string, unknown>, string][] = [
			[{ number: CONTACT }, 'one of labelids, add_labelid, remove_labelid is required'],
			[{ number: CONTACT, labelids: ['1'], add_labelid: '2' }, 'give only one of labelids, add_labelid, remove_labelid (got labelids and add_labelid)'],
			[
				{ number: CONTACT, labelids: [], add_labelid: '2', remove_labelid: '3' },
				'give only one of labelids, add_labelid, remove_labelid (got labelids and add_labelid and remove_labelid)',
			],
		];
		for (const [body, message] of cases) expect(await setLabels(shop, body)).toMatchObject({ status: 400, body: { success: false, message } });
	});

	test('unknown label ids are a 400 quoting them, and nothing changes or is created', async () => {
		await setLabels(shop, { number: CONTACT, labelids: ['1'] });
		const cases: [Record<string, unknown>, string][] = [
			[{ number: CONTACT, labelids: ['1', '9', 'x', '9'] }, "labelids: unknown label ids '9', 'x'"],
			[{ number: CONTACT, add_labelid: '99' }, "add_labelid: unknown label id '99'"],
			[{ number: CONTACT, remove_labelid: '0' }, "remove_labelid: unknown label id '0'"],
			[{ number: CONTACT, add_labelid: -1 }, "add_labelid: unknown label id '-1'"],
		];
		for (const [body, message] of cases) expect(await setLabels(shop, body)).toMatchObject({ status: 400, body: { message } });
		expect(storedLabels(shop, CONTACT_JID)).toEqual(['1']);
		expect((await labels(shop)).body.data.map((l: { id: string }) => l.id)).not.toContain('9');
		// Nor is a chat opened for an unknown label.
		expect((await setLabels(shop, { number: '5511988880078', add_labelid: '77' })).status).toBe(400);
		expect(storedLabels(shop, '5511988880078@s.whatsapp.net')).toBeUndefined();
	});

	test('malformed requests are a 400 naming the field', async () => {
		const cases: [Record<string, unknown>, string | RegExp][] = [
			[{ labelids: ['1'] }, 'number is required'],
			[{ number: 'nobody', labelids: ['1'] }, /^number must be an international phone number/],
			[{ number: CONTACT, labelids: '1' }, 'labelids must be an array (got string "1")'],
			[{ number: CONTACT, labelids: [true] }, 'labelids[0] must be a label id such as "3"'],
			[{ number: CONTACT, add_labelid: '' }, 'add_labelid must be a label id such as "3"'],
			[{ number: CONTACT, add_labelid: {} }, 'add_labelid must be a label id such as "3"'],
			[{ number: CONTACT, remove_labelid: 'x'.repeat(33) }, 'remove_labelid must be a label id such as "3"'],
			[{ number: CONTACT, labelid: '1' }, 'body has unknown field(s): labelid'],
		];
		for (const [body, message] of cases) {
			const res = await setLabels(shop, body);
			expect({ body, status: res.status }).toEqual({ body, status: 400 });
			if (typeof message === 'string') expect(res.body.message).toBe(message);
			else expect(res.body.message).toMatch(message);
		}
	});

	test('the network refuses: absent number, unknown group, disconnected device (500)', async () => {
		await sandbox.post('/numbers', { number: '5511988880099', onNetwork: false }, { key: ADMIN_KEY });
		expect(await setLabels(shop, { number: '5511988880099', add_labelid: '1' })).toMatchObject({
			status: 500,
			body: { success: false, message: '5511988880099 is not on the network' },
		});
		expect(storedLabels(shop, '5511988880099@s.whatsapp.net')).toBeUndefined();
		expect((await setLabels(shop, { number: '120363000000000001@g.us', add_labelid: '1' })).status).toBe(500);

		const idle = await api.post('/devices', { name: 'idle' }, { key: ADMIN_KEY });
		const res = await setLabels({ token: idle.body.data.token } as Device, { number: CONTACT, add_labelid: '1' });
		expect(res).toMatchObject({
			status: 500,
			body: { message: "device 'idle' is not connected (status: disconnected); labels can be changed only while it is connected" },
		});
	});

	test("another device's token acts on that device only: its chats and its label ids", async () => {
		const other = await connectedDevice(server, 'other');
		const vip = await createLabel('other', { name: 'VIP' });
		expect(vip.body.data.id).toBe('6');
		// Label 6 exists on `other`, not on the shop.
		expect((await setLabels(shop, { number: CONTACT, add_labelid: '6' })).body.message).toBe("add_labelid: unknown label id '6'");
		const res = await setLabels(other, { number: CONTACT, labelids: ['6', '2'] });
		expect(res.body.data.labelids).toEqual(['2', '6']);
		expect(storedLabels(other, CONTACT_JID)).toEqual(['2', '6']);
		expect(storedLabels(shop, CONTACT_JID)).toEqual(['1']);
		expect(await setLabels(shop, { number: CONTACT, add_labelid: '1' })).toMatchObject({ status: 200 });
		expect((await api.post('/chat/labels', { number: CONTACT, add_labelid: '1' })).status).toBe(401);
		expect((await api.post('/chat/labels', { number: CONTACT, add_labelid: '1' }, { token: 'wrong' })).status).toBe(401);
	});
});

describe('POST /label/edit', () => {
	const LABELLED = '5511988880050';

	beforeAll(async () => {
		await setLabels(shop, { number: LABELLED, labelids: ['1', '2', '3'] });
		await setLabels(shop, { number: CONTACT, labelids: ['1', '2'] });
	});

	test('renames and recolors; GET /labels reads it back; a labels event is sent', async () => {
		const renamed = await edit(shop, { labelid: '2', name: '  Big order  ' });
		expect(renamed).toMatchObject({ status: 200, body: { data: { id: '2', name: 'Big order', color: 2, colorHex: '#FED428' } } });
		const recolored = await edit(shop, { labelid: 2, color: 19 });
		expect(recolored.body.data).toEqual({ id: '2', name: 'Big order', color: 19, colorHex: '#9568CF' });
		const both = await edit(shop, { labelid: '2', name: 'Bulk order', color: 0 });
		expect(both.body.data).toEqual({ id: '2', name: 'Bulk order', color: 0, colorHex: '#FF9484' });
		expect((await labels(shop)).body.data[1]).toEqual(both.body.data);

		const events = await eventually(() => {
			const edits = received('labels').filter((e) => e.action === 'edit' && e.label.id === '2');
			return edits.length === 3 ? edits : undefined;
		});
		expect(events.map((e) => e.label)).toEqual([renamed.body.data, recolored.body.data, both.body.data]);
		// The chats keep the label: only its name and color changed.
		expect(storedLabels(shop, `${LABELLED}@s.whatsapp.net`)).toEqual(['1', '2', '3']);
	});

	test('the same name in other letter case is taken (409); renaming a label to its own name is fine', async () => {
		expect(await edit(shop, { labelid: '2', name: 'paid' })).toMatchObject({
			status: 409,
			body: { message: "name: a label named 'Paid' already exists (id '4')" },
		});
		expect((await edit(shop, { labelid: '4', name: 'PAID' })).body.data.name).toBe('PAID');
		expect((await edit(shop, { labelid: '4', name: 'Paid' })).body.data.name).toBe('Paid');
	});

	test('delete removes the label and takes it off every chat, with a chat_labels event per chat', async () => {
		const res = await edit(shop, { labelid: '1', delete: true });
		expect(res).toMatchObject({ status: 200, body: { data: { id: '1', name: 'New customer', deleted: true } } });
		expect((await labels(shop)).body.data.map((l: { id: string }) => l.id)).toEqual(['2', '3', '4', '5']);
		expect(storedLabels(shop, `${LABELLED}@s.whatsapp.net`)).toEqual(['2', '3']);
		expect(storedLabels(shop, CONTACT_JID)).toEqual(['2']);
		await eventually(() => received('labels').some((e) => e.action === 'delete' && e.label.id === '1'));
		const perChat = await eventually(() => {
			const hits = received('chat_labels').filter((e) => e.removed[0] === '1' && e.added.length === 0 && !e.labelids.includes('1'));
			const chats = hits.map((e) => e.chatid).filter((c) => c === CONTACT_JID || c === `${LABELLED}@s.whatsapp.net`);
			return chats.length >= 2 ? hits : undefined;
		});
		expect(perChat.find((e) => e.chatid === `${LABELLED}@s.whatsapp.net`)).toMatchObject({ labelids: ['2', '3'] });

		// Gone: editing it again is a 404, using it a 400; a new label never gets its id back.
		expect(await edit(shop, { labelid: '1', name: 'Back' })).toMatchObject({ status: 404, body: { message: "labelid: no label with id '1' on this device" } });
		expect((await setLabels(shop, { number: CONTACT, add_labelid: '1' })).status).toBe(400);
		expect((await createLabel('shop', { name: 'New customer' })).body.data.id).toBe('6');
		const stored = server.services.store.db.prepare('SELECT * FROM labels WHERE device_id = ? AND id = 1').get(deviceId('shop')) as LabelRow;
		expect(stored.deleted).toBe(1);
	});

	test('bad requests: 400 naming the field, 404 for an unknown label', async () => {
		const cases: [Record<string, unknown>, number, string][] = [
			[{ name: 'x' }, 400, 'labelid is required'],
			[{ labelid: '2' }, 400, 'one of name, color or delete: true is required'],
			[{ labelid: '2', delete: false }, 400, 'one of name, color or delete: true is required'],
			[{ labelid: '2', delete: true, name: 'x' }, 400, 'delete: true cannot be combined with name or color'],
			[{ labelid: '2', color: 20 }, 400, 'color must be at most 19'],
			[{ labelid: '2', color: -1 }, 400, 'color must be at least 0'],
			[{ labelid: '2', color: 1.5 }, 400, 'color must be an integer (got number 1.5)'],
			[{ labelid: '2', color: '3' }, 400, 'color must be a number (got string "3")'],
			[{ labelid: '2', name: '   ' }, 400, 'name must be at least 1 characters long'],
			[{ labelid: '2', name: 'x'.repeat(101) }, 400, 'name must be at most 100 characters long'],
			[{ labelid: '2', delete: 'yes' }, 400, 'delete must be a boolean (got string "yes")'],
			[{ labelid: '2', colorHex: '#FFFFFF' }, 400, 'body has unknown field(s): colorHex'],
			[{ labelid: '42', name: 'x' }, 404, "labelid: no label with id '42' on this device"],
			[{ labelid: 'abc', color: 1 }, 404, "labelid: no label with id 'abc' on this device"],
		];
		for (const [body, status, message] of cases) {
			const res = await edit(shop, body);
			expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status, message });
		}
		expect((await labels(shop)).body.data[0]).toEqual({ id: '2', name: 'Bulk order', color: 0, colorHex: '#FF9484' });
	});

	test("another device's token edits that device's labels only; 401 without a valid token", async () => {
		const other = (await api.get('/devices', { key: ADMIN_KEY })).body.data.find((d: { name: string }) => d.name === 'other');
		const res = await edit({ token: other.token } as Device, { labelid: '3', name: 'Awaiting payment' });
		expect(res.body.data.name).toBe('Awaiting payment');
		expect((await labels(shop)).body.data.find((l: { id: string }) => l.id === '3').name).toBe('Pending payment');
		expect((await api.post('/label/edit', { labelid: '3', name: 'x' })).status).toBe(401);
		expect((await api.post('/label/edit', { labelid: '3', name: 'x' }, { token: 'wrong' })).status).toBe(401);
	});

	test('a disconnected device cannot change labels (500), but still lists them', async () => {
		const idle = (await api.get('/devices', { key: ADMIN_KEY })).body.data.find((d: { name: string }) => d.name === 'idle');
		expect(await edit({ token: idle.token } as Device, { labelid: '3', color: 4 })).toMatchObject({
			status: 500,
			body: { message: "device 'idle' is not connected (status: disconnected); labels can be changed only while it is connected" },
		});
		expect((await labels({ token: idle.token } as Device)).body.data).toEqual(DEFAULT_LABELS);
	});
});

describe('POST /sandbox/v1/devices/{name}/labels', () => {
	test('creates a label with the next id, the first unused color by default, and a labels event', async () => {
		const res = await createLabel('shop', { name: 'Wholesale' });
		expect(res.status).toBe(201);
		// Colors 0, 1, 3, 15 and 16 are in use (label 2 is red now, the new "New customer" took blue).
		expect(res.body).toEqual({ success: true, data: { id: '7', name: 'Wholesale', color: 2, colorHex: '#FED428' } });
		expect((await labels(shop)).body.data.at(-1)).toEqual(res.body.data);
		const event = await eventually(() => received('labels').find((e) => e.action === 'add' && e.label.id === '7'));
		expect(event.label).toEqual(res.body.data);
		expect((await createLabel('shop', { name: 'Gift', color: 6 })).body.data).toMatchObject({ id: '8', color: 6, colorHex: '#FE9DFE' });
	});

	test('a taken name is a 409; a device has at most 20 labels', async () => {
		expect(await createLabel('shop', { name: 'WHOLESALE' })).toMatchObject({ status: 409, body: { message: "name: a label named 'Wholesale' already exists (id '7')" } });
		await api.post('/devices', { name: 'full' }, { key: ADMIN_KEY });
		for (let i = 6; i <= 20; i++) expect((await createLabel('full', { name: `L${i}` })).status).toBe(201);
		expect(await createLabel('full', { name: 'L21' })).toMatchObject({ status: 409, body: { message: "device 'full' already has 20 labels, the most a device can have" } });
	});

	test('bad bodies are a 400; unknown device 404; another user 404; no key 401', async () => {
		expect(await createLabel('shop', {})).toMatchObject({ status: 400, body: { message: 'name is required' } });
		expect(await createLabel('shop', { name: 'x', color: 20 })).toMatchObject({ status: 400, body: { message: 'color must be at most 19' } });
		expect(await createLabel('nobody', { name: 'x' })).toMatchObject({ status: 404, body: { message: "device 'nobody' not found" } });
		const { apiKey } = server.services.store.users.create('carol');
		expect(await createLabel('shop', { name: 'x' }, apiKey)).toMatchObject({ status: 404, body: { message: "device 'shop' not found" } });
		expect((await sandbox.post('/devices/shop/labels', { name: 'x' })).status).toBe(401);
	});
});

test('deleting a device deletes its labels', async () => {
	const id = deviceId('full');
	expect((await api.delete('/devices/full', { key: ADMIN_KEY })).status).toBe(200);
	expect(server.services.store.db.prepare('SELECT count(*) AS n FROM labels WHERE device_id = ?').get(id)).toEqual({ n: 0 });
});

test('the namespace index lists the label routes with their arguments', async () => {
	const index = await client(server.url, '/wp-json').get('/wdm/v1');
	expect(index.status).toBe(200);
	const args = index.body.routes['/wdm/v1/chat/labels'].endpoints[0].args;
	expect(Object.keys(args)).toEqual(['number', 'labelids', 'add_labelid', 'remove_labelid']);
	expect(args.number.required).toBe(true);
	expect(index.body.routes['/wdm/v1/label/edit'].endpoints[0].args.color).toMatchObject({ type: 'integer', minimum: 0, maximum: 19 });
	expect(index.body.routes['/wdm/v1/labels'].methods).toEqual(['GET']);
});
