import crypto from 'node:crypto';
import { ADMIN_KEY, startGateway, type Client, storedDevice } from '../helpers/server';
import type { App } from '../../server/src/app';

let server: App;
let api: Client;
const key = ADMIN_KEY;

beforeAll(async () => {
	({ server, api } = await startGateway());
});
afterAll(() => server.close());

let seq = 0;
/** A fresh (unpaired) device of the admin user: subscriptions need no connection. */
async function device(prefix = 'wh') {
	const name = `${prefix}-${++seq}`;
	const created = await api.post('/devices', { name }, { key });
	expect(created.status).toBe(201);
	return name;
}

const hook = (name: string) => `/devices/${name}/webhook`;
const secretOf = (name: string, url: string) => {
	const device = storedDevice(server.services.store, name)!;
	return server.services.store.webhooks.byUrl(device.id, url)?.secret;
};
const b64secret = (bytes: number) => `whsec_${crypto.randomBytes(bytes).toString('base64')}`;

describe('creating subscriptions', () => {
	test('a new subscription gets a generated Standard Webhooks secret, shown in that answer only', async () => {
		const name = await device();
		const res = await api.post(hook(name), { url: 'https://example.com/hook', events: ['messages', 'connection'] }, { key });
		expect(res.status).toBe(200);
		expect(res.body.success).toBe(true);
		const data = res.body.data;
		expect(data).toEqual({
			id: expect.stringMatching(/^wh_/),
			url: 'https://example.com/hook',
			events: ['messages', 'connection'],
			excludeMessages: [],
			enabled: true,
			createdAt: expect.any(Number),
			secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
		});
		const bytes = Buffer.from(data.secret.slice(6), 'base64').length;
		expect(bytes).toBeGreaterThanOrEqual(24);
		expect(bytes).toBeLessThanOrEqual(64);
		expect(secretOf(name, 'https://example.com/hook')).toBe(data.secret);

		const list = await api.get(hook(name), { key });
		expect(list.status).toBe(200);
		expect(list.body.data).toEqual([
			{ id: data.id, url: 'https://example.com/hook', events: ['messages', 'connection'], excludeMessages: [], enabled: true, createdAt: data.createdAt },
		]);
		expect(JSON.stringify(list.body)).not.toContain('whsec_');
	});

	test('defaults: all events, no exclusions, enabled; each new subscription has its own secret', async () => {
		const name = await device();
		const a = await api.post(hook(name), { url: 'http://127.0.0.1:9/a' }, { key });
		const b = await api.post(hook(name), { url: 'http://127.0.0.1:9/b' }, { key });
		expect(a.body.data).toMatchObject({ events: [], excludeMessages: [], enabled: true });
		expect(b.body.data.secret).toMatch(/^whsec_/);
		expect(b.body.data.secret).not.toBe(a.body.data.secret);
		expect(b.body.data.id).not.toBe(a.body.data.id);
	});

	test('a device holds several subscriptions; GET lists them all, never with secrets', async () => {
		const name = await device();
		const urls = ['https://test.example.com/webhook-test/x', 'https://prod.example.com/webhook/x', 'http://localhost:5678/webhook/y'];
		for (const url of urls) expect((await api.post(hook(name), { url }, { key })).status).toBe(200);
		await api.post(hook(name), { url: 'https://given.example.com/', secret: b64secret(32) }, { key });
		const list = await api.get(hook(name), { key });
		expect(list.body.data.map((w: { url: string }) => w.url)).toEqual([...urls, 'https://given.example.com/']);
		for (const w of list.body.data) expect(Object.keys(w).sort()).toEqual(['createdAt', 'enabled', 'events', 'excludeMessages', 'id', 'url']);
		expect(JSON.stringify(list.body)).not.toContain('whsec_');
	});

	test('subscriptions belong to their device', async () => {
		const one = await device();
		const two = await device();
		await api.post(hook(one), { url: 'https://example.com/one' }, { key });
		expect((await api.get(hook(two), { key })).body.data).toEqual([]);
		expect((await api.get(hook(one), { key })).body.data).toHaveLength(1);
	});

	test('a given secret is kept and not echoed back', async () => {
		const name = await device();
		for (const bytes of [24, 32, 64]) {
			const secret = b64secret(bytes);
			const url = `https://example.com/given-${bytes}`;
			const res = await api.post(hook(name), { url, secret }, { key });
			expect(res.status).toBe(200);
			expect(res.body.data.secret).toBeUndefined();
			expect(secretOf(name, url)).toBe(secret);
		}
	});

	test.each([
		['no prefix', crypto.randomBytes(32).toString('base64')],
		['wrong prefix', `whsk_${crypto.randomBytes(32).toString('base64')}`],
		['too short (23 bytes)', b64secret(23)],
		['too long (65 bytes)', b64secret(65)],
		['not Base64', 'whsec_not*base64!at/all=='],
		['empty after the prefix', 'whsec_'],
		['not a string', 12345],
	])('a bad secret (%s) is refused with 400 naming secret, and nothing is stored', async (_, secret) => {
		const name = await device();
		const res = await api.post(hook(name), { url: 'https://example.com/bad-secret', secret }, { key });
		expect(res.status).toBe(400);
		expect(res.body.success).toBe(false);
		expect(res.body.message).toMatch(/^secret /);
		expect((await api.get(hook(name), { key })).body.data).toEqual([]);
	});
});

