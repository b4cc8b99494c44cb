// Deliveries paced per receiver, Retry-After honoured, and claims (the WDM Trigger's one run per event):
// docs/decisions/webhooks.md, "Webhooks: exactly-once runs".
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../server/src/app';
import type { ConfigInput } from '../../server/src/config';
import { CLAIM_TTL_MS } from '../../server/src/webhooks/claims';
import { ADMIN_KEY, client, connectedDevice, eventually, expectError, startGateway, tempDataDir } from '../helpers/server';

const key = ADMIN_KEY;
const servers: App[] = [];
const receivers: http.Server[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
	for (const r of receivers.splice(0)) {
		r.closeAllConnections();
		r.close();
	}
});

interface Hit {
	id: string;
	timestamp: number;
	at: number;
	/** Requests under way at the receiver when this one arrived (itself included). */
	concurrent: number;
}

/** A receiver whose answer to each request is decided by `answer` (status, headers, after a delay; or a broken connection). */
async function receiver(answer: (hit: Hit, n: number) => Promise<{ status?: number; headers?: Record<string, string>; delayMs?: number; destroy?: boolean }>) {
	const hits: Hit[] = [];
	const perId = new Map<string, number>();
	let open = 0;
	const server = http.createServer((req, res) => {
		open++;
		req.resume();
		req.on('end', async () => {
			const id = String(req.headers['webhook-id']);
			const hit = { id, timestamp: Number(req.headers['webhook-timestamp']), at: Date.now(), concurrent: open };
			hits.push(hit);
			perId.set(id, (perId.get(id) ?? 0) + 1);
			const { status = 200, headers = {}, delayMs = 0, destroy = false } = await answer(hit, perId.get(id)!);
			await new Promise((r) => setTimeout(r, delayMs));
			open--;
			if (destroy) req.socket.destroy();
			else res.writeHead(status, headers).end();
		});
	});
	receivers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits };
}

let seq = 0;

/** A server, a device subscribed to `url` for presence events (one per `emit`). */
async function setup(url: string, config: Partial<ConfigInput> = {}) {
	const { server, api, sandbox } = await startGateway(config);
	servers.push(server);
	const device = await connectedDevice(server, `pace-${++seq}`);
	const sub = await api.post(`/devices/${device.name}/webhook`, { url, events: ['presence'] }, { key });
	expect(sub.status).toBe(200);
	const id: string = sub.body.data.id;
	return {
		server,
		api,
		device,
		id,
		emit: async (n = 1) => {
			for (let i = 0; i < n; i++) {
				const res = await sandbox.post(`/devices/${device.name}/presence`, { from: '5521987650000', presence: 'composing' }, { key });
				expect(res.status).toBe(200);
			}
		},
		rows: () => server.services.store.outbox.ofWebhook(id),
		claim: (body: object) => api.post(`/devices/${device.name}/webhook/claim`, { subscription: id, ...body }, { key }),
	};
}

describe('pacing', () => {
	test('a receiver that answers slowly gets fewer requests at once, each delivered once, none timed out', async () => {
		const r = await receiver(async () => ({ status: 200, delayMs: 300 }));
		// An answer over a tenth of the time limit (200 ms) is slow.
		const t = await setup(r.url, { webhookTimeoutMs: 2000 });
		await t.emit(40);
		await eventually(() => t.rows().every((row) => row.state === 'delivered'), 30_000);
		expect(t.rows().map((row) => row.attempts)).toEqual(Array(40).fill(1));
		expect(new Set(r.hits.map((h) => h.id)).size).toBe(40);
		expect(r.hits).toHaveLength(40);
		// It starts at 8 at once and halves as the slow answers come back.
		expect(Math.max(...r.hits.map((h) => h.concurrent))).toBeLessThanOrEqual(8);
		expect(Math.max(...r.hits.slice(-10).map((h) => h.concurrent))).toBeLessThanOrEqual(2);
	}, 40_000);

	test('a receiver that answers quickly gets more at once (up to 64)', async () => {
		let release!: () => void;
		const gate = new Promise<void>((resolve) => (release = resolve));
		let answered = 0;
		const r = await receiver(async () => {
			// The first 400 answer at once; then requests are held, to count how many come at once.
			if (++answered > 400) await gate;
			return { status: 200 };
		});
		// Quick: under a second (a tenth of the time limit), even on a busy machine.
		const t = await setup(r.url, { webhookTimeoutMs: 10_000 });
		await t.emit(500);
		await eventually(() => t.server.services.delivery.pacing.busy(new URL(r.url).origin) >= 20, 20_000);
		expect(t.server.services.delivery.pacing.limit(new URL(r.url).origin)).toBeGreaterThan(8);
		release();
		await eventually(() => t.rows().every((row) => row.state === 'delivered'), 30_000);
		expect(r.hits).toHaveLength(500);
	}, 60_000);

	test('rows the store could not lease give their room back and go on a later run', async () => {
		const r = await receiver(async () => ({ status: 200 }));
		const t = await setup(r.url);
		const origin = new URL(r.url).origin;
		const { outbox } = t.server.services.store;
		const lease = jest.spyOn(outbox, 'lease').mockImplementationOnce(() => {
			throw new Error('SQLITE_FULL: database or disk is full');
		});
		await t.emit(3);
		await eventually(() => t.rows().every((row) => row.state === 'delivered'), 10_000);
		expect(lease.mock.calls.length).toBeGreaterThan(1);
		expect(r.hits).toHaveLength(3);
		expect(t.server.services.delivery.pacing.busy(origin)).toBe(0);
		lease.mockRestore();
	});

	test('429 or 503 with Retry-After: the receiver is paused that long, and the attempt is not counted', async () => {
		const r = await receiver(async (_hit, n) => (n === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 }));
		const t = await setup(r.url, { webhookMaxAttempts: 1 });
		await t.emit();
		// With one attempt allowed, a counted 503 would have failed the event.
		const [row] = await eventually(() => (t.rows().every((row) => row.state === 'delivered') ? t.rows() : undefined));
		expect(row).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 });
		expect(r.hits).toHaveLength(2);
		expect(r.hits[1].at - r.hits[0].at).toBeGreaterThanOrEqual(1000);
	});

	test('a 429 without Retry-After is an attempt like any other (retried with backoff)', async () => {
		const r = await receiver(async (_hit, n) => ({ status: n === 1 ? 429 : 200 }));
		const t = await setup(r.url);
		await t.emit();
		const [row] = await eventually(() => (t.rows().every((row) => row.state === 'delivered') ? t.rows() : undefined));
		expect(row.attempts).toBe(2);
	});
});

