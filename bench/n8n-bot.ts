/**
 * Benchmark: the bot in n8n (issue 42). The same bot built twice in one real n8n (`n8n start`, the
 * version the e2e installs) against one reference server (its own process, as deployed): ours is
 * WDM Trigger (messages, excluding sent-by-API) -> WDM Message Send Text to the sender; the baseline
 * is n8n's Webhook node (respond immediately) -> HTTP Request to /send/text, its URL subscribed to
 * another device with the gateway's webhook route (test/e2e/bot-speed.ts builds both).
 *
 *   npm run bench:bot                           (part of `npm run bench`; builds the server)
 *   BENCH_BOT_ONE=10 BENCH_BOT_SECONDS=3 npx tsx bench/n8n-bot.ts      (about 2-3 minutes)
 *
 * Latency: the reply's stored timestamp minus the moment the message was sent through the sandbox
 * (`POST /sandbox/v1/devices/{name}/inbound`), every message from a number of its own. Phases: one at
 * a time (BENCH_BOT_ONE messages, 20; each sent half a second after the last one's reply), then
 * BENCH_BOT_RATES messages a second (5,20) for BENCH_BOT_SECONDS seconds (10) each, open loop. In
 * each phase one bot runs after the other, ours first (BENCH_BOT_ORDER=baseline: the baseline
 * first); both get two messages first to warm up. Figures: p50/p95/p99, lost, duplicated, and the
 * ratio ours / baseline; targets: <= 1.3 at p50 one at a time, <= 1.5 at p99 at the highest rate.
 *
 * Where the time goes: WDM_N8N_LOG_LEVEL=debug adds, from n8n's log of the one-at-a-time phase, the
 * time from "Received webhook" to "Execution added" and the expression isolates created per message
 * (`[IsolatedVmBridge] Runtime bundle loaded`); BENCH_N8N_LOG=FILE keeps that log; BENCH_PROFILE=DIR
 * writes CPU profiles of n8n's processes (read with Chrome DevTools). BENCH_N8N_ENV="N8N_X=1 N8N_Y=2"
 * runs n8n with those settings (e.g. N8N_EXPRESSION_ENGINE_POOL_SIZE=2). BENCH_DOCS=0 leaves
 * docs/benchmarks.md alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildPackage, ensureN8n } from '../test/e2e/n8n';
import { n8nServer } from '../test/e2e/n8n-server';
import {
	installBots,
	pairedDevice,
	quantile,
	runPhase,
	webhookCosts,
	type Bot,
	type Phase,
	type PhaseResult,
	type Target,
} from '../test/e2e/bot-speed';
import { ADMIN_KEY, startServer } from './reference-server';

const ROOT = path.join(__dirname, '..');
const ONE = Number(process.env.BENCH_BOT_ONE ?? 20);
const SECONDS = Number(process.env.BENCH_BOT_SECONDS ?? 10);
const RATES = (process.env.BENCH_BOT_RATES ?? '5,20').split(',').map(Number);
const BASELINE_FIRST = process.env.BENCH_BOT_ORDER === 'baseline';
const N8N_ENV = Object.fromEntries((process.env.BENCH_N8N_ENV ?? '').split(/\s+/).filter(Boolean).map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
const TARGET_P50_ONE = 1.3;
const TARGET_P99_TOP = 1.5;

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function main() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-bench-bot-'));
	const server = await startServer(path.join(dir, 'data'));
	let n8n: Awaited<ReturnType<typeof n8nServer>> | undefined;
	try {
		await ensureN8n();
		// Installed as n8n's community-package installer does (node types `n8n-nodes-wdm.*`).
		const userFolder = path.join(dir, 'user');
		await buildPackage(path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-wdm'));
		const noCustomNodes = path.join(dir, 'no-custom-nodes');
		fs.mkdirSync(noCustomNodes);
		const profile = process.env.BENCH_PROFILE && path.resolve(process.env.BENCH_PROFILE);
		n8n = await n8nServer(userFolder, noCustomNodes, { nodeOptions: profile ? `--cpu-prof --cpu-prof-dir=${profile}` : undefined, env: N8N_ENV });

		const target: Target = { url: server.url, adminKey: ADMIN_KEY };
		const ours: Bot = { label: 'ours', device: 'bot-ours', token: await pairedDevice(target, 'bot-ours') };
		const baseline: Bot = { label: 'baseline', device: 'bot-base', token: await pairedDevice(target, 'bot-base') };
		await installBots(n8n, target, ours, baseline, 'benchBot');

		const bots = BASELINE_FIRST ? [baseline, ours] : [ours, baseline];
		const phases: Phase[] = [{ name: 'warm-up', count: 2, oneAtATime: true }, { name: `one at a time (${ONE})`, count: ONE, oneAtATime: true }, ...RATES.map((rate) => ({ name: `${rate}/s for ${SECONDS} s`, rate, seconds: SECONDS }))];
		const results: Measured[] = [];
		const logMarks: Array<{ bot: Bot['label']; from: number; to: number }> = [];
		const pids = { n8n: n8n.pid()!, server: server.child.pid! };
		let run = 0;
		for (const phase of phases) {
			for (const bot of bots) {
				const from = n8n.log().length;
				process.stdout.write(`${bot.label}, ${phase.name} (load ${load()}) ... `);
				const before = { n8n: cpuMs(pids.n8n), server: cpuMs(pids.server), at: monotonicUs() };
				const result = await runPhase(target, bot, phase, ++run, { timeoutMs: 5 * 60_000 });
				const cpu = { n8n: cpuMs(pids.n8n) - before.n8n, server: cpuMs(pids.server) - before.server };
				console.log(summary(result));
				if (phase.name !== 'warm-up') results.push({ ...result, cpu, window: [before.at, monotonicUs()] });
				if (phase === phases[1]) logMarks.push({ bot: bot.label, from, to: n8n.log().length });
				await new Promise((resolve) => setTimeout(resolve, 2000));
			}
		}
		const log = n8n.log();
		await n8n.stop();
		n8n = undefined;
		if (process.env.BENCH_N8N_LOG) fs.writeFileSync(process.env.BENCH_N8N_LOG, log);
		const where = [...results.map(cpuPerMessage), ...logMarks.map((mark) => webhookPhase(mark.bot, log.slice(mark.from, mark.to))), ...(profile ? profileSummary(profile, results) : [])];
		report(results, where.filter(Boolean) as string[]);
	} finally {
		await n8n?.stop();
		server.child.kill('SIGTERM');
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** A phase's result with the CPU time n8n's process (all its threads) and the server's took during it, and when it ran. */
type Measured = PhaseResult & { cpu: { n8n: number; server: number }; window: [number, number] };

