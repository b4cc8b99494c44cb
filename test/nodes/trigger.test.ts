import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INode, IRun, IWebhookData, Workflow } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { hashSecret } from '../../server/src/security';
import { sign } from '../../server/src/webhooks/signing';
import { ADMIN_KEY, client, connectedDevice, eventually, startServer, type Device } from '../helpers/server';
import { userHarness } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

let server: App;
let receiver: http.Server;
let harness: N8nTestHarness;
let workflow: Workflow;
let webhooks: IWebhookData[] = [];
let device: Device;
const runs: IRun[] = [];
/** Texts of events whose first delivery "dies with its worker": webhook() ran, then no run and no answer. */
const dying = new Set<string>();
/** What webhook() answered, by webhook-id, in order. */
const answers = new Map<string, string[]>();
const refusals: Array<{ status: number; body: string }> = [];

const trigger: INode = {
	id: 'trigger',
	name: 'WDM Trigger',
	type: 'CUSTOM.wdmTrigger',
	typeVersion: 1,
	position: [0, 0],
	webhookId: '0f4c2a9e-1111-4aaa-8bbb-000000000001',
	parameters: { device: 'bot', events: ['messages'], excludeMessages: ['wasSentByApi'] },
	credentials: { wdmUserApi: { id: '1', name: 'WDM' } },
};

/** What n8n's webhook endpoint does: find the webhook by path, call webhook(), run the workflow. */
function webhookEndpoint(req: http.IncomingMessage, res: http.ServerResponse) {
	const chunks: Buffer[] = [];
	req.on('data', (c: Buffer) => chunks.push(c));
	req.on('end', async () => {
		const rawBody = Buffer.concat(chunks);
		const webhook = webhooks.find((w) => req.url === `/webhook/${w.path}`);
		if (!webhook) return res.writeHead(404).end();
		// The slice of Express's response API that webhook() uses.
		const response = {
			status(code: number) {
				res.statusCode = code;
				return response;
			},
			json(body: unknown) {
				refusals.push({ status: res.statusCode, body: JSON.stringify(body) });
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify(body));
			},
		};
		const request = { body: JSON.parse(rawBody.toString('utf8')) as IDataObject, rawBody, headers: req.headers as IDataObject, method: req.method };
		const result = await harness.runWebhook(workflow, webhook, request, response);
		if (result.noWebhookResponse) return;
		const id = String(req.headers['webhook-id']);
		answers.set(id, [...(answers.get(id) ?? []), result.workflowData ? 'run' : String(result.webhookResponse)]);
		const text = String(((request.body as IDataObject).data as IDataObject | undefined)?.text);
		if (result.workflowData && dying.delete(text)) return void req.socket.destroy();
		res.writeHead(200).end();
		if (result.workflowData) {
			const { run } = await harness.runWorkflow(workflow, { mode: 'webhook', startNode: webhook.node, startData: result.workflowData[0] });
			runs.push(run);
		}
	});
}

const api = () => client(server.url);
const subscriptions = async () => (await api().get('/devices/bot/webhook', { key: ADMIN_KEY })).body.data as IDataObject[];
const triggerOutput = (run: IRun) => run.data.resultData.runData['WDM Trigger'][0].data!.main[0]!.map((i) => i.json);

beforeAll(async () => {
	server = await startServer({ pairing: 'manual' });
	device = await connectedDevice(server, 'bot');
	receiver = http.createServer(webhookEndpoint);
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	harness = userHarness(server);
	harness.webhookBaseUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
	workflow = harness.createWorkflow([trigger], {});
});

afterAll(async () => {
	await server.close();
	receiver.closeAllConnections();
	await new Promise((resolve) => receiver.close(resolve));
});

