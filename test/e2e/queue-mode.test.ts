// n8n in queue mode (n8n-queue.ts): main + 2 workers + a webhook processor, on Debian's Redis and the npm
// package's PostgreSQL 17 started by the suite (queue-services.ts), the package installed in every
// process's user folder as docs/usage.md says. No process warns about the PostgreSQL version; a bulk send
// (exact), the bot under a burst (one reply each), the same with a worker killed (kill -9), Send and Wait
// answered and timed out (no subscription left).
// WDM_QUEUE_BURST=200 WDM_QUEUE_BULK=10000 for the full-size figures.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, connectedDevice, eventually, startServer } from '../helpers/server';
import { buildPackage, ensureN8n } from './n8n';
import { n8nQueue } from './n8n-queue';
import { startPostgres, startRedis } from './queue-services';
import { BOT_WORKFLOW, BULK_WORKFLOW, botWorkflow, bulkDone, bulkWorkflow, burst, sentTexts, startBulk } from './burst';
import { link, node } from './workflows';

const BURST = Number(process.env.WDM_QUEUE_BURST ?? 30);
const BULK = Number(process.env.WDM_QUEUE_BULK ?? 1000);
const ASK_WORKFLOW = 'wdmE2eQueueAsk01';

let server: App;
let root: string;
let postgres: Awaited<ReturnType<typeof startPostgres>>;
let redis: Awaited<ReturnType<typeof startRedis>>;
let n8n: Awaited<ReturnType<typeof n8nQueue>>;

const userKey = { id: 'wdmE2eQuUserKey1', name: 'WDM account' };
const botDevice = { id: 'wdmE2eQuBotDev01', name: 'WDM bot' };
const bulkDevice = { id: 'wdmE2eQuBulkDev1', name: 'WDM bulk' };
const askDevice = { id: 'wdmE2eQuAskDev01', name: 'WDM ask' };

/** Webhook trigger -> Send and Wait (Device as the editor saves it) -> a follow-up saying what came back. */
const askWorkflow = {
	id: ASK_WORKFLOW,
	name: 'WDM queue send and wait',
	active: false,
	settings: {},
	nodes: [
		{ ...node('Ask', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: 'wdm-queue-ask', responseMode: 'onReceived', options: {} }), typeVersion: 2, webhookId: crypto.randomUUID() },
		node(
			'Wait',
			'n8n-nodes-wdm.wdmSendAndWait',
			{ device: { __rl: true, mode: 'list', value: 'queue-ask', cachedResultName: 'queue-ask' }, number: '={{ $json.body.number }}', message: 'Deliver today?', answerKind: 'text', waitAmount: '={{ $json.body.seconds }}', waitUnit: 'seconds' },
			{ wdmUserApi: userKey },
		),
		node('Follow Up', 'n8n-nodes-wdm.wdmMessage', { operation: 'sendText', number: '={{ $json.chatid }}', text: '=got: {{ $json.text }} | timedOut: {{ $json.timedOut }}', options: {} }, { wdmInstanceApi: askDevice }),
	],
	connections: { Ask: link('Wait'), Wait: link('Follow Up') },
};

