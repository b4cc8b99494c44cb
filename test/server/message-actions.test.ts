import { ADMIN_KEY, connectedDevice, eventually, findMessage, startGateway, type Client, type Device, storedDevice } from '../helpers/server';
import { type Receiver, sleep, startReceiver } from '../helpers/webhooks';
import type { App } from '../../server/src/app';

/**
 * The message actions: /message/markread, /message/react, /message/delete, /message/edit and
 * /message/download with download_quoted. State is read back through /message/find and the store's
 * chats, events through a local webhook receiver; two devices of the server show the cross-device effects.
 */

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(40, 7)]);

let server: App;
let receiver: Receiver;
let api: Client;
let sandbox: Client;
let shop: Device;
let alice: Device;
let bob: Device;
let seq = 0;
/** A fresh contact on the network outside this server, so that every test has chats of its own. */
const contact = () => `55219${String(20000000 + ++seq).slice(-8)}`;
const jidOf = (number: string) => `${number}@s.whatsapp.net`;

const post = (d: Device, route: string, body: unknown) => api.post(route, body, { token: d.token });
const markread = (d: Device, body: unknown) => post(d, '/message/markread', body);
const react = (d: Device, body: unknown) => post(d, '/message/react', body);
const del = (d: Device, body: unknown) => post(d, '/message/delete', body);
const edit = (d: Device, body: unknown) => post(d, '/message/edit', body);
const download = (d: Device, body: unknown) => post(d, '/message/download', body);
const sendText = async (d: Device, number: string, text: string, extra: Record<string, unknown> = {}) => {
	const res = await post(d, '/send/text', { number, text, ...extra });
	expect(res.status).toBe(200);
	return res.body.data;
};
const sendImage = async (d: Device, number: string, extra: Record<string, unknown> = {}) => {
	const res = await post(d, '/send/media', { number, type: 'image', file: PNG.toString('base64'), ...extra });
	expect(res.status).toBe(200);
	return res.body.data;
};
/** A contact sends the device a message (the sandbox plays the contact). */
const inbound = async (d: Device, body: Record<string, unknown>) => {
	const res = await sandbox.post(`/devices/${d.name}/inbound`, body, { key: ADMIN_KEY });
	expect(res.status).toBe(200);
	return res.body.data;
};

/** The message as /message/find shows it now. */
const stored = (d: Device, id: string) => findMessage(api, d.token, id);

const unreadOf = (d: Device, chatid: string) => {
	const device = storedDevice(server.services.store, d.name)!;
	return server.services.store.chats.get(device.id, chatid)?.unread;
};

/** Each device's webhook path on the receiver; `updates` lists the `messages_update` events of one message. */
const subscriptions = new Map<string, string>();
const updates = (d: Device, id: string) =>
	receiver
		.events('messages_update', `/${d.name}`)
		.map((hit) => hit.body.data)
		.filter((data) => data.id === id);
/** Waits until every event written for the device so far has reached the receiver. */
const settled = (d: Device) =>
	eventually(() => server.services.store.outbox.ofWebhook(subscriptions.get(d.name)!).every((row) => row.state === 'delivered'));

async function device(name: string) {
	const d = await connectedDevice(server, name);
	const sub = await api.post(`/devices/${name}/webhook`, { url: `${receiver.url}/${name}`, events: ['messages_update'] }, { key: ADMIN_KEY });
	expect(sub.status).toBe(200);
	subscriptions.set(name, sub.body.data.id);
	return d;
}

/** A connected device that is then logged out: the network refuses its actions. */
async function loggedOut(name: string) {
	const d = await connectedDevice(server, name);
	const number = contact();
	const rows = {
		received: await inbound(d, { from: number, text: 'before logout' }),
		sent: await sendText(d, number, 'mine'),
		queued: await sendText(d, number, 'later', { async: true, delay: 60000 }),
		number,
	};
	expect((await api.post(`/devices/${name}/logout`, undefined, { key: ADMIN_KEY })).status).toBe(200);
	return { d, ...rows };
}

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	receiver = await startReceiver();
	shop = await device('shop');
	alice = await device('alice');
	bob = await device('bob');
});
afterAll(async () => {
	await server.close();
	await receiver.close();
});

