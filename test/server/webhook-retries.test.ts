import http from 'node:http';
import { ADMIN_KEY, client, connectedDevice, eventually, SANDBOX, startGateway } from '../helpers/server';
import { type Action, type Behaviour, type Hit, type Receiver, freePort, sleep, startReceiver, verifySignature } from '../helpers/webhooks';
import type { App } from '../../server/src/app';
import type { ConfigInput } from '../../server/src/config';

const key = ADMIN_KEY;
const servers: App[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

let seq = 0;

/**
 * A server with a connected device subscribed (presence only, so each sandbox presence is exactly
 * one event) to a receiver that behaves as told.
 */
async function setup(respond: Behaviour, config: Partial<ConfigInput> = {}, receiverPort?: number) {
	const { server, api, sandbox } = await startGateway(config);
	servers.push(server);
	const receiver = receiverPort === undefined ? await startReceiver(respond) : undefined;
	if (receiver) receivers.push(receiver);
	const d = await connectedDevice(server, `retry-${++seq}`);
	const url = `${receiver?.url ?? `http://127.0.0.1:${receiverPort}`}/hook`;
	const sub = await api.post(`/devices/${d.name}/webhook`, { url, events: ['presence'] }, { key });
	expect(sub.status).toBe(200);
	const id: string = sub.body.data.id;
	const secret: string = sub.body.data.secret;
	const { outbox } = server.services.store;
	return {
		server,
		receiver: receiver!,
		api,
		device: d,
		id,
		secret,
		url,
		/** One `presence` event. */
		emit: async (presence = 'composing') => {
			const res = await sandbox.post(`/devices/${d.name}/presence`, { from: '5521987650000', presence }, { key });
			expect(res.status).toBe(200);
		},
		rows: () => outbox.ofWebhook(id),
		subscription: async () => (await api.get(`/devices/${d.name}/webhook`, { key })).body.data.find((w: { id: string }) => w.id === id),
	};
}

/** A receiver that answers each status in turn for every event, then 200. */
const sequence =
	(...statuses: Action[]): Behaviour =>
	(_hit, n) =>
		statuses[n - 1] ?? 200;

function expectSameEvent(hits: Hit[], secret: string) {
	const [first] = hits;
	for (const hit of hits) {
		expect(hit.headers['webhook-id']).toBe(first.headers['webhook-id']);
		expect(hit.raw).toBe(first.raw);
		expect(verifySignature(secret, hit)).toBe(true);
	}
}

describe('retries', () => {
	test('a receiver that fails twice with 500 gets the event on the third attempt, same id, fresh valid signature', async () => {
		const t = await setup(sequence(500, 500));
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'delivered');
		const hits = t.receiver.hits;
		expect(hits).toHaveLength(3);
		expectSameEvent(hits, t.secret);
		expect(hits[0].body).toMatchObject({ event: 'presence', device: t.device.name, data: { presence: 'composing' } });
		expect(t.rows()).toEqual([expect.objectContaining({ state: 'delivered', attempts: 3, last_status: 200, last_error: null })]);
		expect(t.receiver.delivered).toHaveLength(1);
	});

	test('each attempt is signed with its own timestamp', async () => {
		// Attempts more than a second apart get different timestamps, and so different signatures:
		// with jitter the retry waits 50-100 % of 2200 ms, so at least 1.1 s.
		const t = await setup(sequence(500), { webhookBackoffMs: 2200, webhookMaxBackoffMs: 2200 });
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'delivered', 6000);
		const [a, b] = t.receiver.hits;
		expectSameEvent([a, b], t.secret);
		expect(Number(b.headers['webhook-timestamp'])).toBeGreaterThan(Number(a.headers['webhook-timestamp']));
		expect(b.headers['webhook-signature']).not.toBe(a.headers['webhook-signature']);
	});

	test.each([408, 429, 502, 503])('%i is retried', async (status) => {
		const t = await setup(sequence(status));
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'delivered');
		expect(t.receiver.hits.map((h) => h.headers['webhook-id'])).toEqual([t.receiver.hits[0].headers['webhook-id'], t.receiver.hits[0].headers['webhook-id']]);
		expect(t.rows()[0]).toMatchObject({ attempts: 2, last_status: 200 });
	});

	test('a timeout and a dropped connection are retried', async () => {
		const t = await setup(sequence('hang', 'destroy'), { webhookTimeoutMs: 200 });
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'delivered');
		expect(t.receiver.hits).toHaveLength(3);
		expectSameEvent(t.receiver.hits, t.secret);
		expect(t.rows()[0]).toMatchObject({ attempts: 3, last_status: 200 });
	});

	test('an attempt is bounded by webhookTimeoutMs as a whole, even when the receiver trickles its answer', async () => {
		// 200 headers at once, then a byte every 50 ms: the socket is never idle, yet the attempt must end.
		const t = await setup(sequence('trickle'), { webhookTimeoutMs: 300 });
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'delivered', 3000);
		const [first, second] = t.receiver.hits;
		expect(t.receiver.hits).toHaveLength(2);
		// The server gave up on the first attempt after about its timeout, well before its lease ran out...
		expect(first.closedAt! - first.at).toBeLessThan(300 + 250);
		// ...so no second attempt ran while the first was still open.
		expect(second.at).toBeGreaterThanOrEqual(first.closedAt!);
		expect(t.rows()[0]).toMatchObject({ attempts: 2, last_status: 200 });
	});

	test('a refused connection is retried until the receiver comes up', async () => {
		const port = await freePort();
		const t = await setup(() => 200, {}, port);
		await t.emit();
		await eventually(() => t.rows()[0]?.attempts >= 2);
		expect(t.rows()[0]).toMatchObject({ state: 'pending', last_status: null, last_error: 'could not fetch' });
		const receiver = await startReceiver(() => 200, port);
		receivers.push(receiver);
		await eventually(() => t.rows()[0]?.state === 'delivered');
		expect(receiver.hits).toHaveLength(1);
		expect(verifySignature(t.secret, receiver.hits[0])).toBe(true);
	});

	test('404 (an n8n that is starting has not registered its webhooks yet) is retried until the receiver has the route', async () => {
		let registered = false;
		const t = await setup(() => (registered ? 200 : 404));
		await t.emit();
		await eventually(() => t.rows()[0]?.attempts >= 2);
		expect(t.rows()[0]).toMatchObject({ state: 'pending', last_status: 404 });
		registered = true;
		await eventually(() => t.rows()[0]?.state === 'delivered');
		expect(t.receiver.delivered).toHaveLength(1);
	});

	test("n8n's 200 while it starts (\"n8n is starting up. Please wait\") is no delivery: retried", async () => {
		const t = await setup((_hit, n) => (n <= 2 ? 'starting' : 200));
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'delivered');
		expect(t.rows()[0]).toMatchObject({ attempts: 3, last_status: 200 });
		expect(t.receiver.hits).toHaveLength(3);
		expect(t.receiver.delivered).toHaveLength(1);
	});

	test.each([400, 401, 403, 422])('%i is final: not retried, the row is failed', async (status) => {
		const t = await setup(() => status);
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'failed');
		expect(t.rows()[0]).toMatchObject({ state: 'failed', attempts: 1, last_status: status });
		// Longer than the largest backoff (200 ms in tests): still one attempt.
		await sleep(400);
		expect(t.receiver.hits).toHaveLength(1);
		// The subscription stays enabled and gets the next event.
		expect(await t.subscription()).toMatchObject({ enabled: true });
		t.receiver.respond = () => 200;
		await t.emit('paused');
		await eventually(() => t.receiver.delivered.length === 1);
		expect(t.receiver.delivered[0].body.data.presence).toBe('paused');
	});

	test('410 disables the subscription: no further events go there, others are unaffected', async () => {
		const t = await setup(() => 410);
		const other = await startReceiver();
		receivers.push(other);
		await t.api.post(`/devices/${t.device.name}/webhook`, { url: `${other.url}/other`, events: ['presence'] }, { key });
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'failed');
		expect(t.rows()[0]).toMatchObject({ attempts: 1, last_status: 410 });
		expect(await t.subscription()).toMatchObject({ enabled: false, url: t.url });

		await t.emit('paused');
		await eventually(() => other.delivered.length === 2);
		expect(t.rows()).toHaveLength(1);
		await sleep(100);
		expect(t.receiver.hits).toHaveLength(1);

		// Enabled again by its owner, it receives events again (with the same secret).
		t.receiver.respond = () => 200;
		await t.api.post(`/devices/${t.device.name}/webhook`, { url: t.url, events: ['presence'], enabled: true }, { key });
		await t.emit('composing');
		await eventually(() => t.receiver.delivered.length === 1);
		expect(verifySignature(t.secret, t.receiver.delivered[0])).toBe(true);
	});

	test('410 also stops the retries still queued for that subscription', async () => {
		// The first event fails (500) and waits for its retry; meanwhile the second one gets 410.
		const t = await setup((hit) => (hit.body.data.presence === 'composing' ? 500 : 410), { webhookBackoffMs: 300, webhookMaxBackoffMs: 300 });
		await t.emit('composing');
		await eventually(() => t.rows()[0]?.attempts === 1);
		await t.emit('paused');
		await eventually(() => t.rows().every((r) => r.state === 'failed'), 3000);
		expect(t.rows().map((r) => [JSON.parse(r.body).data.presence, r.attempts, r.last_status])).toEqual([
			['composing', 1, 500],
			['paused', 1, 410],
		]);
		expect(t.receiver.hits.map((h) => h.body.data.presence)).toEqual(['composing', 'paused']);
		expect(await t.subscription()).toMatchObject({ enabled: false });
	});
});

