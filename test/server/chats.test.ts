import { ADMIN_KEY, connectedDevice, expectError, gatewaySuite, type SubscribedDevice as Device, storedDevice } from '../helpers/server';
import { sleep } from '../helpers/webhooks';
import { CHAT_ATTRIBUTES } from '../../server/src/gateway/chats';
import { parseUser } from '../../server/src/network/jid';

/** /chat/delete, /chat/archive, /chat/read, /chat/mute, /chat/pin and /chat/find, with their `chats` events. */

const HOUR = 3_600_000;
/** A 1x1 PNG: media whose stored file a chat deletion must remove. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const suite = gatewaySuite();
const { device } = suite;


let seq = 0;
/** A fresh number on the network outside this suite.server. */
const number = () => `55219${String(++seq).padStart(8, '0')}`;
const jidOf = (phone: string) => `${phone}@s.whatsapp.net`;

const inbound = async (d: Device, from: string, text = 'hi', senderName?: string) => {
	const res = await suite.sandbox.post(`/devices/${d.name}/inbound`, { from, text, senderName }, { key: ADMIN_KEY });
	expect(res.status).toBe(200);
	// Distinct timestamps, so that the newest-first order is certain.
	await sleep(3);
	return res.body.data;
};
const send = async (d: Device, to: string, text = 'hello') => {
	const res = await suite.api.post('/send/text', { number: to, text }, { token: d.token });
	expect(res.status).toBe(200);
	await sleep(3);
	return res.body.data;
};
const post = (d: Device, route: string, body?: unknown) => suite.api.post(`/chat/${route}`, body, { token: d.token });
const find = (d: Device, body: Record<string, unknown>) => suite.api.post('/chat/find', body, { token: d.token });
/** The chat as /chat/find shows it (undefined when the device has none). */
const chatOf = async (d: Device, jid: string) => {
	const res = await find(d, { wa_chatid: jid });
	expect(res.status).toBe(200);
	return res.body.data.chats[0];
};
const messagesOf = async (d: Device, chatid: string) => (await suite.api.post('/message/find', { chatid }, { token: d.token })).body.data.messages;

describe('POST /chat/archive', () => {
	let d: Device;
	beforeAll(async () => {
		d = await device('archiver');
	});

	test('archives and unarchives; each change is a chats event with the chat', async () => {
		const peer = number();
		await inbound(d, peer);
		const archived = await post(d, 'archive', { number: peer, archive: true });
		expect(archived.status).toBe(200);
		expect(archived.body.data).toMatchObject({ wa_chatid: jidOf(peer), wa_archived: true });
		expect((await chatOf(d, jidOf(peer))).wa_archived).toBe(true);
		expect(d.events('chats').at(-1)).toEqual(archived.body.data);

		const again = d.events('chats').length;
		expect((await post(d, 'archive', { number: jidOf(peer), archive: true })).body.data.wa_archived).toBe(true);
		// Nothing changed: no event.
		expect(d.events('chats')).toHaveLength(again);

		const back = await post(d, 'archive', { number: peer, archive: false });
		expect(back.body.data.wa_archived).toBe(false);
		expect(d.events('chats').at(-1)).toMatchObject({ wa_chatid: jidOf(peer), wa_archived: false });
	});

	test('archiving a pinned chat unpins it; a new message unarchives it', async () => {
		const peer = number();
		await inbound(d, peer);
		expect((await post(d, 'pin', { number: peer, pin: true })).body.data.wa_isPinned).toBe(true);
		const archived = await post(d, 'archive', { number: peer, archive: true });
		expect(archived.body.data).toMatchObject({ wa_archived: true, wa_isPinned: false });
		await inbound(d, peer, 'back again');
		expect(await chatOf(d, jidOf(peer))).toMatchObject({ wa_archived: false, wa_unreadCount: 2 });
	});
});

