import { ADMIN_KEY, client, connectedDevice, expectError, startGateway, startServer, storedDevice, tempDataDir, type Client, type Device } from '../helpers/server';
import { KEY_TTL_MS } from '../../server/src/gateway/idempotency';
import type { App } from '../../server/src/app';
import { PNG, serveFiles } from '../helpers/files';

/**
 * The send routes' `Idempotency-Key` header: one message per key and device, whatever the repeats
 * (one after another, at the same time, queued, delayed, across a restart); the key with another
 * request is a 422; a day later the key is free again. Read back from the store and through find.
 */

const CONTACT = '5511999990001';

let server: App;
let api: Client;
let dev: Device;

beforeAll(async () => {
	({ server, api } = await startGateway());
	dev = await connectedDevice(server, 'keyed');
});
afterAll(() => server.close());

const keyed = (key: string, token = dev.token) => ({ token, headers: { 'idempotency-key': key } });

/** The messages the device sent with `text`, from the store. */
function sentWith(text: string, device = 'keyed'): string[] {
	const row = storedDevice(server.services.store, device)!;
	return (server.services.store.db.prepare('SELECT id FROM messages WHERE device_id = ? AND from_me = 1 AND text = ?').all(row.id, text) as Array<{ id: string }>).map(
		(m) => m.id,
	);
}

test('the same send twice with one key: one message, the second answer is the first message, marked replayed', async () => {
	const body = { number: CONTACT, text: 'keyed once' };
	const first = await api.post('/send/text', body, keyed('order-1'));
	expect(first.status).toBe(200);
	expect(first.headers.get('idempotent-replayed')).toBeNull();
	const again = await api.post('/send/text', body, keyed('order-1'));
	expect(again.status).toBe(200);
	expect(again.headers.get('idempotent-replayed')).toBe('true');
	expect(again.body.data.id).toBe(first.body.data.id);
	expect(sentWith('keyed once')).toEqual([first.body.data.id]);
	// Without a key, the same request is another message.
	const unkeyed = await api.post('/send/text', body, { token: dev.token });
	expect(unkeyed.body.data.id).not.toBe(first.body.data.id);
	expect(sentWith('keyed once')).toHaveLength(2);
});

