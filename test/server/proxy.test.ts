import { ADMIN_KEY, client, startGateway, startServer, tempDataDir, type Client, storedDevice } from '../helpers/server';
import type { App } from '../../server/src/app';

/** GET, POST and DELETE /proxy: per-device proxy settings, the password never shown, kept across restarts. */

const DEFAULT = { enabled: false, status: 'default', proxy_url: null, protocol: null, host: null, port: null, username: null, updatedAt: null };
const SHAPES = 'http://user:password@host:port, http://host:port, socks5://user:password@host:port, socks5://host:port';
const PASSWORD = 's3cr:et!pa55';

let server: App;
let api: Client;
let token: string;
let otherToken: string;

/** A device (proxies need no connection), by the token its creation answers. */
async function device(app: App, name: string) {
	const created = await client(app.url).post('/devices', { name }, { key: ADMIN_KEY });
	expect(created.status).toBe(201);
	return created.body.data.token as string;
}

beforeAll(async () => {
	({ server, api } = await startGateway());
	token = await device(server, 'shop');
	otherToken = await device(server, 'other');
});
afterAll(() => server.close());

const getProxy = (t = token) => api.get('/proxy', { token: t });
const setProxy = (body: unknown, t = token) => api.post('/proxy', body, { token: t });
const stored = (name = 'shop') => server.services.store.proxies.ofDevice(storedDevice(server.services.store, name)!.id);

test('a device starts on the default connection', async () => {
	expect(await getProxy()).toMatchObject({ status: 200, body: { success: true, data: DEFAULT } });
});

test('each of the four URL shapes is accepted; the answer and GET mask the password', async () => {
	const cases: [string, Record<string, unknown>][] = [
		[`http://buyer:${PASSWORD}@proxy.example.com:3128`, { proxy_url: 'http://buyer:********@proxy.example.com:3128', protocol: 'http', host: 'proxy.example.com', port: 3128, username: 'buyer' }],
		['http://10.0.0.5:8080', { proxy_url: 'http://10.0.0.5:8080', protocol: 'http', host: '10.0.0.5', port: 8080, username: null }],
		[`socks5://me:${PASSWORD}@[2001:db8::1]:1080`, { proxy_url: 'socks5://me:********@[2001:db8::1]:1080', protocol: 'socks5', host: '[2001:db8::1]', port: 1080, username: 'me' }],
		['SOCKS5://Gate.Example.com:65535', { proxy_url: 'socks5://gate.example.com:65535', protocol: 'socks5', host: 'gate.example.com', port: 65535, username: null }],
	];
	for (const [url, view] of cases) {
		const before = Date.now();
		const set = await setProxy({ enable: true, proxy_url: url });
		expect(set.status).toBe(200);
		expect(set.body.data).toEqual({ enabled: true, status: 'enabled', ...view, updatedAt: expect.any(Number) });
		expect(set.body.data.updatedAt).toBeGreaterThanOrEqual(before);
		const got = await getProxy();
		expect(got.body.data).toEqual(set.body.data);
		// Not even the raw answers carry the password.
		expect(JSON.stringify(set.body) + JSON.stringify(got.body)).not.toContain('s3cr');
	}
	// The store keeps what the connection needs, password included.
	expect(stored()!.url).toBe('socks5://gate.example.com:65535');
	await setProxy({ enable: true, proxy_url: `http://buyer:${PASSWORD}@proxy.example.com:3128` });
	expect(stored()!.url).toBe(`http://buyer:${PASSWORD}@proxy.example.com:3128`);
});

test('enable false removes the configured proxy, whatever proxy_url says', async () => {
	await setProxy({ enable: true, proxy_url: 'http://proxy.example.com:3128' });
	const off = await setProxy({ enable: false, proxy_url: 'not a url at all' });
	expect(off).toMatchObject({ status: 200, body: { data: DEFAULT } });
	expect((await getProxy()).body.data).toEqual(DEFAULT);
	expect(stored()).toBeUndefined();
	expect((await setProxy({ enable: false })).body.data).toEqual(DEFAULT);
});

test('DELETE goes back to the default; deleting when none is set is fine', async () => {
	await setProxy({ enable: true, proxy_url: 'socks5://proxy.example.com:1080' });
	expect((await getProxy()).body.data.enabled).toBe(true);
	expect(await api.delete('/proxy', { token })).toMatchObject({ status: 200, body: { success: true, data: DEFAULT } });
	expect((await getProxy()).body.data).toEqual(DEFAULT);
	expect(await api.delete('/proxy', { token })).toMatchObject({ status: 200, body: { data: DEFAULT } });
});