test('activation registers its own subscription and leaves the others alone', async () => {
	await api().post('/devices/bot/webhook', { url: 'http://127.0.0.1:9/other', events: ['connection'] }, { key: ADMIN_KEY });
	webhooks = await harness.activate(workflow, trigger);
	const url = `${harness.webhookBaseUrl}/${webhooks[0].path}`;
	expect(await subscriptions()).toEqual(
		expect.arrayContaining([
			expect.objectContaining({ url: 'http://127.0.0.1:9/other', events: ['connection'] }),
			expect.objectContaining({ url, events: ['messages'], excludeMessages: ['wasSentByApi'], enabled: true }),
		]),
	);
	// Activating again finds the subscription: no second one, same secret.
	const secret = workflow.staticData['node:WDM Trigger'];
	await harness.activate(workflow, trigger);
	expect(await subscriptions()).toHaveLength(2);
	expect(workflow.staticData['node:WDM Trigger']).toEqual(secret);
});

test('an inbound message starts the workflow with the signed event', async () => {
	const inbound = await client(server.url, '/wp-json/sandbox/v1').post(
		'/devices/bot/inbound',
		{ from: '5511988887777', text: 'I want a pizza' },
		{ key: ADMIN_KEY },
	);
	const run = await eventually(() => runs.find((r) => triggerOutput(r)[0]?.data && (triggerOutput(r)[0].data as IDataObject).id === inbound.body.data.id));
	expect(run.status).toBe('success');
	const [event] = triggerOutput(run);
	expect(event).toMatchObject({ event: 'messages', device: 'bot', data: { text: 'I want a pizza', fromMe: false, sender: '5511988887777@s.whatsapp.net' } });
	expect(event.id).toMatch(/^evt_/);
});

test('messages the workflow itself sends through the API do not start it', async () => {
	const before = runs.length;
	const sent = await api().post('/send/text', { number: '5511988887777', text: 'one pizza coming' }, { token: device.token });
	expect(sent.status).toBe(200);
	// The server filters them out: nothing is even queued for this subscription.
	const mine = (await subscriptions()).find((s) => String(s.url).startsWith(harness.webhookBaseUrl))!;
	const queued = server.services.store.outbox.ofWebhook(String(mine.id)).map((row) => JSON.parse(row.body).data.id);
	expect(queued).not.toContain(sent.body.data.id);
	expect(runs.length).toBe(before);
});

test('a forged or stale signature is refused with 401 and starts nothing', async () => {
	const before = runs.length;
	const url = `${harness.webhookBaseUrl}/${webhooks[0].path}`;
	const body = JSON.stringify({ id: 'evt_forged', event: 'messages', device: 'bot', timestamp: Date.now(), data: { text: 'free pizza' } });
	const now = Math.floor(Date.now() / 1000);
	const forgedSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
	const realSecret = (workflow.staticData['node:WDM Trigger'] as IDataObject).secret as string;
	const signed = (secret: string, at: number) => ({
		'webhook-id': 'evt_forged',
		'webhook-timestamp': String(at),
		'webhook-signature': sign(secret, 'evt_forged', at, body),
	});
	// Wrong key; right key but an hour old (a replay); no signature at all.
	const attempts = [signed(forgedSecret, now), signed(realSecret, now - 3600), {}];
	for (const headers of attempts) {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
		expect(res.status).toBe(401);
	}
	expect(refusals.map((r) => JSON.parse(r.body).message)).toEqual([
		'Signature refused: signature does not match',
		'Signature refused: timestamp too old or in the future',
		'Signature refused: missing webhook-id, webhook-timestamp or webhook-signature header',
	]);
	expect(runs.length).toBe(before);
});

