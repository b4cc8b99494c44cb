import fs from 'node:fs';
import { ADMIN_KEY, client, connectedDevice, eventually, expectError, findMessage, startGateway, startServer, tempDataDir, type Client, type Device, storedDevice } from '../helpers/server';
import type { App } from '../../server/src/app';

/** POST /send/text and the common send fields, read back through /message/find and the sandbox. */

const CONTACT = '5511999990001';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;

let server: App;
let api: Client;
let sandbox: Client;
let dev: Device;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	dev = await connectedDevice(server, 'sender');
});
afterAll(() => server.close());

const send = (body: Record<string, unknown>, token = dev.token) => api.post('/send/text', body, { token });

const findOne = (id: string, token = dev.token) => findMessage(api, token, id);

const chatOf = (deviceName: string, chatid: string) => {
	const device = storedDevice(server.services.store, deviceName)!;
	return server.services.store.chats.get(device.id, chatid);
};

describe('POST /send/text', () => {
	test('sends a text: stored as sent, then delivered by the receipt, readable by find', async () => {
		const before = Date.now();
		const res = await send({ number: '+55 (11) 99999-0001', text: 'hello' });
		expect(res.status).toBe(200);
		expect(res.body.success).toBe(true);
		const m = res.body.data;
		expect(m).toMatchObject({
			chatid: CONTACT_JID,
			sender: dev.jid,
			senderName: 'sender',
			fromMe: true,
			isGroup: false,
			messageType: 'text',
			text: 'hello',
			status: 'sent',
			quoted: null,
			mentions: [],
			forwarded: false,
			edited: false,
			reaction: null,
			fileURL: null,
			content: {},
			track_source: null,
			track_id: null,
			wasSentByApi: true,
		});
		expect(m.messageid).toMatch(/^3EB0[0-9A-F]{22}$/);
		expect(m.id).toBe(`${dev.phone}:${m.messageid}`);
		expect(m.messageTimestamp).toBeGreaterThanOrEqual(before);
		await eventually(async () => (await findOne(m.id)).status === 'delivered');
		// The id and the bare network message id both find it.
		expect((await findOne(m.messageid)).id).toBe(m.id);
		const chat = chatOf('sender', CONTACT_JID)!;
		expect(chat).toMatchObject({ unread: 0, last_msg_type: 'text' });
		expect(chat.last_msg_ts).toBe(m.messageTimestamp);
	});

	test('accepts the JID and @c.us forms of the number', async () => {
		const a = await send({ number: CONTACT_JID, text: 'jid' });
		const b = await send({ number: `${CONTACT}@c.us`, text: 'c.us' });
		expect(a.body.data.chatid).toBe(CONTACT_JID);
		expect(b.body.data.chatid).toBe(CONTACT_JID);
		const lid = await send({ number: '123456789012@lid', text: 'lid' });
		expect(lid.body.data.chatid).toBe('123456789012@lid');
	});

	test('placeholders fill {{name}} markers; unknown names stay as written', async () => {
		const res = await send({
			number: CONTACT,
			text: 'Hi {{name}}, order {{ order }} is {{paid}}; {{unknown}} and {{name}} again',
			placeholders: { name: 'Ana', order: 42, paid: true },
		});
		expect(res.status).toBe(200);
		expect(res.body.data.text).toBe('Hi Ana, order 42 is true; {{unknown}} and Ana again');
		expect((await findOne(res.body.data.id)).text).toBe(res.body.data.text);
		// Without placeholders the markers are kept untouched.
		expect((await send({ number: CONTACT, text: 'Hi {{name}}' })).body.data.text).toBe('Hi {{name}}');
	});

	test('linkPreview makes an automatic preview of the first link in the text', async () => {
		const res = await send({ number: CONTACT, text: 'see https://example.com/a?b=1 and https://other.org', linkPreview: true });
		expect(res.body.data.content).toEqual({
			linkPreview: { url: 'https://example.com/a?b=1', title: 'example.com', description: '', image: null, large: false },
		});
		expect((await findOne(res.body.data.id)).content.linkPreview.url).toBe('https://example.com/a?b=1');
	});

	test('custom preview fields make a preview without linkPreview', async () => {
		const res = await send({
			number: CONTACT,
			text: 'our shop: https://shop.example.com',
			linkPreviewTitle: 'The Shop',
			linkPreviewDescription: 'Everything on sale',
			linkPreviewImage: 'https://shop.example.com/cover.jpg',
			linkPreviewLarge: true,
		});
		expect(res.status).toBe(200);
		expect((await findOne(res.body.data.id)).content).toEqual({
			linkPreview: {
				url: 'https://shop.example.com',
				title: 'The Shop',
				description: 'Everything on sale',
				image: 'https://shop.example.com/cover.jpg',
				large: true,
			},
		});
	});

	test('no preview without a link in the text, or without asking for one', async () => {
		expect((await send({ number: CONTACT, text: 'no link here', linkPreview: true })).body.data.content).toEqual({});
		expect((await send({ number: CONTACT, text: 'https://example.com', linkPreview: false })).body.data.content).toEqual({});
		// A link that does not parse is sent as plain text, not a crash.
		const broken = await send({ number: CONTACT, text: 'see https://[oops', linkPreview: true });
		expect(broken.status).toBe(200);
		expect(broken.body.data).toMatchObject({ text: 'see https://[oops', content: {} });
	});

	test('replyid quotes a stored message, by id or by network message id', async () => {
		const first = (await send({ number: CONTACT, text: 'question' })).body.data;
		const byId = await send({ number: CONTACT, text: 'answer 1', replyid: first.id });
		expect(byId.status).toBe(200);
		expect(byId.body.data.quoted).toBe(first.id);
		const byMessageId = await send({ number: CONTACT, text: 'answer 2', replyid: first.messageid });
		expect(byMessageId.body.data.quoted).toBe(first.id);
		expect((await findOne(byMessageId.body.data.id)).quoted).toBe(first.id);
		// An inbound message can be quoted too.
		const inbound = await sandbox.post(`/devices/sender/inbound`, { from: CONTACT, text: 'hi there' }, { key: ADMIN_KEY });
		const reply = await send({ number: CONTACT, text: 'hello back', replyid: inbound.body.data.id });
		expect(reply.body.data.quoted).toBe(inbound.body.data.id);
	});

	test('mentions: a comma-separated string or an array, normalised to JIDs', async () => {
		const res = await send({ number: CONTACT, text: '@a @b', mentions: '5511999990002, 5511999990003@s.whatsapp.net,' });
		expect(res.body.data.mentions).toEqual(['5511999990002@s.whatsapp.net', '5511999990003@s.whatsapp.net']);
		const arr = await send({ number: CONTACT, text: '@c', mentions: ['+55 11 99999-0004'] });
		expect((await findOne(arr.body.data.id)).mentions).toEqual(['5511999990004@s.whatsapp.net']);
	});

	test('forward marks the message as forwarded', async () => {
		const res = await send({ number: CONTACT, text: 'fwd', forward: true });
		expect((await findOne(res.body.data.id)).forwarded).toBe(true);
		expect((await send({ number: CONTACT, text: 'not fwd', forward: false })).body.data.forwarded).toBe(false);
	});

	test('track_source and track_id are stored, duplicates accepted, and find filters on them', async () => {
		const a = await send({ number: CONTACT, text: 't1', track_source: 'crm', track_id: 'dup-1' });
		const b = await send({ number: CONTACT, text: 't2', track_source: 'crm', track_id: 'dup-1' });
		expect(a.body.data).toMatchObject({ track_source: 'crm', track_id: 'dup-1' });
		const found = await api.post('/message/find', { track_source: 'crm', track_id: 'dup-1' }, { token: dev.token });
		expect(found.body.data.total).toBe(2);
		expect(found.body.data.messages.map((m: { id: string }) => m.id)).toEqual([b.body.data.id, a.body.data.id]);
	});

	test('delay shows composing in the chat first, then sends and stops it', async () => {
		const number = '5511999990010';
		const jid = `${number}@s.whatsapp.net`;
		const started = Date.now();
		const pending = send({ number, text: 'after a pause', delay: 400 });
		const shown = await eventually(async () => {
			const res = await sandbox.get('/devices/sender/presence', { key: ADMIN_KEY });
			return res.body.data.find((p: { chatid: string }) => p.chatid === jid);
		});
		expect(shown).toMatchObject({ chatid: jid, presence: 'composing', sent: 1 });
		expect(shown.until).toBeGreaterThanOrEqual(started + 400);
		// Nothing is stored before the delay is over.
		expect((await api.post('/message/find', { chatid: number }, { token: dev.token })).body.data.total).toBe(0);
		const res = await pending;
		expect(Date.now() - started).toBeGreaterThanOrEqual(390);
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe('sent');
		const presence = await sandbox.get('/devices/sender/presence', { key: ADMIN_KEY });
		expect(presence.body.data.filter((p: { chatid: string }) => p.chatid === jid)).toEqual([]);
	});

	test('readchat marks the chat read; readmessages also marks its inbound messages read', async () => {
		const number = '5511999990020';
		const jid = `${number}@s.whatsapp.net`;
		const inbound = async (text: string) =>
			(await sandbox.post('/devices/sender/inbound', { from: number, text }, { key: ADMIN_KEY })).body.data;
		const first = await inbound('one');
		await inbound('two');
		expect(chatOf('sender', jid)!.unread).toBe(2);

		await send({ number, text: 'plain reply' });
		expect(chatOf('sender', jid)!.unread).toBe(2);

		await send({ number, text: 'read the chat', readchat: true });
		expect(chatOf('sender', jid)!.unread).toBe(0);
		expect((await findOne(first.id)).status).toBe('delivered');

		const third = await inbound('three');
		expect(chatOf('sender', jid)!.unread).toBe(1);
		await send({ number, text: 'read the messages', readmessages: true });
		expect(chatOf('sender', jid)!.unread).toBe(0);
		expect((await findOne(first.id)).status).toBe('read');
		expect((await findOne(third.id)).status).toBe('read');
	});
});