describe('upsert by url', () => {
	test('a second POST with the same url updates that subscription and keeps its id and secret', async () => {
		const name = await device();
		const url = 'https://example.com/upsert';
		const first = await api.post(hook(name), { url, events: ['messages'] }, { key });
		const other = await api.post(hook(name), { url: 'https://example.com/other', events: ['presence'] }, { key });
		const second = await api.post(hook(name), { url, events: ['chats', 'presence'], excludeMessages: ['wasSentByApi'], enabled: false }, { key });
		expect(second.status).toBe(200);
		expect(second.body.data).toEqual({
			id: first.body.data.id,
			url,
			events: ['chats', 'presence'],
			excludeMessages: ['wasSentByApi'],
			enabled: false,
			createdAt: first.body.data.createdAt,
		});
		expect(secretOf(name, url)).toBe(first.body.data.secret);

		const list = (await api.get(hook(name), { key })).body.data;
		expect(list).toHaveLength(2);
		expect(list.find((w: { url: string }) => w.url === url)).toMatchObject({ enabled: false, events: ['chats', 'presence'] });
		expect(list.find((w: { id: string }) => w.id === other.body.data.id)).toMatchObject({ enabled: true, events: ['presence'] });

		// Enabling it again keeps the secret too.
		const third = await api.post(hook(name), { url, enabled: true }, { key });
		expect(third.body.data).toMatchObject({ id: first.body.data.id, enabled: true });
		expect(third.body.data.secret).toBeUndefined();
		expect(secretOf(name, url)).toBe(first.body.data.secret);
	});

	test('an update may replace the secret with a given one', async () => {
		const name = await device();
		const url = 'https://example.com/rotate';
		const first = await api.post(hook(name), { url }, { key });
		const secret = b64secret(48);
		const second = await api.post(hook(name), { url, secret }, { key });
		expect(second.body.data.id).toBe(first.body.data.id);
		expect(second.body.data.secret).toBeUndefined();
		expect(secretOf(name, url)).toBe(secret);
	});

	test('action "update" changes an existing subscription and refuses an unknown url', async () => {
		const name = await device();
		const url = 'https://example.com/upd';
		const first = await api.post(hook(name), { url }, { key });
		const upd = await api.post(hook(name), { action: 'update', url, events: ['connection'] }, { key });
		expect(upd.status).toBe(200);
		expect(upd.body.data).toMatchObject({ id: first.body.data.id, events: ['connection'] });
		const missing = await api.post(hook(name), { action: 'update', url: 'https://example.com/nope' }, { key });
		expect(missing.status).toBe(400);
		expect(missing.body.message).toMatch(/^url\b.*no webhook/);
		expect((await api.get(hook(name), { key })).body.data).toHaveLength(1);
	});
});

describe('deleting subscriptions', () => {
	async function three(name: string) {
		const ids: string[] = [];
		for (const path of ['a', 'b', 'c']) ids.push((await api.post(hook(name), { url: `https://example.com/${path}` }, { key })).body.data.id);
		return ids;
	}

	test('by url removes only that one', async () => {
		const name = await device();
		const [a, , c] = await three(name);
		const res = await api.post(hook(name), { action: 'delete', url: 'https://example.com/b' }, { key });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ url: 'https://example.com/b', deleted: true });
		expect((await api.get(hook(name), { key })).body.data.map((w: { id: string }) => w.id)).toEqual([a, c]);
	});

	test('by id removes only that one', async () => {
		const name = await device();
		const [a, b, c] = await three(name);
		const res = await api.post(hook(name), { action: 'delete', id: a }, { key });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({ id: a, url: 'https://example.com/a', deleted: true });
		expect((await api.get(hook(name), { key })).body.data.map((w: { id: string }) => w.id)).toEqual([b, c]);
	});

	test('a deleted url can be subscribed again, with a new id and a new secret', async () => {
		const name = await device();
		const first = await api.post(hook(name), { url: 'https://example.com/again' }, { key });
		await api.post(hook(name), { action: 'delete', url: 'https://example.com/again' }, { key });
		const second = await api.post(hook(name), { url: 'https://example.com/again' }, { key });
		expect(second.body.data.id).not.toBe(first.body.data.id);
		expect(second.body.data.secret).toMatch(/^whsec_/);
		expect(second.body.data.secret).not.toBe(first.body.data.secret);
	});

	test('an unknown url or id is 404 and removes nothing', async () => {
		const name = await device();
		const other = await device();
		await three(name);
		const foreign = (await api.post(hook(other), { url: 'https://example.com/foreign' }, { key })).body.data.id;
		for (const body of [
			{ action: 'delete', url: 'https://example.com/zzz' },
			{ action: 'delete', id: 'wh_doesnotexist' },
			// The id of another device's subscription is unknown on this device.
			{ action: 'delete', id: foreign },
		]) {
			const res = await api.post(hook(name), body, { key });
			expect(res.status).toBe(404);
			expect(res.body.success).toBe(false);
		}
		expect((await api.get(hook(name), { key })).body.data).toHaveLength(3);
		expect((await api.get(hook(other), { key })).body.data).toHaveLength(1);
	});

	test('delete needs a url or an id', async () => {
		const name = await device();
		await three(name);
		const res = await api.post(hook(name), { action: 'delete' }, { key });
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(/url/);
		expect((await api.get(hook(name), { key })).body.data).toHaveLength(3);
	});
});

