// A shared sandbox: numbers have owners (issue 26). Each test is an attack by a second user of the same
// server on the first user's numbers, and reads back that nothing of the victim's world moved.
import path from 'node:path';
import Database from 'better-sqlite3';
import type { App } from '../../server/src/app';
import { Store } from '../../server/src/store';
import { migrations } from '../../server/src/store/schema';
import { connectedDevice, eventually, expectError, startGateway, tempDataDir, type Client, type Device } from '../helpers/server';
import { type Receiver, sleep, startReceiver, verifySignature } from '../helpers/webhooks';

let server: App;
let api: Client;
let sandbox: Client;
let receiver: Receiver;
/** The victim and the taker: two users of one server, each with an API key and devices. */
let victimKey: string;
let takerKey: string;
let victim: Device;
let taker: Device;

const jidOf = (phone: string) => `${phone}@s.whatsapp.net`;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	victimKey = server.services.store.users.create('victim', undefined, 'subscriber').apiKey;
	takerKey = server.services.store.users.create('taker', undefined, 'subscriber').apiKey;
	victim = await connectedDevice(server, 'v-phone', victimKey, '5511955550001');
	taker = await connectedDevice(server, 't-phone', takerKey, '5511966660001');
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
	await server.close();
});

const send = (d: Device, number: string, text: string) => api.post('/send/text', { number, text }, { token: d.token });
const messages = async (d: Device, chatid?: string) => {
	const res = await api.post('/message/find', chatid ? { chatid } : {}, { token: d.token });
	expect(res.status).toBe(200);
	return res.body.data.messages as any[];
};

/** A device of `key`'s user that has a QR and waits for the phone to scan it. */
async function connecting(name: string, key: string) {
	expect((await api.post('/devices', { name }, { key })).status).toBe(201);
	expect((await api.get(`/devices/${name}/qr`, { key })).status).toBe(200);
	return name;
}

function expectTaken(res: { status: number; body: any }, phone: string) {
	expect(res.status).toBe(409);
	expect(res.body.message).toBe(`phone ${phone} belongs to another user of this server (one of their devices or contacts); pair with another number`);
}