describe('POST /message/markread', () => {
	test('received messages become read, the chat counts them read, and each one is a messages_update', async () => {
		const number = contact();
		const [m1, m2, m3] = [await inbound(shop, { from: number, text: 'one' }), await inbound(shop, { from: number, text: 'two' }), await inbound(shop, { from: number, text: 'three' })];
		expect(unreadOf(shop, jidOf(number))).toBe(3);

		const res = await markread(shop, { id: [m1.id, m2.messageid] });
		expect(res.status).toBe(200);
		expect(res.body.data.map((m: { id: string; status: string }) => [m.id, m.status])).toEqual([
			[m1.id, 'read'],
			[m2.id, 'read'],
		]);
		expect((await stored(shop, m1.id)).status).toBe('read');
		expect((await stored(shop, m2.id)).status).toBe('read');
		expect((await stored(shop, m3.id)).status).toBe('delivered');
		expect(unreadOf(shop, jidOf(number))).toBe(1);
		await eventually(() => updates(shop, m2.id).length === 1);
		expect(updates(shop, m1.id)).toEqual([
			{ id: m1.id, messageid: m1.messageid, chatid: jidOf(number), fromMe: false, status: 'read', timestamp: expect.any(Number) },
		]);

		// Reading again changes nothing (no event); the still-unread one is read and the chat is done.
		const again = await markread(shop, { id: [m1.id, m3.id] });
		expect(again.body.data.map((m: { status: string }) => m.status)).toEqual(['read', 'read']);
		expect(unreadOf(shop, jidOf(number))).toBe(0);
		await settled(shop);
		expect(updates(shop, m1.id)).toHaveLength(1);
		expect(updates(shop, m3.id)).toHaveLength(1);
	});

	test('one id may be given on its own; the same message named twice is read once', async () => {
		const number = contact();
		const a = await inbound(shop, { from: number, text: 'a' });
		const b = await inbound(shop, { from: number, text: 'b' });
		const single = await markread(shop, { id: a.messageid });
		expect(single.body.data).toEqual([expect.objectContaining({ id: a.id, status: 'read' })]);
		expect(unreadOf(shop, jidOf(number))).toBe(1);
		const twice = await markread(shop, { id: [b.id, b.messageid] });
		expect(twice.body.data).toEqual([expect.objectContaining({ id: b.id, status: 'read' })]);
		expect(unreadOf(shop, jidOf(number))).toBe(0);
	});

	test("the sender's copy on another device of the server becomes read", async () => {
		const sent = await sendText(alice, bob.phone, 'did you read this?');
		const bobsCopy = await stored(bob, sent.messageid);
		const before = unreadOf(bob, alice.jid)!;
		expect(before).toBeGreaterThanOrEqual(1);

		const res = await markread(bob, { id: [bobsCopy.id] });
		expect(res.body.data[0]).toMatchObject({ id: bobsCopy.id, status: 'read' });
		expect(unreadOf(bob, alice.jid)).toBe(before - 1);
		expect((await stored(alice, sent.id)).status).toBe('read');
		await eventually(() => updates(alice, sent.id).some((u) => u.status === 'read'));
		// A late delivery receipt does not move it back.
		await sleep(80);
		expect((await stored(alice, sent.id)).status).toBe('read');
	});

	test('unknown ids are a 404 naming them, and nothing is read', async () => {
		const number = contact();
		const m = await inbound(shop, { from: number, text: 'keep me unread' });
		expect(await markread(shop, { id: [m.id, 'nope-1', 'nope-2'] })).toMatchObject({
			status: 404,
			body: { success: false, message: 'id: no messages with ids "nope-1", "nope-2" on this device' },
		});
		expect(await markread(shop, { id: ['nope'] })).toMatchObject({ status: 404, body: { message: 'id: no message with id "nope" on this device' } });
		// Another device's message is as unknown as one that never was.
		const alices = await inbound(alice, { from: number, text: 'for alice' });
		expect((await markread(shop, { id: [alices.id] })).status).toBe(404);
		expect((await stored(shop, m.id)).status).toBe('delivered');
		expect(unreadOf(shop, jidOf(number))).toBe(1);
	});

	test("a message the device sent is refused (it is the recipient's to read), and nothing is read", async () => {
		const number = contact();
		const m = await inbound(shop, { from: number, text: 'unread' });
		const mine = await sendText(shop, number, 'mine');
		expect(await markread(shop, { id: [m.id, mine.id] })).toMatchObject({
			status: 400,
			body: { message: `id: message "${mine.id}" was sent by this device; only received messages can be marked read` },
		});
		expect((await stored(shop, m.id)).status).toBe('delivered');
	});

	test('bad bodies are a 400 naming the field; a wrong token 401; a logged-out device 500', async () => {
		const cases: [unknown, string][] = [
			[{}, 'id is required'],
			[{ id: [] }, 'id must have at least 1 items'],
			[{ id: 5 }, 'id must be an array (got number 5)'],
			[{ id: [''] }, 'id[0] must be at least 1 characters long'],
			[{ id: ['x'], chat: 'y' }, 'body has unknown field(s): chat'],
		];
		for (const [body, message] of cases) expect(await markread(shop, body)).toMatchObject({ status: 400, body: { success: false, message } });
		expect((await api.post('/message/markread', { id: ['x'] }, { token: 'wrong' })).status).toBe(401);

		const off = await loggedOut('markread-off');
		expect(await markread(off.d, { id: [off.received.id] })).toMatchObject({
			status: 500,
			body: { message: "device 'markread-off' is not connected (status: disconnected); pair it with a QR code first" },
		});
	});
});

