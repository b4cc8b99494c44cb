import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_KEY, SANDBOX, client, eventually, startServer, tempDataDir } from '../helpers/server';
import { type Receiver, freePort, sleep, startReceiver, verifySignature } from '../helpers/webhooks';
import type { App } from '../../server/src/app';
import type { ConfigInput } from '../../server/src/config';
import type { OutboxRow } from '../../server/src/store/types';

const key = ADMIN_KEY;
const running = new Set<App>();
const receivers: Receiver[] = [];
const dirs: string[] = [];
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(() => process.on('unhandledRejection', onRejection));
afterAll(() => process.off('unhandledRejection', onRejection));
afterEach(async () => {
	await Promise.all([...running].map((s) => close(s)));
	await Promise.all(receivers.splice(0).map((r) => r.close()));
	for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
	expect(rejections).toEqual([]);
});

/** A server on a file store; background failures it logs are collected in `errors`. */
async function start(data: string, config: Partial<ConfigInput> = {}) {
	const server = await startServer({ data, pairing: 'manual', ...config });
	running.add(server);
	const errors: unknown[] = [];
	const log = server.services.log as unknown as { error: (...args: unknown[]) => void };
	log.error = (...args: unknown[]) => void errors.push(args);
	return Object.assign(server, { errors });
}

async function close(server: App) {
	running.delete(server);
	await server.close();
}

function dataDir() {
	const dir = tempDataDir();
	dirs.push(dir);
	return dir;
}

/** Creates a device subscribed to `url`, then pairs it, so its connection events are webhooks too. */
async function pairedWithWebhook(server: App, name: string, url: string) {
	const api = client(server.url);
	const sandbox = client(server.url, SANDBOX);
	const created = await api.post('/devices', { name }, { key });
	expect(created.status).toBe(201);
	const sub = await api.post(`/devices/${name}/webhook`, { url }, { key });
	expect(sub.status).toBe(200);
	await api.get(`/devices/${name}/qr`, { key });
	const paired = await sandbox.post(`/devices/${name}/pair`, {}, { key });
	expect(paired.status).toBe(200);
	return { name, token: created.body.data.token as string, phone: paired.body.data.phone as string, webhookId: sub.body.data.id as string, secret: sub.body.data.secret as string };
}

/** A burst of traffic: inbound messages, sends (and their receipts), presence. */
async function traffic(server: App, device: { name: string; token: string }, tag: string) {
	const api = client(server.url);
	const sandbox = client(server.url, SANDBOX);
	for (let i = 0; i < 3; i++) {
		const from = `5521977${String(i).padStart(6, '0')}`;
		expect((await sandbox.post(`/devices/${device.name}/inbound`, { from, text: `${tag} in ${i}` }, { key })).status).toBe(200);
		expect((await api.post('/send/text', { number: from, text: `${tag} out ${i}` }, { token: device.token })).status).toBe(200);
		expect((await sandbox.post(`/devices/${device.name}/presence`, { from, presence: 'composing' }, { key })).status).toBe(200);
	}
}

const outboxOf = (server: App, webhookId: string): OutboxRow[] => server.services.store.outbox.ofWebhook(webhookId);
const eventIds = (rows: OutboxRow[]) => rows.map((r) => r.event_id).sort();
const deliveredIds = (receiver: Receiver) => [...new Set(receiver.delivered.map((h) => String(h.headers['webhook-id'])))].sort();

