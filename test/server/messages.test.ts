import { ADMIN_KEY, connectedDevice, eventually, findMessage, startGateway, type Client, type Device, storedDevice } from '../helpers/server';
import { configSchema } from '../../server/src/config';
import type { App } from '../../server/src/app';

/** /message/find, two devices talking on one server, receipts, /message/presence and the sandbox routes. */

const CONTACT = '5511999990001';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;
const RESEND_MS = 30;

let server: App;
let api: Client;
let sandbox: Client;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway({ presenceResendMs: RESEND_MS }));
});
afterAll(() => server.close());

const sendText = (d: Device, body: Record<string, unknown>) => api.post('/send/text', body, { token: d.token });
const find = (d: Device, body: Record<string, unknown>) => api.post('/message/find', body, { token: d.token });
const texts = (res: { body: any }) => res.body.data.messages.map((m: { text: string }) => m.text);

const findOne = (d: Device, id: string) => findMessage(api, d.token, id);

const chatOf = (d: Device, chatid: string) => {
	const device = storedDevice(server.services.store, d.name)!;
	return server.services.store.chats.get(device.id, chatid);
};

const sb = {
	post: (route: string, body: unknown) => sandbox.post(route, body, { key: ADMIN_KEY }),
	get: (route: string) => sandbox.get(route, { key: ADMIN_KEY }),
};

describe('POST /message/find', () => {
	let pager: Device;
	const ids: string[] = [];

	beforeAll(async () => {
		pager = await connectedDevice(server, 'pager');
		for (let i = 1; i <= 7; i++) {
			const res = await sendText(pager, { number: CONTACT, text: `m${i}`, track_source: 'page', track_id: i % 2 ? 'odd' : 'even' });
			ids.push(res.body.data.id);
		}
		await sendText(pager, { number: '5511999990002', text: 'elsewhere 1', track_source: 'other' });
		await sendText(pager, { number: '5511999990002', text: 'elsewhere 2', track_id: 'odd' });
	});

	test('pages through a chat newest first, saying whether more remain', async () => {
		const page1 = await find(pager, { chatid: CONTACT, limit: 3 });
		expect(page1.status).toBe(200);
		expect(texts(page1)).toEqual(['m7', 'm6', 'm5']);
		expect(page1.body.data).toMatchObject({ total: 7, limit: 3, offset: 0, hasMore: true, nextOffset: 3 });

		const page2 = await find(pager, { chatid: CONTACT, limit: 3, offset: page1.body.data.nextOffset });
		expect(texts(page2)).toEqual(['m4', 'm3', 'm2']);
		expect(page2.body.data).toMatchObject({ total: 7, limit: 3, offset: 3, hasMore: true, nextOffset: 6 });

		const page3 = await find(pager, { chatid: CONTACT, limit: 3, offset: page2.body.data.nextOffset });
		expect(texts(page3)).toEqual(['m1']);
		expect(page3.body.data).toMatchObject({ total: 7, limit: 3, offset: 6, hasMore: false, nextOffset: null });

		const past = await find(pager, { chatid: CONTACT, limit: 3, offset: 10 });
		expect(past.body.data).toMatchObject({ messages: [], total: 7, hasMore: false, nextOffset: null });

		// An exact fit leaves nothing more.
		const exact = await find(pager, { chatid: CONTACT, limit: 7 });
		expect(exact.body.data).toMatchObject({ total: 7, hasMore: false, nextOffset: null });
		expect(exact.body.data.messages.map((m: { id: string }) => m.id)).toEqual([...ids].reverse());
	});

	test('without filters: every message of the device, limit 100 by default', async () => {
		const all = await find(pager, {});
		expect(all.body.data).toMatchObject({ total: 9, limit: 100, offset: 0, hasMore: false, nextOffset: null });
		expect(texts(all)).toEqual(['elsewhere 2', 'elsewhere 1', 'm7', 'm6', 'm5', 'm4', 'm3', 'm2', 'm1']);
	});

	test('filters by chat (number or JID), tracking, id, and their combination', async () => {
		expect(texts(await find(pager, { chatid: '5511999990002@s.whatsapp.net' }))).toEqual(['elsewhere 2', 'elsewhere 1']);
		expect(texts(await find(pager, { track_source: 'page', track_id: 'odd' }))).toEqual(['m7', 'm5', 'm3', 'm1']);
		expect(texts(await find(pager, { track_id: 'odd' }))).toEqual(['elsewhere 2', 'm7', 'm5', 'm3', 'm1']);
		expect(texts(await find(pager, { track_source: 'other' }))).toEqual(['elsewhere 1']);
		expect(texts(await find(pager, { chatid: CONTACT, track_id: 'even', limit: 2 }))).toEqual(['m6', 'm4']);
		expect(texts(await find(pager, { id: ids[2] }))).toEqual(['m3']);
		expect(texts(await find(pager, { id: ids[2], chatid: '5511999990002' }))).toEqual([]);
		const none = await find(pager, { chatid: '5511999990003' });
		expect(none.body.data).toEqual({ messages: [], total: 0, limit: 100, offset: 0, nextOffset: null, hasMore: false });
	});

	test("a device never sees another device's messages", async () => {
		const other = await connectedDevice(server, 'pager-other');
		expect((await find(other, { id: ids[0] })).body.data.total).toBe(0);
		expect((await find(other, { chatid: CONTACT })).body.data.total).toBe(0);
	});

	test('invalid queries are a 400 naming the field', async () => {
		const cases: [Record<string, unknown>, string | RegExp][] = [
			[{ limit: 0 }, 'limit must be at least 1'],
			[{ limit: 1001 }, 'limit must be at most 1000'],
			[{ limit: '3' }, 'limit must be a number (got string "3")'],
			[{ offset: -1 }, 'offset must be at least 0'],
			[{ offset: 1.5 }, /^offset must be an integer/],
			[{ chatid: 'nobody' }, /^chatid must be an international phone number/],
			[{ chat: CONTACT }, 'body has unknown field(s): chat'],
		];
		for (const [body, message] of cases) {
			const res = await find(pager, body);
			expect({ body, status: res.status }).toEqual({ body, status: 400 });
			if (typeof message === 'string') expect(res.body.message).toBe(message);
			else expect(res.body.message).toMatch(message);
		}
		expect((await api.post('/message/find', {}, { token: 'wrong' })).status).toBe(401);
	});
});

