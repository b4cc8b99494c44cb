// A real `n8n start` (n8n-server.ts) with the package installed as n8n's installer does: the WDM bot
// (WDM Trigger -> WDM Message Send Text) beside the same bot built from n8n's Webhook and HTTP Request
// nodes, at a small size (issue 42; bench/n8n-bot.ts measures it at full size). Every message is
// answered once; one at a time, ours costs n8n no expression isolate beyond the one n8n's webhook
// handler takes for every trigger but its own Webhook node, and its latency is loosely the baseline's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, connectedDevice, startServer } from '../helpers/server';
import { ensureN8n } from './n8n';
import { n8nWithPackage, type N8nServer } from './n8n-server';
import {
	installBots,
	quantile,
	runPhase,
	webhookCosts,
	type Bot,
	type Phase,
	type Target,
} from './bot-speed';

/**
 * Ours / baseline at p50, one message at a time: loose. The benchmark's target is 1.3; at n8n's default
 * settings ours measures 2.4-2.9 on this shared 2-core machine (n8n's extra isolate, created while the
 * run waits: docs/benchmarks.md), and was 3.7-7.3 when the trigger read its credential for every event.
 */
const MAX_RATIO = 4;

let server: App;
let dir: string;
let n8n: N8nServer;
let target: Target;
let ours: Bot;
let baseline: Bot;

beforeAll(async () => {
	await ensureN8n();
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-bot-speed-'));
	// At debug level n8n logs each webhook and each expression isolate it creates (`webhookCosts`).
	n8n = await n8nWithPackage(dir, { env: { N8N_LOG_LEVEL: 'debug' } });
	server = await startServer({ pairing: 'manual' });
	target = { url: server.url, adminKey: ADMIN_KEY };
	ours = { label: 'ours', device: 'bot-ours', token: (await connectedDevice(server, 'bot-ours')).token };
	baseline = { label: 'baseline', device: 'bot-base', token: (await connectedDevice(server, 'bot-base')).token };
	await installBots(n8n, target, ours, baseline, 'wdmE2eBs');
}, 20 * 60_000);

afterAll(async () => {
	await n8n?.stop();
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

test(`one message at a time, then 10 a second: every message answered once; one at a time, one isolate more than the baseline and at most ${MAX_RATIO} times its p50`, async () => {
	const phases: Phase[] = [
		{ name: 'warm-up', count: 2, oneAtATime: true },
		{ name: 'one at a time', count: 10, oneAtATime: true },
		{ name: '10/s', rate: 10, seconds: 2 },
	];
	let run = 0;
	const p50 = new Map<string, number>();
	const isolates = new Map<string, number>();
	for (const phase of phases) {
		for (const bot of [ours, baseline]) {
			const from = n8n.log().length;
			const result = await runPhase(target, bot, phase, ++run, { timeoutMs: 3 * 60_000 });
			console.log(`${bot.label}, ${phase.name}: ${result.latencies.length}/${result.sent} answered, p50 ${quantile(result.latencies, 0.5)} ms, p99 ${quantile(result.latencies, 0.99)} ms`);
			expect({ bot: bot.label, phase: phase.name, lost: result.lost, duplicated: result.duplicated }).toEqual({ bot: bot.label, phase: phase.name, lost: 0, duplicated: 0 });
			if (phase.name !== 'one at a time') continue;
			p50.set(bot.label, quantile(result.latencies, 0.5));
			isolates.set(bot.label, webhookCosts(n8n.log().slice(from))?.isolatesPerMessage ?? NaN);
		}
	}
	console.log(`one at a time: p50 ours / baseline ${(p50.get('ours')! / p50.get('baseline')!).toFixed(2)}; isolates a message: ours ${isolates.get('ours')}, baseline ${isolates.get('baseline')}`);
	// The baseline's run takes one; ours, its run's and the one of n8n's webhook handler (a credential read
	// or an expression in the trigger's path would add more: it was 4 a message).
	expect(isolates.get('baseline')).toBeGreaterThanOrEqual(0.9);
	expect(isolates.get('ours')).toBeLessThanOrEqual(isolates.get('baseline')! + 1.25);
	expect(p50.get('ours')! / p50.get('baseline')!).toBeLessThanOrEqual(MAX_RATIO);
}, 15 * 60_000);
