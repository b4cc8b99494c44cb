import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, connectedDevice, startServer } from '../helpers/server';
import { harnessFor, runNode } from '../helpers/nodes';

/**
 * What the credential dialog shows when the gateway refuses a key or token: the gateway's reason
 * (issue 39, point 5), not n8n's "Unauthorized" (the reason phrase of the 401, which n8n shows when
 * the credential has no rule for the status).
 */
const WRONG_KEY = 'Invalid API key: the gateway knows no user with this key';
const WRONG_TOKEN = 'Invalid instance token: the gateway knows no device with this token';

let server: App;
let device: Awaited<ReturnType<typeof connectedDevice>>;
let harness: ReturnType<typeof harnessFor>;

/** The two addresses of the gateway: pretty permalinks and the plain `rest_route` query. */
const styles = () => [
	['wp-json', `${server.url}/wp-json/wdm/v1`],
	['index.php?rest_route=', `${server.url}/index.php?rest_route=/wdm/v1`],
];

beforeAll(async () => {
	server = await startServer({ pairing: 'manual' });
	device = await connectedDevice(server, 'creds');
	harness = harnessFor({});
});
afterAll(() => server.close());

describe.each(['wp-json', 'index.php?rest_route='])('base URL with %s', (style) => {
	const baseUrl = () => styles().find(([name]) => name === style)![1];

	test('WDM User API: the right key passes the test, a wrong one fails with the gateway\'s reason', async () => {
		expect(await harness.testCredentials('wdmUserApi', { baseUrl: baseUrl(), apiKey: ADMIN_KEY })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(await harness.testCredentials('wdmUserApi', { baseUrl: baseUrl(), apiKey: 'wrong-key-0123456789' })).toEqual({
			status: 'Error',
			message: WRONG_KEY,
		});
	});

	test('WDM Instance API: the right token passes the test, a wrong one fails with the gateway\'s reason', async () => {
		expect(await harness.testCredentials('wdmInstanceApi', { baseUrl: baseUrl(), token: device.token })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(await harness.testCredentials('wdmInstanceApi', { baseUrl: baseUrl(), token: 'wrong-token' })).toEqual({
			status: 'Error',
			message: WRONG_TOKEN,
		});
	});

	test('a trailing slash on the base URL is fine', async () => {
		expect((await harness.testCredentials('wdmUserApi', { baseUrl: `${baseUrl()}/`, apiKey: ADMIN_KEY })).status).toBe('OK');
		expect((await harness.testCredentials('wdmInstanceApi', { baseUrl: `${baseUrl()}/`, token: device.token })).status).toBe('OK');
	});

	test('the nodes run with this base URL: Device Get Many, Get Status and Message Send Text', async () => {
		const nodes = harnessFor({
			wdmUserApi: { baseUrl: baseUrl(), apiKey: ADMIN_KEY },
			wdmInstanceApi: { baseUrl: baseUrl(), token: device.token },
		});
		const listed = await runNode(nodes, 'CUSTOM.wdmDevice', { operation: 'getAll' });
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((i) => [i.json.name, i.json.token])).toEqual([['creds', device.token]]);

		// A path parameter after the query-string base URL.
		const status = await runNode(nodes, 'CUSTOM.wdmDevice', { operation: 'getStatus', device: 'creds' });
		expect(status.error).toBeUndefined();
		expect(status.items[0].json).toMatchObject({ name: 'creds', status: 'connected', phone: device.phone });

		const text = `sent through ${style}`;
		const sent = await runNode(nodes, 'CUSTOM.wdmMessage', { operation: 'sendText', number: '5511955550001', text });
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({ text, chatid: '5511955550001@s.whatsapp.net', status: 'sent' });
		const found = await client(server.url).post('/message/find', { id: sent.items[0].json.id }, { token: device.token });
		expect(found.body.data.messages).toEqual([expect.objectContaining({ id: sent.items[0].json.id, text })]);

		// A paged POST with a body through the same address.
		const many = await runNode(nodes, 'CUSTOM.wdmMessage', { operation: 'find', returnAll: true, filters: { id: sent.items[0].json.id as string } });
		expect(many.error).toBeUndefined();
		expect(many.items.map((i) => i.json.text)).toEqual([text]);
	});

	test('a node error through this base URL still carries the gateway\'s message', async () => {
		const nodes = harnessFor({ wdmUserApi: { baseUrl: baseUrl(), apiKey: ADMIN_KEY } });
		const missing = await runNode(nodes, 'CUSTOM.wdmDevice', { operation: 'getStatus', device: 'absent' });
		expect(missing.error).toMatchObject({ httpCode: '404', message: "device 'absent' not found" });
	});
});

test('a base URL where no gateway answers: the test fails with the reason', async () => {
	const message = 'No WDM gateway at this Base URL: it ends in wdm/v1, as https://SITE/wp-json/wdm/v1 or https://SITE/index.php?rest_route=/wdm/v1';
	for (const type of ['wdmUserApi', 'wdmInstanceApi']) {
		expect(await harness.testCredentials(type, { baseUrl: `${server.url}/wp-json/nothing/v1`, apiKey: ADMIN_KEY, token: device.token })).toEqual({ status: 'Error', message });
	}
});
