import { ADMIN_KEY, connectedDevice, eventually, startGateway, type Client } from '../helpers/server';
import { type Hit, type Receiver, sleep, startReceiver, verifySignature } from '../helpers/webhooks';
import type { App } from '../../server/src/app';

const key = ADMIN_KEY;
let server: App;
let receiver: Receiver;
let api: Client;
let sandbox: Client;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway({ presenceResendMs: 60000 }));
	receiver = await startReceiver();
});
afterAll(async () => {
	await server.close();
	await receiver.close();
});

interface Sub {
	id: string;
	url: string;
	path: string;
	secret: string;
	/** Delivered hits on this subscription's path. */
	hits(event?: string): Hit[];
	/** Event names of the outbox rows written for this subscription, in order. */
	queued(): string[];
}

async function subscribe(device: string, tag: string, options: Record<string, unknown> = {}): Promise<Sub> {
	const path = `/${device}/${tag}`;
	const res = await api.post(`/devices/${device}/webhook`, { url: receiver.url + path, ...options }, { key });
	expect(res.status).toBe(200);
	const secret = (options.secret as string | undefined) ?? res.body.data.secret;
	return {
		id: res.body.data.id,
		url: receiver.url + path,
		path,
		secret,
		hits: (event) => receiver.onPath(path).filter((h) => event === undefined || h.body.event === event),
		queued: () => server.services.store.outbox.ofWebhook(res.body.data.id).map((r) => JSON.parse(r.body).event as string),
	};
}

/** Waits until every outbox row of the subscription has been delivered, and returns its hits. */
async function settled(sub: Sub): Promise<Hit[]> {
	await eventually(() => server.services.store.outbox.ofWebhook(sub.id).every((r) => r.state === 'delivered'));
	return sub.hits();
}

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;
/** Contacts on the network outside this server. */
const contact = () => `55219${String(10000000 + ++seq).slice(-8)}`;

/** Checks what every webhook carries: the body shape, the headers and a valid Standard Webhooks signature. */
function expectSigned(sub: Sub, hit: Hit, event: string, device: string) {
	expect(hit.headers['content-type']).toMatch(/^application\/json/);
	expect(Object.keys(hit.body).sort()).toEqual(['data', 'device', 'event', 'id', 'timestamp']);
	expect(hit.body).toMatchObject({ event, device, id: expect.any(String), timestamp: expect.any(Number) });
	expect(hit.headers['webhook-id']).toBe(hit.body.id);
	const ts = Number(hit.headers['webhook-timestamp']);
	expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);
	expect(Math.abs(hit.body.timestamp - Date.now())).toBeLessThan(60000);
	expect(hit.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
	expect(verifySignature(sub.secret, hit)).toBe(true);
}