describe('POST /message/react', () => {
	test('sets, replaces and removes the device\'s reaction; the other side\'s reaction stays its own', async () => {
		const number = contact();
		const m = await inbound(shop, { from: number, text: 'we are open until 8' });

		const res = await react(shop, { number, text: '👍', id: m.id });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ id: m.id, reaction: '👍', reactions: [{ sender: shop.jid, text: '👍', timestamp: expect.any(Number) }] });
		expect(await stored(shop, m.id)).toMatchObject({ reaction: '👍', reactions: [{ sender: shop.jid, text: '👍' }] });
		await eventually(() => updates(shop, m.id).length === 1);
		expect(updates(shop, m.id)[0]).toMatchObject({ id: m.id, reaction: '👍', sender: shop.jid, reactions: [{ sender: shop.jid, text: '👍' }] });

		// A new emoji replaces the device's reaction; the number may be given as a JID.
		await react(shop, { number: jidOf(number), text: '❤️', id: m.messageid });
		expect((await stored(shop, m.id)).reactions).toEqual([{ sender: shop.jid, text: '❤️', timestamp: expect.any(Number) }]);

		// The contact reacts too: both show, the newest is `reaction`.
		await sandbox.post('/devices/shop/react', { id: m.id, text: '😂' }, { key: ADMIN_KEY });
		expect(await stored(shop, m.id)).toMatchObject({
			reaction: '😂',
			reactions: [
				{ sender: shop.jid, text: '❤️' },
				{ sender: jidOf(number), text: '😂' },
			],
		});

		// An empty text takes the device's reaction back and leaves the contact's.
		const removed = await react(shop, { number, text: '', id: m.id });
		expect(removed.body.data).toMatchObject({ reaction: '😂', reactions: [{ sender: jidOf(number), text: '😂' }] });
		await eventually(() => updates(shop, m.id).some((u) => u.sender === shop.jid && u.reactions.length === 1));
	});

	test('emoji with skin tones, flags, keycaps and ZWJ sequences are one emoji; the @lid form of the number is the same chat', async () => {
		const number = contact();
		const mine = await sendText(shop, number, 'react to your own message, too');
		for (const emoji of ['👍🏽', '🇧🇷', '1️⃣', '👨‍👩‍👧', '🫠']) {
			const res = await react(shop, { number: `${number}@lid`, text: emoji, id: mine.id });
			expect({ emoji, status: res.status, reaction: res.body.data?.reaction }).toEqual({ emoji, status: 200, reaction: emoji });
		}
	});

	test('a reaction on a message between two devices of the server shows on both copies', async () => {
		const sent = await sendText(bob, alice.phone, 'lunch?');
		const alicesCopy = await stored(alice, sent.messageid);
		const res = await react(alice, { number: bob.phone, text: '🍕', id: alicesCopy.id });
		expect(res.body.data).toMatchObject({ id: alicesCopy.id, reaction: '🍕' });
		expect(await stored(bob, sent.id)).toMatchObject({ reaction: '🍕', reactions: [{ sender: alice.jid, text: '🍕' }] });
		await eventually(() => updates(bob, sent.id).some((u) => u.reaction === '🍕' && u.sender === alice.jid));

		await react(alice, { number: bob.phone, text: '', id: alicesCopy.id });
		expect(await stored(bob, sent.id)).toMatchObject({ reaction: null, reactions: [] });
	});

	test('refusals: not an emoji, the wrong chat, a message not on the network, unknown ids, missing fields', async () => {
		const number = contact();
		const m = await inbound(shop, { from: number, text: 'hi' });
		const cases: [Record<string, unknown>, number, string][] = [
			[{ number, text: 'ok', id: m.id }, 400, 'text must be a single emoji, or empty to remove the reaction'],
			[{ number, text: '👍👍', id: m.id }, 400, 'text must be a single emoji, or empty to remove the reaction'],
			[{ number, text: '7', id: m.id }, 400, 'text must be a single emoji, or empty to remove the reaction'],
			[{ number, text: 'x'.repeat(65), id: m.id }, 400, 'text must be at most 64 characters long'],
			[{ number: '5511988887777', text: '👍', id: m.id }, 400, `number: message "${m.id}" is in chat ${jidOf(number)}, not in 5511988887777`],
			[{ number: 'abc', text: '👍', id: m.id }, 400, 'number must be an international phone number of 8 to 15 digits, country code first (got "abc")'],
			[{ number, text: '👍', id: 'nope' }, 404, 'id: no message with id "nope" on this device'],
			[{}, 400, 'number is required; text is required; id is required'],
			[{ number, text: 5, id: m.id }, 400, 'text must be a string (got number 5)'],
		];
		for (const [body, status, message] of cases) {
			const res = await react(shop, body);
			expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status, message });
		}
		expect((await stored(shop, m.id)).reactions).toEqual([]);

		const queued = await sendText(shop, number, 'later', { async: true, delay: 60000 });
		expect(await react(shop, { number, text: '👍', id: queued.id })).toMatchObject({
			status: 400,
			body: { message: `id: message "${queued.id}" has not been sent (status: queued), so it cannot be reacted to` },
		});
		const gone = await sendText(shop, number, 'gone');
		await del(shop, { id: gone.id });
		expect(await react(shop, { number, text: '👍', id: gone.id })).toMatchObject({
			status: 400,
			body: { message: `id: message "${gone.id}" was deleted, so it cannot be reacted to` },
		});

		const off = await loggedOut('react-off');
		expect(await react(off.d, { number: off.number, text: '👍', id: off.received.id })).toMatchObject({ status: 500 });
	});
});