describe('POST /chat/read', () => {
	test('read: the received messages become read, the count 0, the senders on this suite.server see them read', async () => {
		const reader = await device('reader');
		const writer = await device('writer');
		const fromPeer = number();
		await inbound(reader, fromPeer, 'one');
		await inbound(reader, fromPeer, 'two');
		const sent = await send(writer, reader.phone, 'from a device');
		expect((await chatOf(reader, jidOf(fromPeer))).wa_unreadCount).toBe(2);
		expect((await chatOf(reader, writer.jid)).wa_unreadCount).toBe(1);

		const read = await post(reader, 'read', { number: jidOf(fromPeer), read: true });
		expect(read.status).toBe(200);
		expect(read.body.data).toMatchObject({ wa_chatid: jidOf(fromPeer), wa_unreadCount: 0 });
		expect((await messagesOf(reader, jidOf(fromPeer))).map((m: { status: string }) => m.status)).toEqual(['read', 'read']);
		expect(reader.events('chats').at(-1)).toEqual(read.body.data);
		expect(reader.events('messages_update').filter((e) => e.chatid === jidOf(fromPeer) && e.status === 'read')).toHaveLength(2);

		// The other device's chat is untouched until it is read; then the writer's copy shows read.
		expect((await chatOf(reader, writer.jid)).wa_unreadCount).toBe(1);
		await post(reader, 'read', { number: writer.phone, read: true });
		const [copy] = await messagesOf(writer, reader.jid);
		expect(copy).toMatchObject({ messageid: sent.messageid, status: 'read' });
	});

	test('read marks every unread message, also more than a page of them', async () => {
		const d = await connectedDevice(suite.server, 'many-unread');
		const { store, messaging } = suite.server.services;
		const row = storedDevice(store, d.name)!;
		const peer = parseUser(number(), 'from');
		// Straight into the network: 1,200 requests through the suite.sandbox would only make the test slow.
		for (let i = 0; i < 1200; i++) messaging.receive(row, peer, { type: 'text', text: `m${i}` });
		expect(store.chats.get(row.id, peer.jid)!.unread).toBe(1200);

		const read = await suite.api.post('/chat/read', { number: peer.phone, read: true }, { token: d.token });
		expect(read.body.data).toMatchObject({ wa_chatid: peer.jid, wa_unreadCount: 0 });
		expect(store.messages.unreadInbound(row.id, peer.jid)).toEqual([]);
		const statuses = store.db.prepare('SELECT status, count(*) AS n FROM messages WHERE device_id = ? AND chatid = ? GROUP BY status').all(row.id, peer.jid);
		expect(statuses).toEqual([{ status: 'read', n: 1200 }]);
	});

	test('unread: the chat shows at least 1 unread; a chat already unread keeps its count', async () => {
		const d = await device('unreader');
		const peer = number();
		await inbound(d, peer);
		await post(d, 'read', { number: peer, read: true });
		const unread = await post(d, 'read', { number: peer, read: false });
		expect(unread.body.data.wa_unreadCount).toBe(1);
		expect(d.events('chats').at(-1)).toMatchObject({ wa_chatid: jidOf(peer), wa_unreadCount: 1 });
		// The message itself stays read.
		expect((await messagesOf(d, jidOf(peer)))[0].status).toBe('read');

		const busy = number();
		await inbound(d, busy);
		await inbound(d, busy);
		await inbound(d, busy);
		const events = d.events('chats').length;
		expect((await post(d, 'read', { number: busy, read: false })).body.data.wa_unreadCount).toBe(3);
		expect(d.events('chats')).toHaveLength(events);
	});
});

describe('POST /chat/mute', () => {
	test('8 hours and a week end then (epoch ms), -1 is for ever, 0 unmutes; each is an event', async () => {
		const d = await device('muter');
		const peer = number();
		await inbound(d, peer);
		for (const hours of [8, 168]) {
			const before = Date.now();
			const muted = await post(d, 'mute', { number: peer, muteEndTime: hours });
			expect(muted.status).toBe(200);
			expect(muted.body.data.wa_muteEndTime).toBeGreaterThanOrEqual(before + hours * HOUR);
			expect(muted.body.data.wa_muteEndTime).toBeLessThanOrEqual(Date.now() + hours * HOUR);
			expect((await chatOf(d, jidOf(peer))).wa_muteEndTime).toBe(muted.body.data.wa_muteEndTime);
			expect(d.events('chats').at(-1)).toEqual(muted.body.data);
		}
		expect((await post(d, 'mute', { number: peer, muteEndTime: -1 })).body.data.wa_muteEndTime).toBe(-1);
		expect((await chatOf(d, jidOf(peer))).wa_muteEndTime).toBe(-1);
		expect((await post(d, 'mute', { number: peer, muteEndTime: 0 })).body.data.wa_muteEndTime).toBe(0);
		expect(d.events('chats').at(-1)).toMatchObject({ wa_chatid: jidOf(peer), wa_muteEndTime: 0 });
	});

	test('other values are a 400 listing the allowed ones', async () => {
		const d = await device('muter-bad');
		const peer = number();
		await inbound(d, peer);
		for (const value of [1, 24, 169, -2, 8.5]) {
			expectError(await post(d, 'mute', { number: peer, muteEndTime: value }), 400, 'muteEndTime must be one of: 0, 8, 168, -1');
		}
		expectError(await post(d, 'mute', { number: peer, muteEndTime: '8' }), 400, 'muteEndTime must be one of: 0, 8, 168, -1');
		expectError(await post(d, 'mute', { number: peer }), 400, 'muteEndTime is required');
		expect((await chatOf(d, jidOf(peer))).wa_muteEndTime).toBe(0);
	});
});