describe('events', () => {
	test('connection: requesting a QR (connecting) and pairing (connected), then logout (disconnected)', async () => {
		const name = unique('conn');
		expect((await api.post('/devices', { name }, { key })).status).toBe(201);
		const sub = await subscribe(name, 'all');
		expect((await api.get(`/devices/${name}/qr`, { key })).status).toBe(200);
		const paired = await sandbox.post(`/devices/${name}/pair`, {}, { key });
		expect(paired.status).toBe(200);
		await eventually(() => sub.hits('connection').length === 2);
		const [connecting, connected] = sub.hits('connection').sort((a, b) => a.body.timestamp - b.body.timestamp);
		expectSigned(sub, connecting, 'connection', name);
		expectSigned(sub, connected, 'connection', name);
		expect(connecting.body.data).toMatchObject({ name, status: 'connecting' });
		expect(connected.body.data).toMatchObject({ name, status: 'connected', phone: paired.body.data.phone });
		expect(connecting.body.id).not.toBe(connected.body.id);

		expect((await api.post(`/devices/${name}/logout`, {}, { key })).status).toBe(200);
		await eventually(() => sub.hits('connection').some((h) => h.body.data.status === 'disconnected'));
		expect(await settled(sub)).toHaveLength(3);
	});

	test('messages, chats and messages_update for an outbound send', async () => {
		const d = await connectedDevice(server, unique('out'));
		const sub = await subscribe(d.name, 'all');
		const to = contact();
		const sent = await api.post('/send/text', { number: to, text: 'hello out', track_id: 't1' }, { token: d.token });
		expect(sent.status).toBe(200);
		const id = sent.body.data.id;

		await eventually(() => sub.hits('messages_update').some((h) => h.body.data.status === 'delivered'));
		const [message] = sub.hits('messages');
		expectSigned(sub, message, 'messages', d.name);
		expect(message.body.data).toMatchObject({
			id,
			chatid: `${to}@s.whatsapp.net`,
			text: 'hello out',
			fromMe: true,
			wasSentByApi: true,
			isGroup: false,
			status: 'sent',
			track_id: 't1',
		});
		const [chat] = sub.hits('chats');
		expectSigned(sub, chat, 'chats', d.name);
		expect(chat.body.data).toMatchObject({ wa_chatid: `${to}@s.whatsapp.net`, wa_isGroup: false });
		const update = sub.hits('messages_update')[0];
		expectSigned(sub, update, 'messages_update', d.name);
		expect(update.body.data).toMatchObject({ id, chatid: `${to}@s.whatsapp.net`, fromMe: true, status: 'delivered' });

		// The recipient reads it.
		expect((await sandbox.post(`/devices/${d.name}/read`, { id }, { key })).status).toBe(200);
		await eventually(() => sub.hits('messages_update').some((h) => h.body.data.status === 'read'));
		expect((await settled(sub)).map((h) => h.body.event).sort()).toEqual(['chats', 'messages', 'messages_update', 'messages_update']);
		// A second message to the same chat is no new chat.
		await api.post('/send/text', { number: to, text: 'again' }, { token: d.token });
		await eventually(() => sub.hits('messages').length === 2);
		expect(sub.hits('chats')).toHaveLength(1);
	});

	test('messages_update for a reaction of the other side', async () => {
		const d = await connectedDevice(server, unique('react'));
		const to = contact();
		const sent = await api.post('/send/text', { number: to, text: 'react to me' }, { token: d.token });
		const sub = await subscribe(d.name, 'updates', { events: ['messages_update'] });
		expect((await sandbox.post(`/devices/${d.name}/react`, { id: sent.body.data.id, text: '👍' }, { key })).status).toBe(200);
		await eventually(() => sub.hits().some((h) => h.body.data.reaction === '👍'));
		const hit = sub.hits().find((h) => h.body.data.reaction === '👍')!;
		expectSigned(sub, hit, 'messages_update', d.name);
		expect(hit.body.data).toMatchObject({ id: sent.body.data.id, chatid: `${to}@s.whatsapp.net`, fromMe: true, sender: `${to}@s.whatsapp.net` });
	});

	test('messages and chats for a sandbox inbound message', async () => {
		const d = await connectedDevice(server, unique('in'));
		const sub = await subscribe(d.name, 'all');
		const from = contact();
		const res = await sandbox.post(`/devices/${d.name}/inbound`, { from, text: 'hi there', senderName: 'Bia' }, { key });
		expect(res.status).toBe(200);
		await eventually(() => sub.hits('messages').length === 1 && sub.hits('chats').length === 1);
		const [message] = sub.hits('messages');
		expectSigned(sub, message, 'messages', d.name);
		expect(message.body.data).toMatchObject({
			id: res.body.data.id,
			chatid: `${from}@s.whatsapp.net`,
			sender: `${from}@s.whatsapp.net`,
			senderName: 'Bia',
			text: 'hi there',
			fromMe: false,
			wasSentByApi: false,
			isGroup: false,
		});
		expect(sub.hits('chats')[0].body.data).toMatchObject({ wa_chatid: `${from}@s.whatsapp.net`, wa_unreadCount: 1 });
		expect(await settled(sub)).toHaveLength(2);
	});

	test('presence from the sandbox', async () => {
		const d = await connectedDevice(server, unique('pres'));
		const sub = await subscribe(d.name, 'all');
		const from = contact();
		for (const presence of ['composing', 'paused']) {
			expect((await sandbox.post(`/devices/${d.name}/presence`, { from, presence }, { key })).status).toBe(200);
		}
		await eventually(() => sub.hits('presence').length === 2);
		for (const hit of sub.hits('presence')) expectSigned(sub, hit, 'presence', d.name);
		expect(sub.hits('presence').map((h) => h.body.data).sort((a, b) => a.presence.localeCompare(b.presence))).toEqual([
			{ chatid: `${from}@s.whatsapp.net`, sender: `${from}@s.whatsapp.net`, presence: 'composing' },
			{ chatid: `${from}@s.whatsapp.net`, sender: `${from}@s.whatsapp.net`, presence: 'paused' },
		]);
	});

	test('between two devices of the server: presence and messages reach the other side', async () => {
		const a = await connectedDevice(server, unique('peer-a'));
		const b = await connectedDevice(server, unique('peer-b'));
		const subA = await subscribe(a.name, 'all');
		const subB = await subscribe(b.name, 'all');
		const typing = await api.post('/message/presence', { number: b.phone, presence: 'composing', delay: 60000 }, { token: a.token });
		expect(typing.status).toBe(200);
		await eventually(() => subB.hits('presence').length === 1);
		expectSigned(subB, subB.hits('presence')[0], 'presence', b.name);
		expect(subB.hits('presence')[0].body.data).toEqual({ chatid: a.jid, sender: a.jid, presence: 'composing' });

		// Sending to the chat ends the indicator (paused) and delivers the message to the other device.
		const sent = await api.post('/send/text', { number: b.phone, text: 'from a' }, { token: a.token });
		expect(sent.status).toBe(200);
		await eventually(() => subB.hits('presence').length === 2 && subB.hits('messages').length === 1);
		expect(subB.hits('presence').map((h) => h.body.data.presence).sort()).toEqual(['composing', 'paused']);
		expect(subB.hits('messages')[0].body.data).toMatchObject({ chatid: a.jid, text: 'from a', fromMe: false, wasSentByApi: false });
		await eventually(() => subA.hits('messages').length === 1);
		expect(subA.hits('messages')[0].body.data).toMatchObject({ chatid: b.jid, text: 'from a', fromMe: true, wasSentByApi: true });
		// The sender's own presence is no event on its own webhooks.
		expect(subA.queued()).not.toContain('presence');

		// B reads it by answering with readmessages: A gets the read receipt.
		await api.post('/send/text', { number: a.phone, text: 'from b', readmessages: true }, { token: b.token });
		await eventually(() => subA.hits('messages_update').some((h) => h.body.data.status === 'read'));
		expect(subA.hits('messages_update').find((h) => h.body.data.status === 'read')!.body.data).toMatchObject({ id: sent.body.data.id, fromMe: true });
	});

	test('an explicit paused ends a presence between devices', async () => {
		const a = await connectedDevice(server, unique('pp-a'));
		const b = await connectedDevice(server, unique('pp-b'));
		const subB = await subscribe(b.name, 'presence', { events: ['presence'] });
		await api.post('/message/presence', { number: b.phone, presence: 'recording', delay: 60000 }, { token: a.token });
		await api.post('/message/presence', { number: b.phone, presence: 'paused' }, { token: a.token });
		await eventually(() => subB.hits().length === 2);
		expect(subB.hits().map((h) => h.body.data.presence).sort()).toEqual(['paused', 'recording']);
	});
});