describe('async sends', () => {
	test('answers queued at once, then the queue sends it', async () => {
		const res = await send({ number: CONTACT, text: 'queued one', async: true, track_id: 'async-1' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ status: 'queued', text: 'queued one', fromMe: true, track_id: 'async-1' });
		const sent = await eventually(async () => {
			const m = await findOne(res.body.data.id);
			return m.status === 'delivered' && m;
		});
		expect(sent.messageTimestamp).toBeGreaterThanOrEqual(res.body.data.messageTimestamp);
	});

	test('with a delay: answers before the delay, shows composing, sends when due', async () => {
		const number = '5511999990030';
		const started = Date.now();
		const res = await send({ number, text: 'later', async: true, delay: 800 });
		expect(Date.now() - started).toBeLessThan(700);
		expect(res.body.data.status).toBe('queued');
		const presence = await sandbox.get('/devices/sender/presence', { key: ADMIN_KEY });
		expect(presence.body.data).toContainEqual(expect.objectContaining({ chatid: `${number}@s.whatsapp.net`, presence: 'composing' }));
		expect((await findOne(res.body.data.id)).status).toBe('queued');
		const sent = await eventually(async () => {
			const m = await findOne(res.body.data.id);
			return m.status !== 'queued' && m;
		});
		expect(['sent', 'delivered']).toContain(sent.status);
		expect(sent.messageTimestamp).toBeGreaterThanOrEqual(started + 790);
		const after = await sandbox.get('/devices/sender/presence', { key: ADMIN_KEY });
		expect(after.body.data.filter((p: { chatid: string }) => p.chatid === `${number}@s.whatsapp.net`)).toEqual([]);
	});

	test('keeps readchat and replyid for when it goes out', async () => {
		const number = '5511999990031';
		const jid = `${number}@s.whatsapp.net`;
		const inbound = (await sandbox.post('/devices/sender/inbound', { from: number, text: 'ping' }, { key: ADMIN_KEY })).body.data;
		const res = await send({ number, text: 'pong', async: true, delay: 100, readmessages: true, replyid: inbound.id });
		expect(res.body.data).toMatchObject({ status: 'queued', quoted: inbound.id });
		expect(chatOf('sender', jid)!.unread).toBe(1);
		await eventually(async () => (await findOne(res.body.data.id)).status !== 'queued');
		expect(chatOf('sender', jid)!.unread).toBe(0);
		expect((await findOne(inbound.id)).status).toBe('read');
	});

	test('a queued message whose number leaves the network before it is due fails', async () => {
		const number = '5511999990032';
		const res = await send({ number, text: 'doomed', async: true, delay: 200 });
		expect(res.body.data.status).toBe('queued');
		await sandbox.post('/numbers', { number, onNetwork: false }, { key: ADMIN_KEY });
		const failed = await eventually(async () => {
			const m = await findOne(res.body.data.id);
			return m.status === 'failed' && m;
		});
		expect(failed.content.error).toBe(`${number} is not on the network`);
	});

	test('a queued message survives a restart and goes out afterwards', async () => {
		const data = tempDataDir();
		try {
			let first: App | undefined = await startServer({ data, pairing: 'manual' });
			const a = client(first.url);
			const d = await connectedDevice(first, 'restarts');
			const due = await a.post('/send/text', { number: CONTACT, text: 'due while down', async: true, delay: 100 }, { token: d.token });
			const later = await a.post('/send/text', { number: CONTACT, text: 'due after restart', async: true, delay: 1500 }, { token: d.token });
			expect(due.body.data.status).toBe('queued');
			expect(later.body.data.status).toBe('queued');
			await first.close();
			first = undefined;
			await new Promise((r) => setTimeout(r, 200));

			const second = await startServer({ data, pairing: 'manual' });
			try {
				const b = client(second.url);
				const find = async (id: string) => (await b.post('/message/find', { id }, { token: d.token })).body.data.messages[0];
				// The message that fell due while the server was down goes out at start.
				await eventually(async () => ['sent', 'delivered'].includes((await find(due.body.data.id)).status));
				expect((await find(later.body.data.id)).status).toBe('queued');
				const sent = await eventually(async () => {
					const m = await find(later.body.data.id);
					return m.status !== 'queued' && m;
				}, 5000);
				expect(['sent', 'delivered']).toContain(sent.status);
				expect(sent.text).toBe('due after restart');
				expect(sent.messageTimestamp).toBeGreaterThanOrEqual(later.body.data.messageTimestamp + 1490);
				// Receipts still arrive after the restart.
				await eventually(async () => (await find(later.body.data.id)).status === 'delivered');
			} finally {
				await second.close();
			}
		} finally {
			fs.rmSync(data, { recursive: true, force: true });
		}
	});
});