describe('pairing cannot take a number of another user', () => {
	test("another user's contact: refused, and the victim's message to the contact does not reach the taker", async () => {
		const contact = '5511955551001';
		expect((await send(victim, contact, 'hello')).status).toBe(200);
		const name = await connecting('t-contact', takerKey);
		expectTaken(await sandbox.post(`/devices/${name}/pair`, { phone: contact }, { key: takerKey }), contact);
		expect((await api.get(`/devices/${name}/status`, { key: takerKey })).body.data).toMatchObject({ status: 'connecting', phone: null });

		// The one-time code the victim sends to the contact stays on the victim's device.
		const code = await send(victim, contact, 'your code is 424242');
		expect(code.status).toBe(200);
		await sleep(50);
		expect((await messages(victim, jidOf(contact))).map((m) => m.text)).toEqual(['your code is 424242', 'hello']);
		expect(server.services.store.db.prepare("SELECT count(*) AS n FROM messages WHERE text LIKE '%424242%'").get()).toEqual({ n: 1 });
	});

	test('a contact the victim only played in the sandbox, or added to a group, is theirs too', async () => {
		const played = '5511955551002';
		const added = '5511955551003';
		expect((await sandbox.post(`/devices/${victim.name}/inbound`, { from: played, text: 'hi' }, { key: victimKey })).status).toBe(200);
		expect((await api.post('/group/create', { name: 'Family', participants: [added] }, { token: victim.token })).status).toBe(200);
		const name = await connecting('t-played', takerKey);
		expectTaken(await sandbox.post(`/devices/${name}/pair`, { phone: played }, { key: takerKey }), played);
		expectTaken(await sandbox.post(`/devices/${name}/pair`, { phone: added }, { key: takerKey }), added);
	});

	test("another user's logged-out device: refused; the device gets its number back, and no one plays it", async () => {
		const owned = await connectedDevice(server, 'v-second', victimKey, '5511955550002');
		expect((await api.post(`/devices/${owned.name}/logout`, undefined, { key: victimKey })).status).toBe(200);
		const name = await connecting('t-logged-out', takerKey);
		expectTaken(await sandbox.post(`/devices/${name}/pair`, { phone: owned.phone }, { key: takerKey }), owned.phone);

		// A simulated contact cannot be another user's device either, connected or not.
		const forged = await sandbox.post(`/devices/${taker.name}/inbound`, { from: owned.phone, text: 'it is me' }, { key: takerKey });
		expectError(forged, 403, `from: ${owned.phone} is a device of another user of this server; the sandbox plays only contacts of your own world`);
		expect((await sandbox.post(`/devices/${taker.name}/presence`, { from: victim.phone, presence: 'composing' }, { key: takerKey })).status).toBe(403);
		expect((await messages(taker)).some((m) => m.text === 'it is me')).toBe(false);

		// The victim's other device writes to it: nothing reaches the taker.
		expect((await send(victim, owned.phone, 'are you there?')).status).toBe(200);
		expect(server.services.store.db.prepare("SELECT count(*) AS n FROM messages WHERE text = 'are you there?'").get()).toEqual({ n: 1 });

		// Its owner pairs it again, with the same number.
		expect((await api.get(`/devices/${owned.name}/qr`, { key: victimKey })).status).toBe(200);
		const again = await sandbox.post(`/devices/${owned.name}/pair`, {}, { key: victimKey });
		expect(again.body.data).toMatchObject({ status: 'connected', phone: owned.phone });
	});

	test('pairing without a number hands out one no one owns', async () => {
		const store = server.services.store;
		const next = `551199${String(Number(store.meta.getOrCreate('next_phone', () => '1'))).padStart(8, '0')}`;
		expect((await send(victim, next, 'mine')).status).toBe(200);
		const name = await connecting('t-auto', takerKey);
		const paired = await sandbox.post(`/devices/${name}/pair`, {}, { key: takerKey });
		expect(paired.status).toBe(200);
		expect(paired.body.data.phone).toMatch(/^551199\d{8}$/);
		expect(paired.body.data.phone).not.toBe(next);
		expect(store.db.prepare("SELECT count(*) AS n FROM messages WHERE text = 'mine'").get()).toEqual({ n: 1 });
	});

	test('two devices of the server still message each other, across users', async () => {
		const sent = await send(taker, victim.phone, 'hello from the other user');
		expect(sent.status).toBe(200);
		const copy = (await messages(victim, taker.jid)).find((m) => m.messageid === sent.body.data.messageid);
		expect(copy).toMatchObject({ chatid: taker.jid, sender: taker.jid, fromMe: false, text: 'hello from the other user' });
	});
});