test('twenty at the same time with one key: one message, every answer names it', async () => {
	const body = { number: CONTACT, text: 'keyed at once' };
	const answers = await Promise.all(Array.from({ length: 20 }, () => api.post('/send/text', body, keyed('burst-1'))));
	expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
	const ids = new Set(answers.map((a) => a.body.data.id));
	expect([...ids]).toEqual(sentWith('keyed at once'));
	expect(ids.size).toBe(1);
	expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
	// Counted for the operator.
	expect(server.services.store.db.prepare("SELECT replays FROM send_keys WHERE key = 'burst-1'").get()).toEqual({ replays: 19 });
	const metrics = await (await fetch(`${server.url}/metrics`)).text();
	expect(Number(/^wdm_send_replays (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(19);
});

test('the key with another body or another route: 422, nothing sent', async () => {
	await api.post('/send/text', { number: CONTACT, text: 'first body' }, keyed('reuse-1'));
	const other = await api.post('/send/text', { number: CONTACT, text: 'second body' }, keyed('reuse-1'));
	expectError(other, 422, "Idempotency-Key 'reuse-1' was already used for another request (another route or body) in the last 24 hours");
	const location = await api.post('/send/location', { number: CONTACT, latitude: 1, longitude: 2 }, keyed('reuse-1'));
	expect(location.status).toBe(422);
	expect(sentWith('second body')).toEqual([]);
	expect(sentWith('first body')).toHaveLength(1);
});

test('keys are per device: the same key on another device sends there', async () => {
	const other = await connectedDevice(server, 'keyed-other');
	const body = { number: CONTACT, text: 'per device' };
	const a = await api.post('/send/text', body, keyed('shared-1'));
	const b = await api.post('/send/text', body, keyed('shared-1', other.token));
	expect(b.headers.get('idempotent-replayed')).toBeNull();
	expect(sentWith('per device')).toEqual([a.body.data.id]);
	expect(sentWith('per device', 'keyed-other')).toEqual([b.body.data.id]);
});

test('queued (async) and delayed sends: a repeat while or after it waits sends nothing more', async () => {
	const queued = { number: CONTACT, text: 'keyed queued', async: true, delay: 300 };
	const [q1, q2] = await Promise.all([api.post('/send/text', queued, keyed('queued-1')), api.post('/send/text', queued, keyed('queued-1'))]);
	expect(q1.body.data.status).toBe('queued');
	expect(q2.body.data.id).toBe(q1.body.data.id);
	const delayed = { number: CONTACT, text: 'keyed delayed', delay: 200 };
	const [d1, d2] = await Promise.all([api.post('/send/text', delayed, keyed('delayed-1')), api.post('/send/text', delayed, keyed('delayed-1'))]);
	expect(d2.body.data.id).toBe(d1.body.data.id);
	await new Promise((resolve) => setTimeout(resolve, 600));
	expect(sentWith('keyed queued')).toEqual([q1.body.data.id]);
	expect(sentWith('keyed delayed')).toEqual([d1.body.data.id]);
	// The queued message went out once; its repeat answers it as it is now.
	const later = await api.post('/send/text', queued, keyed('queued-1'));
	expect(later.body.data).toMatchObject({ id: q1.body.data.id, status: expect.stringMatching(/^(sent|delivered)$/) });
});

test('other send routes take the key too (media, location, menu)', async () => {
	const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
	const sends: Array<[string, Record<string, unknown>]> = [
		['/send/media', { number: CONTACT, type: 'image', file: png, text: 'keyed media' }],
		['/send/location', { number: CONTACT, latitude: -23.5, longitude: -46.6, name: 'keyed location' }],
		['/send/menu', { number: CONTACT, type: 'button', text: 'keyed menu', choices: ['Yes|yes', 'No|no'] }],
	];
	for (const [path, body] of sends) {
		const first = await api.post(path, body, keyed(`route-${path}`));
		expect({ path, status: first.status }).toEqual({ path, status: 200 });
		const again = await api.post(path, body, keyed(`route-${path}`));
		expect({ path, replayed: again.headers.get('idempotent-replayed'), id: again.body.data.id }).toEqual({ path, replayed: 'true', id: first.body.data.id });
	}
	const row = storedDevice(server.services.store, 'keyed')!;
	const count = (type: string) => (server.services.store.db.prepare('SELECT count(*) AS n FROM messages WHERE device_id = ? AND from_me = 1 AND message_type = ?').get(row.id, type) as { n: number }).n;
	expect([count('image'), count('location')]).toEqual([1, 1]);
});

test('a repeat of a media send from a URL downloads nothing (media and status)', async () => {
	const files = await serveFiles({ '/photo.png': ['image/png', PNG] });
	try {
		const sends: Array<[string, Record<string, unknown>]> = [
			['/send/media', { number: CONTACT, type: 'image', file: `${files.url}/photo.png`, text: 'keyed download' }],
			['/send/status', { type: 'image', file: `${files.url}/photo.png`, text: 'keyed status download' }],
		];
		for (const [path, body] of sends) {
			const before = files.requested.length;
			const first = await api.post(path, body, keyed(`download-${path}`));
			expect({ path, status: first.status }).toEqual({ path, status: 200 });
			const again = await api.post(path, body, keyed(`download-${path}`));
			expect({ path, replayed: again.headers.get('idempotent-replayed'), id: again.body.data.id }).toEqual({ path, replayed: 'true', id: first.body.data.id });
			expect({ path, downloads: files.requested.length - before }).toEqual({ path, downloads: 1 });
		}
	} finally {
		await files.close();
	}
});

test('a bad key is a 400 naming the header and the rule; nothing sent', async () => {
	const empty = await api.post('/send/text', { number: CONTACT, text: 'bad key' }, keyed(''));
	expectError(empty, 400, 'idempotency-key header must not be empty');
	const long = await api.post('/send/text', { number: CONTACT, text: 'bad key' }, keyed('k'.repeat(256)));
	expectError(long, 400, 'idempotency-key header must be at most 255 characters');
	expect(sentWith('bad key')).toEqual([]);
});

test('a failed send keeps no key: the repeat is tried again', async () => {
	const body = { number: CONTACT, text: 'after failure', replyid: 'no-such-message' };
	const failed = await api.post('/send/text', body, keyed('fail-1'));
	expect(failed.status).toBe(400);
	expect((await api.post('/send/text', body, keyed('fail-1'))).status).toBe(400);
	expect(server.services.store.db.prepare("SELECT count(*) AS n FROM send_keys WHERE key = 'fail-1'").get()).toEqual({ n: 0 });
});

test('a key is kept a day: an expired one sends again, and expired keys are dropped', async () => {
	const body = { number: CONTACT, text: 'a day later' };
	const first = await api.post('/send/text', body, keyed('daily-1'));
	// A day passes (the key's time moved back).
	server.services.store.db.prepare("UPDATE send_keys SET created_at = created_at - ? WHERE key IN ('daily-1', 'order-1')").run(KEY_TTL_MS + 1);
	const next = await api.post('/send/text', body, keyed('daily-1'));
	expect(next.headers.get('idempotent-replayed')).toBeNull();
	expect(next.body.data.id).not.toBe(first.body.data.id);
	expect(sentWith('a day later')).toHaveLength(2);
	const keys = server.services.store.db.prepare("SELECT message_id FROM send_keys WHERE key = 'daily-1'").all();
	expect(keys).toEqual([{ message_id: next.body.data.id }]);
	// Another expired key went with that send.
	expect(server.services.store.db.prepare("SELECT count(*) AS n FROM send_keys WHERE key = 'order-1'").get()).toEqual({ n: 0 });
});

test('the OpenAPI document declares the header and the 422 on every send route', async () => {
	const doc = (await client(server.url, '').get('/openapi.json')).body;
	const sends = Object.entries(doc.paths as Record<string, { post?: { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> } }>).filter(([p]) =>
		p.startsWith('/wdm/v1/send/'),
	);
	expect(sends.length).toBeGreaterThanOrEqual(10);
	for (const [p, item] of sends) {
		expect({ p, header: item.post!.parameters!.some((x) => x.name === 'idempotency-key' && x.in === 'header'), status: '422' in item.post!.responses }).toEqual({ p, header: true, status: true });
	}
});

test('a key survives a restart of the server', async () => {
	const data = tempDataDir();
	let first = await startServer({ pairing: 'manual', data });
	const device = await connectedDevice(first, 'restart', ADMIN_KEY);
	const body = { number: CONTACT, text: 'across a restart' };
	const sent = await client(first.url).post('/send/text', body, keyed('restart-1', device.token));
	await first.close();
	first = await startServer({ pairing: 'manual', data });
	try {
		const again = await client(first.url).post('/send/text', body, keyed('restart-1', device.token));
		expect(again.status).toBe(200);
		expect(again.body.data.id).toBe(sent.body.data.id);
		expect(again.headers.get('idempotent-replayed')).toBe('true');
	} finally {
		await first.close();
	}
});
