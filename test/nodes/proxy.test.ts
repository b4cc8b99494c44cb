import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, startServer, storedDevice } from '../helpers/server';
import { instanceHarness, nodeRunner, runNode } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

/** WDM Proxy: Get, Set and Delete, run by n8n's engine against a live server. */

const DEFAULT = { enabled: false, status: 'default', proxy_url: null, protocol: null, host: null, port: null, username: null, updatedAt: null };

let server: App;
let harness: N8nTestHarness;

const proxy = nodeRunner('CUSTOM.wdmProxy', () => harness);
/** The proxy URL the server keeps for the device (password included). */
const stored = () => server.services.store.proxies.ofDevice(storedDevice(server.services.store, 'shop')!.id)?.url;

beforeAll(async () => {
	server = await startServer({ pairing: 'manual' });
	const created = await client(server.url).post('/devices', { name: 'shop' }, { key: ADMIN_KEY });
	harness = instanceHarness(server, created.body.data.token);
});
afterAll(() => server.close());

test('Get: a new device uses the default connection', async () => {
	const run = await proxy({ operation: 'get' });
	expect(run.error).toBeUndefined();
	expect(run.items.map((i) => i.json)).toEqual([DEFAULT]);
});

test('Set: the device connects through the proxy; the answer and Get mask the password', async () => {
	const run = await proxy({ operation: 'set', enable: true, proxyUrl: 'socks5://shop:hunter2@proxy.example.com:1080' });
	expect(run.error).toBeUndefined();
	const expected = {
		enabled: true,
		status: 'enabled',
		proxy_url: 'socks5://shop:********@proxy.example.com:1080',
		protocol: 'socks5',
		host: 'proxy.example.com',
		port: 1080,
		username: 'shop',
		updatedAt: expect.any(Number),
	};
	expect(run.items[0].json).toEqual(expected);
	expect(stored()).toBe('socks5://shop:hunter2@proxy.example.com:1080');
	const got = await proxy({ operation: 'get' });
	expect(got.items[0].json).toEqual(run.items[0].json);
	expect(JSON.stringify(got.items)).not.toContain('hunter2');
});

test('Set with Enable off removes the proxy', async () => {
	const run = await proxy({ operation: 'set', enable: false });
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toEqual(DEFAULT);
	expect(stored()).toBeUndefined();
});

test('Delete goes back to the default connection', async () => {
	await proxy({ operation: 'set', enable: true, proxyUrl: 'http://10.0.0.9:3128' });
	expect(stored()).toBe('http://10.0.0.9:3128');
	const run = await proxy({ operation: 'delete' });
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toEqual(DEFAULT);
	expect(stored()).toBeUndefined();
	expect((await proxy({ operation: 'get' })).items[0].json).toEqual(DEFAULT);
});

test('Set with a URL of another shape: NodeApiError with the gateway message, or an error item', async () => {
	const message =
		'proxy_url must have one of the shapes http://user:password@host:port, http://host:port, socks5://user:password@host:port, socks5://host:port';
	const run = await proxy({ operation: 'set', enable: true, proxyUrl: 'https://u:hunter2@proxy.example.com:443' });
	expect(run.items).toEqual([]);
	expect(run.error).toMatchObject({ name: 'NodeApiError', httpCode: '400', message });
	expect(stored()).toBeUndefined();

	const cont = await proxy({ operation: 'set', enable: true, proxyUrl: 'http://proxy.example.com:99999' }, { onError: 'continueRegularOutput' });
	expect(cont.error).toBeUndefined();
	expect(cont.items[0].json).toEqual({ error: 'proxy_url: the port must be between 1 and 65535 (got 99999)' });
	// An expression that comes out empty gets past the editor's check: the gateway says what is missing.
	const empty = await proxy({ operation: 'set', enable: true, proxyUrl: '={{ $json.url }}' }, { input: [{ json: { url: '' } }] });
	expect(empty.error).toMatchObject({ httpCode: '400', message: 'proxy_url is required when enable is true' });
});

test('a wrong instance token: 401 with the gateway message', async () => {
	const wrong = instanceHarness(server, 'not-a-token');
	for (const operation of ['get', 'delete']) {
		const run = await runNode(wrong, 'CUSTOM.wdmProxy', { operation });
		expect(run.error).toMatchObject({ name: 'NodeApiError', httpCode: '401', message: 'invalid instance token' });
	}
});