/** CPU time of a process so far, ms (Linux: utime + stime of /proc/PID/stat, in ticks of 10 ms). */
function cpuMs(pid: number): number {
	const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Now on the monotonic clock V8's CPU profiles are stamped with, µs. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

const cpuPerMessage = (r: Measured) =>
	`${r.bot}, ${r.phase}: CPU a message ${ms(r.cpu.n8n / r.sent)} ms in n8n (every thread of its process), ${ms(r.cpu.server / r.sent)} ms in the server`;

/**
 * Where n8n's main thread spent its time in each phase, a message: from the largest CPU profile in `dir`
 * (n8n's main process), each sample's time to its function's bucket.
 */
function profileSummary(dir: string, results: Measured[]): string[] {
	const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
	const main = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
	if (!main) return [];
	const profile = JSON.parse(fs.readFileSync(main, 'utf8')) as {
		nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
		startTime: number;
		samples: number[];
		timeDeltas: number[];
	};
	const bucketOf = new Map(
		profile.nodes.map(({ id, callFrame: { functionName, url } }) => {
			if (functionName === '(idle)') return [id, undefined];
			if (functionName === '(garbage collector)') return [id, 'gc'];
			if (/expression-runtime|isolated-vm/.test(url)) return [id, 'expression isolates'];
			if (url.includes('node_modules/n8n-nodes-wdm/')) return [id, 'WDM nodes'];
			if (/typeorm|sqlite/.test(url)) return [id, 'database'];
			return [id, 'other'];
		}),
	);
	const spent = results.map(() => new Map<string, number>());
	let at = profile.startTime;
	for (const [i, id] of profile.samples.entries()) {
		at += profile.timeDeltas[i];
		const bucket = bucketOf.get(id);
		const phase = results.findIndex((r) => at >= r.window[0] && at < r.window[1]);
		if (bucket && phase >= 0) spent[phase].set(bucket, (spent[phase].get(bucket) ?? 0) + profile.timeDeltas[i] / 1000);
	}
	return results.map((r, i) => {
		const per = (n: number) => ms(n / r.sent);
		const total = [...spent[i].values()].reduce((a, b) => a + b, 0);
		return `${r.bot}, ${r.phase}: n8n's main thread ${per(total)} ms a message (${[...spent[i]].sort((a, b) => b[1] - a[1]).map(([bucket, t]) => `${bucket} ${per(t)}`).join(', ')})`;
	});
}

const ms = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '-');
const summary = (r: PhaseResult) =>
	`${r.latencies.length}/${r.sent} answered, p50 ${ms(quantile(r.latencies, 0.5))} ms, p99 ${ms(quantile(r.latencies, 0.99))} ms, lost ${r.lost}, duplicated ${r.duplicated}`;