describe('an event delivered more than once runs once', () => {
	const url = () => `${harness.webhookBaseUrl}/${webhooks[0].path}`;
	const secret = () => (workflow.staticData['node:WDM Trigger'] as IDataObject).secret as string;
	const deliver = (id: string, at: number, body: string) =>
		fetch(url(), {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': sign(secret(), id, at, body) },
			body,
		});
	const runsOf = (id: string) => runs.filter((r) => triggerOutput(r)[0]?.id === id);
	const inbound = (text: string) =>
		client(server.url, '/wp-json/sandbox/v1').post('/devices/bot/inbound', { from: '5511988887777', text }, { key: ADMIN_KEY });
	const rowOf = (messageId: string) =>
		server.services.store.outbox
			.ofWebhook(String((workflow.staticData['node:WDM Trigger'] as IDataObject).subscriptionId))
			.find((row) => JSON.parse(row.body).data.id === messageId);

	test('the same webhook-id delivered again, at once and later (another attempt, another process): one run', async () => {
		const body = JSON.stringify({ id: 'evt_twice', event: 'messages', device: 'bot', timestamp: Date.now(), data: { text: 'twice' } });
		const now = Math.floor(Date.now() / 1000);
		const statuses = await Promise.all([deliver('evt_twice', now, body), deliver('evt_twice', now - 1, body)].map(async (r) => (await r).status));
		expect(statuses).toEqual([200, 200]);
		expect((await deliver('evt_twice', now + 1, body)).status).toBe(200);
		await eventually(() => runsOf('evt_twice').length === 1);
		expect([...answers.get('evt_twice')!].sort()).toEqual(['duplicate', 'duplicate', 'run']);
		expect(runsOf('evt_twice')).toHaveLength(1);
	});

	test('acknowledged when received: a delivery whose run died is not run again (the claim stands)', async () => {
		const sent = await inbound('dies, acknowledged when received');
		dying.add('dies, acknowledged when received');
		const row = await eventually(() => {
			const r = rowOf(sent.body.data.id);
			return r?.state === 'delivered' ? r : undefined;
		});
		expect(row.attempts).toBe(2);
		expect(answers.get(row.event_id)).toEqual(['run', 'duplicate']);
		expect(runsOf(row.event_id)).toHaveLength(0);
	});

	test('acknowledged when the workflow has finished: a delivery whose run died is delivered again and runs once', async () => {
		workflow.getNode('WDM Trigger')!.parameters.acknowledge = 'lastNode';
		try {
			const sent = await inbound('dies, acknowledged when finished');
			dying.add('dies, acknowledged when finished');
			const row = await eventually(() => {
				const r = rowOf(sent.body.data.id);
				return r?.state === 'delivered' ? r : undefined;
			});
			expect(row.attempts).toBe(2);
			expect(answers.get(row.event_id)).toEqual(['run', 'run']);
			await eventually(() => runsOf(row.event_id).length === 1);
		} finally {
			delete workflow.getNode('WDM Trigger')!.parameters.acknowledge;
		}
	});
});

test('claims read the user credential once, and again when the server refuses the key it read', async () => {
	// n8n 2.x creates an expression isolate for each credential read in a webhook (issue 42).
	const reads = jest.spyOn(harness.credentialsHelper, 'getDecrypted');
	const sandbox = client(server.url, '/wp-json/sandbox/v1');
	const ranFor = async (key: string, text: string) => {
		const sent = await sandbox.post('/devices/bot/inbound', { from: '5511988887777', text }, { key });
		await eventually(() => runs.find((r) => (triggerOutput(r)[0]?.data as IDataObject | undefined)?.id === sent.body.data.id));
	};
	const admin = server.services.store.users.byApiKey(ADMIN_KEY)!;
	try {
		await ranFor(ADMIN_KEY, 'read once, 1');
		await ranFor(ADMIN_KEY, 'read once, 2');
		expect(reads).not.toHaveBeenCalled(); // read at activation, kept since
		// The user's key changes (in the credential too): the one kept is refused, the credential read again.
		const newKey = server.services.store.users.newApiKey(admin.id);
		harness.credentialsHelper.setCredentials({ wdmUserApi: { baseUrl: `${server.url}/wp-json/wdm/v1`, apiKey: newKey } });
		await ranFor(newKey, 'read again');
		expect(reads).toHaveBeenCalledTimes(1);
	} finally {
		server.services.store.db.prepare('UPDATE users SET api_key_hash = ? WHERE id = ?').run(hashSecret(ADMIN_KEY), admin.id);
		harness.credentialsHelper.setCredentials({ wdmUserApi: { baseUrl: `${server.url}/wp-json/wdm/v1`, apiKey: ADMIN_KEY } });
		reads.mockRestore();
	}
});

test('deactivation removes only its own subscription', async () => {
	await harness.deactivate(workflow, trigger);
	expect((await subscriptions()).map((s) => s.url)).toEqual(['http://127.0.0.1:9/other']);
	expect(workflow.staticData['node:WDM Trigger']).toEqual({});
});