describe('the sandbox plays only contacts of the caller\'s world', () => {
	test("inbound in a group as another user's device is refused; the group gets nothing", async () => {
		const created = await api.post('/group/create', { name: 'Shared', participants: [taker.phone] }, { token: victim.token });
		const group = created.body.data.jid as string;
		const forged = await sandbox.post(`/devices/${taker.name}/inbound`, { from: victim.phone, group, text: 'as the victim' }, { key: takerKey });
		expectError(forged, 403, `from: ${victim.phone} is a device of another user of this server; the sandbox plays only contacts of your own world`);
		await sleep(50);
		expect(await messages(victim, group)).toEqual([]);
		expect(await messages(taker, group)).toEqual([]);
		// A contact of the taker's own world may join and write in the group the taker's device is in.
		expect((await sandbox.post('/groups/join', { number: '5511966661001', groupjid: group }, { key: takerKey })).status).toBe(200);
		const own = await sandbox.post(`/devices/${taker.name}/inbound`, { from: '5511966661001', group, text: 'a friend of the taker' }, { key: takerKey });
		expect(own.status).toBe(200);
		expect((await messages(victim, group)).map((m) => [m.sender, m.text])).toEqual([[jidOf('5511966661001'), 'a friend of the taker']]);
	});

	test("a group join as another user's (logged-out) device is refused", async () => {
		const created = await api.post('/group/create', { name: 'Shared 2', participants: [taker.phone] }, { token: victim.token });
		const owned = (await connectedDevice(server, 'v-third', victimKey, '5511955550003')).phone;
		expect((await api.post('/devices/v-third/logout', undefined, { key: victimKey })).status).toBe(200);
		// Nor may the taker answer, as that device, a menu the taker's device sent to it.
		const poll = await api.post('/send/menu', { number: owned, type: 'poll', text: 'Lunch?', choices: ['Pizza', 'Sushi'] }, { token: taker.token });
		expect(poll.status).toBe(200);
		const answered = await sandbox.post(`/devices/${taker.name}/answer`, { id: poll.body.data.id, choice: 'Pizza' }, { key: takerKey });
		expectError(answered, 403, `id: ${owned} is a device of another user of this server; the sandbox plays only contacts of your own world`);
		expect(await messages(taker, jidOf(owned))).toHaveLength(1);
		const res = await sandbox.post('/groups/join', { number: owned, groupjid: created.body.data.jid }, { key: takerKey });
		expectError(res, 403, `number: ${owned} is a device of another user of this server; the sandbox plays only contacts of your own world`);
		expect((await api.post('/group/info', { groupjid: created.body.data.jid }, { token: victim.token })).body.data.participants).toHaveLength(2);
	});

	test("react as another user's device is refused: neither copy changes and the victim's webhook hears nothing", async () => {
		const path = '/victim-react';
		expect((await api.post(`/devices/${victim.name}/webhook`, { url: receiver.url + path, events: ['messages_update'] }, { key: victimKey })).status).toBe(200);
		const sent = await send(victim, taker.phone, 'react to this');
		const mine = sent.body.data;
		const theirs = (await messages(taker, victim.jid)).find((m) => m.messageid === mine.messageid);
		const res = await sandbox.post(`/devices/${taker.name}/react`, { id: theirs.id, text: '👍' }, { key: takerKey });
		expectError(res, 403, `id: ${victim.phone} is a device of another user of this server; the sandbox plays only contacts of your own world`);
		await sleep(100);
		expect((await messages(victim, taker.jid)).find((m) => m.id === mine.id)).toMatchObject({ reaction: null, reactions: [] });
		expect((await messages(taker, victim.jid)).find((m) => m.id === theirs.id)).toMatchObject({ reaction: null, reactions: [] });
		expect(receiver.onPath(path).filter((h) => h.body.data.sender === victim.jid)).toEqual([]);

		// Nor may the taker say the victim's device read what the taker's device sent it.
		const toVictim = (await send(taker, victim.phone, 'read me')).body.data;
		const read = await sandbox.post(`/devices/${taker.name}/read`, { id: toVictim.id }, { key: takerKey });
		expectError(read, 403, `id: ${victim.phone} is a device of another user of this server; the sandbox plays only contacts of your own world`);
		expect((await messages(taker, victim.jid)).find((m) => m.id === toVictim.id).status).not.toBe('read');
	});

	test('react takes one emoji only (or empty to remove)', async () => {
		const contact = '5511966661002';
		const sent = (await send(taker, contact, 'rate me')).body.data;
		for (const text of ['abc', '👍👍', '<b>', '1']) {
			const res = await sandbox.post(`/devices/${taker.name}/react`, { id: sent.id, text }, { key: takerKey });
			expectError(res, 400, 'text must be a single emoji, or empty to remove the reaction');
		}
		expect((await messages(taker, jidOf(contact)))[0]).toMatchObject({ reaction: null });
		for (const text of ['👍🏽', '🇧🇷', '👨‍👩‍👧', '1️⃣']) {
			const res = await sandbox.post(`/devices/${taker.name}/react`, { id: sent.id, text }, { key: takerKey });
			expect(res.body.data).toMatchObject({ reaction: text, reactions: [{ sender: jidOf(contact), text }] });
		}
		expect((await sandbox.post(`/devices/${taker.name}/react`, { id: sent.id, text: '' }, { key: takerKey })).body.data.reaction).toBeNull();
	});

	test("/numbers: absent and renamed in the caller's world only", async () => {
		const contact = '5511955551010';
		expect((await sandbox.post('/numbers', { number: contact, onNetwork: true, name: 'Carol' }, { key: victimKey })).body.data).toEqual({
			number: contact,
			onNetwork: true,
			name: 'Carol',
		});
		const theirs = await sandbox.post('/numbers', { number: contact, onNetwork: false, name: 'Mallory' }, { key: takerKey });
		expect(theirs.body.data).toEqual({ number: contact, onNetwork: false, name: 'Mallory' });

		// The victim still reaches the number and still calls it Carol.
		expect((await send(victim, contact, 'still there?')).status).toBe(200);
		const checked = await api.post('/chat/check', { numbers: [contact] }, { token: victim.token });
		expect(checked.body.data[0]).toMatchObject({ isInWhatsapp: true, name: 'Carol' });
		const inbound = await sandbox.post(`/devices/${victim.name}/inbound`, { from: contact, text: 'yes' }, { key: victimKey });
		expect(inbound.body.data).toMatchObject({ senderName: 'Carol' });
		// In the taker's world the number is absent.
		expectError(await send(taker, contact, 'x'), 500, `${contact} is not on the network`);
		const theirCheck = await api.post('/chat/check', { numbers: [contact] }, { token: taker.token });
		expect(theirCheck.body.data[0]).toMatchObject({ isInWhatsapp: false });
	});
});