describe('validation', () => {
	test.each([
		['url', {}, /^url is required/],
		['url', { url: 'not a url' }, /^url /],
		['url', { url: 'ftp://example.com/hook' }, /^url /],
		['url', { url: 'javascript:alert(1)' }, /^url /],
		['url', { url: 12 }, /^url /],
		['events', { url: 'https://example.com/h', events: 'messages' }, /^events /],
		['events', { url: 'https://example.com/h', events: ['messages', 'nope'] }, /^events\[1\] must be one of/],
		['excludeMessages', { url: 'https://example.com/h', excludeMessages: ['fromMe'] }, /^excludeMessages\[0\] must be one of/],
		['excludeMessages', { url: 'https://example.com/h', excludeMessages: 'wasSentByApi' }, /^excludeMessages /],
		['enabled', { url: 'https://example.com/h', enabled: 'yes' }, /^enabled /],
		['action', { url: 'https://example.com/h', action: 'remove' }, /^action must be one of/],
	])('a bad %s is 400 naming it (%j)', async (_, body, message) => {
		const name = await device();
		const res = await api.post(hook(name), body, { key });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ success: false, message: expect.stringMatching(message) });
		expect((await api.get(hook(name), { key })).body.data).toEqual([]);
	});

	test('a body that is not JSON is 400', async () => {
		const name = await device();
		const res = await api.call('POST', hook(name), undefined, { key, raw: '{"url":', headers: { 'content-type': 'application/json' } });
		expect(res.status).toBe(400);
		expect(res.body.success).toBe(false);
	});
});

describe('access', () => {
	test("another user's device is not found (404, names are per user) for GET and POST, and is left untouched", async () => {
		const name = await device();
		await api.post(hook(name), { url: 'https://example.com/mine' }, { key });
		const { apiKey } = server.services.store.users.create(`other-${seq}`);
		const get = await api.get(hook(name), { key: apiKey });
		expect(get.status).toBe(404);
		expect(get.body).toEqual({ success: false, message: `device '${name}' not found` });
		for (const body of [{ url: 'https://evil.example.com/' }, { action: 'delete', url: 'https://example.com/mine' }]) {
			const res = await api.post(hook(name), body, { key: apiKey });
			expect(res.status).toBe(404);
		}
		expect((await api.get(hook(name), { key })).body.data.map((w: { url: string }) => w.url)).toEqual(['https://example.com/mine']);
	});

	test('an unknown device is 404; no or a wrong API key is 401', async () => {
		expect((await api.get(hook('no-such-device'), { key })).status).toBe(404);
		expect((await api.post(hook('no-such-device'), { url: 'https://example.com/' }, { key })).status).toBe(404);
		const name = await device();
		expect((await api.get(hook(name))).status).toBe(401);
		expect((await api.post(hook(name), { url: 'https://example.com/' }, { key: 'wrong_key_0123456789' })).status).toBe(401);
		expect((await api.get(hook(name), { key })).body.data).toEqual([]);
	});

	test('the instance token does not authorize subscription routes', async () => {
		const name = `tok-${++seq}`;
		const token = (await api.post('/devices', { name }, { key })).body.data.token;
		expect((await api.get(hook(name), { token })).status).toBe(401);
	});

	test('deleting the device removes its subscriptions', async () => {
		const name = await device();
		const id = (await api.post(hook(name), { url: 'https://example.com/gone' }, { key })).body.data.id;
		expect((await api.delete(`/devices/${name}`, { key })).status).toBe(200);
		expect(server.services.store.webhooks.byId(id)).toBeUndefined();
	});
});