describe('POST /chat/pin', () => {
	test('pins up to 3 chats; a 4th is refused by the network until one is unpinned', async () => {
		const d = await device('pinner');
		const peers = [number(), number(), number(), number()];
		for (const peer of peers) await inbound(d, peer);
		for (const peer of peers.slice(0, 3)) {
			const pinned = await post(d, 'pin', { number: peer, pin: true });
			expect(pinned.body.data).toMatchObject({ wa_chatid: jidOf(peer), wa_isPinned: true });
			expect(d.events('chats').at(-1)).toEqual(pinned.body.data);
		}
		// Pinning a pinned chat again is fine.
		expect((await post(d, 'pin', { number: peers[0], pin: true })).status).toBe(200);

		const refused = await post(d, 'pin', { number: peers[3], pin: true });
		expectError(refused, 500, /^only 3 chats can be pinned; unpin one of .* first$/);
		for (const peer of peers.slice(0, 3)) expect(refused.body.message).toContain(jidOf(peer));
		expect((await chatOf(d, jidOf(peers[3]))).wa_isPinned).toBe(false);

		expect((await post(d, 'pin', { number: peers[1], pin: false })).body.data.wa_isPinned).toBe(false);
		expect(d.events('chats').at(-1)).toMatchObject({ wa_chatid: jidOf(peers[1]), wa_isPinned: false });
		expect((await post(d, 'pin', { number: peers[3], pin: true })).body.data.wa_isPinned).toBe(true);
		const pinned = await find(d, { wa_isPinned: true, sort: 'wa_chatid' });
		expect(pinned.body.data.chats.map((c: { wa_chatid: string }) => c.wa_chatid)).toEqual([peers[0], peers[2], peers[3]].map(jidOf));
	});

	test('pinning an archived chat brings it out of the archive', async () => {
		const d = await device('pin-archived');
		const peer = number();
		await inbound(d, peer);
		await post(d, 'archive', { number: peer, archive: true });
		expect((await post(d, 'pin', { number: peer, pin: true })).body.data).toMatchObject({ wa_isPinned: true, wa_archived: false });
	});
});