describe('subscription changes while retries are pending', () => {
	test('deleting the subscription drops its pending retries', async () => {
		const t = await setup(() => 500, { webhookBackoffMs: 150, webhookMaxBackoffMs: 150 });
		await t.emit();
		await eventually(() => t.rows()[0]?.attempts === 1);
		const res = await t.api.post(`/devices/${t.device.name}/webhook`, { action: 'delete', id: t.id }, { key });
		expect(res.status).toBe(200);
		expect(t.rows()).toEqual([]);
		await sleep(400);
		expect(t.receiver.hits).toHaveLength(1);
	});

	test('disabling the subscription stops its pending retries', async () => {
		const t = await setup(() => 500, { webhookBackoffMs: 150, webhookMaxBackoffMs: 150 });
		await t.emit();
		await eventually(() => t.rows()[0]?.attempts === 1);
		await t.api.post(`/devices/${t.device.name}/webhook`, { url: t.url, events: ['presence'], enabled: false }, { key });
		await eventually(() => t.rows()[0]?.state === 'failed');
		expect(t.rows()[0]).toMatchObject({ attempts: 1, last_error: 'subscription disabled' });
		await sleep(200);
		expect(t.receiver.hits).toHaveLength(1);
	});

	/** The `wdm_webhook_expired_dropped` gauge of the server's `/metrics`. */
	const expiredDrops = async (server: App) => {
		const text = await (await fetch(`${server.url}/metrics`)).text();
		return Number(/^wdm_webhook_expired_dropped (\d+)$/m.exec(text)?.[1]);
	};

	test('a subscription past its expiresAt gets no queued retry (dropped and counted) and no replay', async () => {
		// The retry waits 750 to 1500 ms; the subscription expires 500 ms after it is set.
		const t = await setup(() => 503, { webhookBackoffMs: 1500, webhookMaxBackoffMs: 1500 });
		const expiresAt = Date.now() + 500;
		expect((await t.api.post(`/devices/${t.device.name}/webhook`, { url: t.url, events: ['presence'], expiresAt }, { key })).status).toBe(200);
		await t.emit();
		await eventually(() => t.rows()[0]?.attempts === 1);
		expect(t.rows()[0].state).toBe('pending');
		await sleep(Math.max(0, expiresAt - Date.now()) + 20);
		const replay = t.server.services.store.outbox.ofWebhook(t.id)[0];
		const refused = await client(t.server.url, SANDBOX).post(`/devices/${t.device.name}/webhook/${t.id}/deliveries/${replay.id}/replay`, undefined, { key });
		expect(refused.status).toBe(409);
		expect(refused.body.message).toBe(
			`webhook ${t.id} of device '${t.device.name}' expired at ${new Date(expiresAt).toISOString()}: it receives nothing more, replays included; subscribe again (POST /wdm/v1/devices/${t.device.name}/webhook) to replay`,
		);
		await eventually(() => t.rows()[0]?.state === 'failed', 3000);
		expect(t.rows()).toEqual([expect.objectContaining({ state: 'failed', attempts: 1, last_error: 'subscription expired; not delivered' })]);
		expect(await expiredDrops(t.server)).toBe(1);
		await sleep(300);
		expect(t.receiver.hits).toHaveLength(1);
	});

	test('the retries still waiting when an expired subscription is deleted are counted as dropped', async () => {
		const t = await setup(() => 503, { webhookBackoffMs: 20_000, webhookMaxBackoffMs: 20_000 });
		const expiresAt = Date.now() + 400;
		await t.api.post(`/devices/${t.device.name}/webhook`, { url: t.url, events: ['presence'], expiresAt }, { key });
		await t.emit('composing');
		await t.emit('paused');
		await eventually(() => t.rows().length === 2 && t.rows().every((r) => r.attempts === 1));
		await sleep(Math.max(0, expiresAt - Date.now()) + 20);
		// Listing deletes the subscriptions whose time is over, and their waiting rows with them.
		expect(await t.subscription()).toBeUndefined();
		expect(t.rows()).toEqual([]);
		expect(await expiredDrops(t.server)).toBe(2);
		expect(t.receiver.hits).toHaveLength(2);
	});
});