/** What n8n's debug log of the one-at-a-time phase of a bot tells (see `webhookCosts`). */
function webhookPhase(bot: string, log: string): string | undefined {
	const costs = webhookCosts(log);
	if (!costs) return undefined;
	const { gaps, isolatesPerMessage } = costs;
	return `${bot}: "Received webhook" to "Execution added" p50 ${ms(quantile(gaps, 0.5))} ms (min ${ms(Math.min(...gaps))}, max ${ms(Math.max(...gaps))}); expression isolates created per message ${isolatesPerMessage.toFixed(1)}`;
}

/** Prints the results and writes them into docs/benchmarks.md between the markers. */
function report(results: Measured[], where: string[]) {
	const phases = [...new Set(results.map((r) => r.phase))];
	const of = (bot: string, phase: string) => results.find((r) => r.bot === bot && r.phase === phase)!;
	const rows = phases.flatMap((phase) =>
		(['ours', 'baseline'] as const).map((bot) => {
			const r = of(bot, phase);
			const q = [0.5, 0.95, 0.99].map((p) => quantile(r.latencies, p));
			const base = of('baseline', phase);
			const ratio = bot === 'ours' ? [0.5, 0.95, 0.99].map((p, i) => (q[i] / quantile(base.latencies, p)).toFixed(2)).join(' / ') : '';
			return `| ${phase} | ${bot === 'ours' ? 'WDM Trigger -> WDM Message' : 'Webhook -> HTTP Request'} | ${r.sent} | ${q.map(ms).join(' / ')} | ${r.lost} | ${r.duplicated} | ${ratio} |`;
		}),
	);
	const ratio = (phase: string, p: number) => quantile(of('ours', phase).latencies, p) / quantile(of('baseline', phase).latencies, p);
	const p50One = ratio(phases[0], 0.5);
	const p99Top = ratio(phases[phases.length - 1], 0.99);
	const exact = results.every((r) => r.lost === 0 && r.duplicated === 0);
	const met = p50One <= TARGET_P50_ONE && p99Top <= TARGET_P99_TOP && exact;
	const text = [
		`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores, n8n 2.40.7${process.env.BENCH_N8N_ENV ? ` with ${process.env.BENCH_N8N_ENV}` : ''}, ${BASELINE_FIRST ? 'baseline' : 'ours'} first in each phase; load average before the report ${load()}.`,
		'',
		'| phase | bot | messages | latency p50 / p95 / p99 (ms) | lost | duplicated | ratio ours / baseline p50 / p95 / p99 |',
		'|---|---|---|---|---|---|---|',
		...rows,
		'',
		`Ours / baseline: ${p50One.toFixed(2)} at p50 one at a time (target <= ${TARGET_P50_ONE}), ${p99Top.toFixed(2)} at p99 at ${phases[phases.length - 1]} (target <= ${TARGET_P99_TOP}); every message answered once: ${exact ? 'yes' : 'NO'}. Targets met: ${met ? 'yes' : 'NO'}.`,
		...(where.length ? ['', ...where.map((line) => `- ${line}`)] : []),
	].join('\n');
	console.log(`\n${text}`);
	if (process.env.BENCH_DOCS !== '0') {
		const file = path.join(ROOT, 'docs', 'benchmarks.md');
		const [start, end] = ['<!-- bench:n8n-bot:start -->', '<!-- bench:n8n-bot:end -->'];
		const doc = fs.readFileSync(file, 'utf8');
		fs.writeFileSync(file, doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${text}\n${end}`));
	}
	if (!met) process.exitCode = 1;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