describe('Send and Wait: a second user cannot answer another user\'s question', () => {
	test('the question waits for the contact; the taker can neither pair as it nor play it towards the victim', async () => {
		const contact = '5511955552001';
		const path = '/send-and-wait';
		const hook = await api.post(
			`/devices/${victim.name}/webhook`,
			{ url: receiver.url + path, events: ['messages'], chatid: contact, expiresAt: Date.now() + 60_000 },
			{ key: victimKey },
		);
		expect(hook.status).toBe(200);
		expect((await send(victim, contact, 'Approve the refund? Reply yes or no')).status).toBe(200);

		// 1. Pair a device with the contact's number, then answer from it: refused at pairing.
		const name = await connecting('t-answer', takerKey);
		expectTaken(await sandbox.post(`/devices/${name}/pair`, { phone: contact }, { key: takerKey }), contact);
		// 2. Play the contact towards the victim's device: not the taker's device.
		const direct = await sandbox.post(`/devices/${victim.name}/inbound`, { from: contact, text: 'yes' }, { key: takerKey });
		expectError(direct, 404, `device '${victim.name}' not found`);
		// 3. Play it towards the taker's own device: it lands in the taker's own world.
		const own = await sandbox.post(`/devices/${taker.name}/inbound`, { from: contact, text: 'yes' }, { key: takerKey });
		expect(own.status).toBe(200);
		expect(own.body.data).toMatchObject({ chatid: jidOf(contact), text: 'yes' });
		// 4. Write to the victim from the taker's device: it comes from the taker's number, not the contact's.
		expect((await send(taker, victim.phone, 'yes')).status).toBe(200);

		// The subscription heard the question go out, and no answer.
		const answers = () => receiver.onPath(path).filter((h) => !h.body.data.fromMe);
		await sleep(200);
		expect(receiver.onPath(path).map((h) => h.body.data.text)).toEqual(['Approve the refund? Reply yes or no']);
		expect((await messages(victim, jidOf(contact))).map((m) => m.text)).toEqual(['Approve the refund? Reply yes or no']);

		// The contact itself (the victim's sandbox) answers: that one resumes the wait, signed.
		expect((await sandbox.post(`/devices/${victim.name}/inbound`, { from: contact, text: 'no' }, { key: victimKey })).status).toBe(200);
		const hit = await eventually(() => answers()[0]);
		expect(verifySignature(hook.body.data.secret, hit)).toBe(true);
		expect(hit.body.data).toMatchObject({ chatid: jidOf(contact), text: 'no', fromMe: false });
		await sleep(50);
		expect(answers()).toHaveLength(1);
	});
});