describe('backoff and giving up', () => {
	test('a retry due beyond the timer limit (about 24.8 days) waits without spinning', async () => {
		// Backoff of 2.5e9..5e9 ms: more than setTimeout can hold (2^31 - 1 ms).
		const t = await setup(() => 500, { webhookBackoffMs: 5e9, webhookMaxBackoffMs: 5e9 });
		await t.emit();
		await eventually(() => t.rows()[0]?.attempts === 1);
		const { outbox } = t.server.services.store;
		const nextDueAt = outbox.nextDueAt.bind(outbox);
		let calls = 0;
		outbox.nextDueAt = () => (calls++, nextDueAt());
		await sleep(300);
		expect(t.rows()[0]).toMatchObject({ state: 'pending', attempts: 1 });
		expect(t.rows()[0].next_attempt_at - Date.now()).toBeGreaterThan(2 ** 31);
		expect(calls).toBeLessThan(5);
		expect(t.receiver.hits).toHaveLength(1);
	});


	test('the gap between attempts grows exponentially (with jitter) up to the cap', async () => {
		// base 100 ms, cap 400 ms: gaps lie in [50,100], [100,200], [200,400], [200,400].
		const t = await setup(() => 500, { webhookBackoffMs: 100, webhookMaxBackoffMs: 400, webhookMaxAttempts: 5 });
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'failed', 5000);
		const at = t.receiver.hits.map((h) => h.at);
		expect(at).toHaveLength(5);
		const gaps = at.slice(1).map((v, i) => v - at[i]);
		const slack = 120;
		expect(gaps[0]).toBeGreaterThanOrEqual(50 - 5);
		expect(gaps[0]).toBeLessThanOrEqual(100 + slack);
		expect(gaps[1]).toBeGreaterThanOrEqual(100 - 5);
		expect(gaps[1]).toBeLessThanOrEqual(200 + slack);
		expect(gaps[2]).toBeGreaterThanOrEqual(200 - 5);
		expect(gaps[3]).toBeGreaterThanOrEqual(200 - 5);
		expect(gaps[3]).toBeLessThanOrEqual(400 + slack);
		expect(gaps[2]).toBeGreaterThan(gaps[0]);
		expect(gaps[3]).toBeGreaterThan(gaps[0]);
		expectSameEvent(t.receiver.hits, t.secret);
	});

	test('jitter spreads the retries of events that failed together', async () => {
		// Each event fails once; its retry comes 100..200 ms later (base 200 ms, 50-100 % jitter).
		const t = await setup(sequence(500), { webhookBackoffMs: 200, webhookMaxBackoffMs: 200 });
		for (let i = 0; i < 6; i++) await t.emit(i % 2 ? 'paused' : 'composing');
		await eventually(() => t.rows().length === 6 && t.rows().every((r) => r.state === 'delivered'));
		const byId = new Map<string, number[]>();
		for (const hit of t.receiver.hits) byId.set(hit.body.id, [...(byId.get(hit.body.id) ?? []), hit.at]);
		const gaps = [...byId.values()].map(([first, second]) => second - first);
		expect(gaps).toHaveLength(6);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(100 - 5);
		expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThan(10);
	});

	test('after webhookMaxAttempts the row is failed and no attempt follows', async () => {
		const t = await setup(() => 503, { webhookMaxAttempts: 3 });
		await t.emit();
		await eventually(() => t.rows()[0]?.state === 'failed');
		expect(t.rows()[0]).toMatchObject({ state: 'failed', attempts: 3, last_status: 503, last_error: 'HTTP 503' });
		await sleep(400);
		expect(t.receiver.hits).toHaveLength(3);
		// Giving up on one event does not disable the subscription.
		expect(await t.subscription()).toMatchObject({ enabled: true });
	});

	test('one failing event does not hold back the others', async () => {
		const t = await setup((hit) => (hit.body.data.presence === 'composing' ? 500 : 200), { webhookMaxAttempts: 4 });
		await t.emit('composing');
		await t.emit('paused');
		await eventually(() => t.rows().every((r) => r.state !== 'pending'));
		expect(t.rows().map((r) => [JSON.parse(r.body).data.presence, r.state, r.attempts])).toEqual([
			['composing', 'failed', 4],
			['paused', 'delivered', 1],
		]);
	});

	test('many events to a slow receiver are all delivered', async () => {
		const t = await setup(async () => {
			await sleep(30);
			return 200;
		});
		for (let i = 0; i < 40; i++) await t.emit(i % 2 ? 'paused' : 'composing');
		await eventually(() => t.rows().length === 40 && t.rows().every((r) => r.state === 'delivered'), 10000);
		expect(new Set(t.receiver.delivered.map((h) => h.body.id)).size).toBe(40);
	});
});