describe('restart', () => {
	test.each(['answers 503', 'refuses connections'])('events that happen while the receiver %s all arrive after a restart', async (mode) => {
		const dir = dataDir();
		const port = mode === 'answers 503' ? 0 : await freePort();
		let receiver: Receiver | undefined;
		if (!port) {
			receiver = await startReceiver(() => 503);
			receivers.push(receiver);
		}
		const url = `http://127.0.0.1:${receiver?.port ?? port}/hook`;
		const first = await start(dir);
		const device = await pairedWithWebhook(first, 'restart-a', url);
		await traffic(first, device, 'before');
		// Wait for the receipts, and for each event to have been tried (and failed) at least once.
		await eventually(() => outboxOf(first, device.webhookId).filter((r) => JSON.parse(r.body).event === 'messages_update').length === 3);
		await eventually(() => outboxOf(first, device.webhookId).every((r) => r.attempts >= 1 && r.state === 'pending'));
		const queued = eventIds(outboxOf(first, device.webhookId));
		// 2 connection + 3 x (chats, messages in, messages out, messages_update, presence).
		expect(queued).toHaveLength(17);
		await close(first);

		// The receiver comes up (or recovers); a new server on the same data dir delivers everything.
		if (receiver) receiver.respond = () => 200;
		else {
			receiver = await startReceiver(() => 200, port);
			receivers.push(receiver);
		}
		const second = await start(dir);
		await eventually(() => deliveredIds(receiver).length === queued.length);
		expect(deliveredIds(receiver)).toEqual(queued);
		for (const hit of receiver.delivered) expect(verifySignature(device.secret, hit)).toBe(true);
		await eventually(() => outboxOf(second, device.webhookId).every((r) => r.state === 'delivered'));

		// The device, its token and the subscription survived too: new events keep flowing.
		await traffic(second, device, 'after');
		// The chats exist already: 3 x (messages in, messages out, messages_update, presence) more.
		await eventually(() => outboxOf(second, device.webhookId).length === 29 && outboxOf(second, device.webhookId).every((r) => r.state === 'delivered'));
		expect(deliveredIds(receiver)).toEqual(eventIds(outboxOf(second, device.webhookId)));
		expect(receiver.delivered.filter((h) => h.body.event === 'messages').map((h) => h.body.data.text).sort()).toEqual(
			['after', 'before'].flatMap((tag) => [0, 1, 2].flatMap((i) => [`${tag} in ${i}`, `${tag} out ${i}`])).sort(),
		);
		expect([...first.errors, ...second.errors]).toEqual([]);
	});

	test('an event in flight when the server stops (the receiver never answers) is delivered after restart', async () => {
		const dir = dataDir();
		const receiver = await startReceiver((hit) => (hit.body.event === 'presence' ? 'hang' : 200));
		receivers.push(receiver);
		const first = await start(dir, { webhookTimeoutMs: 300 });
		const device = await pairedWithWebhook(first, 'inflight', `${receiver.url}/hook`);
		await client(first.url, SANDBOX).post(`/devices/${device.name}/presence`, { from: '5521955550000', presence: 'composing' }, { key });
		await eventually(() => receiver.hits.some((h) => h.body.event === 'presence'));
		const started = Date.now();
		await close(first);
		// Closing waited for the attempt (it ended at its timeout), then persisted its outcome.
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		const [hung] = receiver.hits.filter((h) => h.body.event === 'presence');

		receiver.respond = () => 200;
		const second = await start(dir, { webhookTimeoutMs: 300 });
		await eventually(() => receiver.delivered.some((h) => h.body.event === 'presence'));
		const [redelivered] = receiver.delivered.filter((h) => h.body.event === 'presence');
		expect(redelivered.headers['webhook-id']).toBe(hung.headers['webhook-id']);
		expect(redelivered.raw).toBe(hung.raw);
		expect(verifySignature(device.secret, redelivered)).toBe(true);
		const row = await eventually(() => outboxOf(second, device.webhookId).find((r) => r.event_id === hung.body.id && r.state === 'delivered'));
		expect(row).toMatchObject({ attempts: 2, last_status: 200 });
		expect([...first.errors, ...second.errors]).toEqual([]);
	});

	test('an event in flight when the process dies is delivered again after restart (at least once)', async () => {
		const dir = dataDir();
		const crashDir = dataDir();
		let release!: () => void;
		const released = new Promise<number>((resolve) => (release = () => resolve(200)));
		const receiver = await startReceiver((hit) => (hit.body.event === 'presence' ? released : 200));
		receivers.push(receiver);
		const config = { webhookTimeoutMs: 300 };
		const first = await start(dir, config);
		const device = await pairedWithWebhook(first, 'crash', `${receiver.url}/hook`);
		await eventually(() => outboxOf(first, device.webhookId).every((r) => r.state === 'delivered'));
		await client(first.url, SANDBOX).post(`/devices/${device.name}/presence`, { from: '5521955550001', presence: 'recording' }, { key });
		await eventually(() => receiver.hits.some((h) => h.body.event === 'presence'));
		// The store as a crash at this moment leaves it: the row is leased, its attempt unfinished.
		await first.services.store.db.backup(path.join(crashDir, 'wdm.sqlite'));
		// The instance tokens' key lives beside the store, not in it (see tokens.test.ts).
		fs.copyFileSync(path.join(dir, 'token.key'), path.join(crashDir, 'token.key'));
		release();
		await close(first);

		const leased = Date.now();
		const second = await start(crashDir, config);
		await eventually(() => receiver.delivered.filter((h) => h.body.event === 'presence').length === 2, 5000);
		const [a, b] = receiver.delivered.filter((h) => h.body.event === 'presence');
		expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
		expect(verifySignature(device.secret, b)).toBe(true);
		// Not before the lease of the dead attempt ran out (timeout + 1 s from its start).
		expect(b.at - leased).toBeGreaterThan(500);
		await eventually(() => outboxOf(second, device.webhookId).every((r) => r.state === 'delivered'));
		expect(second.errors).toEqual([]);
	});
});