describe('POST /chat/delete', () => {
	let d: Device;
	beforeAll(async () => {
		d = await device('deleter');
	});

	test('no flag is a 400 naming the flags; an unknown chat is a 404', async () => {
		const peer = number();
		await inbound(d, peer);
		const flags = 'set at least one of deleteChatDB, deleteMessagesDB, deleteChatNetwork to true';
		expectError(await post(d, 'delete', { number: peer }), 400, flags);
		expectError(await post(d, 'delete', { number: peer, deleteChatDB: false, deleteChatNetwork: false }), 400, flags);
		expectError(await post(d, 'delete', { number: number(), deleteChatDB: true }), 404, /^number: no chat and no messages with \d+@s\.whatsapp\.net on this device$/);
		expectError(await post(d, 'delete', { number: peer, deleteChatDB: 'yes' }), 400, 'deleteChatDB must be a boolean (got string "yes")');
		expect(await chatOf(d, jidOf(peer))).toBeDefined();
	});

	test('deleteChatDB removes the record only (no event); the messages stay until deleteMessagesDB', async () => {
		const peer = number();
		await inbound(d, peer, 'a');
		await send(d, peer, 'b');
		const events = d.events('chats').length;
		const res = await post(d, 'delete', { number: peer, deleteChatDB: true });
		expect(res.body.data).toEqual({ number: jidOf(peer), chatDeleted: true, messagesDeleted: 0, deletedOnNetwork: false });
		expect(await chatOf(d, jidOf(peer))).toBeUndefined();
		expect(d.events('chats')).toHaveLength(events);
		expect(await messagesOf(d, jidOf(peer))).toHaveLength(2);

		// The chat record is gone, the messages are not: they can still be deleted.
		const messages = await post(d, 'delete', { number: peer, deleteMessagesDB: true });
		expect(messages.body.data).toEqual({ number: jidOf(peer), chatDeleted: false, messagesDeleted: 2, deletedOnNetwork: false });
		expect(await messagesOf(d, jidOf(peer))).toHaveLength(0);
		expectError(await post(d, 'delete', { number: peer, deleteChatDB: true }), 404, `number: no chat and no messages with ${jidOf(peer)} on this device`);

		// A new message brings the chat back.
		await inbound(d, peer, 'c');
		expect(await chatOf(d, jidOf(peer))).toMatchObject({ wa_unreadCount: 1 });
	});

	test('deleteMessagesDB alone keeps the chat, and removes the media files of its messages', async () => {
		const peer = number();
		const photo = await suite.sandbox.post(`/devices/${d.name}/inbound`, { from: peer, type: 'image', file: PNG, mimetype: 'image/png' }, { key: ADMIN_KEY });
		expect((await fetch(photo.body.data.fileURL)).status).toBe(200);
		const res = await post(d, 'delete', { number: peer, deleteMessagesDB: true });
		expect(res.body.data).toEqual({ number: jidOf(peer), chatDeleted: false, messagesDeleted: 1, deletedOnNetwork: false });
		expect(await chatOf(d, jidOf(peer))).toBeDefined();
		expect(await messagesOf(d, jidOf(peer))).toHaveLength(0);
		expect((await fetch(photo.body.data.fileURL)).status).toBe(404);
	});

	test('deleteChatNetwork: the chat disappears with a chats event marked deleted; all flags remove everything', async () => {
		const peer = number();
		await inbound(d, peer);
		const before = await chatOf(d, jidOf(peer));
		const res = await post(d, 'delete', { number: peer, deleteChatNetwork: true });
		expect(res.body.data).toEqual({ number: jidOf(peer), chatDeleted: true, messagesDeleted: 0, deletedOnNetwork: true });
		expect(d.events('chats').at(-1)).toEqual({ ...before, deleted: true });
		expect(await chatOf(d, jidOf(peer))).toBeUndefined();
		expect(await messagesOf(d, jidOf(peer))).toHaveLength(1);

		const other = number();
		await inbound(d, other);
		await send(d, other);
		const all = await post(d, 'delete', { number: jidOf(other), deleteChatDB: true, deleteMessagesDB: true, deleteChatNetwork: true });
		expect(all.body.data).toEqual({ number: jidOf(other), chatDeleted: true, messagesDeleted: 2, deletedOnNetwork: true });
		expect(await chatOf(d, jidOf(other))).toBeUndefined();
		expect(await messagesOf(d, jidOf(other))).toHaveLength(0);
		expect(d.events('chats').at(-1)).toMatchObject({ wa_chatid: jidOf(other), deleted: true });
	});
});

