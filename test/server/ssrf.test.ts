import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_KEY, SANDBOX, client, connectedDevice, eventually, startServer, type Client, type Device } from '../helpers/server';
import { sleep, startReceiver, type Receiver } from '../helpers/webhooks';
import type { App } from '../../server/src/app';
import { Outbound, OutboundError, dnsResolver, type Resolver } from '../../server/src/outbound/fetch';
import { isObviouslyPrivate, isPublicAddress, privateFetchPolicy } from '../../server/src/outbound/policy';

/**
 * Server-side request forgery: no URL a client gives (media, images, webhooks) may make the server
 * reach this machine or a private network unless `allowPrivateFetch` says so. Names are mapped by a
 * stub resolver: nothing here asks DNS, and no packet leaves loopback.
 */
const NAMES: Record<string, string[]> = {
	'evil.test': ['127.0.0.1'],
	'ten.test': ['10.0.0.1'],
	'metadata.test': ['169.254.169.254'],
	'mixed.test': ['93.184.216.34', '127.0.0.1'],
	'public.test': ['93.184.216.34'],
	localhost: ['127.0.0.1', '::1'],
};
const resolve: Resolver = async (host) => {
	const found = NAMES[host];
	if (!found) throw new Error(`ENOTFOUND ${host}`);
	return found;
};

/** Every spelling of "this machine or a private network" as the host of a URL to `port`. */
const privateHosts = (port: number) =>
	[
		'127.0.0.1',
		'localhost',
		'0.0.0.0',
		'2130706433',
		'0x7f000001',
		'127.1',
		'0177.0.0.1',
		'[::ffff:127.0.0.1]',
		'[::ffff:7f00:1]',
		'[::1]',
		'[::]',
		'10.0.0.1',
		'172.16.0.1',
		'192.168.1.1',
		'100.64.0.1',
		'169.254.169.254',
		'[fd00::1]',
		'[fe80::1]',
		'224.0.0.1',
		'255.255.255.255',
		'evil.test',
		'ten.test',
		'metadata.test',
		'mixed.test',
	].map((host) => `http://${host}:${port}/secret`);