describe('graceful shutdown', () => {
	test('close() waits for deliveries in flight and records their outcome; nothing is sent twice after restart', async () => {
		const dir = dataDir();
		const receiver = await startReceiver(async () => {
			await sleep(250);
			return 200;
		});
		receivers.push(receiver);
		const first = await start(dir);
		const device = await pairedWithWebhook(first, 'graceful', `${receiver.url}/hook`);
		await traffic(first, device, 'g');
		await eventually(() => outboxOf(first, device.webhookId).some((r) => r.attempts === 0 && r.next_attempt_at > Date.now()));
		const inFlight = receiver.hits.length - receiver.delivered.length;
		expect(inFlight).toBeGreaterThan(0);
		await close(first);
		// Every attempt under way when close() was called got its answer before close() returned.
		expect(receiver.hits.every((h) => h.closedAt !== undefined)).toBe(true);

		const second = await start(dir);
		await eventually(() => outboxOf(second, device.webhookId).every((r) => r.state === 'delivered'), 5000);
		await sleep(100);
		const ids = receiver.hits.map((h) => String(h.headers['webhook-id']));
		expect(new Set(ids).size).toBe(ids.length);
		expect(deliveredIds(receiver)).toEqual(eventIds(outboxOf(second, device.webhookId)));
		expect([...first.errors, ...second.errors]).toEqual([]);
	});

	test('a store error while recording an attempt (say SQLITE_BUSY) is logged, not an unhandled rejection; the event goes again after its lease', async () => {
		const receiver = await startReceiver(() => 200);
		receivers.push(receiver);
		const server = await start(dataDir(), { webhookTimeoutMs: 200 });
		const device = await pairedWithWebhook(server, 'busy', `${receiver.url}/hook`);
		await eventually(() => outboxOf(server, device.webhookId).every((r) => r.state === 'delivered'));
		const { outbox } = server.services.store;
		const update = outbox.update.bind(outbox);
		let failures = 0;
		outbox.update = (id, changes) => {
			if (changes.state === 'delivered' && failures++ === 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
			return update(id, changes);
		};
		await client(server.url, SANDBOX).post(`/devices/${device.name}/presence`, { from: '5521955550002', presence: 'composing' }, { key });
		await eventually(() => server.errors.length === 1);
		await eventually(() => receiver.delivered.filter((h) => h.body.event === 'presence').length === 2, 4000);
		const [a, b] = receiver.delivered.filter((h) => h.body.event === 'presence');
		expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
		expect(b.at - a.at).toBeGreaterThan(1000);
		await eventually(() => outboxOf(server, device.webhookId).every((r) => r.state === 'delivered'));
		expect(rejections).toEqual([]);
	});

	test('closing with retries pending, timers armed and events still happening does not touch the closed store', async () => {
		const dir = dataDir();
		const receiver = await startReceiver(() => 500);
		receivers.push(receiver);
		const first = await start(dir, { receiptDelayMs: 150, presenceResendMs: 20 });
		const device = await pairedWithWebhook(first, 'closing', `${receiver.url}/hook`);
		const api = client(first.url);
		const other = await pairedWithWebhook(first, 'closing-peer', `${receiver.url}/peer`);
		// Receipts due after close, a presence re-sent every 20 ms, retries waiting on their backoff.
		await api.post('/send/text', { number: '5521966660000', text: 'late receipt' }, { token: device.token });
		await api.post('/message/presence', { number: other.phone, presence: 'composing', delay: 60000 }, { token: device.token });
		await eventually(() => receiver.hits.length >= 5);
		await close(first);
		const hitsAtClose = receiver.hits.length;
		await sleep(300);
		expect(receiver.hits.length).toBe(hitsAtClose);
		expect(first.errors).toEqual([]);

		// All of it is still pending in the store, and goes out once the receiver recovers.
		receiver.respond = () => 200;
		const second = await start(dir);
		await eventually(() => [device.webhookId, other.webhookId].every((id) => outboxOf(second, id).every((r) => r.state === 'delivered')), 5000);
		expect(receiver.delivered.some((h) => h.body.event === 'messages' && h.body.data.text === 'late receipt')).toBe(true);
		expect(receiver.delivered.some((h) => h.path === '/peer' && h.body.event === 'presence')).toBe(true);
		expect(second.errors).toEqual([]);
	});
});
