// A real `n8n start` (n8n-server.ts) with the package installed as the guide says: the bot (WDM Trigger ->
// reply) under a burst of messages while a bulk send runs on the same n8n. Every message gets exactly
// one reply: deliveries are paced to n8n's speed and a redelivered event is claimed once (docs/decisions/webhooks.md,
// "Webhooks: exactly-once runs"); with n8n killed (kill -9) and started again during a burst, a second bot
// that acknowledges at the end of its runs still replies once to each. WDM_BURST=200 WDM_BULK=10000 for
// the full-size figures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, eventually, startServer } from '../helpers/server';
import { ensureN8n } from './n8n';
import { n8nWithPackage, type N8nServer } from './n8n-server';
import { BOT_WORKFLOW, BULK_WORKFLOW, botWorkflow, bulkDone, bulkWorkflow, burst, sentTexts, startBulk } from './burst';

const BURST = Number(process.env.WDM_BURST ?? 40);
const BULK = Number(process.env.WDM_BULK ?? 1000);

let server: App;
let dir: string;
let n8n: N8nServer;

const userKey = { id: 'wdmE2eBuUserKey1', name: 'WDM account' };
const botDevice = { id: 'wdmE2eBuBotDev01', name: 'WDM bot' };
const bulkDevice = { id: 'wdmE2eBuBulkDev1', name: 'WDM bulk' };
const lastNodeBotDevice = { id: 'wdmE2eBuBotDev02', name: 'WDM bot (finished)' };
const LAST_NODE_BOT = 'wdmE2eBurstBot02';

beforeAll(async () => {
	await ensureN8n();
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-burst-'));
	n8n = await n8nWithPackage(dir);
	// The server's defaults for delivery (attempt time limit, pacing), with short backoffs.
	server = await startServer({ pairing: 'manual', webhookTimeoutMs: 30_000, webhookBackoffMs: 1000, webhookMaxBackoffMs: 10_000, webhookMaxAttempts: 30 });
	const bot = await connectedDevice(server, 'burst-bot');
	const bulk = await connectedDevice(server, 'burst-bulk');
	const lastNodeBot = await connectedDevice(server, 'burst-bot-2');
	const baseUrl = `${server.url}/wp-json/wdm/v1`;
	await n8n.importCredentials([
		{ ...userKey, type: 'wdmUserApi', data: { baseUrl, apiKey: ADMIN_KEY } },
		{ ...botDevice, type: 'wdmInstanceApi', data: { baseUrl, token: bot.token } },
		{ ...bulkDevice, type: 'wdmInstanceApi', data: { baseUrl, token: bulk.token } },
		{ ...lastNodeBotDevice, type: 'wdmInstanceApi', data: { baseUrl, token: lastNodeBot.token } },
	]);
	await n8n.importWorkflow([
		botWorkflow('burst-bot', userKey, botDevice, 'onReceived'),
		botWorkflow('burst-bot-2', userKey, lastNodeBotDevice, 'lastNode', LAST_NODE_BOT),
		bulkWorkflow(BULK, bulkDevice),
	]);
	await n8n.publish(BOT_WORKFLOW);
	await n8n.publish(LAST_NODE_BOT);
	await n8n.publish(BULK_WORKFLOW);
	await n8n.start();
}, 20 * 60_000);

afterAll(async () => {
	await n8n?.stop();
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

test(`a burst of ${BURST} messages while a bulk send of ${BULK} runs: ${BURST} replies, one each; the bulk exact`, async () => {
	const started = Date.now();
	await startBulk(`${n8n.url}/webhook`);
	const result = await burst(server, 'burst-bot', '1', BURST, { timeoutMs: 10 * 60_000 });
	const bulk = await bulkDone(server, 'burst-bulk', BULK, 10 * 60_000);
	console.log(`regular mode: burst ${BURST} during bulk ${BULK}: ${result.replies} replies, bulk ${bulk.sent} sent, ${Math.round((Date.now() - started) / 1000)} s`);
	expect(result).toMatchObject({ missing: [], duplicated: [], replies: BURST });
	expect(bulk).toEqual({ sent: BULK, distinct: BULK });
	// One execution per message: the redeliveries started none.
	const runs = n8n.executions(BOT_WORKFLOW);
	expect(runs.filter((e) => e.status === 'success')).toHaveLength(BURST);
	expect(runs).toHaveLength(BURST);
}, 20 * 60_000);

test(`a burst of ${BURST} with n8n killed (kill -9) and started again while it runs some: one reply each`, async () => {
	const started = Date.now();
	let repliedBefore = 0;
	const result = await burst(server, 'burst-bot-2', '3', BURST, {
		timeoutMs: 10 * 60_000,
		during: async () => {
			// Killed once some replies went out, so that runs are under way (some past their reply).
			const replied = () => sentTexts(server, 'burst-bot-2').length;
			await eventually(() => replied() >= Math.ceil(BURST / 4), 5 * 60_000, 10);
			await n8n.stop('SIGKILL');
			repliedBefore = replied();
			await n8n.start();
		},
	});
	console.log(
		`regular mode: burst ${BURST} with n8n killed after ${repliedBefore} replies: ${result.replies} replies, ${result.redelivered} events delivered again, ${result.replayed} replies sent again and answered by their key, ${Math.round((Date.now() - started) / 1000)} s`,
	);
	// Nothing lost (the runs that died were delivered again), nothing twice (the reply's key).
	expect(result).toMatchObject({ missing: [], duplicated: [], replies: BURST });
	expect(result.redelivered).toBeGreaterThan(0);
}, 20 * 60_000);
