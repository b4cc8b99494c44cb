// The example workflows of examples/, the way docs/usage.md tells a new user to get there: the package
// installed with the guide's command (`npm run install:n8n -- --user-folder DIR`, as n8n's
// community-package installer does: `<user folder>/.n8n/nodes/node_modules`, node types
// `n8n-nodes-wdm.*`), a fresh reference server with its default settings, the credentials the guide
// names created, each example file imported with n8n's CLI AS IT IS (its own workflow id, credentials
// bound by name), and run with `n8n execute`. (examples/bot.json, the webhook-triggered bot, is
// activated in a running n8n by send-and-wait.test.ts, imported the same way.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, connectedDevice, eventually, startServer, type Device } from '../helpers/server';
import { runCommand } from '../helpers/processes';
import { ensureN8n, n8nCli, nodeOutput, parseRun, type N8nRun } from './n8n';

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');

let server: App;
let dir: string;
let n8n: Awaited<ReturnType<typeof n8nCli>>;
let newsletter: Device;

beforeAll(async () => {
	await ensureN8n(); // ~8 min on a machine's first run, then nothing
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-examples-'));
	const userFolder = path.join(dir, 'user');
	// The guide's install command, into a fresh n8n user folder.
	const install = await runCommand(`npm run install:n8n -- --user-folder ${userFolder}`, ROOT, process.env, 10 * 60_000);
	expect(install.stdout).toContain(`Installed n8n-nodes-wdm 0.1.0 into ${path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-wdm')}`);
	// Nothing but the package: n8n-workflow is n8n's own (the peer is not installed).
	expect(fs.readdirSync(path.join(userFolder, '.n8n', 'nodes', 'node_modules'))).toEqual(['n8n-nodes-wdm']);
	const noCustomNodes = path.join(dir, 'no-custom-nodes'); // the package comes from the nodes folder only
	fs.mkdirSync(noCustomNodes, { recursive: true });
	n8n = await n8nCli(userFolder, noCustomNodes);

	server = await startServer();
	// The guide: the device the bulk send uses is created and paired first (its credential needs its token).
	newsletter = await connectedDevice(server, 'newsletter');
	const bot = await connectedDevice(server, 'bot-demo');
	const gateway = `${server.url}/wp-json/wdm/v1`;
	// The credentials the guide names, as a user creates them in n8n (which gives each an id of its own).
	await n8n.importCredentials([
		{ id: 'wdmExUserAccnt01', name: 'WDM User account', type: 'wdmUserApi', data: { baseUrl: gateway, apiKey: ADMIN_KEY } },
		// The token of the device the onboarding workflow creates, read from its Create a device node (docs/usage.md).
		{ id: 'wdmExOnbDevice01', name: 'WDM onboarding device', type: 'wdmInstanceApi', data: { baseUrl: gateway, token: "={{ $('Create a device').first().json.token }}" } },
		{ id: 'wdmExNewsDevic01', name: 'WDM newsletter device', type: 'wdmInstanceApi', data: { baseUrl: gateway, token: newsletter.token } },
		{ id: 'wdmExBotDevice01', name: 'WDM bot device', type: 'wdmInstanceApi', data: { baseUrl: gateway, token: bot.token } },
	]);
	for (const file of ['onboarding.json', 'bulk-send.json', 'bot.json']) await n8n.importWorkflowFile(path.join(EXAMPLES, file));
}, 20 * 60_000);

