import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_KEY, client, connectedDevice, eventually, startGateway, storedDevice } from '../helpers/server';
import { type Hit, verifySignature } from '../helpers/webhooks';
import type { App } from '../../server/src/app';

/**
 * Deliveries at volume (issue 16): many events to one receiver go out over a few kept-alive
 * connections, each event once and signed, and every outbox row is recorded as delivered. (The rate
 * itself is `server/bench/webhooks.mjs`: no timing here.)
 */
let server: App;
let receiver: http.Server;
const hits: Hit[] = [];
let connections = 0;

beforeAll(async () => {
	receiver = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			hits.push({ at: Date.now(), path: req.url ?? '/', headers: req.headers, raw, body: JSON.parse(raw) });
			res.end('ok');
		});
	});
	receiver.on('connection', () => connections++);
	await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
	({ server } = await startGateway());
});

afterAll(async () => {
	await server.close();
	receiver.closeAllConnections();
	await new Promise((done) => receiver.close(done));
});

test('1,000 events to one receiver: each arrives once, signed, over at most 32 kept-alive connections', async () => {
	const api = client(server.url);
	const device = await connectedDevice(server, 'volume');
	const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
	const sub = await api.post(`/devices/${device.name}/webhook`, { url, events: ['presence'] }, { key: ADMIN_KEY });
	expect(sub.status).toBe(200);
	const { store, events } = server.services;
	const row = storedDevice(store, 'volume')!;
	store.tx(() => {
		for (let i = 0; i < 1000; i++) events.emit(row, 'presence', { chatid: '5511900000000@s.whatsapp.net', presence: 'composing', seq: i });
	});

	await eventually(() => store.outbox.ofWebhook(sub.body.data.id).every((r) => r.state === 'delivered'), 20000);
	const rows = store.outbox.ofWebhook(sub.body.data.id);
	expect(rows).toHaveLength(1000);
	expect(rows.every((r) => r.attempts === 1 && r.last_status === 200)).toBe(true);
	const ids = hits.map((hit) => String(hit.headers['webhook-id']));
	expect(new Set(ids).size).toBe(1000);
	expect(ids).toHaveLength(1000);
	expect(hits.map((hit) => hit.body.data.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
	expect(hits.every((hit) => verifySignature(sub.body.data.secret, hit))).toBe(true);
	expect(connections).toBeGreaterThan(0);
	expect(connections).toBeLessThanOrEqual(32);
});
