import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { configSchema, type ConfigInput } from '../../server/src/config';
import { startApp, type App, type AppOptions } from '../../server/src/app';
import type { Store } from '../../server/src/store';
import type { DeviceRow } from '../../server/src/store/types';
import { checkAnswer } from './contract';
import { startReceiver, type Receiver } from './webhooks';

export const ADMIN_KEY = 'test_admin_key_0123456789';
/** The site application password of `admin` in test servers (WordPress's form: six groups of four). */
export const ADMIN_APP_PASSWORD = 'test AAAA BBBB CCCC DDDD EEEE';

/** `Authorization` header value for the site's Basic scheme (user + application password). */
export const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * A reference server on a random port, with fast simulator timings unless a test asks otherwise. It listens
 * on loopback, so by default it may fetch from this machine (suites serve files and receive webhooks on
 * 127.0.0.1); SSRF tests turn that off.
 */
export async function startServer(overrides: Partial<ConfigInput> = {}, options: AppOptions = {}): Promise<App> {
	const config = configSchema.parse({
		port: 0,
		data: ':memory:',
		logLevel: 'silent',
		adminKey: ADMIN_KEY,
		adminAppPassword: ADMIN_APP_PASSWORD,
		pairDelayMs: 20,
		receiptDelayMs: 20,
		webhookBackoffMs: 50,
		webhookMaxBackoffMs: 200,
		webhookTimeoutMs: 2000,
		...overrides,
	});
	return startApp(config, { checkAnswer, ...options });
}

/** The stored row of the device named `name` (tests give their devices names no other user of the server has). */
export function storedDevice(store: Store, name: string): DeviceRow | undefined {
	return store.db.prepare('SELECT * FROM devices WHERE name = ?').get(name) as DeviceRow | undefined;
}