describe('send errors', () => {
	test('missing fields are named, all at once', async () => {
		expectError(await send({}), 400, 'number is required; text is required');
		expectError(await api.post('/send/text', undefined, { token: dev.token }), 400, 'number is required; text is required');
		expectError(await send({ number: CONTACT }), 400, 'text is required');
		expectError(await send({ number: CONTACT, text: '' }), 400, 'text must be at least 1 characters long');
	});

	test('unknown fields are refused by name', async () => {
		expectError(await send({ number: CONTACT, text: 'x', colour: 'red', foo: 1 }), 400, 'body has unknown field(s): colour, foo');
	});

	test('bad numbers', async () => {
		expectError(await send({ number: '123', text: 'x' }), 400, /^number must be an international phone number of 8 to 15 digits.*"123"/);
		expectError(await send({ number: 'someone@example.com', text: 'x' }), 400, /^number must be a phone number or a JID/);
		expectError(await send({ number: 5511999990001, text: 'x' }), 400, 'number must be a string (got number 5511999990001)');
		expectError(await send({ number: '   ', text: 'x' }), 400, 'number must be at least 1 characters long');
	});

	test('bad field types and ranges', async () => {
		expectError(await send({ number: CONTACT, text: 'x', delay: 300001 }), 400, 'delay must be at most 300000');
		expectError(await send({ number: CONTACT, text: 'x', delay: -1 }), 400, 'delay must be at least 0');
		expectError(await send({ number: CONTACT, text: 'x', delay: 1.5 }), 400, /^delay must be an integer/);
		expectError(await send({ number: CONTACT, text: 'x', delay: '100' }), 400, 'delay must be a number (got string "100")');
		expectError(await send({ number: CONTACT, text: 'x', async: 'yes' }), 400, 'async must be a boolean (got string "yes")');
		expectError(await send({ number: CONTACT, text: 'x', linkPreviewImage: 'not a url' }), 400, 'linkPreviewImage must be a valid url');
		expectError(await send({ number: CONTACT, text: 'x', track_id: 'x'.repeat(256) }), 400, 'track_id must be at most 255 characters long');
		expectError(await send({ number: CONTACT, text: 'x', placeholders: { a: { b: 1 } } }), 400, /^placeholders\.a /);
		expectError(await send({ number: CONTACT, text: 'x', mentions: 'nobody' }), 400, /^mentions must be an international phone number/);
		expectError(await send({ number: CONTACT, text: 'x', replyid: '' }), 400, 'replyid must be at least 1 characters long');
	});

	test('a body that is not JSON', async () => {
		const res = await api.post('/send/text', undefined, { token: dev.token, raw: '{"number":' });
		expectError(res, 400, /^body is not valid JSON/);
	});

	test('replyid that is not stored on this device', async () => {
		expectError(await send({ number: CONTACT, text: 'x', replyid: 'nope' }), 400, 'replyid: no message with id "nope" on this device');
		expectError(await send({ number: CONTACT, text: 'x', replyid: 'nope', async: true }), 400, 'replyid: no message with id "nope" on this device');
		// Another device's message is not this device's to quote.
		const other = await connectedDevice(server, 'other-sender');
		const theirs = (await send({ number: CONTACT, text: 'mine' }, other.token)).body.data;
		expectError(await send({ number: CONTACT, text: 'x', replyid: theirs.id }), 400, `replyid: no message with id "${theirs.id}" on this device`);
		// Nothing was stored by the refused sends.
		expect((await api.post('/message/find', { chatid: CONTACT, limit: 1 }, { token: dev.token })).body.data.messages[0].text).not.toBe('x');
	});

	test('replyid is checked before waiting out a delay', async () => {
		const started = Date.now();
		const res = await send({ number: '5511999990040', text: 'x', replyid: 'nope', delay: 3000 });
		expectError(res, 400, 'replyid: no message with id "nope" on this device');
		expect(Date.now() - started).toBeLessThan(1000);
		const presence = await sandbox.get('/devices/sender/presence', { key: ADMIN_KEY });
		expect(presence.body.data.filter((p: { chatid: string }) => p.chatid === '5511999990040@s.whatsapp.net')).toEqual([]);
	});

	test('a device that is not connected cannot send (500)', async () => {
		const created = await api.post('/devices', { name: 'never-paired' }, { key: ADMIN_KEY });
		const token = created.body.data.token;
		const msg = "device 'never-paired' is not connected (status: disconnected); pair it with a QR code first";
		expectError(await send({ number: CONTACT, text: 'x' }, token), 500, msg);
		expectError(await send({ number: CONTACT, text: 'x', async: true }, token), 500, msg);
		expectError(await send({ number: CONTACT, text: 'x', delay: 2000 }, token), 500, msg);
		expect((await api.post('/message/find', {}, { token })).body.data.total).toBe(0);

		const loggedOut = await connectedDevice(server, 'logs-out');
		expect((await send({ number: CONTACT, text: 'ok' }, loggedOut.token)).status).toBe(200);
		await api.post('/devices/logs-out/logout', undefined, { key: ADMIN_KEY });
		expectError(await send({ number: CONTACT, text: 'x' }, loggedOut.token), 500, /^device 'logs-out' is not connected \(status: disconnected\)/);
	});

	test('a device logged out or deleted during the delay: a clear 500, nothing stored', async () => {
		const out = await connectedDevice(server, 'out-mid-delay');
		const pending = send({ number: CONTACT, text: 'x', delay: 300 }, out.token);
		await eventually(async () => (await sandbox.get('/devices/out-mid-delay/presence', { key: ADMIN_KEY })).body.data.length === 1);
		await api.post('/devices/out-mid-delay/logout', undefined, { key: ADMIN_KEY });
		expectError(await pending, 500, /^device 'out-mid-delay' is not connected \(status: disconnected\)/);

		const gone = await connectedDevice(server, 'gone-mid-delay');
		const deleted = send({ number: CONTACT, text: 'x', delay: 300 }, gone.token);
		await eventually(async () => (await sandbox.get('/devices/gone-mid-delay/presence', { key: ADMIN_KEY })).body.data.length === 1);
		expect((await api.delete('/devices/gone-mid-delay', { key: ADMIN_KEY })).status).toBe(200);
		expectError(await deleted, 500, "device 'gone-mid-delay' was deleted before the message went out");
	});

	test('a number marked absent in the sandbox is refused (500), and accepted again once back', async () => {
		const number = '5511999990050';
		await sandbox.post('/numbers', { number, onNetwork: false }, { key: ADMIN_KEY });
		expectError(await send({ number, text: 'x' }, dev.token), 500, `${number} is not on the network`);
		expectError(await send({ number, text: 'x', async: true }, dev.token), 500, `${number} is not on the network`);
		expectError(await send({ number, text: 'x', delay: 2000 }, dev.token), 500, `${number} is not on the network`);
		expect((await api.post('/message/find', { chatid: number }, { token: dev.token })).body.data.total).toBe(0);
		expect(chatOf('sender', `${number}@s.whatsapp.net`)).toBeUndefined();
		await sandbox.post('/numbers', { number, onNetwork: true }, { key: ADMIN_KEY });
		expect((await send({ number, text: 'back' }, dev.token)).status).toBe(200);
	});

	test('a group this device is not in is refused (500)', async () => {
		expectError(await send({ number: '120363012345678901@g.us', text: 'x' }), 500, /^group 120363012345678901@g\.us does not exist/);
	});

	test('a missing or wrong token is 401', async () => {
		expectError(await send({ number: CONTACT, text: 'x' }, 'wrong-token'), 401, 'invalid instance token');
		expectError(await api.post('/send/text', { number: CONTACT, text: 'x' }), 401, /^missing instance token/);
		// The user API key is not an instance token.
		expectError(await api.post('/send/text', { number: CONTACT, text: 'x' }, { key: ADMIN_KEY }), 401, /^missing instance token/);
		expectError(await send({ number: CONTACT, text: 'x' }, ADMIN_KEY), 401, 'invalid instance token');
	});
});