describe('errors common to the chat actions', () => {
	let d: Device;
	let peer: string;
	beforeAll(async () => {
		d = await device('chat-errors');
		peer = number();
		await inbound(d, peer);
	});

	const actions: [string, Record<string, unknown>][] = [
		['archive', { archive: true }],
		['read', { read: true }],
		['mute', { muteEndTime: 8 }],
		['pin', { pin: true }],
	];

	test('an unknown chat is a 404; a malformed number, a missing flag or an unknown field a 400', async () => {
		for (const [route, flags] of actions) {
			const stranger = number();
			expectError(
				await post(d, route, { number: stranger, ...flags }),
				404,
				`number: no chat with ${jidOf(stranger)} on this device (a chat exists once a message was exchanged)`,
			);
			expectError(await post(d, route, { number: 'nobody', ...flags }), 400, /^number must be an international phone number/);
			expectError(await post(d, route, { ...flags }), 400, 'number is required');
			expectError(await post(d, route, { number: peer }), 400, `${Object.keys(flags)[0]} is required`);
			expectError(await post(d, route, { number: peer, ...flags, extra: 1 }), 400, 'body has unknown field(s): extra');
		}
		expectError(await post(d, 'archive', { number: peer, archive: 'true' }), 400, 'archive must be a boolean (got string "true")');
	});

	test('a missing or wrong token is a 401; another device cannot see or change this one’s chats', async () => {
		const other = await device('chat-errors-other');
		for (const [route, flags] of [...actions, ['delete', { deleteChatDB: true }], ['find', {}]] as const) {
			expectError(await suite.api.post(`/chat/${route}`, { number: peer, ...flags }), 401, /^missing instance token/);
			expectError(await suite.api.post(`/chat/${route}`, { number: peer, ...flags }, { token: 'wrong' }), 401, 'invalid instance token');
			expectError(await suite.api.post(`/chat/${route}`, { number: peer, ...flags }, { key: ADMIN_KEY }), 401, /^missing instance token/);
		}
		for (const [route, flags] of actions) {
			expectError(await post(other, route, { number: peer, ...flags }), 404, /^number: no chat with/);
		}
		expectError(await post(other, 'delete', { number: peer, deleteChatDB: true, deleteMessagesDB: true }), 404, /^number: no chat and no messages/);
		expect((await find(other, {})).body.data.total).toBe(0);
		// Untouched on its own device.
		expect(await chatOf(d, jidOf(peer))).toMatchObject({ wa_archived: false, wa_isPinned: false, wa_muteEndTime: 0, wa_unreadCount: 1 });
	});

	test('a device that is not connected cannot change chats on the network (500); its records still can', async () => {
		const out = await device('chat-errors-out');
		const peer2 = number();
		await inbound(out, peer2);
		await inbound(out, peer2);
		expect((await suite.api.post(`/devices/${out.name}/logout`, {}, { key: ADMIN_KEY })).status).toBe(200);
		const refusal = `device '${out.name}' is not connected (status: disconnected); pair it with a QR code first`;
		for (const [route, flags] of actions) expectError(await post(out, route, { number: peer2, ...flags }), 500, refusal);
		expectError(await post(out, 'delete', { number: peer2, deleteChatNetwork: true }), 500, refusal);
		expect(await chatOf(out, jidOf(peer2))).toMatchObject({ wa_archived: false, wa_isPinned: false, wa_muteEndTime: 0, wa_unreadCount: 2 });
		expect(await messagesOf(out, jidOf(peer2))).toHaveLength(2);

		const local = await post(out, 'delete', { number: peer2, deleteChatDB: true, deleteMessagesDB: true });
		expect(local.body.data).toEqual({ number: jidOf(peer2), chatDeleted: true, messagesDeleted: 2, deletedOnNetwork: false });
	});
});