describe('receivers that answer too much, or come back', () => {
	test('a 200 with a huge body (200 MB, streamed) is delivered after reading 4 KB; memory stays flat', async () => {
		const total = 200 * 1024 * 1024;
		let written = 0;
		// Written lazily as the client reads, so only what the server under test buffers counts.
		const huge = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) });
				const chunk = Buffer.alloc(64 * 1024, 120);
				const pump = () => {
					while (written < total && !res.destroyed) {
						written += chunk.length;
						if (!res.write(chunk)) return void res.once('drain', pump);
					}
					res.end();
				};
				pump();
			});
		});
		await new Promise<void>((done) => huge.listen(0, '127.0.0.1', done));
		const port = (huge.address() as { port: number }).port;
		try {
			const t = await setup(() => 200, {}, port);
			const rss = process.memoryUsage().rss;
			await t.emit();
			await eventually(() => t.rows()[0]?.state === 'delivered');
			expect(t.rows()[0]).toMatchObject({ attempts: 1, last_status: 200 });
			expect(process.memoryUsage().rss - rss).toBeLessThan(50 * 1024 * 1024);
			// The connection was closed early: nowhere near the whole body went out.
			await sleep(100);
			expect(written).toBeLessThan(total / 4);
		} finally {
			huge.closeAllConnections();
			await new Promise((done) => huge.close(done));
		}
	});

	test('a receiver that comes back gets its backlog within moments, not after each backoff; same event ids, in order', async () => {
		const port = await freePort();
		// Backoff of 5 to 10 s after the first failure: only the pull-forward can deliver the backlog sooner.
		const t = await setup(() => 200, { webhookBackoffMs: 10000, webhookMaxBackoffMs: 60000 }, port);
		for (let i = 0; i < 5; i++) await t.emit(i % 2 ? 'paused' : 'composing');
		await eventually(() => t.rows().length === 5 && t.rows().every((r) => r.attempts === 1 && r.state === 'pending'));
		const backlog = t.rows().map((r) => r.event_id);
		const receiver = await startReceiver(() => 200, port);
		receivers.push(receiver);
		const recovered = Date.now();
		// A new event is delivered at once; that success brings the backlog forward.
		await t.emit('available');
		await eventually(() => t.rows().every((r) => r.state === 'delivered'), 3000);
		expect(Date.now() - recovered).toBeLessThan(3000);
		const ids = receiver.hits.map((h) => String(h.headers['webhook-id']));
		expect(ids).toHaveLength(6);
		expect(ids.filter((id) => backlog.includes(id))).toEqual(backlog);
		expect(t.rows().map((r) => r.attempts)).toEqual([2, 2, 2, 2, 2, 1]);
	});
});