describe('POST /message/delete', () => {
	test('clears a sent text for everyone: status deleted, no text, content or mentions; a messages_update', async () => {
		const number = contact();
		const sent = await sendText(shop, number, 'oops, wrong chat', { mentions: number, linkPreview: true });
		const res = await del(shop, { id: sent.messageid });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ id: sent.id, status: 'deleted', text: null, content: {}, mentions: [], fileURL: null, reaction: null });
		expect(await stored(shop, sent.id)).toEqual(res.body.data);
		await eventually(() => updates(shop, sent.id).some((u) => u.status === 'deleted'));

		// Deleting again answers the same, with no new event; a late receipt leaves it deleted.
		const again = await del(shop, { id: sent.id });
		expect(again).toMatchObject({ status: 200, body: { data: { id: sent.id, status: 'deleted' } } });
		await sleep(80);
		await settled(shop);
		expect(updates(shop, sent.id).filter((u) => u.status === 'deleted')).toHaveLength(1);
		expect((await stored(shop, sent.id)).status).toBe('deleted');
	});

	test('a deleted media message loses its file: the link answers 404, and download says there is no media', async () => {
		const image = await sendImage(shop, contact(), { text: 'caption' });
		expect((await fetch(image.fileURL)).status).toBe(200);
		const res = await del(shop, { id: image.id });
		expect(res.body.data).toMatchObject({ status: 'deleted', text: null, fileURL: null, mimetype: null, fileName: null, messageType: 'image' });
		expect((await fetch(image.fileURL)).status).toBe(404);
		expect(await download(shop, { id: image.id })).toMatchObject({ status: 400, body: { message: `id: message "${image.id}" has no media to download` } });
	});

	test("the recipient device's copy is deleted too, and no longer counts as unread", async () => {
		const before = unreadOf(bob, alice.jid) ?? 0;
		const sent = await sendImage(alice, bob.phone, { text: 'for your eyes only' });
		expect(unreadOf(bob, alice.jid)).toBe(before + 1);
		const bobsCopy = await stored(bob, sent.messageid);
		expect((await download(bob, { id: bobsCopy.id })).status).toBe(200);

		await del(alice, { id: sent.id });
		expect(await stored(bob, bobsCopy.id)).toMatchObject({ status: 'deleted', text: null, fileURL: null, fromMe: false });
		expect(unreadOf(bob, alice.jid)).toBe(before);
		await eventually(() => updates(bob, bobsCopy.id).some((u) => u.status === 'deleted'));
		expect((await download(bob, { id: bobsCopy.id })).status).toBe(400);
		expect((await fetch(sent.fileURL)).status).toBe(404);
	});

	test('a queued message is cancelled: it never goes out', async () => {
		const queued = await sendText(alice, bob.phone, 'never mind', { async: true, delay: 150 });
		expect(queued.status).toBe('queued');
		expect((await del(alice, { id: queued.id })).body.data).toMatchObject({ status: 'deleted', text: null });
		await sleep(400);
		expect((await stored(alice, queued.id)).status).toBe('deleted');
		expect((await post(bob, '/message/find', { id: queued.messageid })).body.data.total).toBe(0);
	});

	test("refusals: someone else's message, unknown ids, missing fields, a logged-out device", async () => {
		const number = contact();
		const theirs = await inbound(shop, { from: number, text: 'not yours to delete' });
		expect(await del(shop, { id: theirs.id })).toMatchObject({
			status: 400,
			body: { message: `id: message "${theirs.id}" was sent by ${jidOf(number)}; only messages sent by this device can be deleted for everyone` },
		});
		expect((await stored(shop, theirs.id)).text).toBe('not yours to delete');
		expect(await del(shop, { id: 'nope' })).toMatchObject({ status: 404, body: { message: 'id: no message with id "nope" on this device' } });
		const alices = await sendText(alice, number, 'alice only');
		expect((await del(shop, { id: alices.id })).status).toBe(404);
		expect(await del(shop, {})).toMatchObject({ status: 400, body: { message: 'id is required' } });
		expect(await del(shop, { id: '  ' })).toMatchObject({ status: 400, body: { message: 'id must be at least 1 characters long' } });
		expect(await del(shop, { id: alices.id, forEveryone: true })).toMatchObject({ status: 400, body: { message: 'body has unknown field(s): forEveryone' } });

		const off = await loggedOut('delete-off');
		expect(await del(off.d, { id: off.sent.id })).toMatchObject({ status: 500 });
		expect((await stored(off.d, off.sent.id)).status).not.toBe('deleted');
		// A queued message is only cancelled here, which needs no network.
		expect(await del(off.d, { id: off.queued.id })).toMatchObject({ status: 200, body: { data: { status: 'deleted' } } });
	});
});