describe('claims', () => {
	test('the first claim of an event wins; another subscription, device or user is refused', async () => {
		const r = await receiver(async () => ({ status: 200 }));
		const t = await setup(r.url);
		const first = await t.claim({ event: 'evt_a', timestamp: 100 });
		expect(first.status).toBe(200);
		expect(first.body.data).toEqual({ subscription: t.id, event: 'evt_a', claimed: true });
		expect((await t.claim({ event: 'evt_a', timestamp: 101 })).body.data.claimed).toBe(false);
		expect((await t.claim({ event: 'evt_b', timestamp: 101 })).body.data.claimed).toBe(true);
		expectError(await t.claim({ subscription: 'nope', event: 'evt_a', timestamp: 1 }), 404, `no webhook nope on device '${t.device.name}'`);
		const other = await connectedDevice(t.server, `pace-other-${seq}`);
		expectError(await t.api.post(`/devices/${other.name}/webhook/claim`, { subscription: t.id, event: 'evt_c', timestamp: 1 }, { key }), 404, `no webhook ${t.id} on device '${other.name}'`);
		const bad = await t.claim({ event: '', timestamp: 'soon' });
		expect(bad.status).toBe(400);
		expect(bad.body.message).toMatch(/event|timestamp/);
		// An event id is at most as long as those the server makes (`evt_` and 24 hex digits); a longer one is not kept.
		expect((await t.claim({ event: `evt_${'0'.repeat(24)}`, timestamp: 1 })).body.data.claimed).toBe(true);
		expectError(await t.claim({ event: `evt_${'0'.repeat(25)}`, timestamp: 1 }), 400, 'event must be at most 28 characters long');
		expectError(await t.claim({ event: 'x'.repeat(100_000), timestamp: 1 }), 400, 'event must be at most 28 characters long');
		expect(t.server.services.store.db.prepare('SELECT count(*) AS n FROM webhook_claims WHERE length(event_id) > 28').get()).toEqual({ n: 0 });
	});

	/** A receiver that claims each delivery it gets (as the WDM Trigger does), then answers 500 the first time. */
	async function claimingReceiver(releaseOnFailure: boolean) {
		const claims: boolean[] = [];
		const at: { t?: Awaited<ReturnType<typeof setup>> } = {};
		const r = await receiver(async (hit, n) => {
			const res = await at.t!.claim({ event: hit.id, timestamp: hit.timestamp, releaseOnFailure });
			claims.push(res.body.data.claimed);
			return { status: n === 1 ? 500 : 200 };
		});
		const t = (at.t = await setup(r.url));
		await t.emit();
		await eventually(() => t.rows().every((row) => row.state === 'delivered'));
		return { claims, rows: t.rows(), hits: r.hits };
	}

	test('released when the attempt that claimed it fails, if asked: the redelivery runs', async () => {
		const { claims, rows } = await claimingReceiver(true);
		expect(rows[0].attempts).toBe(2);
		expect(claims).toEqual([true, true]);
	});

	test('kept when the attempt fails, if not asked: the redelivery is skipped', async () => {
		const { claims } = await claimingReceiver(false);
		expect(claims).toEqual([true, false]);
	});

	test("a late claim (made after its attempt was given up) is refused; the next attempt's runs", async () => {
		const at: { t?: Awaited<ReturnType<typeof setup>> } = {};
		const claims: boolean[] = [];
		const r = await receiver(async (hit, n) => {
			if (n === 1) {
				// The first attempt times out (300 ms); its run starts late, after the server gave up on it.
				setTimeout(async () => claims.push((await at.t!.claim({ event: hit.id, timestamp: hit.timestamp, releaseOnFailure: true })).body.data.claimed), 400);
				return { status: 200, delayMs: 1000 };
			}
			claims.push((await at.t!.claim({ event: hit.id, timestamp: hit.timestamp, releaseOnFailure: true })).body.data.claimed);
			return { status: 200 };
		});
		// The next attempt comes 0.5 to 1 s after the first timed out, after its late claim.
		const t = (at.t = await setup(r.url, { webhookTimeoutMs: 300, webhookBackoffMs: 1000, webhookMaxBackoffMs: 1000 }));
		await t.emit();
		await eventually(() => t.rows().every((row) => row.state === 'delivered') && claims.length === 2, 10_000);
		// The late run does not start (it would run beside the redelivery's); the redelivery's does.
		expect(claims).toEqual([false, true]);
	});

	test('a claim that reaches the server after its attempt broke (the receiver died) is refused; the redelivery runs', async () => {
		const at: { t?: Awaited<ReturnType<typeof setup>> } = {};
		const claims: boolean[] = [];
		const r = await receiver(async (hit, n) => {
			if (n === 1) {
				// The process dies as it claims: its connection breaks first, its claim arrives after.
				setTimeout(async () => claims.push((await at.t!.claim({ event: hit.id, timestamp: hit.timestamp, releaseOnFailure: true })).body.data.claimed), 200);
				return { destroy: true };
			}
			claims.push((await at.t!.claim({ event: hit.id, timestamp: hit.timestamp, releaseOnFailure: true })).body.data.claimed);
			return { status: 200 };
		});
		// Retries within the same second: each attempt still has its own timestamp.
		const t = (at.t = await setup(r.url, { webhookBackoffMs: 400, webhookMaxBackoffMs: 400 }));
		await t.emit();
		await eventually(() => t.rows().every((row) => row.state === 'delivered') && claims.length === 2, 10_000);
		expect(claims).toEqual([false, true]);
		expect(r.hits[1].timestamp).toBeGreaterThan(r.hits[0].timestamp);
	});

	test("a restart of the server keeps the claims and the failed attempts; a deleted subscription's go with it", async () => {
		const r = await receiver(async () => ({ status: 500 }));
		const data = tempDataDir();
		const t = await setup(r.url, { data, webhookMaxAttempts: 1 });
		expect((await t.claim({ event: 'evt_kept', timestamp: 100 })).body.data.claimed).toBe(true);
		// An event whose one attempt failed (500), and no claim for it.
		await t.emit();
		await eventually(() => t.rows().every((row) => row.state === 'failed'));
		const [failed] = r.hits;
		await t.server.close();
		const { server } = await startGateway({ data });
		servers.push(server);
		const claim = (body: object) => client(server.url).post(`/devices/${t.device.name}/webhook/claim`, { subscription: t.id, ...body }, { key });
		expect((await claim({ event: 'evt_kept', timestamp: 101 })).body.data.claimed).toBe(false);
		// The failed attempt's run claims late: refused, as before the restart; a later attempt's claim wins.
		expect((await claim({ event: failed.id, timestamp: failed.timestamp })).body.data.claimed).toBe(false);
		expect((await claim({ event: failed.id, timestamp: failed.timestamp + 1 })).body.data.claimed).toBe(true);
		const kept = () => server.services.store.db.prepare('SELECT count(*) AS n FROM webhook_claims WHERE webhook_id = ?').get(t.id) as { n: number };
		expect(kept().n).toBe(2);
		expect((await client(server.url).post(`/devices/${t.device.name}/webhook`, { action: 'delete', id: t.id }, { key })).status).toBe(200);
		expect(kept().n).toBe(0);
	});

	test('a claim is kept a day (and up to a minute) after it was last touched, then the event may be claimed again', async () => {
		const r = await receiver(async () => ({ status: 200 }));
		const t = await setup(r.url);
		const claims = t.server.services.delivery.claims;
		const start = Date.now();
		expect(claims.claim(t.id, 'evt_day', 100, false, start)).toBe(true);
		expect(claims.claim(t.id, 'evt_day', 101, false, start + CLAIM_TTL_MS - 1000)).toBe(false);
		// Expired claims are dropped once a minute at most.
		expect(claims.claim(t.id, 'evt_day', 102, false, start + CLAIM_TTL_MS + 61_000)).toBe(true);
	});
});
