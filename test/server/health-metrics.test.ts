import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, connectedDevice, eventually, startServer } from '../helpers/server';
import { missingService } from '../helpers/services';

let server: App;
beforeAll(async () => {
	server = await startServer({ pairing: 'manual' });
});
afterAll(() => server.close());

/** The samples of `/metrics` (Prometheus text format): `name{labels}` -> value. */
async function scrape(): Promise<Map<string, number>> {
	const res = await fetch(`${server.url}/metrics`);
	expect(res.status).toBe(200);
	expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
	const samples = new Map<string, number>();
	for (const line of (await res.text()).split('\n')) {
		const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
		if (match) samples.set(match[1], Number(match[2]));
	}
	return samples;
}

test('/healthz answers while the process is up', async () => {
	const res = await fetch(`${server.url}/healthz`);
	expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { status: 'ok' } });
});

test('/readyz checks the store takes a write and the queues run', async () => {
	const res = await fetch(`${server.url}/readyz`);
	expect({ status: res.status, body: await res.json() }).toEqual({
		status: 200,
		body: { status: 'ready', checks: { store: true, sendQueue: true, webhookDelivery: true }, privateFetch: server.services.privateFetch },
	});
	// The check really wrote to the store.
	expect(Date.parse(server.services.store.meta.get('ready_checked_at')!)).toBeGreaterThan(Date.now() - 60000);
});

test('/readyz answers 503 naming what is not ready', async () => {
	const other = await startServer();
	try {
		await other.services.sendQueue.worker.stop();
		const res = await fetch(`${other.url}/readyz`);
		expect({ status: res.status, body: await res.json() }).toEqual({
			status: 503,
			body: { status: 'not ready', checks: { store: true, sendQueue: false, webhookDelivery: true }, privateFetch: { allowed: true, reason: expect.stringContaining('loopback only') } },
		});
	} finally {
		await other.close();
	}
});

test('metrics change with traffic: requests, devices, the send queue and webhook deliveries', async () => {
	const api = client(server.url);
	const before = await scrape();
	expect(before.get('wdm_devices{status="connected"}')).toBe(0);
	expect(before.get('wdm_send_queue_depth')).toBe(0);
	expect(before.get('wdm_webhook_outbox_backlog')).toBe(0);

	// A receiver that refuses every event with a 400: the delivery is given up at once (a 4xx is final).
	const receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(400).end()));
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	try {
		const device = await connectedDevice(server, 'metrics');
		const hook = await api.post(
			`/devices/${device.name}/webhook`,
			{ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['messages'] },
			{ key: ADMIN_KEY },
		);
		expect(hook.status).toBeLessThan(300);
		// Sent asynchronously after the longest delay: it waits in the send queue.
		const queued = await api.post('/send/text', { number: '5511999990001', text: 'later', async: true, delay: 300000 }, { token: device.token });
		expect(queued.status).toBe(200);
		const sent = await api.post('/send/text', { number: '5511999990001', text: 'now' }, { token: device.token });
		expect(sent.status).toBe(200);
		const listed = await api.get('/devices', { key: ADMIN_KEY });
		expect(listed.status).toBe(200);

		const after = await eventually(async () => {
			const samples = await scrape();
			return (samples.get('wdm_webhook_events{state="failed"}') ?? 0) > 0 ? samples : undefined;
		});
		expect(after.get('wdm_devices{status="connected"}')).toBe(1);
		expect(after.get('wdm_send_queue_depth')).toBe(1);
		expect(after.get('wdm_webhook_attempts')).toBeGreaterThan(0);
		const route = 'route="/wp-json/wdm/v1/send/text"';
		expect(after.get(`wdm_http_request_duration_seconds_count{method="POST",${route},status_code="200"}`)).toBe(2);
		expect(after.get('wdm_http_request_duration_seconds_count{method="GET",route="/wp-json/wdm/v1/devices",status_code="200"}')).toBe(1);
	} finally {
		receiver.close();
	}

	// A URL that is no route is counted under one label value, with its status.
	await fetch(`${server.url}/wp-json/wdm/v1/no-such-route`);
	expect((await scrape()).get('wdm_http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}')).toBe(1);
});

/** Debian's `prometheus` package (scripts/test-services.sh installs it) has the format's own checker. */
const PROMTOOL = '/usr/bin/promtool';

test('promtool check metrics accepts /metrics: no lint problem, gauges not named _total', async () => {
	await fetch(`${server.url}/wp-json/wdm/v1/devices`); // a request, so that the histogram has samples
	const text = await (await fetch(`${server.url}/metrics`)).text();
	expect(text).not.toMatch(/^# TYPE \S+_total gauge$/m);
	expect(text).toMatch(/^nodejs_active_handles\{type="\w+"\} \d+$/m);
	if (!fs.existsSync(PROMTOOL)) throw missingService(`promtool (${PROMTOOL})`, 'prometheus');
	const checked = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
	expect({ status: checked.status, out: `${checked.stdout}${checked.stderr}`.trim() }).toEqual({ status: 0, out: '' });
});