/** A target on 127.0.0.1 that records every request it gets (none may arrive) and serves redirects. */
async function startTarget() {
	const hits: string[] = [];
	const server = http.createServer((req, res) => {
		hits.push(req.url ?? '/');
		const redirect = req.url?.match(/^\/redirect\?to=(.*)$/);
		if (redirect) return void res.writeHead(302, { location: decodeURIComponent(redirect[1]) }).end();
		if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
		res.writeHead(200, { 'content-type': 'text/plain' }).end('the secret');
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	const port = (server.address() as AddressInfo).port;
	return { hits, port, url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

let target: Awaited<ReturnType<typeof startTarget>>;
beforeAll(async () => {
	target = await startTarget();
});
afterAll(() => target.close());

const failure = (promise: Promise<unknown>) =>
	promise.then(
		() => 'fetched',
		(e) => (e instanceof OutboundError ? e.reason : `unexpected ${e}`),
	);

describe('address policy', () => {
	test.each([
		'127.0.0.1', '127.255.0.1', '0.0.0.0', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '100.64.0.1',
		'169.254.169.254', '224.0.0.1', '255.255.255.255', '240.0.0.1', '::1', '::', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
		'fd00::1', 'fc00::1', 'fe80::1', 'ff02::1', '64:ff9b::7f00:1', 'not an address',
	])('%s is not public', (address) => {
		expect(isPublicAddress(address)).toBe(false);
	});

	test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])('%s is public', (address) => {
		expect(isPublicAddress(address)).toBe(true);
	});

	test('URLs that need no DNS to tell: private literals and localhost', () => {
		for (const url of privateHosts(80).filter((u) => !u.includes('.test'))) expect([url, isObviouslyPrivate(url)]).toEqual([url, true]);
		expect(isObviouslyPrivate('http://api.localhost/x')).toBe(true);
		expect(isObviouslyPrivate('http://evil.test/x')).toBe(false);
		expect(isObviouslyPrivate('https://93.184.216.34/x')).toBe(false);
	});
});

describe('the guarded client', () => {
	const outbound = new Outbound({ allowPrivate: false, resolve });
	const get = (url: string) => outbound.fetch(url, { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 5 });

	test('every spelling of a private target is refused before connecting', async () => {
		for (const url of privateHosts(target.port)) expect([url, await failure(get(url))]).toEqual([url, 'private']);
		expect(target.hits).toEqual([]);
	});

	test('the default resolver is DNS (localhost resolves to loopback and is refused)', async () => {
		expect((await dnsResolver('localhost')).every((a) => !isPublicAddress(a))).toBe(true);
		expect(await failure(new Outbound({ allowPrivate: false }).fetch(`http://localhost:${target.port}/`, { timeoutMs: 2000, maxBytes: 1024 }))).toBe(
			'private',
		);
		expect(target.hits).toEqual([]);
	});

	test('with allowPrivate, the same targets are fetched', async () => {
		const open = new Outbound({ allowPrivate: true, resolve });
		const res = await open.fetch(`http://evil.test:${target.port}/x`, { timeoutMs: 2000, maxBytes: 1024 });
		expect({ status: res.status, body: res.body.toString() }).toEqual({ status: 200, body: 'the secret' });
		target.hits.length = 0;
	});

	describe('redirects', () => {
		// Loopback stands in for a public host here: the policy allows 127.0.0.1 and nothing else private.
		const guarded = new Outbound({ allowPrivate: false, resolve, isAllowed: (a) => a === '127.0.0.1' || isPublicAddress(a) });
		const via = (to: string) => `${target.url}/redirect?to=${encodeURIComponent(to)}`;
		afterEach(() => {
			target.hits.length = 0;
		});

		test('are followed when every hop is allowed', async () => {
			const res = await guarded.fetch(via('/hello'), { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 5 });
			expect({ status: res.status, body: res.body.toString() }).toEqual({ status: 200, body: 'the secret' });
			expect(target.hits).toEqual([`/redirect?to=${encodeURIComponent('/hello')}`, '/hello']);
		});

		test.each(['http://10.0.0.1/secret', 'http://169.254.169.254/latest/meta-data/', 'http://ten.test/secret', 'http://[::1]/secret', 'http://127.0.0.2/'])(
			'to %s: refused, the first hop was fetched, the second never',
			async (to) => {
				expect(await failure(guarded.fetch(via(to), { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 5 }))).toBe('private');
				expect(target.hits).toHaveLength(1);
			},
		);

		test('at most maxRedirects hops; past them the redirect itself is the answer', async () => {
			const res = await guarded.fetch(`${target.url}/loop`, { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 5 });
			expect(res.status).toBe(302);
			expect(target.hits).toHaveLength(6);
		});

		test('a non-http(s) location fails', async () => {
			expect(await failure(guarded.fetch(via('file:///etc/passwd'), { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 5 }))).toBe('failed');
		});
	});
});

describe('through the routes, with the server itself as target', () => {
	let server: App;
	let api: Client;
	let sandbox: Client;
	let dev: Device;
	let group: string;
	let port: number;
	const count = (table: string) => (server.services.store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

	beforeAll(async () => {
		server = await startServer({ pairing: 'manual', allowPrivateFetch: false }, { resolve });
		api = client(server.url);
		sandbox = client(server.url, SANDBOX);
		dev = await connectedDevice(server, 'ssrf');
		port = Number(new URL(server.url).port);
		const created = await api.post('/group/create', { name: 'SSRF', participants: ['5511900000001'] }, { token: dev.token });
		expect(created.status).toBe(200);
		group = created.body.data.id ?? created.body.data.jid;
	});
	afterAll(() => server.close());

	const routes: [string, (url: string) => Promise<{ status: number; body: any }>, string][] = [
		['send/media', (url) => api.post('/send/media', { number: '5511900000001', type: 'document', file: url }, { token: dev.token }), 'file'],
		['send/status', (url) => api.post('/send/status', { type: 'image', file: url }, { token: dev.token }), 'file'],
		['send/request-payment', (url) => api.post('/send/request-payment', { number: '5511900000001', amount: 10, fileUrl: url }, { token: dev.token }), 'fileUrl'],
		['group/updateImage', (url) => api.post('/group/updateImage', { groupjid: group, image: url }, { token: dev.token }), 'image'],
		['sandbox inbound', (url) => sandbox.post('/devices/ssrf/inbound', { from: '5511900000002', type: 'document', file: url }, { key: ADMIN_KEY }), 'file'],
	];

	test.each(routes)('%s refuses every private spelling with a 400 naming the field; nothing is stored', async (_route, send, field) => {
		const before = { messages: count('messages'), files: count('files') };
		for (const url of privateHosts(port)) {
			const res = await send(url);
			expect([url, res.status, res.body.message]).toEqual([url, 400, `${field}: refused: private address ${url}`]);
		}
		expect({ messages: count('messages'), files: count('files') }).toEqual(before);
	});

	test('a target that is down or answers an error is "could not fetch": never its state', async () => {
		// A closed port, and a server's own API answering 401 and 404.
		const open = await startServer({ pairing: 'manual' }, { resolve });
		try {
			const d = await connectedDevice(open, 'ssrf-open');
			const openApi = client(open.url);
			for (const url of ['http://127.0.0.1:1/x.pdf', `${open.url}/wp-json/wdm/v1/devices`, `${open.url}/nothing-here.pdf`]) {
				const res = await openApi.post('/send/media', { number: '5511900000001', type: 'document', file: url }, { token: d.token });
				expect([res.status, res.body.message]).toEqual([400, `file: could not fetch ${url}`]);
				expect(res.body.message).not.toMatch(/ECONNREFUSED|401|404|HTTP/);
			}
		} finally {
			await open.close();
		}
	});

	describe('webhooks', () => {
		let receiver: Receiver;
		beforeAll(async () => {
			receiver = await startReceiver();
		});
		afterAll(() => receiver.close());

		test('registering a private literal or localhost is a 400 that says how to allow it; nothing is stored', async () => {
			for (const url of privateHosts(port).filter((u) => !u.includes('.test'))) {
				const res = await api.post(`/devices/${dev.name}/webhook`, { url }, { key: ADMIN_KEY });
				expect([url, res.status, res.body.message]).toEqual([
					url,
					400,
					'url: refused: private address (private targets are refused by --allow-private-fetch=false)',
				]);
			}
			expect((await api.get(`/devices/${dev.name}/webhook`, { key: ADMIN_KEY })).body.data).toEqual([]);
		});

		test('a name that resolves to a private address is refused at delivery, recorded and retried, never sent', async () => {
			const url = `http://evil.test:${receiver.port}/hook`;
			const sub = await api.post(`/devices/${dev.name}/webhook`, { url, events: ['presence'] }, { key: ADMIN_KEY });
			expect(sub.status).toBe(200);
			await sandbox.post(`/devices/${dev.name}/presence`, { from: '5511900000002', presence: 'composing' }, { key: ADMIN_KEY });
			const rows = () => server.services.store.outbox.ofWebhook(sub.body.data.id);
			await eventually(() => rows()[0]?.attempts >= 2);
			expect(rows()[0]).toMatchObject({ state: 'pending', last_status: null, last_error: 'refused: private address' });
			await sleep(100);
			expect(receiver.hits).toEqual([]);
			await api.post(`/devices/${dev.name}/webhook`, { action: 'delete', url }, { key: ADMIN_KEY });
		});
	});
});

describe('private targets follow where the server listens (allowPrivateFetch unset)', () => {
	test('the policy: loopback only allows them, any other address refuses them, an explicit setting wins', () => {
		for (const host of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost']) expect([host, privateFetchPolicy(undefined, host).allowed]).toEqual([host, true]);
		for (const host of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.7', 'example.com']) expect([host, privateFetchPolicy(undefined, host).allowed]).toEqual([host, false]);
		expect(privateFetchPolicy(false, '127.0.0.1')).toEqual({ allowed: false, reason: 'refused by --allow-private-fetch=false' });
		expect(privateFetchPolicy(true, '0.0.0.0')).toEqual({ allowed: true, reason: 'allowed by --allow-private-fetch' });
	});

	test('on loopback, with no setting: media and webhooks reach this machine, and /readyz says why', async () => {
		const server = await startServer({ pairing: 'manual' });
		try {
			expect(server.services.config.allowPrivateFetch).toBeUndefined();
			const d = await connectedDevice(server, 'ssrf-allowed');
			const api = client(server.url);
			const res = await api.post('/send/media', { number: '5511900000001', type: 'document', file: `${target.url}/doc.txt` }, { token: d.token });
			expect(res.status).toBe(200);
			const hook = await api.post(`/devices/${d.name}/webhook`, { url: `http://localhost:${target.port}/hook` }, { key: ADMIN_KEY });
			expect(hook.status).toBe(200);
			const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { privateFetch: unknown };
			expect(ready.privateFetch).toEqual({ allowed: true, reason: 'allowed: the server listens on loopback only (127.0.0.1), so only this machine can call it' });
		} finally {
			await server.close();
			target.hits.length = 0;
		}
	});

	test('on every interface, with no setting: a loopback webhook and media are refused, saying why; --allow-private-fetch allows them', async () => {
		const open = await startServer({ pairing: 'manual', host: '0.0.0.0' });
		try {
			const d = await connectedDevice(open, 'ssrf-open');
			const api = client(open.url);
			const hook = await api.post(`/devices/${d.name}/webhook`, { url: `http://127.0.0.1:${target.port}/hook` }, { key: ADMIN_KEY });
			expect([hook.status, hook.body.message]).toEqual([
				400,
				'url: refused: private address (private targets are refused: the server listens on 0.0.0.0, reachable from other machines (--allow-private-fetch allows it))',
			]);
			const media = await api.post('/send/media', { number: '5511900000001', type: 'document', file: `${target.url}/doc.txt` }, { token: d.token });
			expect([media.status, media.body.message]).toEqual([400, `file: refused: private address ${target.url}/doc.txt`]);
			expect(target.hits).toEqual([]);
			expect(((await (await fetch(`${open.url}/readyz`)).json()) as { privateFetch: { allowed: boolean } }).privateFetch.allowed).toBe(false);
		} finally {
			await open.close();
		}
		const allowed = await startServer({ pairing: 'manual', host: '0.0.0.0', allowPrivateFetch: true });
		try {
			const d = await connectedDevice(allowed, 'ssrf-open-allowed');
			const hook = await client(allowed.url).post(`/devices/${d.name}/webhook`, { url: `http://127.0.0.1:${target.port}/hook` }, { key: ADMIN_KEY });
			expect(hook.status).toBe(200);
		} finally {
			await allowed.close();
		}
	});

	test('is read from the flag or the environment as true/false, and is unset by default', async () => {
		const { loadConfig } = await import('../../server/src/config');
		expect(loadConfig({}, {}).allowPrivateFetch).toBeUndefined();
		expect(loadConfig({ 'allow-private-fetch': 'true' }, {}).allowPrivateFetch).toBe(true);
		expect(loadConfig({ 'allow-private-fetch': 'false' }, {}).allowPrivateFetch).toBe(false);
		expect(loadConfig({}, { WDM_ALLOW_PRIVATE_FETCH: '1' }).allowPrivateFetch).toBe(true);
		expect(() => loadConfig({ 'allow-private-fetch': 'maybe' }, {})).toThrow('--allow-private-fetch (WDM_ALLOW_PRIVATE_FETCH) must be true or false');
	});
});