describe('POST /message/edit', () => {
	test('replaces the text, marks it edited and keeps the first text in content.originalText', async () => {
		const number = contact();
		const sent = await sendText(shop, number, 'Opening at 9');
		const res = await edit(shop, { id: sent.id, text: 'Opening at 10' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ id: sent.id, text: 'Opening at 10', edited: true, content: { originalText: 'Opening at 9' } });
		expect(await stored(shop, sent.id)).toMatchObject({ text: 'Opening at 10', edited: true, content: { originalText: 'Opening at 9' } });
		await eventually(() => updates(shop, sent.id).some((u) => u.text === 'Opening at 10'));
		expect(updates(shop, sent.id).find((u) => u.edited)).toMatchObject({ id: sent.id, edited: true, text: 'Opening at 10', fromMe: true });

		const again = await edit(shop, { id: sent.messageid, text: 'Opening at 11' });
		expect(again.body.data).toMatchObject({ text: 'Opening at 11', content: { originalText: 'Opening at 9' } });
	});

	test("the recipient device's copy shows the new text", async () => {
		const sent = await sendText(alice, bob.phone, 'meet at 5');
		await edit(alice, { id: sent.id, text: 'meet at 6' });
		const bobsCopy = await stored(bob, sent.messageid);
		expect(bobsCopy).toMatchObject({ text: 'meet at 6', edited: true, fromMe: false, content: { originalText: 'meet at 5' } });
		await eventually(() => updates(bob, bobsCopy.id).some((u) => u.text === 'meet at 6' && u.edited === true));
	});

	test('refusals: not sent by the device, not text, empty text, deleted, queued, too old, unknown', async () => {
		const number = contact();
		const theirs = await inbound(shop, { from: number, text: 'theirs' });
		const image = await sendImage(shop, number, { text: 'caption' });
		const sent = await sendText(shop, number, 'mine');
		const queued = await sendText(shop, number, 'later', { async: true, delay: 60000 });
		const gone = await sendText(shop, number, 'gone');
		await del(shop, { id: gone.id });
		const old = await sendText(shop, number, 'long ago');
		server.services.store.messages.update(old.id, { timestamp: Date.now() - 16 * 60 * 1000 });

		const cases: [Record<string, unknown>, number, string][] = [
			[{ id: theirs.id, text: 'x' }, 400, `id: message "${theirs.id}" was sent by ${jidOf(number)}; only messages sent by this device can be edited`],
			[{ id: image.id, text: 'x' }, 400, `id: message "${image.id}" is an image message; only text messages can be edited`],
			[{ id: sent.id, text: '' }, 400, 'text must not be empty'],
			[{ id: sent.id, text: ' \n ' }, 400, 'text must not be empty'],
			[{ id: sent.id }, 400, 'text is required'],
			[{ text: 'x' }, 400, 'id is required'],
			[{ id: gone.id, text: 'x' }, 400, `id: message "${gone.id}" was deleted, so it cannot be edited`],
			[{ id: queued.id, text: 'x' }, 400, `id: message "${queued.id}" has not been sent (status: queued), so it cannot be edited`],
			[{ id: old.id, text: 'x' }, 400, `id: message "${old.id}" was sent more than 15 minutes ago; the network accepts edits for 15 minutes only`],
			[{ id: 'nope', text: 'x' }, 404, 'id: no message with id "nope" on this device'],
		];
		for (const [body, status, message] of cases) {
			const res = await edit(shop, body);
			expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status, message });
		}
		expect(await stored(shop, sent.id)).toMatchObject({ text: 'mine', edited: false });
		expect(await stored(shop, old.id)).toMatchObject({ text: 'long ago', edited: false });
		// Just inside the window, it is still accepted.
		server.services.store.messages.update(old.id, { timestamp: Date.now() - 14 * 60 * 1000 });
		expect((await edit(shop, { id: old.id, text: 'just in time' })).status).toBe(200);

		const off = await loggedOut('edit-off');
		expect(await edit(off.d, { id: off.sent.id, text: 'x' })).toMatchObject({ status: 500 });
		expect((await stored(off.d, off.sent.id)).text).toBe('mine');
	});
});