describe('two devices on the same server', () => {
	let alice: Device;
	let bob: Device;

	beforeAll(async () => {
		alice = await connectedDevice(server, 'alice');
		bob = await connectedDevice(server, 'bob');
	});

	test('a message is delivered to the other device, with chats on both sides and a receipt', async () => {
		const sent = (await sendText(alice, { number: bob.phone, text: 'hi bob', track_id: 'private' })).body.data;
		expect(sent).toMatchObject({ chatid: bob.jid, sender: alice.jid, fromMe: true, status: 'sent' });

		const got = await findOne(bob, sent.messageid);
		expect(got).toMatchObject({
			id: `${bob.phone}:${sent.messageid}`,
			messageid: sent.messageid,
			chatid: alice.jid,
			sender: alice.jid,
			senderName: 'alice',
			fromMe: false,
			text: 'hi bob',
			status: 'delivered',
			wasSentByApi: false,
			// The sender's tracking stays with the sender.
			track_id: null,
		});
		expect(chatOf(bob, alice.jid)).toMatchObject({ name: 'alice', unread: 1, last_msg_type: 'text' });
		expect(chatOf(alice, bob.jid)).toMatchObject({ unread: 0 });
		await eventually(async () => (await findOne(alice, sent.id)).status === 'delivered');
	});

	test('a reply quotes the original on both sides; readmessages shows the original read to its sender', async () => {
		const original = (await sendText(alice, { number: bob.phone, text: 'are you there?' })).body.data;
		await eventually(async () => (await findOne(alice, original.id)).status === 'delivered');
		const bobsCopy = await findOne(bob, original.messageid);

		const reply = await sendText(bob, { number: alice.phone, text: 'yes', replyid: bobsCopy.id, readmessages: true });
		expect(reply.status).toBe(200);
		expect(reply.body.data.quoted).toBe(bobsCopy.id);

		const alicesCopy = await findOne(alice, reply.body.data.messageid);
		expect(alicesCopy).toMatchObject({ fromMe: false, text: 'yes', quoted: original.id, chatid: bob.jid, status: 'delivered' });
		expect((await findOne(bob, bobsCopy.id)).status).toBe('read');
		expect((await findOne(alice, original.id)).status).toBe('read');
		expect(chatOf(bob, alice.jid)!.unread).toBe(0);
		expect(chatOf(alice, bob.jid)!.unread).toBeGreaterThanOrEqual(1);

		// Alice reads with readchat only: her chat is read, Bob's message stays delivered.
		await sendText(alice, { number: bob.phone, text: 'ok', readchat: true });
		expect(chatOf(alice, bob.jid)!.unread).toBe(0);
		expect((await findOne(alice, alicesCopy.id)).status).toBe('delivered');
		expect((await findOne(bob, reply.body.data.id)).status).not.toBe('read');
	});

	test("reading a chat never moves the sender's copy backwards", async () => {
		const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(40, 3)]).toString('base64');
		const voice = (await api.post('/send/media', { number: bob.phone, type: 'ptt', file: ogg, mimetype: 'audio/ogg' }, { token: alice.token })).body
			.data;
		await sb.post('/devices/alice/read', { id: voice.id, played: true });
		expect((await findOne(alice, voice.id)).status).toBe('played');
		await sendText(bob, { number: alice.phone, text: 'heard it', readmessages: true });
		expect((await findOne(bob, voice.messageid)).status).toBe('read');
		expect((await findOne(alice, voice.id)).status).toBe('played');
	});

	test('media and queued messages reach the other device too', async () => {
		const png = Buffer.from(
			'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
			'base64',
		);
		const media = (await api.post('/send/media', { number: bob.jid, type: 'image', file: png.toString('base64'), text: 'pic' }, { token: alice.token }))
			.body.data;
		const got = await findOne(bob, media.messageid);
		expect(got).toMatchObject({ messageType: 'image', text: 'pic', mimetype: 'image/png', fileURL: media.fileURL, fromMe: false });
		const downloaded = await api.post('/message/download', { id: got.id, return_base64: true }, { token: bob.token });
		expect(downloaded.body.data.base64Data).toBe(png.toString('base64'));

		const queued = (await sendText(alice, { number: bob.phone, text: 'queued for bob', async: true })).body.data;
		expect(queued.status).toBe('queued');
		const arrived = await eventually(async () => (await find(bob, { id: queued.messageid })).body.data.messages[0]);
		expect(arrived).toMatchObject({ text: 'queued for bob', fromMe: false, status: 'delivered' });
	});
});

