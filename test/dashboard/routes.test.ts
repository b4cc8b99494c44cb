import { ADMIN_KEY, SANDBOX, client, connectedDevice, eventually, expectError, startGateway } from '../helpers/server';
import { startReceiver, type Receiver } from '../helpers/webhooks';
import type { App } from '../../server/src/app';
import type { ConfigInput } from '../../server/src/config';
import Fastify from 'fastify';
import { registerDashboard } from '../../server/src/dashboard';

/** The routes the dashboard adds to `sandbox/v1`: a subscription's delivery log, a replay, the event stream. */

const key = ADMIN_KEY;
const CONTACT = '5521987650000';
const servers: App[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** A connected device subscribed (presence only: one sandbox call is one event) to a receiver answering `status()`. */
async function setup(status: () => number, config: Partial<ConfigInput> = {}) {
	const { server, api, sandbox } = await startGateway(config);
	servers.push(server);
	const receiver = await startReceiver(() => status());
	receivers.push(receiver);
	const device = await connectedDevice(server, 'log');
	const sub = await api.post('/devices/log/webhook', { url: `${receiver.url}/hook`, events: ['presence'] }, { key });
	expect(sub.status).toBe(200);
	const id: string = sub.body.data.id;
	return {
		server,
		api,
		sandbox,
		receiver,
		device,
		id,
		presence: async (presence = 'composing') =>
			expect((await sandbox.post('/devices/log/presence', { from: CONTACT, presence }, { key })).status).toBe(200),
		log: () => sandbox.get(`/devices/log/webhook/${id}/deliveries`, { key }),
		replay: (delivery: number | string) => sandbox.post(`/devices/log/webhook/${id}/deliveries/${delivery}/replay`, undefined, { key }),
	};
}

describe('GET /sandbox/v1/devices/{name}/webhook/{id}/deliveries', () => {
	test("lists each event's deliveries, newest first: state, attempts, last status, next retry, and the body sent", async () => {
		let status = 500;
		// A long backoff: the first failed attempt keeps the row pending, with its next retry ahead.
		const s = await setup(() => status, { webhookBackoffMs: 600_000, webhookMaxBackoffMs: 600_000 });
		await s.presence('composing');
		const [pending] = await eventually(async () => {
			const rows = (await s.log()).body.data;
			return rows.length === 1 && rows[0].attempts === 1 ? rows : undefined;
		});
		expect(pending).toEqual({
			id: expect.any(Number),
			webhookId: s.id,
			eventId: expect.stringMatching(/^evt_/),
			event: 'presence',
			state: 'pending',
			attempts: 1,
			lastStatus: 500,
			lastError: 'HTTP 500',
			nextAttemptAt: expect.any(Number),
			createdAt: expect.any(Number),
			payload: { id: pending.eventId, event: 'presence', device: 'log', timestamp: pending.createdAt, data: expect.objectContaining({ presence: 'composing' }) },
		});
		expect(pending.nextAttemptAt).toBeGreaterThan(pending.createdAt);
		expect(s.receiver.hits.map((h) => h.headers['webhook-id'])).toEqual([pending.eventId]);

		status = 400;
		await s.presence('paused');
		const rows = await eventually(async () => {
			const data = (await s.log()).body.data;
			return data.length === 2 && data[0].state === 'failed' ? data : undefined;
		});
		expect(rows.map((r: { event: string; state: string; lastStatus: number; nextAttemptAt: number | null }) => [r.state, r.lastStatus, r.nextAttemptAt])).toEqual([
			['failed', 400, null],
			['pending', 500, pending.nextAttemptAt],
		]);
		expect(rows[0].payload.data.presence).toBe('paused');
		// `limit` keeps the newest.
		const one = await s.sandbox.get(`/devices/log/webhook/${s.id}/deliveries?limit=1`, { key });
		expect(one.body.data.map((r: { id: number }) => r.id)).toEqual([rows[0].id]);
	});

	test('refuses a bad limit, an unknown subscription, and another user\'s device', async () => {
		const s = await setup(() => 200);
		expectError(await s.sandbox.get(`/devices/log/webhook/${s.id}/deliveries?limit=0`, { key }), 400, /^limit/);
		expectError(await s.sandbox.get(`/devices/log/webhook/${s.id}/deliveries?limit=many`, { key }), 400, /^limit/);
		expectError(await s.sandbox.get('/devices/log/webhook/wh_nope/deliveries', { key }), 404, "id: no webhook wh_nope on device 'log'");
		expectError(await s.sandbox.get('/devices/nope/webhook/wh_nope/deliveries', { key }), 404, "device 'nope' not found");
		const other = s.server.services.store.users.create('other');
		expectError(await s.sandbox.get(`/devices/log/webhook/${s.id}/deliveries`, { key: other.apiKey }), 404, "device 'log' not found");
		expectError(await s.sandbox.get(`/devices/log/webhook/${s.id}/deliveries`), 401, /missing API key/);
	});
});

describe('POST /sandbox/v1/devices/{name}/webhook/{id}/deliveries/{delivery}/replay', () => {
	test('delivers a failed event again, same id and body, as a new delivery; the failed one stays in the log', async () => {
		let status = 400;
		const s = await setup(() => status);
		await s.presence();
		const failed = await eventually(async () => (await s.log()).body.data.find((r: { state: string }) => r.state === 'failed'));
		status = 200;
		const res = await s.replay(failed.id);
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({ eventId: failed.eventId, event: 'presence', attempts: 0, lastStatus: null });
		expect(res.body.data.id).toBeGreaterThan(failed.id);
		const delivered = await eventually(async () => {
			const rows = (await s.log()).body.data;
			return rows[0].state === 'delivered' ? rows : undefined;
		});
		expect(delivered.map((r: { id: number; state: string; lastStatus: number }) => [r.id, r.state, r.lastStatus])).toEqual([
			[res.body.data.id, 'delivered', 200],
			[failed.id, 'failed', 400],
		]);
		// The receiver got the very same event twice: same `webhook-id`, same bytes.
		const hits = s.receiver.hits.filter((h) => h.headers['webhook-id'] === failed.eventId);
		expect(hits.map((h) => h.raw)).toEqual([hits[0].raw, hits[0].raw]);
		expect(hits[0].raw).toBe(JSON.stringify(failed.payload));

		// A delivered event may be replayed too (a receiver that lost it).
		expect((await s.replay(res.body.data.id)).status).toBe(201);
		await eventually(() => s.receiver.delivered.filter((h) => h.headers['webhook-id'] === failed.eventId).length === 2);
	});

	test('refuses a pending delivery, a disabled subscription, and deliveries that are not the subscription\'s', async () => {
		let status = 500;
		const s = await setup(() => status, { webhookBackoffMs: 600_000, webhookMaxBackoffMs: 600_000 });
		await s.presence();
		const pending = await eventually(async () => (await s.log()).body.data.find((r: { attempts: number }) => r.attempts === 1));
		expectError(await s.replay(pending.id), 409, `delivery: ${pending.id} is still pending; it is retried on its own`);

		status = 400;
		await s.presence('paused');
		const failed = await eventually(async () => (await s.log()).body.data.find((r: { state: string }) => r.state === 'failed'));
		const off = await s.api.post('/devices/log/webhook', { url: `${s.receiver.url}/hook`, events: ['presence'], enabled: false }, { key });
		expect(off.status).toBe(200);
		expectError(
			await s.replay(failed.id),
			409,
			`webhook ${s.id} of device 'log' is disabled; enable it (POST /wdm/v1/devices/log/webhook) to replay`,
		);
		const before = (await s.log()).body.data.length;

		expectError(await s.replay(999_999), 404, `delivery: no delivery 999999 on webhook ${s.id}`);
		expectError(await s.replay('first'), 400, /^delivery/);
		// Another subscription of the same device does not reach this one's deliveries.
		const second = await s.api.post('/devices/log/webhook', { url: `${s.receiver.url}/other` }, { key });
		expectError(
			await s.sandbox.post(`/devices/log/webhook/${second.body.data.id}/deliveries/${failed.id}/replay`, undefined, { key }),
			404,
			`delivery: no delivery ${failed.id} on webhook ${second.body.data.id}`,
		);
		// Nothing was written by the refusals.
		expect((await s.log()).body.data.length).toBe(before);
	});
});

/** Reads a server-sent-events answer: each `event:` / `data:` block, as it arrives. */
function readEvents(res: Response) {
	const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
	let buffer = '';
	const queued: { event: string; data: any }[] = [];
	return {
		/** The next event that `match`es (the others are skipped); undefined when the stream ended. */
		async next(match: (e: { event: string; data: any }) => boolean = () => true) {
			for (;;) {
				const index = queued.findIndex(match);
				if (index >= 0) return queued.splice(0, index + 1)[index];
				queued.length = 0;
				const { value, done } = await reader.read();
				if (done) return undefined;
				buffer += value;
				let end: number;
				while ((end = buffer.indexOf('\n\n')) >= 0) {
					const block = buffer.slice(0, end);
					buffer = buffer.slice(end + 2);
					const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
					if (fields.event) queued.push({ event: fields.event, data: JSON.parse(fields.data) });
				}
			}
		},
		cancel: () => reader.cancel(),
	};
}

describe('GET /sandbox/v1/events', () => {
	const open = (server: App, query = '', apiKey = key) =>
		fetch(`${server.url}${SANDBOX}/events${query}`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });

	test("streams the user's devices' events, subscribed to or not, and each delivery attempt", async () => {
		const s = await setup(() => 200);
		const res = await open(s.server);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
		const stream = readEvents(res);
		// `messages` is no event the subscription takes (presence only): the stream has it all the same.
		expect((await s.sandbox.post('/devices/log/inbound', { from: CONTACT, text: 'hi' }, { key })).status).toBe(200);
		const message = await stream.next((e) => e.event === 'messages');
		expect(message).toEqual({ event: 'messages', data: { device: 'log', data: expect.objectContaining({ text: 'hi', fromMe: false }) } });
		await s.presence();
		expect(await stream.next((e) => e.event === 'presence')).toEqual({
			event: 'presence',
			data: { device: 'log', data: { chatid: `${CONTACT}@s.whatsapp.net`, sender: `${CONTACT}@s.whatsapp.net`, presence: 'composing' } },
		});
		const delivery = await stream.next((e) => e.event === 'delivery');
		expect(delivery).toEqual({ event: 'delivery', data: { device: 'log', webhookId: s.id, id: expect.any(Number) } });
		const log = (await s.log()).body.data;
		expect(log.map((r: { id: number; state: string }) => [r.id, r.state])).toEqual([[delivery!.data.id, 'delivered']]);
		await stream.cancel();
	});

	test('with `device`, only that device; never another user\'s', async () => {
		const { server, sandbox } = await startGateway();
		servers.push(server);
		await connectedDevice(server, 'one');
		await connectedDevice(server, 'two');
		const other = server.services.store.users.create('other');
		const created = await client(server.url).post('/devices', { name: 'theirs' }, { key: other.apiKey });
		expect(created.status).toBe(201);
		const onlyTwo = readEvents(await open(server, '?device=two'));
		const mine = readEvents(await open(server));
		const theirs = readEvents(await open(server, '', other.apiKey));
		for (const name of ['one', 'two']) {
			expect((await sandbox.post(`/devices/${name}/inbound`, { from: CONTACT, text: `to ${name}` }, { key })).status).toBe(200);
		}
		// Their own device's QR: an event for them, none for the admin.
		expect((await client(server.url).get('/devices/theirs/qr', { key: other.apiKey })).status).toBe(200);
		expect((await mine.next((e) => e.event === 'messages'))!.data.device).toBe('one');
		expect((await mine.next((e) => e.event === 'messages'))!.data.device).toBe('two');
		expect((await onlyTwo.next((e) => e.event === 'messages'))!.data.data.text).toBe('to two');
		expect(await theirs.next()).toEqual({ event: 'connection', data: { device: 'theirs', data: expect.objectContaining({ status: 'connecting' }) } });
		// The admin's stream carries nothing of theirs: after its own two messages, the next is the closing of the stream.
		await server.close();
		servers.pop();
		expect(await mine.next((e) => e.data.device === 'theirs')).toBeUndefined();
		expect(await onlyTwo.next((e) => e.data.device !== 'two')).toBeUndefined();
	});

	test('refuses a missing key and a device that is not the user\'s; closing the server ends the streams at once', async () => {
		// A grace period longer than the test: a stream still open would hold the close past it.
		const { server } = await startGateway({ shutdownGraceMs: 600_000 });
		servers.push(server);
		await connectedDevice(server, 'mine');
		const other = server.services.store.users.create('other');
		expectError(await readReplyOf(await open(server, '', '')), 401, /missing API key/);
		expectError(await readReplyOf(await open(server, '?device=nope')), 404, "device 'nope' not found");
		expectError(await readReplyOf(await open(server, '?device=mine', other.apiKey)), 404, "device 'mine' not found");
		const stream = readEvents(await open(server));
		await server.close();
		servers.pop();
		expect(await stream.next()).toBeUndefined();
	});
});

async function readReplyOf(res: Response) {
	return { status: res.status, body: await res.json() };
}

test('a server whose dashboard was not built says how to build it', async () => {
	const app = Fastify();
	registerDashboard(app, '/nonexistent/dashboard-ui');
	const url = await app.listen({ port: 0, host: '127.0.0.1' });
	try {
		for (const path of ['/dashboard', '/dashboard/app.js']) {
			const res = await fetch(`${url}${path}`);
			expect({ status: res.status, body: await res.text() }).toEqual({ status: 503, body: 'The dashboard is not built: run `npm run build -w server`.\n' });
		}
	} finally {
		await app.close();
	}
});
