// Real n8n, end to end: n8n 2.40.7 (installed once per machine by install-n8n.sh) loads the built
// package as custom nodes and runs a workflow with `n8n execute` against the reference server,
// which runs in this process over real HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, connectedDevice, startServer } from '../helpers/server';
import { buildPackage, ensureN8n, n8nCli, nodeOutput } from './n8n';

let server: App;
let dir: string;

beforeAll(async () => {
	await ensureN8n(); // ~8 min on a machine's first run, then nothing
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-n8n-'));
	await buildPackage(path.join(dir, 'custom', 'n8n-nodes-wdm'));
	server = await startServer();
}, 20 * 60_000);

afterAll(async () => {
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const node = (name: string, type: string, parameters: object, credentials?: object) => ({
	id: name.replace(/\W/g, ''),
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...(credentials ? { credentials } : {}),
});
const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });

test('Manual Trigger -> WDM Device: Get Status -> WDM Message: Send Text', async () => {
	const device = await connectedDevice(server, 'shop');
	const baseUrl = `${server.url}/wp-json/wdm/v1`;
	const userKey = { id: 'wdmE2eUserKey001', name: 'WDM admin' };
	const instance = { id: 'wdmE2eInstance01', name: 'WDM shop' };

	const n8n = await n8nCli(path.join(dir, 'user'), path.join(dir, 'custom'));
	await n8n.importCredentials([
		{ ...userKey, type: 'wdmUserApi', data: { baseUrl, apiKey: ADMIN_KEY } },
		{ ...instance, type: 'wdmInstanceApi', data: { baseUrl, token: device.token } },
	]);
	await n8n.importWorkflow({
		id: 'wdmE2eWorkflow01',
		name: 'WDM e2e',
		active: false,
		settings: {},
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			node('WDM Device', 'CUSTOM.wdmDevice', { operation: 'getStatus', device: 'shop' }, { wdmUserApi: userKey }),
			node(
				'WDM Message',
				'CUSTOM.wdmMessage',
				{ operation: 'sendText', number: '5511999990001', text: '=status is {{ $json.status }}' },
				{ wdmInstanceApi: instance },
			),
		],
		connections: { 'Manual Trigger': link('WDM Device'), 'WDM Device': link('WDM Message') },
	});
	const run = await n8n.execute('wdmE2eWorkflow01');

	expect(run.status).toBe('success');
	expect(nodeOutput(run, 'WDM Device')).toEqual([expect.objectContaining({ name: 'shop', status: 'connected', connected: true })]);
	const [sent] = nodeOutput(run, 'WDM Message');
	expect(sent).toMatchObject({ text: 'status is connected', status: 'sent', fromMe: true, chatid: '5511999990001@s.whatsapp.net' });

	// The server has the message, sent from the device the token belongs to.
	const found = await client(server.url).post('/message/find', { id: sent.id }, { token: device.token });
	expect(found.body.data.messages).toEqual([expect.objectContaining({ id: sent.id, text: 'status is connected' })]);
}, 10 * 60_000);