describe('sandbox: the other side', () => {
	let dev: Device;

	beforeAll(async () => {
		dev = await connectedDevice(server, 'sandboxed');
	});

	test('read moves an outbound message to read; played moves audio to played', async () => {
		const text = (await sendText(dev, { number: CONTACT, text: 'read me' })).body.data;
		await eventually(async () => (await findOne(dev, text.id)).status === 'delivered');
		const read = await sb.post('/devices/sandboxed/read', { id: text.id });
		expect(read.status).toBe(200);
		expect(read.body.data).toEqual([expect.objectContaining({ id: text.id, status: 'read' })]);
		expect((await findOne(dev, text.id)).status).toBe('read');

		const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(40, 1)]).toString('base64');
		const voice = (await api.post('/send/media', { number: CONTACT, type: 'ptt', file: ogg, mimetype: 'audio/ogg' }, { token: dev.token })).body.data;
		const other = (await sendText(dev, { number: CONTACT, text: 'not audio' })).body.data;
		const played = await sb.post('/devices/sandboxed/read', { id: [voice.messageid, other.id], played: true });
		expect(played.body.data.map((m: { status: string }) => m.status)).toEqual(['played', 'read']);
		expect((await findOne(dev, voice.id)).status).toBe('played');
		expect((await findOne(dev, other.id)).status).toBe('read');
	});

	test('statuses never move backwards: a late receipt or a second read keeps read/played', async () => {
		const text = (await sendText(dev, { number: CONTACT, text: 'read at once' })).body.data;
		await sb.post('/devices/sandboxed/read', { id: text.id });
		await new Promise((r) => setTimeout(r, 80));
		expect((await findOne(dev, text.id)).status).toBe('read');

		const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(40, 2)]).toString('base64');
		const voice = (await api.post('/send/media', { number: CONTACT, type: 'audio', file: ogg, mimetype: 'audio/ogg' }, { token: dev.token })).body.data;
		await sb.post('/devices/sandboxed/read', { id: voice.id, played: true });
		const again = await sb.post('/devices/sandboxed/read', { id: voice.id });
		expect(again.status).toBe(200);
		expect((await findOne(dev, voice.id)).status).toBe('played');
	});

	test('read refuses what the device did not send, and what has not gone out', async () => {
		expect(await sb.post('/devices/sandboxed/read', { id: 'nope' })).toMatchObject({
			status: 400,
			body: { success: false, message: 'id: no message sent by this device has the id "nope"' },
		});
		const inbound = (await sb.post('/devices/sandboxed/inbound', { from: CONTACT, text: 'mine' })).body.data;
		expect((await sb.post('/devices/sandboxed/read', { id: inbound.id })).status).toBe(400);
		const queued = (await sendText(dev, { number: CONTACT, text: 'later', async: true, delay: 60000 })).body.data;
		expect(await sb.post('/devices/sandboxed/read', { id: queued.id })).toMatchObject({
			status: 400,
			body: { message: `id: message "${queued.id}" is queued and cannot be read` },
		});
		expect((await sb.post('/devices/sandboxed/read', { id: [] })).status).toBe(400);
		// One bad id refuses the whole batch.
		const fine = (await sendText(dev, { number: CONTACT, text: 'batch' })).body.data;
		expect((await sb.post('/devices/sandboxed/read', { id: [fine.id, 'nope'] })).status).toBe(400);
		expect((await findOne(dev, fine.id)).status).not.toBe('read');
	});

	test('react sets an emoji on a message; an empty text removes it', async () => {
		const sent = (await sendText(dev, { number: CONTACT, text: 'react to me' })).body.data;
		const reacted = await sb.post('/devices/sandboxed/react', { id: sent.id, text: '👍' });
		expect(reacted.status).toBe(200);
		expect(reacted.body.data).toMatchObject({ id: sent.id, reaction: '👍' });
		expect((await findOne(dev, sent.id)).reaction).toBe('👍');
		await sb.post('/devices/sandboxed/react', { id: sent.id, text: '❤️' });
		expect((await findOne(dev, sent.id)).reaction).toBe('❤️');
		const removed = await sb.post('/devices/sandboxed/react', { id: sent.messageid, text: '' });
		expect(removed.body.data.reaction).toBeNull();
		expect((await findOne(dev, sent.id)).reaction).toBeNull();

		expect(await sb.post('/devices/sandboxed/react', { id: 'nope', text: '👍' })).toMatchObject({
			status: 400,
			body: { message: 'id: no message with id "nope" on this device' },
		});
		expect(await sb.post('/devices/sandboxed/react', { id: sent.id })).toMatchObject({ status: 400, body: { message: 'text is required' } });
	});

	test('numbers: marking a number absent, back, and naming it', async () => {
		const number = '5511999990060';
		const absent = await sb.post('/numbers', { number: `+${number}`, onNetwork: false, name: 'Zed' });
		expect(absent.body).toEqual({ success: true, data: { number, onNetwork: false, name: 'Zed' } });
		expect(await sendText(dev, { number, text: 'x' })).toMatchObject({ status: 500, body: { message: `${number} is not on the network` } });
		const presence = await api.post('/message/presence', { number, presence: 'composing' }, { token: dev.token });
		expect(presence.status).toBe(500);

		// Back on the network; the name is kept when none is given.
		const back = await sb.post('/numbers', { number: `${number}@s.whatsapp.net`, onNetwork: true });
		expect(back.body.data).toEqual({ number, onNetwork: true, name: 'Zed' });
		expect((await sendText(dev, { number, text: 'hello Zed' })).status).toBe(200);
		expect(chatOf(dev, `${number}@s.whatsapp.net`)!.name).toBe('Zed');

		expect(await sb.post('/numbers', { number: '123', onNetwork: false })).toMatchObject({ status: 400 });
		expect(await sb.post('/numbers', { number: '1203630123@g.us', onNetwork: false })).toMatchObject({
			status: 400,
			body: { message: 'number must be a phone number or a user JID, not a group (got "1203630123@g.us")' },
		});
		expect(await sb.post('/numbers', { number })).toMatchObject({ status: 400, body: { message: 'onNetwork is required' } });
		expect((await sandbox.post('/numbers', { number, onNetwork: true })).status).toBe(401);
	});

	test('inbound text: stored as delivered, not from me, in an unread chat', async () => {
		const from = '5511999990061';
		const a = await sb.post('/devices/sandboxed/inbound', { from, text: 'hello device', senderName: 'Carla' });
		expect(a.status).toBe(200);
		expect(a.body.data).toMatchObject({
			chatid: `${from}@s.whatsapp.net`,
			sender: `${from}@s.whatsapp.net`,
			senderName: 'Carla',
			fromMe: false,
			messageType: 'text',
			text: 'hello device',
			status: 'delivered',
			wasSentByApi: false,
		});
		expect(await findOne(dev, a.body.data.id)).toEqual(a.body.data);
		await sb.post('/devices/sandboxed/inbound', { from: `${from}@s.whatsapp.net`, text: 'second' });
		expect(chatOf(dev, `${from}@s.whatsapp.net`)).toMatchObject({ name: 'Carla', unread: 2 });
		const found = await find(dev, { chatid: from });
		expect(texts(found)).toEqual(['second', 'hello device']);
		// Without senderName, the sandbox name of the number is used.
		await sb.post('/numbers', { number: '5511999990062', onNetwork: true, name: 'Dora' });
		expect((await sb.post('/devices/sandboxed/inbound', { from: '5511999990062', text: 'hi' })).body.data.senderName).toBe('Dora');
	});

	test('inbound replies and media', async () => {
		const mine = (await sendText(dev, { number: CONTACT, text: 'question' })).body.data;
		const reply = await sb.post('/devices/sandboxed/inbound', { from: CONTACT, text: 'answer', replyid: mine.id });
		expect(reply.body.data.quoted).toBe(mine.id);
		const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
		const doc = await sb.post('/devices/sandboxed/inbound', { from: CONTACT, type: 'document', file: pdf.toString('base64'), text: 'see attached' });
		expect(doc.body.data).toMatchObject({ messageType: 'document', mimetype: 'application/pdf', fileName: 'file.pdf', text: 'see attached' });
		const served = await fetch(doc.body.data.fileURL);
		expect(Buffer.from(await served.arrayBuffer()).equals(pdf)).toBe(true);
	});

	test('inbound errors', async () => {
		expect(await sb.post('/devices/sandboxed/inbound', { from: CONTACT })).toMatchObject({ status: 400, body: { message: 'text is required for text messages' } });
		expect(await sb.post('/devices/sandboxed/inbound', { from: CONTACT, type: 'image' })).toMatchObject({
			status: 400,
			body: { message: 'file is required for media messages' },
		});
		expect(await sb.post('/devices/sandboxed/inbound', { from: '120363000000@g.us', text: 'x' })).toMatchObject({ status: 400 });
		expect(await sb.post('/devices/sandboxed/inbound', { text: 'x' })).toMatchObject({ status: 400, body: { message: 'from is required' } });
		expect(await sb.post('/devices/nobody/inbound', { from: CONTACT, text: 'x' })).toMatchObject({ status: 404, body: { message: "device 'nobody' not found" } });
		await api.post('/devices', { name: 'sandbox-offline' }, { key: ADMIN_KEY });
		expect(await sb.post('/devices/sandbox-offline/inbound', { from: CONTACT, text: 'x' })).toMatchObject({
			status: 400,
			body: { message: "device 'sandbox-offline' is not connected (status: disconnected); it cannot receive messages" },
		});
	});

	test('a contact typing is reported back', async () => {
		const res = await sb.post('/devices/sandboxed/presence', { from: CONTACT, presence: 'composing' });
		expect(res.body).toEqual({ success: true, data: { chatid: CONTACT_JID, sender: CONTACT_JID, presence: 'composing' } });
		expect(await sb.post('/devices/sandboxed/presence', { from: CONTACT, presence: 'typing' })).toMatchObject({ status: 400 });
	});
});

