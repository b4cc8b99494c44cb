// Delivery that keeps pace (issue 42): the sandbox's inbound messages are refused with 429 and Retry-After
// while more than --webhook-backlog-max events wait to be sent, and a receiver that keeps up is not held at
// the pacing's start.
import type { App } from '../../server/src/app';
import type { ConfigInput } from '../../server/src/config';
import { Pacing } from '../../server/src/webhooks/pacing';
import { ADMIN_KEY, connectedDevice, eventually, expectError, startGateway } from '../helpers/server';
import { startReceiver, type Receiver } from '../helpers/webhooks';

const key = ADMIN_KEY;
const servers: App[] = [];
const receivers: Receiver[] = [];
/** Receivers' held answers, let go before the servers close (a server waits for its attempts under way). */
const gates: (() => void)[] = [];
afterEach(async () => {
	for (const release of gates.splice(0)) release();
	await Promise.all(servers.splice(0).map((s) => s.close()));
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** A receiver that holds every answer until `release`, and a server with a device subscribed to it for `messages`. */
async function behindSetup(config: Partial<ConfigInput>) {
	let release!: () => void;
	const gate = new Promise<void>((resolve) => (release = resolve));
	gates.push(release);
	const receiver = await startReceiver(async () => {
		await gate;
		return 200;
	});
	receivers.push(receiver);
	const { server, api, sandbox } = await startGateway(config);
	servers.push(server);
	const device = await connectedDevice(server, 'busy');
	const sub = await api.post('/devices/busy/webhook', { url: `${receiver.url}/hook`, events: ['messages'] }, { key });
	expect(sub.status).toBe(200);
	let seq = 0;
	const inbound = (name = 'busy') => sandbox.post(`/devices/${name}/inbound`, { from: '5521977770000', text: `m${++seq}` }, { key });
	const rows = () => server.services.store.outbox.ofWebhook(sub.body.data.id);
	return { server, api, device, receiver, release, inbound, rows };
}

describe('inbound refused while deliveries are behind', () => {
	test('429 with Retry-After past --webhook-backlog-max, naming why; nothing of it stored; taken again once the outbox drains', async () => {
		const t = await behindSetup({ webhookBacklogMax: 5 });
		// The receiver holds its answers: 8 attempts go (the pacing's start), the rest wait in the outbox.
		let refused;
		let accepted = 0;
		for (let i = 0; i < 60 && !refused; i++) {
			const res = await t.inbound();
			if (res.status === 200) accepted++;
			else refused = res;
		}
		expect(refused).toBeDefined();
		expectError(refused!, 429, /^webhook deliveries are behind: (at least )?\d+ events wait to be sent, more than --webhook-backlog-max \(5\); .* retry after \d+ s$/);
		const retryAfter = Number(refused!.headers.get('retry-after'));
		expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
		// More than the bound waited (besides those under way) before the first refusal, and the refused one left no event.
		expect(accepted).toBeGreaterThan(8 + 5);
		expect(t.rows()).toHaveLength(accepted);
		expect(t.rows().filter((row) => row.state === 'pending' && row.attempts === 0 && row.next_attempt_at <= Date.now()).length).toBeGreaterThan(5);

		// The receiver answers: the outbox drains, every accepted event delivered once, and inbound is taken again.
		t.release();
		await eventually(() => t.rows().every((row) => row.state === 'delivered'), 10_000);
		await eventually(async () => ((await t.inbound()).status === 200 ? true : undefined));
		expect(t.rows()).toHaveLength(accepted + 1);
		await eventually(() => t.receiver.delivered.length === accepted + 1);
		expect(new Set(t.receiver.delivered.map((hit) => hit.headers['webhook-id'])).size).toBe(accepted + 1);
	}, 30_000);

	test('a device without webhooks is not refused: its messages add nothing to the outbox', async () => {
		const t = await behindSetup({ webhookBacklogMax: 2 });
		await connectedDevice(t.server, 'quiet');
		await eventually(async () => ((await t.inbound()).status === 429 ? true : undefined), 10_000);
		const res = await t.inbound('quiet');
		expect(res.status).toBe(200);
	}, 30_000);

	test('--webhook-backlog-max 0: no bound', async () => {
		const t = await behindSetup({ webhookBacklogMax: 0 });
		for (let i = 0; i < 30; i++) expect((await t.inbound()).status).toBe(200);
		expect(t.rows().filter((row) => row.attempts === 0 && row.next_attempt_at <= Date.now()).length).toBeGreaterThan(20);
	}, 30_000);
});

describe('pacing of a receiver that keeps up', () => {
	test('slow start: the limit doubles per round of quick answers until the first slow one, then grows by one per round', () => {
		const pacing = new Pacing(64, 1000);
		const origin = 'http://receiver';
		const round = (ms: number) => {
			const n = Math.floor(pacing.limit(origin));
			for (let i = 0; i < n; i++) expect(pacing.take(origin, 0)).toBe(true);
			expect(pacing.take(origin, 0)).toBe(false);
			for (let i = 0; i < n; i++) pacing.done(origin, ms, false, 10_000);
		};
		expect(pacing.limit(origin)).toBe(8);
		round(1);
		expect(pacing.limit(origin)).toBe(16);
		round(1);
		expect(pacing.limit(origin)).toBe(32);
		round(1);
		round(1);
		expect(pacing.limit(origin)).toBe(64);
		// A slow answer halves it once, and ends the slow start.
		round(2000);
		expect(pacing.limit(origin)).toBe(32);
		round(1);
		expect(pacing.limit(origin)).toBeCloseTo(33, 0);
	});
});