const dataDirs: string[] = [];
// Removed once the test file is done (an open store on Linux does not mind its folder going).
afterAll(() => {
	for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh data directory for tests that restart the server on the same store. */
export function tempDataDir(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-test-'));
	dataDirs.push(dir);
	return dir;
}

export interface Reply<T = any> {
	status: number;
	body: T;
	headers: Headers;
}

/** A fetch answer as a `Reply`: the body parsed when it is JSON, else the text. */
export async function readReply<T = any>(res: Response): Promise<Reply<T>> {
	const text = await res.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		/* not JSON: keep the text */
	}
	return { status: res.status, body: body as T, headers: res.headers };
}

/** Real HTTP against the server: `api.post('/send/text', body, { token })`. */
export function client(baseUrl: string, prefix = '/wp-json/wdm/v1') {
	async function call<T = any>(
		method: string,
		route: string,
		body?: unknown,
		auth: { key?: string; token?: string; headers?: Record<string, string>; raw?: string } = {},
	): Promise<Reply<T>> {
		const headers: Record<string, string> = { ...auth.headers };
		if (auth.key) headers.authorization = `Bearer ${auth.key}`;
		if (auth.token) headers.token = auth.token;
		let payload: string | undefined = auth.raw;
		if (body !== undefined) payload = JSON.stringify(body);
		if (payload !== undefined) headers['content-type'] ??= 'application/json';
		return readReply<T>(await fetch(`${baseUrl}${prefix}${route}`, { method, headers, body: payload }));
	}
	return {
		get: <T = any>(route: string, auth?: Parameters<typeof call>[3]) => call<T>('GET', route, undefined, auth),
		post: <T = any>(route: string, body?: unknown, auth?: Parameters<typeof call>[3]) => call<T>('POST', route, body, auth),
		delete: <T = any>(route: string, auth?: Parameters<typeof call>[3]) => call<T>('DELETE', route, undefined, auth),
		call,
	};
}

export type Client = ReturnType<typeof client>;

/** Where the sandbox routes (the simulated network, admin key only) live. */
export const SANDBOX = '/wp-json/sandbox/v1';

/** A server for the gateway suites (manual pairing unless told), with its `api` and `sandbox` clients. */
export async function startGateway(overrides: Partial<ConfigInput> = {}, options: AppOptions = {}) {
	const server = await startServer({ pairing: 'manual', ...overrides }, options);
	return { server, api: client(server.url), sandbox: client(server.url, SANDBOX) };
}

/**
 * A suite's gateway (manual pairing) and a webhook receiver, started before its tests and closed after;
 * `device(name)` pairs a device subscribed to the receiver at `/<name>`, so its events can be read back.
 */
export function gatewaySuite(overrides: Partial<ConfigInput> = {}) {
	const suite = {} as Awaited<ReturnType<typeof startGateway>> & { receiver: Receiver; device: (name: string) => Promise<SubscribedDevice> };
	beforeAll(async () => {
		Object.assign(suite, await startGateway(overrides), { receiver: await startReceiver() });
	});
	afterAll(async () => {
		await suite.server?.close();
		await suite.receiver?.close();
	});
	suite.device = (name) => subscribedDevice(suite.server, name, `${suite.receiver.url}/${name}`);
	return suite;
}

/** The gateway's error envelope: the HTTP status, `success: false` and the message (exact, or matching). */
export function expectError(res: { status: number; body: any }, status: number, message: string | RegExp) {
	expect({ status: res.status, success: res.body.success }).toEqual({ status, success: false });
	if (typeof message === 'string') expect(res.body.message).toBe(message);
	else expect(res.body.message).toMatch(message);
}

/** A WordPress error: the HTTP status, and exactly `{ code, message, data: { status } }` as the body. */
export function expectWpError(res: { status: number; body: any }, status: number, code: string, message: string) {
	expect({ status: res.status, body: res.body }).toEqual({ status, body: { code, message, data: { status } } });
}

/**
 * The `Link` header without the API root's link every REST answer starts with (rest-server.test.ts
 * checks that one): the route's own links (pagination, alternate), or null.
 */
export function routeLinks(headers: Headers): string | null {
	const links = (headers.get('link') ?? '').split(', ').filter((link) => link && !link.endsWith('rel="https://api.w.org/"'));
	return links.length ? links.join(', ') : null;
}

/** Polls until `check` returns a truthy value (or throws after `ms`). */
export async function eventually<T>(check: () => T | Promise<T>, ms = 5000, every = 20): Promise<NonNullable<T>> {
	const until = Date.now() + ms;
	let last: unknown;
	for (;;) {
		try {
			const value = await check();
			if (value) return value as NonNullable<T>;
		} catch (error) {
			last = error;
		}
		if (Date.now() > until) throw last instanceof Error ? last : new Error('condition not met in time');
		await new Promise((r) => setTimeout(r, every));
	}
}

/** Creates a device and pairs it through the sandbox; returns its name, token and phone. */
export async function connectedDevice(server: App, name: string, key = ADMIN_KEY, phone?: string) {
	const created = await client(server.url).post('/devices', { name }, { key });
	if (created.status !== 201) throw new Error(`create device: ${JSON.stringify(created.body)}`);
	return { name, token: created.body.data.token as string, ...(await pairedDevice(server, name, key, phone)) };
}

/** Pairs the device `name` (a QR, scanned by the simulated phone): its number and JID. */
export async function pairedDevice(server: App, name: string, key = ADMIN_KEY, phone?: string) {
	const api = client(server.url);
	const sandbox = client(server.url, SANDBOX);
	await api.get(`/devices/${name}/qr`, { key });
	const paired = await sandbox.post(`/devices/${name}/pair`, phone ? { phone } : {}, { key });
	// With automatic pairing (20 ms in tests) the simulated phone may have scanned the QR first, on a
	// loaded machine: a device that asked for no number is then connected all the same.
	const connected = paired.status === 200 ? paired.body.data : !phone && (await api.get(`/devices/${name}/status`, { key })).body.data;
	if (!connected?.connected && paired.status !== 200) throw new Error(`pair device: ${JSON.stringify(paired.body)}`);
	return { phone: connected.phone as string, jid: connected.jid as string };
}

export type Device = Awaited<ReturnType<typeof connectedDevice>>;

/** The one message `/message/find` gives for `id`, as the device with `token` sees it. */
export async function findMessage(api: Client, token: string, id: string) {
	const res = await api.post('/message/find', { id }, { token });
	expect(res.status).toBe(200);
	expect(res.body.data.total).toBe(1);
	return res.body.data.messages[0];
}

/**
 * A paired device subscribed to a webhook at `url`; `events(kind)` gives the `data` of the events of
 * that kind written for it so far (its outbox rows, in order), whether or not they were delivered.
 */
export async function subscribedDevice(server: App, name: string, url: string) {
	const d = await connectedDevice(server, name);
	const sub = await client(server.url).post(`/devices/${name}/webhook`, { url }, { key: ADMIN_KEY });
	expect(sub.status).toBe(200);
	const events = (kind: string): any[] =>
		server.services.store.outbox
			.ofWebhook(sub.body.data.id)
			.map((row) => JSON.parse(row.body))
			.filter((body) => body.event === kind)
			.map((body) => body.data);
	return { ...d, events };
}

export type SubscribedDevice = Awaited<ReturnType<typeof subscribedDevice>>;