describe('POST /chat/find', () => {
	let d: Device;
	const ana = number();
	const bruno = number();
	const carla = number();
	const dora = number();
	const group = '120363000000000001@g.us';
	/** The chat ids, in the order of their last message (oldest first). */
	let order: string[];

	const ids = (res: { body: any }) => res.body.data.chats.map((c: { wa_chatid: string }) => c.wa_chatid);
	const found = async (body: Record<string, unknown>) => {
		const res = await find(d, body);
		expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 200, message: undefined });
		return ids(res);
	};

	beforeAll(async () => {
		d = await device('finder');
		await suite.sandbox.post('/numbers', { number: carla, onNetwork: true, name: 'Carla Dias' }, { key: ADMIN_KEY });
		// A group chat, as the device has once the group exists (here straight in the store: groups are another module's).
		const dev = storedDevice(suite.server.services.store, d.name)!;
		suite.server.services.store.chats.create(dev.id, { chatid: group, name: 'Team', isGroup: true });
		await inbound(d, ana, 'one', 'Ana Souza');
		await inbound(d, ana, 'two');
		await inbound(d, bruno, 'hey', 'Bruno');
		await send(d, carla, 'hello Carla');
		await inbound(d, dora, 'hi', 'dora lima');
		order = [group, jidOf(ana), jidOf(bruno), jidOf(carla), jidOf(dora)];
		expect((await post(d, 'pin', { number: ana, pin: true })).status).toBe(200);
		expect((await post(d, 'archive', { number: bruno, archive: true })).status).toBe(200);
		expect((await post(d, 'read', { number: bruno, read: true })).status).toBe(200);
		expect((await post(d, 'mute', { number: carla, muteEndTime: 8 })).status).toBe(200);
		expect((await post(d, 'mute', { number: dora, muteEndTime: -1 })).status).toBe(200);
		expect((await suite.api.post('/chat/labels', { number: ana, labelids: ['1', '2'] }, { token: d.token })).status).toBe(200);
		expect((await suite.api.post('/chat/labels', { number: carla, add_labelid: '2' }, { token: d.token })).status).toBe(200);
	});

	test('without filters: every chat, newest message first, with the paging totals', async () => {
		const res = await find(d, {});
		expect(res.body.data).toMatchObject({ total: 5, limit: 100, offset: 0, nextOffset: null, hasMore: false });
		expect(ids(res)).toEqual([...order].reverse());
		const chat = res.body.data.chats.find((c: { wa_chatid: string }) => c.wa_chatid === jidOf(ana));
		expect(chat).toEqual({
			id: expect.any(String),
			wa_chatid: jidOf(ana),
			wa_name: 'Ana Souza',
			phone: ana,
			wa_isGroup: false,
			wa_isPinned: true,
			wa_archived: false,
			wa_muteEndTime: 0,
			wa_unreadCount: 2,
			wa_lastMsgTimestamp: expect.any(Number),
			wa_lastMessageType: 'text',
			wa_label: ['1', '2'],
		});
	});

	test('pages with limit and offset, saying whether more remain', async () => {
		const page1 = await find(d, { limit: 2 });
		expect(page1.body.data).toMatchObject({ total: 5, limit: 2, offset: 0, nextOffset: 2, hasMore: true });
		const page2 = await find(d, { limit: 2, offset: 2 });
		expect(page2.body.data).toMatchObject({ total: 5, limit: 2, offset: 2, nextOffset: 4, hasMore: true });
		const page3 = await find(d, { limit: 2, offset: 4 });
		expect(page3.body.data).toMatchObject({ total: 5, limit: 2, offset: 4, nextOffset: null, hasMore: false });
		expect([...ids(page1), ...ids(page2), ...ids(page3)]).toEqual([...order].reverse());
		const past = await find(d, { offset: 10 });
		expect(past.body.data).toEqual({ chats: [], total: 5, limit: 100, offset: 10, nextOffset: null, hasMore: false });
		// Paging totals count the filtered chats.
		expect((await find(d, { wa_isGroup: false, limit: 1 })).body.data).toMatchObject({ total: 4, nextOffset: 1, hasMore: true });
	});

	test('sorts by any field, a leading minus for descending', async () => {
		expect(await found({ sort: 'wa_lastMsgTimestamp' })).toEqual(order);
		expect(await found({ sort: '-wa_lastMsgTimestamp' })).toEqual([...order].reverse());
		// Names sort without regard to case; the group's empty phone comes first.
		expect(await found({ sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(bruno), jidOf(carla), jidOf(dora), group]);
		expect(await found({ sort: '-wa_name' })).toEqual([group, jidOf(dora), jidOf(carla), jidOf(bruno), jidOf(ana)]);
		expect(await found({ sort: 'phone' })).toEqual([group, jidOf(ana), jidOf(bruno), jidOf(carla), jidOf(dora)]);
		expect((await found({ sort: '-wa_unreadCount' }))[0]).toBe(jidOf(ana));
		// Ties come newest message first.
		expect(await found({ sort: 'wa_muteEndTime', wa_isGroup: false })).toEqual([jidOf(dora), jidOf(bruno), jidOf(ana), jidOf(carla)]);
		expect((await found({ sort: '-wa_isPinned' }))[0]).toBe(jidOf(ana));
		expect((await found({ sort: '+wa_archived' })).at(-1)).toBe(jidOf(bruno));
		for (const field of Object.keys(CHAT_ATTRIBUTES).filter((f) => f !== 'wa_label')) {
			expect((await find(d, { sort: field })).status).toBe(200);
			expect((await find(d, { sort: `-${field}` })).status).toBe(200);
		}
	});

	test('booleans: true/false, as JSON or text, and "!="', async () => {
		expect(await found({ wa_isGroup: true })).toEqual([group]);
		expect(await found({ wa_isGroup: 'true' })).toEqual([group]);
		expect(await found({ wa_isGroup: 'FALSE', sort: 'wa_lastMsgTimestamp' })).toEqual(order.slice(1));
		expect(await found({ wa_isPinned: true })).toEqual([jidOf(ana)]);
		expect(await found({ wa_archived: '!=false' })).toEqual([jidOf(bruno)]);
		expect(await found({ wa_archived: '!=true', sort: 'wa_lastMsgTimestamp' })).toEqual(order.filter((id) => id !== jidOf(bruno)));
	});

	test('numbers: plain equality and every comparison; a list is several conditions (a range)', async () => {
		expect(await found({ wa_unreadCount: 2 })).toEqual([jidOf(ana)]);
		expect(await found({ wa_unreadCount: '2' })).toEqual([jidOf(ana)]);
		expect(await found({ wa_unreadCount: '=2' })).toEqual([jidOf(ana)]);
		expect(await found({ wa_unreadCount: '>1' })).toEqual([jidOf(ana)]);
		expect(await found({ wa_unreadCount: '>=1', sort: 'wa_lastMsgTimestamp' })).toEqual([jidOf(ana), jidOf(dora)]);
		expect(await found({ wa_unreadCount: '<1', sort: 'wa_lastMsgTimestamp' })).toEqual([group, jidOf(bruno), jidOf(carla)]);
		expect(await found({ wa_unreadCount: '<=1', sort: 'wa_lastMsgTimestamp' })).toEqual([group, jidOf(bruno), jidOf(carla), jidOf(dora)]);
		expect(await found({ wa_unreadCount: '!=0', sort: 'wa_lastMsgTimestamp' })).toEqual([jidOf(ana), jidOf(dora)]);
		expect(await found({ wa_muteEndTime: -1 })).toEqual([jidOf(dora)]);
		expect(await found({ wa_muteEndTime: `>${Date.now()}` })).toEqual([jidOf(carla)]);

		const chats = (await find(d, { sort: 'wa_lastMsgTimestamp' })).body.data.chats;
		const [from, to] = [chats[1].wa_lastMsgTimestamp, chats[3].wa_lastMsgTimestamp];
		expect(await found({ wa_lastMsgTimestamp: [`>=${from}`, `<${to}`], sort: 'wa_lastMsgTimestamp' })).toEqual([jidOf(ana), jidOf(bruno)]);
		expect(await found({ wa_lastMsgTimestamp: [`<${from}`, `>=${to}`], operator: 'OR', sort: 'wa_lastMsgTimestamp' })).toEqual([
			group,
			jidOf(carla),
			jidOf(dora),
		]);
	});

	test('text: equality, "~" contains ignoring case, "!=" and comparisons', async () => {
		expect(await found({ wa_name: 'Bruno' })).toEqual([jidOf(bruno)]);
		expect(await found({ wa_name: 'bruno' })).toEqual([]);
		expect(await found({ wa_name: '~DOR' })).toEqual([jidOf(dora)]);
		expect(await found({ wa_name: '~a', sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(carla), jidOf(dora), group]);
		expect(await found({ wa_name: '!=Team', sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(bruno), jidOf(carla), jidOf(dora)]);
		expect(await found({ wa_name: '>=C', sort: 'wa_name' })).toEqual([jidOf(carla), jidOf(dora), group]);
		expect(await found({ wa_name: '<C', sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(bruno)]);
		expect(await found({ wa_name: '>Carla Dias', sort: 'wa_name' })).toEqual([jidOf(dora), group]);
		expect(await found({ wa_name: '<=Bruno', sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(bruno)]);
		expect(await found({ wa_chatid: jidOf(carla) })).toEqual([jidOf(carla)]);
		expect(await found({ wa_chatid: '~@g.us' })).toEqual([group]);
		expect(await found({ phone: ana })).toEqual([jidOf(ana)]);
		expect(await found({ phone: `~${ana.slice(-4)}` })).toEqual([jidOf(ana)]);
		expect(await found({ wa_lastMessageType: 'text', sort: 'wa_lastMsgTimestamp' })).toEqual(order.slice(1));
		// "=" written out lets a value start with an operator character.
		expect(await found({ wa_name: '=~DOR' })).toEqual([]);
		// Values are data, never SQL.
		expect(await found({ wa_name: "x' OR '1'='1" })).toEqual([]);
		expect(await found({ wa_name: '~%' })).toEqual([]);
	});

	test('labels: chats having a label id (text or number), or not having it', async () => {
		expect(await found({ wa_label: '2', sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(carla)]);
		expect(await found({ wa_label: 1 })).toEqual([jidOf(ana)]);
		expect(await found({ wa_label: ['1', '2'] })).toEqual([jidOf(ana)]);
		expect(await found({ wa_label: ['1', '2'], operator: 'OR', sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(carla)]);
		expect(await found({ wa_label: '!=2', sort: 'wa_name' })).toEqual([jidOf(bruno), jidOf(dora), group]);
		expect(await found({ wa_label: '5' })).toEqual([]);
	});

	test('operator: AND by default, OR on request (any case)', async () => {
		expect(await found({ wa_isPinned: true, wa_archived: true })).toEqual([]);
		expect(await found({ wa_isPinned: true, wa_archived: true, operator: 'AND' })).toEqual([]);
		expect(await found({ wa_isPinned: true, wa_archived: true, operator: 'OR', sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(bruno)]);
		expect(await found({ wa_isPinned: true, wa_archived: true, operator: 'or', sort: 'wa_name' })).toEqual([jidOf(ana), jidOf(bruno)]);
		expect(await found({ wa_isGroup: false, wa_unreadCount: '>0', wa_label: '1' })).toEqual([jidOf(ana)]);
	});

	test('every field of the chat view is an attribute to filter on', async () => {
		const [chat] = (await find(d, { wa_chatid: jidOf(ana) })).body.data.chats;
		expect(Object.keys(CHAT_ATTRIBUTES).sort()).toEqual(Object.keys(chat).sort());
		for (const [field, value] of Object.entries(chat)) {
			const filter = Array.isArray(value) ? value[0] : value;
			expect({ field, ids: await found({ [field]: filter }) }).toEqual({ field, ids: expect.arrayContaining([jidOf(ana)]) });
		}
	});

	test('bad filters are a 400 naming the attribute and the rule', async () => {
		const attributes = Object.keys(CHAT_ATTRIBUTES).join(', ');
		const sortable = Object.keys(CHAT_ATTRIBUTES).filter((f) => f !== 'wa_label').join(', ');
		const cases: [Record<string, unknown>, string | RegExp][] = [
			[{ wa_foo: 1 }, `wa_foo is not a chat attribute; filter on ${attributes}`],
			[{ constructor: 'x' }, `constructor is not a chat attribute; filter on ${attributes}`],
			[{ isGroup: true }, /^isGroup is not a chat attribute/],
			[{ sort: 'wa_foo' }, `sort must be a chat field, with a leading "-" for descending: one of ${sortable} (got "wa_foo")`],
			[{ sort: 'wa_label' }, /^sort must be a chat field/],
			[{ sort: '-constructor' }, /^sort must be a chat field/],
			[{ sort: 'wa_name; DROP TABLE chats' }, /^sort must be a chat field/],
			[{ sort: '' }, /^sort must be a chat field/],
			[{ sort: 5 }, 'sort must be a string (got number 5)'],
			[{ operator: 'XOR' }, 'operator must be one of: "AND", "OR"'],
			[{ limit: 0 }, 'limit must be at least 1'],
			[{ limit: 1001 }, 'limit must be at most 1000'],
			[{ offset: -1 }, 'offset must be at least 0'],
			[{ limit: '10' }, 'limit must be a number (got string "10")'],
			[{ wa_unreadCount: '~1' }, 'wa_unreadCount: the operator "~" does not apply to number attributes; use "=", "!=", ">", ">=", "<", "<=" (got "~1")'],
			[{ wa_unreadCount: 'many' }, 'wa_unreadCount must be a number, optionally after one of = != > >= < <= (got "many")'],
			[{ wa_unreadCount: '>' }, /^wa_unreadCount must be a number/],
			[{ wa_unreadCount: true }, /^wa_unreadCount must be a number/],
			[{ wa_isGroup: 'yes' }, 'wa_isGroup must be true or false, optionally after "!=" (got "yes")'],
			[{ wa_isGroup: 1 }, /^wa_isGroup must be true or false/],
			[{ wa_isPinned: '>true' }, 'wa_isPinned: the operator ">" does not apply to boolean attributes; use "=", "!=" (got ">true")'],
			[{ wa_name: true }, 'wa_name must be text, optionally after one of = != ~ > >= < <= (got true)'],
			[{ wa_label: '~1' }, /^wa_label: the operator "~" does not apply to label attributes/],
			[{ wa_label: '' }, 'wa_label must be a label id, optionally after "!=" (got "")'],
			[{ wa_name: { contains: 'a' } }, 'wa_name must be a string, a number, true or false, or a list of up to 20 of them'],
			[{ wa_name: [] }, 'wa_name must have at least 1 items'],
			[{ wa_name: Array(21).fill('~a') }, 'wa_name must be a string, a number, true or false, or a list of up to 20 of them'],
			[{ wa_name: null }, /^wa_name must be a string, a number/],
		];
		for (const [body, message] of cases) expectError(await find(d, body), 400, message);
		// Still there afterwards.
		expect((await find(d, {})).body.data.total).toBe(5);
	});
});