describe('POST /message/presence', () => {
	let dev: Device;
	const shown = async () => (await sb.get('/devices/typist/presence')).body.data as { chatid: string; presence: string; until: number; sent: number }[];
	const presence = (body: Record<string, unknown>, token = dev.token) => api.post('/message/presence', body, { token });

	beforeAll(async () => {
		dev = await connectedDevice(server, 'typist');
	});

	test('the default re-send interval is about 10 seconds', () => {
		expect(configSchema.parse({}).presenceResendMs).toBe(10000);
	});

	test('composing runs in the background, re-sent at every interval, until paused', async () => {
		const before = Date.now();
		const res = await presence({ number: CONTACT, presence: 'composing', delay: 5000 });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ number: CONTACT_JID, presence: 'composing' });
		expect(res.body.data.until).toBeGreaterThanOrEqual(before + 5000);
		expect(Date.now() - before).toBeLessThan(1000);

		const first = await shown();
		expect(first).toEqual([{ chatid: CONTACT_JID, presence: 'composing', until: res.body.data.until, sent: expect.any(Number) }]);
		await eventually(async () => (await shown())[0].sent >= first[0].sent + 3);

		const paused = await presence({ number: CONTACT, presence: 'paused' });
		expect(paused.body.data).toEqual({ number: CONTACT_JID, presence: 'paused', until: null });
		expect(await shown()).toEqual([]);
	});

	test('without a delay it lasts 5 minutes; a message to the same chat cancels it', async () => {
		const before = Date.now();
		const res = await presence({ number: CONTACT, presence: 'recording' });
		expect(res.body.data.until).toBeGreaterThanOrEqual(before + 300000);
		expect(res.body.data.until).toBeLessThanOrEqual(Date.now() + 300000);
		const [state] = await shown();
		expect(state).toMatchObject({ chatid: CONTACT_JID, presence: 'recording', until: res.body.data.until });

		// A message to another chat leaves it alone.
		await sendText(dev, { number: '5511999990002', text: 'elsewhere' });
		expect((await shown()).map((s) => s.chatid)).toEqual([CONTACT_JID]);
		await sendText(dev, { number: CONTACT, text: 'done typing' });
		expect(await shown()).toEqual([]);
	});

	test('a queued message cancels it when it goes out', async () => {
		await presence({ number: CONTACT, presence: 'composing' });
		const queued = (await sendText(dev, { number: CONTACT, text: 'from the queue', async: true })).body.data;
		await eventually(async () => (await findOne(dev, queued.id)).status !== 'queued');
		expect(await shown()).toEqual([]);
	});

	test('it stops by itself when its delay is over, and stops being re-sent', async () => {
		await presence({ number: CONTACT, presence: 'composing', delay: 150 });
		expect(await shown()).toHaveLength(1);
		await eventually(async () => (await shown()).length === 0);
	});

	test('a new presence in a chat replaces the old one; chats are independent', async () => {
		await presence({ number: CONTACT, presence: 'composing', delay: 5000 });
		await presence({ number: '5511999990002@s.whatsapp.net', presence: 'composing', delay: 5000 });
		await presence({ number: CONTACT, presence: 'recording', delay: 5000 });
		const states = (await shown()).sort((a, b) => a.chatid.localeCompare(b.chatid));
		expect(states.map((s) => [s.chatid, s.presence])).toEqual([
			[CONTACT_JID, 'recording'],
			['5511999990002@s.whatsapp.net', 'composing'],
		]);
		await presence({ number: CONTACT, presence: 'paused' });
		await presence({ number: '5511999990002', presence: 'paused' });
		expect(await shown()).toEqual([]);
		// Pausing when nothing runs is fine.
		expect((await presence({ number: CONTACT, presence: 'paused' })).status).toBe(200);
	});

	test('errors', async () => {
		expect(await presence({ number: CONTACT, presence: 'composing', delay: 300001 })).toMatchObject({
			status: 400,
			body: { success: false, message: 'delay must be at most 300000' },
		});
		expect(await presence({ number: CONTACT, presence: 'composing', delay: 0 })).toMatchObject({ status: 400, body: { message: 'delay must be at least 1' } });
		expect(await presence({ number: CONTACT, presence: 'typing' })).toMatchObject({
			status: 400,
			body: { message: 'presence must be one of: "composing", "recording", "paused"' },
		});
		expect(await presence({ presence: 'composing' })).toMatchObject({ status: 400, body: { message: 'number is required' } });
		expect(await presence({ number: '42', presence: 'composing' })).toMatchObject({ status: 400 });
		const created = await api.post('/devices', { name: 'typist-offline' }, { key: ADMIN_KEY });
		expect(await presence({ number: CONTACT, presence: 'composing' }, created.body.data.token)).toMatchObject({
			status: 500,
			body: { message: "device 'typist-offline' is not connected (status: disconnected); pair it with a QR code first" },
		});
		expect((await presence({ number: CONTACT, presence: 'composing' }, 'wrong')).status).toBe(401);
		expect(await shown()).toEqual([]);
		expect(await sb.get('/devices/nobody/presence')).toMatchObject({ status: 404 });
	});
});