test('automatic pairing hands out only numbers no one owns', async () => {
	const auto = await startGateway({ pairing: 'auto', pairDelayMs: 20 });
	try {
		const { store } = auto.server.services;
		const ann = store.users.create('ann', undefined, 'subscriber').apiKey;
		const ben = store.users.create('ben', undefined, 'subscriber').apiKey;
		// Ann's device takes the first number handed out and writes to the next one, as a contact.
		const created = await auto.api.post('/devices', { name: 'ann-phone' }, { key: ann });
		await auto.api.get('/devices/ann-phone/qr', { key: ann });
		const first = await eventually(async () => (await auto.api.get('/devices/ann-phone/status', { key: ann })).body.data.phone as string);
		expect(first).toBe('55119900000001');
		expect((await auto.api.post('/send/text', { number: '55119900000002', text: 'hi' }, { token: created.body.data.token })).status).toBe(200);
		// Ben's device skips it.
		expect((await auto.api.post('/devices', { name: 'ben-phone' }, { key: ben })).status).toBe(201);
		await auto.api.get('/devices/ben-phone/qr', { key: ben });
		const second = await eventually(async () => (await auto.api.get('/devices/ben-phone/status', { key: ben })).body.data.phone as string);
		expect(second).toBe('55119900000003');
	} finally {
		await auto.server.close();
	}
});

test('a store from before number owners is upgraded: settings hold for every user, devices and their contacts are owned', () => {
	const mine = migrations.findIndex((sql) => sql.includes('CREATE TABLE number_worlds'));
	expect(mine).toBeGreaterThan(0);
	const data = tempDataDir();
	const old = new Database(path.join(data, 'wdm.sqlite'));
	for (const sql of migrations.slice(0, mine)) old.exec(sql);
	old.pragma(`user_version = ${mine}`);
	old.exec(`INSERT INTO users (id, name, api_key_hash, created_at) VALUES (1, 'ann', 'h1', 0), (2, 'ben', 'h2', 0);
		INSERT INTO devices (id, user_id, name, token_hash, created_at, status, phone) VALUES
			('d1', 1, 'shop', 't1', 0, 'connected', '5511900000001'), ('d2', 2, 'shop', 't2', 0, 'disconnected', '5511900000002');
		INSERT INTO messages (id, device_id, messageid, chatid, sender, from_me, is_group, message_type, text, timestamp, status) VALUES
			('m1', 'd1', 'm1', '5511988880001@s.whatsapp.net', '5511900000001', 1, 0, 'conversation', 'to a contact', 0, 'sent'),
			('m2', 'd1', 'm2', '5511900000002@s.whatsapp.net', '5511900000001', 1, 0, 'conversation', 'to ben', 0, 'sent');
		INSERT INTO network_numbers (phone, on_network, name) VALUES ('5511988880099', 0, 'Gone');`);
	old.close();

	const store = Store.open(data);
	try {
		for (const user of [1, 2]) {
			expect(store.numbers.onNetwork(user, '5511988880099')).toBe(false);
			expect(store.numbers.name(user, '5511988880099')).toBe('Gone');
		}
		expect(store.db.prepare('SELECT phone, user_id, device FROM number_worlds ORDER BY phone').all()).toEqual([
			{ phone: '5511900000001', user_id: 1, device: 1 },
			{ phone: '5511900000002', user_id: 2, device: 1 },
			{ phone: '5511988880001', user_id: 1, device: 0 },
		]);
		expect(store.numbers.inOtherWorld('5511988880001', 2)).toBe(true);
		expect(store.numbers.inOtherWorld('5511900000002', 1, true)).toBe(true);
	} finally {
		store.close();
	}
});