test('bad requests are a 400 naming the field; the URL (and its password) is never echoed', async () => {
	const shapes = `proxy_url must have one of the shapes ${SHAPES}`;
	const cases: [unknown, string][] = [
		[{}, 'enable is required'],
		[{ proxy_url: 'http://proxy.example.com:3128' }, 'enable is required'],
		[{ enable: 'yes', proxy_url: 'http://proxy.example.com:3128' }, 'enable must be a boolean (got string "yes")'],
		[{ enable: true }, 'proxy_url is required when enable is true'],
		[{ enable: true, proxy_url: '  ' }, 'proxy_url is required when enable is true'],
		[{ enable: true, proxy_url: 3128 }, 'proxy_url must be a string (got number 3128)'],
		[{ enable: true, proxy_url: `https://u:${PASSWORD}@proxy.example.com:443` }, shapes],
		[{ enable: true, proxy_url: 'socks4://proxy.example.com:1080' }, shapes],
		[{ enable: true, proxy_url: 'http://proxy.example.com' }, shapes],
		[{ enable: true, proxy_url: 'proxy.example.com:3128' }, shapes],
		[{ enable: true, proxy_url: 'http://proxy.example.com:3128/path' }, shapes],
		[{ enable: true, proxy_url: `http://user@proxy.example.com:3128` }, shapes],
		[{ enable: true, proxy_url: `http://:${PASSWORD}@proxy.example.com:3128` }, shapes],
		[{ enable: true, proxy_url: 'http://proxy..example.com:3128' }, shapes],
		[{ enable: true, proxy_url: 'http://999.1.1.1:3128' }, shapes],
		[{ enable: true, proxy_url: 'http://[1:::2::]:3128' }, shapes],
		[{ enable: true, proxy_url: 'http://proxy.example.com:0' }, 'proxy_url: the port must be between 1 and 65535 (got 0)'],
		[{ enable: true, proxy_url: `socks5://u:${PASSWORD}@proxy.example.com:65536` }, 'proxy_url: the port must be between 1 and 65535 (got 65536)'],
		[{ enable: true, proxy_url: 'http://proxy.example.com:3128', ssl: true }, 'body has unknown field(s): ssl'],
		[{ enable: true, proxy_url: `http://a.b:1${'0'.repeat(3000)}` }, 'proxy_url must be at most 2048 characters long'],
	];
	for (const [body, message] of cases) {
		const res = await setProxy(body);
		expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
		expect(res.body.message).not.toContain('s3cr');
	}
	expect(stored()).toBeUndefined();
});

test("each device has its own proxy: another device's token neither sees nor changes it", async () => {
	await setProxy({ enable: true, proxy_url: 'http://shop-proxy.example.com:3128' });
	expect((await getProxy(otherToken)).body.data).toEqual(DEFAULT);
	await setProxy({ enable: true, proxy_url: 'socks5://other-proxy.example.com:1080' }, otherToken);
	expect((await api.delete('/proxy', { token: otherToken })).status).toBe(200);
	expect((await getProxy()).body.data.host).toBe('shop-proxy.example.com');
	expect(stored('other')).toBeUndefined();
});

test('401 without a token or with a wrong one, on every route', async () => {
	for (const auth of [{}, { token: 'wrong' }]) {
		expect((await api.get('/proxy', auth)).status).toBe(401);
		expect((await api.post('/proxy', { enable: false }, auth)).status).toBe(401);
		expect((await api.delete('/proxy', auth)).status).toBe(401);
	}
	expect((await getProxy()).body.data.host).toBe('shop-proxy.example.com');
});

test('deleting the device deletes its proxy', async () => {
	const id = storedDevice(server.services.store, 'shop')!.id;
	expect(server.services.store.proxies.ofDevice(id)).toBeDefined();
	expect((await api.delete('/devices/shop', { key: ADMIN_KEY })).status).toBe(200);
	expect(server.services.store.proxies.ofDevice(id)).toBeUndefined();
});

test('the proxy survives a restart', async () => {
	const data = tempDataDir();
	const first = await startServer({ data, pairing: 'manual' });
	const kept = await device(first, 'kept');
	const set = await client(first.url).post('/proxy', { enable: true, proxy_url: `socks5://me:${PASSWORD}@proxy.example.com:1080` }, { token: kept });
	await first.close();
	const second = await startServer({ data, pairing: 'manual' });
	const got = await client(second.url).get('/proxy', { token: kept });
	const stillThere = second.services.store.proxies.ofDevice(storedDevice(second.services.store, 'kept')!.id);
	await second.close();
	expect(got.body.data).toEqual(set.body.data);
	expect(stillThere!.url).toBe(`socks5://me:${PASSWORD}@proxy.example.com:1080`);
});
