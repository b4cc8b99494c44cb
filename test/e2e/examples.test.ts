// The example workflows of examples/, as a user gets them: the packed tarball installed into n8n
// 2.40.7 the way its community-package installer does (`<user folder>/.n8n/nodes/node_modules`, node
// types `n8n-nodes-wdm.*`), the workflow file imported with the ids of credentials a user would have
// created under the names it uses, and run with `n8n execute` against the reference server.
// (examples/bot.json, the webhook-triggered bot, is activated by the n8n-server e2e.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, eventually, startServer } from '../helpers/server';
import { buildPackage, ensureN8n, n8nCli, nodeOutput, packPackage, parseRun, type N8nRun } from './n8n';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

let server: App;
let dir: string;
let tarball: string;

beforeAll(async () => {
	await ensureN8n(); // ~8 min on a machine's first run, then nothing
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-examples-'));
	tarball = await packPackage(path.join(dir, 'pack'));
	server = await startServer();
}, 20 * 60_000);

afterAll(async () => {
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Credential {
	name: string;
	type: string;
	data: object;
}

/** An n8n of its own with the package installed as n8n's installer does, and these credentials imported. */
async function n8nWith(user: string, credentials: Credential[]) {
	const userFolder = path.join(dir, user);
	await buildPackage(path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-wdm'), tarball);
	const noCustomNodes = path.join(dir, 'no-custom-nodes'); // the package comes from the nodes folder only
	fs.mkdirSync(noCustomNodes, { recursive: true });
	const n8n = await n8nCli(userFolder, noCustomNodes);
	const withIds = credentials.map((credential, i) => ({ id: `wdmEx${user}${i}`.slice(0, 16).padEnd(16, '0'), ...credential }));
	await n8n.importCredentials(withIds);
	return { n8n, ids: Object.fromEntries(withIds.map((credential) => [credential.name, credential.id])) };
}

/** An example file, with the ids of the user's credentials of the names its nodes use. */
function example(file: string, id: string, credentialIds: Record<string, string>) {
	const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
	for (const node of workflow.nodes) {
		for (const credential of Object.values<{ id?: string; name: string }>(node.credentials ?? {})) {
			credential.id = credentialIds[credential.name];
			if (!credential.id) throw new Error(`${file}: node "${node.name}" uses a credential "${credential.name}" the test did not create`);
		}
	}
	return { ...workflow, id, active: false };
}

/**
 * Runs an imported workflow; the run, and what n8n logged while loading the package and running it.
 * n8n logs nothing about a package that loads cleanly (at info level): any line naming it is a warning.
 */
async function execute(n8n: Awaited<ReturnType<typeof n8nWith>>['n8n'], workflowId: string): Promise<{ run: N8nRun; packageLog: string[] }> {
	const exit = await n8n.cli(['execute', `--id=${workflowId}`, '--rawOutput']);
	const run = parseRun(exit.stdout);
	if (exit.code !== 0 || !run) throw new Error(`n8n execute failed (exit ${exit.code})\n${exit.stdout.slice(-4000)}\n${exit.stderr.slice(-4000)}`);
	// The log: every line but the run's JSON (which names the package's node types).
	const lines = exit.stdout.split('\n');
	const start = lines.indexOf('{');
	const log = [...lines.slice(0, start), ...lines.slice(lines.indexOf('}', start) + 1), ...exit.stderr.split('\n')];
	return { run, packageLog: log.filter((line) => /n8n-nodes-wdm|wdm[A-Z]\w*/.test(line)) };
}

test('examples/onboarding.json: create a device, pair it, check numbers, greet the ones on the network, label their chats', async () => {
	const gateway = `${server.url}/wp-json/wdm/v1`;
	const { n8n, ids } = await n8nWith('onboard', [
		{ name: 'WDM account', type: 'wdmUserApi', data: { baseUrl: gateway, apiKey: ADMIN_KEY } },
		// The device is created by the workflow: its token comes from the Create Device node (docs/usage.md).
		{ name: 'WDM onboarding device', type: 'wdmInstanceApi', data: { baseUrl: gateway, token: "={{ $('Create Device').first().json.token }}" } },
	]);
	const workflow = example('onboarding.json', 'wdmExOnboarding1', ids);
	// The user's own values, in the Set Up node: a device name and numbers, one of them not on the network.
	const [onNetwork, absent] = ['5511977770001', '5511977770002'];
	expect((await client(server.url, '/wp-json/sandbox/v1').post('/numbers', { number: absent, onNetwork: false }, { key: ADMIN_KEY })).status).toBe(200);
	const setUp = workflow.nodes.find((node: { name: string }) => node.name === 'Set Up');
	const values = JSON.parse(setUp.parameters.jsonOutput);
	setUp.parameters.jsonOutput = JSON.stringify({ ...values, device: 'onboarded', numbers: [onNetwork, absent] });
	await n8n.importWorkflow(workflow);

	const { run, packageLog } = await execute(n8n, 'wdmExOnboarding1');

	expect(packageLog).toEqual([]);
	expect(run.status).toBe('success');
	const [device] = nodeOutput(run, 'Create Device');
	expect(device).toMatchObject({ name: 'onboarded', token: expect.any(String) });
	expect(nodeOutput(run, 'Get Status')).toEqual([expect.objectContaining({ name: 'onboarded', status: 'connected', connected: true })]);
	expect(nodeOutput(run, 'Check Numbers').map((check) => [check.query, check.isInWhatsapp])).toEqual([
		[onNetwork, true],
		[absent, false],
	]);
	const [greeting] = nodeOutput(run, 'Send Greeting');
	expect(nodeOutput(run, 'Send Greeting')).toHaveLength(1);
	expect(greeting).toMatchObject({ chatid: `${onNetwork}@s.whatsapp.net`, text: values.greeting, status: 'sent' });
	expect(nodeOutput(run, 'Label Chat')).toEqual([expect.objectContaining({ labelids: ['1'] })]);

	// The server: the greeting was sent from the new device, and its chat has the label.
	const api = client(server.url);
	const found = await api.post('/message/find', { id: greeting.id }, { token: device.token });
	expect(found.body.data.messages).toEqual([expect.objectContaining({ id: greeting.id, text: values.greeting, fromMe: true })]);
	const chats = await api.post('/chat/find', { wa_label: '1' }, { token: device.token });
	expect(chats.body.data.chats.map((chat: { wa_chatid: string }) => chat.wa_chatid)).toEqual([`${onNetwork}@s.whatsapp.net`]);
}, 10 * 60_000);

test('examples/bulk-send.json: the contacts saved on the device each get the newsletter, queued and paced', async () => {
	// A paired device: asking for its QR code starts the pairing, which the simulated phone completes by itself.
	const api = client(server.url);
	const shop = (await api.post('/devices', { name: 'newsletter' }, { key: ADMIN_KEY })).body.data as { token: string };
	await api.get('/devices/newsletter/qr', { key: ADMIN_KEY });
	await eventually(async () => (await api.get('/devices/newsletter/status', { key: ADMIN_KEY })).body.data.connected);
	const contacts = [
		{ phone: '5511966660001', name: 'Ana' },
		{ phone: '5511966660002', name: 'Bia' },
		{ phone: '5511966660003', name: 'Caio' },
	];
	for (const contact of contacts) expect((await api.post('/contact/add', contact, { token: shop.token })).status).toBe(200);
	const { n8n, ids } = await n8nWith('bulk', [
		{ name: 'WDM shop', type: 'wdmInstanceApi', data: { baseUrl: `${server.url}/wp-json/wdm/v1`, token: shop.token } },
	]);
	await n8n.importWorkflow(example('bulk-send.json', 'wdmExBulkSend001', ids));

	const { run, packageLog } = await execute(n8n, 'wdmExBulkSend001');

	expect(packageLog).toEqual([]);
	expect(run.status).toBe('success');
	const sent = nodeOutput(run, 'Send Newsletter');
	const newsletter = (name: string) => `Hi ${name}, this week's offers are in: https://example.com/offers`;
	// Queued: the gateway answered at once, one message per contact, in the contacts' order (by name).
	expect(sent.map((message) => [message.chatid, message.text, message.status])).toEqual(
		contacts.map((contact) => [`${contact.phone}@s.whatsapp.net`, newsletter(contact.name), 'queued']),
	);
	// Then the gateway's queue sends them all (the simulated phones then confirm delivery), each findable by its track source and id.
	const found = await eventually(async () => {
		const answer = await api.post('/message/find', { track_source: 'newsletter', limit: 10 }, { token: shop.token });
		const messages = answer.body.data.messages as Array<{ status: string; text: string; track_id: string }>;
		return messages.length === contacts.length && messages.every((message) => ['sent', 'delivered', 'read'].includes(message.status)) ? messages : undefined;
	});
	expect(found.map((message) => message.track_id).sort()).toEqual(contacts.map((contact) => `${contact.phone}@s.whatsapp.net`));
}, 10 * 60_000);