describe('POST /message/download with download_quoted', () => {
	test("a contact's reply to one of the device's media messages: the quoted media is downloaded", async () => {
		const number = contact();
		const image = await sendImage(shop, number);
		const reply = await inbound(shop, { from: number, text: 'is this the blue one?', replyid: image.id });
		expect(reply.quoted).toBe(image.id);

		const res = await download(shop, { id: reply.id, download_quoted: true, return_base64: true });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({ id: image.id, mimetype: 'image/png', fileName: 'file.png', size: PNG.length, fileURL: image.fileURL, base64Data: PNG.toString('base64') });
		// Without the flag it is the reply's own media: a text has none.
		expect(await download(shop, { id: reply.id })).toMatchObject({ status: 400, body: { message: `id: message "${reply.id}" has no media to download` } });
	});

	test('a reply between two devices of the server quotes the copy of the receiving device', async () => {
		const voice = (await post(alice, '/send/media', { number: bob.phone, type: 'ptt', file: OGG.toString('base64'), mimetype: 'audio/ogg' })).body.data;
		const bobsCopy = await stored(bob, voice.messageid);
		const reply = await sendText(bob, alice.phone, 'nice voice', { replyid: bobsCopy.id });
		const alicesReply = await stored(alice, reply.messageid);
		const res = await download(alice, { id: alicesReply.id, download_quoted: true, return_base64: true });
		expect(res.body.data).toMatchObject({ id: voice.id, mimetype: 'audio/ogg', base64Data: OGG.toString('base64') });
		expect((await download(bob, { id: reply.id, download_quoted: true })).body.data).toMatchObject({ id: bobsCopy.id, mimetype: 'audio/ogg' });
	});

	test('a 400 when the message quotes nothing with media: no quote, a text, a deleted message', async () => {
		const number = contact();
		const plain = await inbound(shop, { from: number, text: 'no quote' });
		expect(await download(shop, { id: plain.id, download_quoted: true })).toMatchObject({
			status: 400,
			body: { message: `download_quoted: message "${plain.id}" does not quote another message` },
		});
		const text = await sendText(shop, number, 'a text');
		const aboutText = await inbound(shop, { from: number, text: 'about your text', replyid: text.id });
		expect(await download(shop, { id: aboutText.id, download_quoted: true })).toMatchObject({
			status: 400,
			body: { message: `download_quoted: the message that "${aboutText.id}" quotes has no media to download` },
		});
		const image = await sendImage(shop, number);
		const aboutImage = await inbound(shop, { from: number, text: 'about your image', replyid: image.id });
		await del(shop, { id: image.id });
		expect(await download(shop, { id: aboutImage.id, download_quoted: true })).toMatchObject({
			status: 400,
			body: { message: `download_quoted: the message that "${aboutImage.id}" quotes has no media to download` },
		});
		expect(await download(shop, { id: 'nope', download_quoted: true })).toMatchObject({ status: 404 });
	});

	test("a contact's reply to a status post: the status media is downloaded", async () => {
		const posted = await post(shop, '/send/status', { type: 'image', file: PNG.toString('base64') });
		expect(posted.status).toBe(200);
		const status = posted.body.data;
		const reply = await inbound(shop, { from: contact(), text: 'love this', replyid: status.id });
		expect(reply.quoted).toBe(status.id);
		const res = await download(shop, { id: reply.id, download_quoted: true, return_base64: true });
		expect(res.body.data).toMatchObject({ id: status.id, mimetype: 'image/png', base64Data: PNG.toString('base64') });
	});
});