beforeAll(async () => {
	await ensureN8n();
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-queue-'));
	[postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
	// The package in every process's user folder, as the guide says (built once, installed four times).
	const built = path.join(root, 'package');
	await buildPackage(built);
	n8n = await n8nQueue(root, { ...postgres.env, ...redis.env });
	for (const name of ['main', 'webhook', 'worker-1', 'worker-2']) {
		fs.cpSync(built, path.join(n8n.folderOf(name), '.n8n', 'nodes', 'node_modules', 'n8n-nodes-wdm'), { recursive: true });
	}
	// The server's defaults for delivery (30 s attempts, pacing), with short backoffs.
	server = await startServer({ pairing: 'manual', webhookTimeoutMs: 30_000, webhookBackoffMs: 1000, webhookMaxBackoffMs: 10_000, webhookMaxAttempts: 30 });
	const [bot, bulk, ask] = [await connectedDevice(server, 'queue-bot'), await connectedDevice(server, 'queue-bulk'), await connectedDevice(server, 'queue-ask')];
	const baseUrl = `${server.url}/wp-json/wdm/v1`;
	const credentials = [
		{ ...userKey, type: 'wdmUserApi', data: { baseUrl, apiKey: ADMIN_KEY } },
		{ ...botDevice, type: 'wdmInstanceApi', data: { baseUrl, token: bot.token } },
		{ ...bulkDevice, type: 'wdmInstanceApi', data: { baseUrl, token: bulk.token } },
		{ ...askDevice, type: 'wdmInstanceApi', data: { baseUrl, token: ask.token } },
	];
	const file = (name: string, data: unknown) => {
		const at = path.join(root, name);
		fs.writeFileSync(at, JSON.stringify(data));
		return at;
	};
	await n8n.cli(['import:credentials', `--input=${file('credentials.json', credentials)}`]);
	// The bot acknowledges when its run has finished: a killed worker's events come again.
	const workflows = [botWorkflow('queue-bot', userKey, botDevice, 'lastNode'), bulkWorkflow(BULK, bulkDevice), askWorkflow];
	await n8n.cli(['import:workflow', `--input=${file('workflows.json', workflows)}`]);
	for (const id of [BOT_WORKFLOW, BULK_WORKFLOW, ASK_WORKFLOW]) await n8n.cli(['publish:workflow', `--id=${id}`]);
	await n8n.start('main', 'start');
	await Promise.all([n8n.start('webhook', 'webhook'), n8n.start('worker-1', 'worker'), n8n.start('worker-2', 'worker')]);
}, 25 * 60_000);

afterAll(async () => {
	// WDM_QUEUE_LOGS=<folder>: what each n8n process printed, for a look afterwards.
	const logs = process.env.WDM_QUEUE_LOGS;
	if (logs && n8n) for (const [name, proc] of n8n.processes) fs.writeFileSync(path.join(logs, `n8n-${name}.log`), proc.log);
	await n8n?.stopAll();
	await server?.close();
	await Promise.all([postgres?.stop(), redis?.stop()]);
	if (root) fs.rmSync(root, { recursive: true, force: true });
}, 2 * 60_000);

const executions = async (workflowId: string) =>
	(await postgres.query(`SELECT status FROM execution_entity WHERE "workflowId" = '${workflowId}' ORDER BY id`)).map((row) => row.status);

test('PostgreSQL 17, which n8n supports: no process logs that its version is not supported', async () => {
	expect((await postgres.query('SHOW server_version'))[0].server_version).toMatch(/^17\./);
	// n8n 2.40.7 checks it at every start and warns below 17 ("Postgres 15 is not supported", "16 is outside
	// the supported range"), or that it could not check.
	const warning = /Postgres \d+ is (not supported|outside the supported range)|Could not check database version/;
	const warned = [...n8n.processes.values()].filter((proc) => warning.test(proc.log)).map((proc) => proc.name);
	expect(warned).toEqual([]);
});

test('main registered the trigger at WEBHOOK_URL (the webhook processor)', async () => {
	const hooks = (await client(server.url).get('/devices/queue-bot/webhook', { key: ADMIN_KEY })).body.data;
	expect(hooks).toEqual([expect.objectContaining({ url: expect.stringMatching(new RegExp(`^${n8n.webhookUrl}/webhook/`)), enabled: true })]);
});

test(`a burst of ${BURST} messages while a bulk send of ${BULK} runs on the workers: one reply each, the bulk exact`, async () => {
	const started = Date.now();
	await startBulk(`${n8n.webhookUrl}/webhook`);
	const result = await burst(server, 'queue-bot', '1', BURST, { timeoutMs: 10 * 60_000 });
	const bulk = await bulkDone(server, 'queue-bulk', BULK, 10 * 60_000);
	console.log(`queue mode: burst ${BURST} during bulk ${BULK}: ${result.replies} replies, bulk ${bulk.sent} sent, ${Math.round((Date.now() - started) / 1000)} s`);
	expect(result).toMatchObject({ missing: [], duplicated: [], replies: BURST });
	expect(bulk).toEqual({ sent: BULK, distinct: BULK });
	expect(await executions(BULK_WORKFLOW)).toEqual(['success']);
}, 25 * 60_000);

test(`a burst of ${BURST} with a worker killed (kill -9) while it runs some: one reply each`, async () => {
	const started = Date.now();
	const workers = () => ['worker-1', 'worker-2'].map((name) => n8n.processes.get(name)!);
	let killed: { name: string; running: number } | undefined;
	const result = await burst(server, 'queue-bot', '2', BURST, {
		timeoutMs: 10 * 60_000,
		during: async () => {
			// The worker with the most runs under way, as soon as one has some (a small burst is over in seconds).
			const busiest = await eventually(() => workers().sort((a, b) => b.running.size - a.running.size).find((w) => w.running.size >= 1), 60_000, 10);
			killed = { name: busiest.name, running: busiest.running.size };
			n8n.kill(busiest.name);
		},
	});
	console.log(
		`queue mode: burst ${BURST} with ${killed?.name} killed while it ran ${killed?.running}: ${result.replies} replies, ${result.redelivered} events delivered again, ${result.replayed} replies sent again and answered by their key, ${Math.round((Date.now() - started) / 1000)} s`,
	);
	// Nothing lost: the killed worker's runs were delivered again and ran on the other worker; nothing
	// twice: a run the worker had taken past its reply sends nothing more when it runs again (the key).
	expect(result).toMatchObject({ missing: [], duplicated: [], replies: BURST });
	expect(result.redelivered).toBeGreaterThan(0);
	await n8n.start(killed!.name, 'worker');
}, 25 * 60_000);

describe('Send and Wait', () => {
	const api = () => client(server.url);
	const subscriptions = async () => (await api().get('/devices/queue-ask/webhook', { key: ADMIN_KEY })).body.data as Array<{ chatid?: string }>;
	const jid = (number: string) => `${number}@s.whatsapp.net`;
	/** The follow-ups the workflow sent (`got: ...`), in order. */
	const followUps = () => sentTexts(server, 'queue-ask').filter((t) => t.startsWith('got: '));

	async function ask(number: string, seconds: number) {
		const res = await fetch(`${n8n.webhookUrl}/webhook/wdm-queue-ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ number, seconds }) });
		expect(res.status).toBe(200);
		await eventually(async () => (await subscriptions()).some((s) => s.chatid === jid(number)), 2 * 60_000, 500);
	}

	test('answered twice: the workflow goes on once with the first answer; no subscription left', async () => {
		const number = '5511977001001';
		await ask(number, 600);
		const sandbox = client(server.url, '/wp-json/sandbox/v1');
		await Promise.all(['first', 'second'].map((text) => sandbox.post('/devices/queue-ask/inbound', { from: number, text }, { key: ADMIN_KEY })));
		await eventually(() => followUps().length, 3 * 60_000, 500);
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const got = followUps();
		expect(got).toHaveLength(1);
		expect(got[0]).toMatch(/^got: (first|second) \| timedOut: false$/);
		expect((await subscriptions()).filter((s) => s.chatid === jid(number))).toEqual([]);
	}, 5 * 60_000);

	test('timed out: the workflow goes on with the timed-out item; no subscription left', async () => {
		const number = '5511977001002';
		const before = followUps().length;
		await ask(number, 5);
		// n8n looks for due waiting executions once a minute.
		await eventually(() => followUps().length > before, 3 * 60_000, 1000);
		expect(followUps().slice(before)).toEqual(['got:  | timedOut: true']);
		expect((await subscriptions()).filter((s) => s.chatid === jid(number))).toEqual([]);
		expect((await executions(ASK_WORKFLOW)).filter((s) => s !== 'success')).toEqual([]);
	}, 5 * 60_000);
});