describe('signing and subscriptions', () => {
	test('each subscription is signed with its own secret, a given one included', async () => {
		const d = await connectedDevice(server, unique('sig'));
		const given = `whsec_${Buffer.alloc(40, 7).toString('base64')}`;
		const one = await subscribe(d.name, 'one');
		const two = await subscribe(d.name, 'two', { secret: given });
		await sandbox.post(`/devices/${d.name}/inbound`, { from: contact(), text: 'sig' }, { key });
		const [h1] = await eventually(() => (one.hits('messages').length ? one.hits('messages') : undefined));
		const [h2] = await eventually(() => (two.hits('messages').length ? two.hits('messages') : undefined));
		expect(two.secret).toBe(given);
		expect(verifySignature(one.secret, h1)).toBe(true);
		expect(verifySignature(two.secret, h2)).toBe(true);
		// Wrong key, tampered body: the check fails.
		expect(verifySignature(two.secret, h1)).toBe(false);
		expect(verifySignature(one.secret, { ...h1, raw: h1.raw.replace('sig', 'sag') })).toBe(false);
		expect(verifySignature(one.secret, { ...h1, headers: { ...h1.headers, 'webhook-timestamp': String(Number(h1.headers['webhook-timestamp']) + 1) } })).toBe(false);
		// The same event goes to both, with the same id.
		expect(h1.body.id).toBe(h2.body.id);
		expect(h1.raw).toBe(h2.raw);
	});

	test('the events filter: a subscription receives only the events it lists; empty means all', async () => {
		const d = await connectedDevice(server, unique('filter'));
		const all = await subscribe(d.name, 'all');
		const presenceOnly = await subscribe(d.name, 'presence', { events: ['presence'] });
		const msgs = await subscribe(d.name, 'msgs', { events: ['messages', 'messages_update'] });
		const from = contact();
		await sandbox.post(`/devices/${d.name}/inbound`, { from, text: 'filter' }, { key });
		await sandbox.post(`/devices/${d.name}/presence`, { from, presence: 'composing' }, { key });
		const sent = await api.post('/send/text', { number: from, text: 'answer' }, { token: d.token });
		// Read only after the delivery receipt, so both updates happen.
		await eventually(() => msgs.hits('messages_update').length === 1);
		await sandbox.post(`/devices/${d.name}/read`, { id: sent.body.data.id }, { key });

		await eventually(() => all.hits('messages_update').some((h) => h.body.data.status === 'read'));
		expect(all.queued().sort()).toEqual(['chats', 'messages', 'messages', 'messages_update', 'messages_update', 'presence']);
		expect(presenceOnly.queued()).toEqual(['presence']);
		expect(msgs.queued().sort()).toEqual(['messages', 'messages', 'messages_update', 'messages_update']);
		expect((await settled(presenceOnly)).map((h) => h.body.event)).toEqual(['presence']);
		expect((await settled(msgs)).map((h) => h.body.event).sort()).toEqual(['messages', 'messages', 'messages_update', 'messages_update']);
		expect(await settled(all)).toHaveLength(6);
	});

	test('excludeMessages: each option drops the matching messages events and nothing else', async () => {
		const d = await connectedDevice(server, unique('excl'));
		const options = ['wasSentByApi', 'wasNotSentByApi', 'fromMeYes', 'fromMeNo', 'isGroupYes', 'isGroupNo'] as const;
		const subs = Object.fromEntries(
			await Promise.all([...options, 'none'].map(async (o) => [o, await subscribe(d.name, o, { excludeMessages: o === 'none' ? [] : [o] })] as const)),
		);
		const both = await subscribe(d.name, 'both', { excludeMessages: ['wasSentByApi', 'fromMeYes'] });
		const from = contact();
		const inbound = await sandbox.post(`/devices/${d.name}/inbound`, { from, text: 'inbound' }, { key });
		const outbound = await api.post('/send/text', { number: from, text: 'outbound' }, { token: d.token });
		await sandbox.post(`/devices/${d.name}/presence`, { from, presence: 'composing' }, { key });
		await eventually(() => subs.none.hits('messages_update').length === 1);
		// Inbound: fromMe false, wasSentByApi false. Outbound: fromMe true, wasSentByApi true. Neither is a group message.
		const expected: Record<string, string[]> = {
			none: ['inbound', 'outbound'],
			wasSentByApi: ['inbound'],
			wasNotSentByApi: ['outbound'],
			fromMeYes: ['inbound'],
			fromMeNo: ['outbound'],
			isGroupYes: ['inbound', 'outbound'],
			isGroupNo: [],
		};
		for (const [option, texts] of Object.entries(expected)) {
			const sub = subs[option];
			const hits = await settled(sub);
			expect([option, hits.filter((h) => h.body.event === 'messages').map((h) => h.body.data.text).sort()]).toEqual([option, texts]);
			// Other events are not filtered by excludeMessages.
			expect([option, sub.queued().filter((e) => e !== 'messages').sort()]).toEqual([option, ['chats', 'messages_update', 'presence']]);
		}
		await settled(both);
		expect(both.hits('messages').map((h) => h.body.data.id)).toEqual([inbound.body.data.id]);
		expect(outbound.status).toBe(200);
	});

	test('a disabled subscription receives nothing; enabling it again resumes delivery', async () => {
		const d = await connectedDevice(server, unique('dis'));
		const sub = await subscribe(d.name, 'x', { enabled: false });
		const witness = await subscribe(d.name, 'witness');
		await sandbox.post(`/devices/${d.name}/inbound`, { from: contact(), text: 'while disabled' }, { key });
		await eventually(() => witness.hits('messages').length === 1);
		expect(sub.queued()).toEqual([]);
		await api.post(`/devices/${d.name}/webhook`, { url: sub.url, enabled: true }, { key });
		await sandbox.post(`/devices/${d.name}/inbound`, { from: contact(), text: 'enabled' }, { key });
		await eventually(() => sub.hits('messages').length === 1);
		expect(sub.hits('messages')[0].body.data.text).toBe('enabled');
		// The secret survived the update.
		expect(verifySignature(sub.secret, sub.hits('messages')[0])).toBe(true);
	});

	test('a deleted subscription receives nothing more', async () => {
		const d = await connectedDevice(server, unique('del'));
		const sub = await subscribe(d.name, 'x');
		const witness = await subscribe(d.name, 'witness');
		await api.post(`/devices/${d.name}/webhook`, { action: 'delete', id: sub.id }, { key });
		await sandbox.post(`/devices/${d.name}/inbound`, { from: contact(), text: 'after delete' }, { key });
		await eventually(() => witness.hits('messages').length === 1);
		await sleep(50);
		expect(sub.hits()).toEqual([]);
	});

	test("events of a device go only to that device's subscriptions", async () => {
		const a = await connectedDevice(server, unique('iso-a'));
		const b = await connectedDevice(server, unique('iso-b'));
		const subA = await subscribe(a.name, 'x');
		const subB = await subscribe(b.name, 'x');
		await sandbox.post(`/devices/${a.name}/inbound`, { from: contact(), text: 'for a' }, { key });
		await eventually(() => subA.hits('messages').length === 1);
		expect(subA.hits('messages')[0].body.device).toBe(a.name);
		expect(subB.queued()).toEqual([]);
	});
});