afterAll(async () => {
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs an imported workflow; the run, and what n8n logged while loading the package and running it.
 * n8n logs nothing about a package that loads cleanly (at info level): any line naming it is a warning.
 */
async function execute(workflowId: string): Promise<{ run: N8nRun; packageLog: string[] }> {
	const exit = await n8n.cli(['execute', `--id=${workflowId}`, '--rawOutput']);
	const run = parseRun(exit.stdout);
	if (exit.code !== 0 || !run) throw new Error(`n8n execute failed (exit ${exit.code})\n${exit.stdout.slice(-4000)}\n${exit.stderr.slice(-4000)}`);
	// The log: every line but the run's JSON (which names the package's node types).
	const lines = exit.stdout.split('\n');
	const start = lines.indexOf('{');
	const log = [...lines.slice(0, start), ...lines.slice(lines.indexOf('}', start) + 1), ...exit.stderr.split('\n')];
	return { run, packageLog: log.filter((line) => /n8n-nodes-wdm|wdm[A-Z]\w*/.test(line)) };
}

const idOf = (file: string) => (JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as { id: string }).id;

test('every example has a workflow id, versionId and "active": false, and names its credentials with "id": null (bound by name on import)', () => {
	for (const file of fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'))) {
		const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
		// n8n 2.0.0's import needs the versionId, n8n 1.x's the active flag (docs/usage.md, supported versions).
		expect([file, typeof workflow.id, typeof workflow.versionId, workflow.active]).toEqual([file, 'string', 'string', false]);
		const references = workflow.nodes.flatMap((node: { credentials?: object }) => Object.values(node.credentials ?? {}));
		expect(references.filter((ref: { id?: unknown; name?: unknown }) => ref.id !== null || typeof ref.name !== 'string')).toEqual([]);
		// No device of the README's walk-through (`shop`): the examples run beside it.
		expect(JSON.stringify(workflow)).not.toMatch(/"shop"|device `shop`/);
	}
});

test('examples/onboarding.json, as it is: create a device, pair it, check numbers, greet the ones on the network, label their chats', async () => {
	const { run, packageLog } = await execute(idOf('onboarding.json'));

	expect(packageLog).toEqual([]);
	expect(run.status).toBe('success');
	const [device] = nodeOutput(run, 'Create a device');
	expect(device).toMatchObject({ name: 'onboarding-demo', token: expect.any(String) });
	expect(nodeOutput(run, 'Get the status of a device')).toEqual([expect.objectContaining({ name: 'onboarding-demo', status: 'connected', connected: true })]);
	// The Set Up node's own numbers: both on the simulated network.
	const numbers = ['5511999990001', '5511999990002'];
	expect(nodeOutput(run, 'Check numbers on the network').map((check) => [check.query, check.isInWhatsapp])).toEqual(numbers.map((n) => [n, true]));
	const greetings = nodeOutput(run, 'Send Greeting');
	expect(greetings.map((g) => [g.chatid, g.status])).toEqual(numbers.map((n) => [`${n}@s.whatsapp.net`, 'sent']));
	expect(nodeOutput(run, 'Label Chat')).toEqual(numbers.map(() => expect.objectContaining({ labelids: ['1'] })));

	// The server: the greetings were sent from the new device, and their chats have the label.
	const api = client(server.url);
	const found = await api.post('/message/find', { track_source: 'onboarding' }, { token: device.token });
	expect(found.body.data.messages.map((m: { id: string }) => m.id).sort()).toEqual(greetings.map((g) => g.id).sort());
	const chats = await api.post('/chat/find', { wa_label: '1' }, { token: device.token });
	expect(chats.body.data.chats.map((chat: { wa_chatid: string }) => chat.wa_chatid).sort()).toEqual(numbers.map((n) => `${n}@s.whatsapp.net`));
}, 10 * 60_000);

test('examples/bulk-send.json, as it is, on a new device: the sample contacts are saved, and each gets the newsletter, queued and paced', async () => {
	const { run, packageLog } = await execute(idOf('bulk-send.json'));

	expect(packageLog).toEqual([]);
	expect(run.status).toBe('success');
	const contacts = [
		{ phone: '5511966660001', name: 'Ana' },
		{ phone: '5511966660002', name: 'Bia' },
		{ phone: '5511966660003', name: 'Caio' },
	];
	const sent = nodeOutput(run, 'Send Newsletter');
	const text = (name: string) => `Hi ${name}, this week's offers are in: https://example.com/offers`;
	// Queued: the gateway answered at once, one message per contact, in the contacts' order (by name).
	expect(sent.map((message) => [message.chatid, message.text, message.status])).toEqual(contacts.map((c) => [`${c.phone}@s.whatsapp.net`, text(c.name), 'queued']));
	// Then the gateway's queue sends them all, from the newsletter device, each findable by its track source and id.
	const api = client(server.url);
	const found = await eventually(async () => {
		const answer = await api.post('/message/find', { track_source: 'newsletter', limit: 10 }, { token: newsletter.token });
		const messages = answer.body.data.messages as Array<{ status: string; track_id: string }>;
		return messages.length === contacts.length && messages.every((m) => ['sent', 'delivered', 'read'].includes(m.status)) ? messages : undefined;
	});
	expect(found.map((message) => message.track_id).sort()).toEqual(contacts.map((c) => `${c.phone}@s.whatsapp.net`));
	// A second run saves no contact twice and sends to the same three.
	expect((await execute(idOf('bulk-send.json'))).run.status).toBe('success');
	expect((await api.get('/contacts', { token: newsletter.token })).body.data).toHaveLength(3);
}, 10 * 60_000);

test('examples/bot.json imports as it is, bound to the credentials of its names (activated by send-and-wait.test.ts)', async () => {
	const exported = await n8n.cli(['export:workflow', `--id=${idOf('bot.json')}`]);
	const workflow = JSON.parse(exported.stdout.slice(exported.stdout.indexOf('['))).find((w: { id: string }) => w.id === idOf('bot.json'));
	const bound = Object.fromEntries(
		workflow.nodes.flatMap((node: { name: string; credentials?: Record<string, { id: string; name: string }> }) =>
			Object.values(node.credentials ?? {}).map((credential) => [node.name, credential]),
		),
	);
	// By name, not the first credential of the type (three instance credentials were made before it).
	expect(bound).toEqual({
		'WDM Trigger': { id: 'wdmExUserAccnt01', name: 'WDM User account' },
		'Reply with Hours': { id: 'wdmExBotDevice01', name: 'WDM bot device' },
	});
}, 5 * 60_000);
