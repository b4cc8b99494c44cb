import { version as N8N_WORKFLOW_VERSION } from 'n8n-workflow/package.json';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, connectedDevice, startServer } from '../helpers/server';
import { harnessFor, runNode } from '../helpers/nodes';

/**
 * What n8n's credential test shows for a 401: the NodeApiError's message (n8n-workflow 2.x keeps no
 * `cause` with the HTTP response on it, so CredentialsTester falls back to the message). n8n 1.x (the
 * floor project, jest.config.js) keeps it and shows the status.
 */
const N8N_1 = N8N_WORKFLOW_VERSION.startsWith('1.');
const UNAUTHORIZED = N8N_1 ? 'Received HTTP status code: 401' : 'Authorization failed - please check your credentials';

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

	test('WDM User API: the right key passes the test, a wrong one fails with 401', async () => {
		expect(await harness.testCredentials('wdmUserApi', { baseUrl: baseUrl(), apiKey: ADMIN_KEY })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(await harness.testCredentials('wdmUserApi', { baseUrl: baseUrl(), apiKey: 'wrong-key-0123456789' })).toEqual({
			status: 'Error',
			message: UNAUTHORIZED,
		});
	});

	test('WDM Instance API: the right token passes the test, a wrong one fails with 401', async () => {
		expect(await harness.testCredentials('wdmInstanceApi', { baseUrl: baseUrl(), token: device.token })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(await harness.testCredentials('wdmInstanceApi', { baseUrl: baseUrl(), token: 'wrong-token' })).toEqual({
			status: 'Error',
			message: UNAUTHORIZED,
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
	const result = await harness.testCredentials('wdmUserApi', { baseUrl: `${server.url}/wp-json/nothing/v1`, apiKey: ADMIN_KEY });
	// n8n shows the message of the node error, which for a 404 is n8n's own sentence (1.x: the status).
	expect(result).toEqual({ status: 'Error', message: N8N_1 ? 'Received HTTP status code: 404' : 'The resource you are requesting could not be found' });
});
