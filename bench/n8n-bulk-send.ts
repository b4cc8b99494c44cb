/**
 * Benchmark: bulk sends in the real n8n (the one the e2e installs), WDM nodes against n8n's own HTTP
 * Request node making the same calls in the same run.
 *
 *   npm run bench:n8n                         (part of `npm run bench`; builds the package and the server)
 *   BENCH_ITEMS=10000 BENCH_NODE_ITEMS=1000 npx tsx bench/n8n-bulk-send.ts
 *
 * Each scenario is one workflow, Manual Trigger -> Code node producing N subscribers -> the send node,
 * whose fields are per-item expressions. The same workflow with n8n's HTTP Request node in place of the
 * WDM node is the baseline; both run against one reference server (its own process, as deployed), each
 * scenario on a device (or site user) of its own, with `n8n execute` in a fresh n8n process.
 *
 * Figures per run: the send node's execution time as n8n records it, the run's status and error,
 * what the server stored (messages, with the right texts; posts), and the n8n process's peak RSS. The
 * ratio WDM / HTTP Request of the send node's time is what counts (the machine is shared and noisy;
 * both sides of a ratio are measured minutes apart in one run). Results are printed and written into
 * docs/benchmarks.md between this benchmark's markers.
 *
 * Scenarios: Send Text with 10,000 items (BENCH_ITEMS), sync and `async`; then the per-item cost of
 * the other large nodes with BENCH_NODE_ITEMS items: WDM Group Rename, WDM Post Create, WDM Page Create.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildPackage, ensureN8n, n8nCli, nodeOutput } from '../test/e2e/n8n';
import { ADMIN_KEY, APP_PASSWORD, startServer } from './reference-server';
import { bulkText, bulkWorkflow, type CredentialRef, httpRequest, httpSendText, node, wdmSendText } from '../test/e2e/workflows';

const ROOT = path.join(__dirname, '..');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const NODE_ITEMS = Number(process.env.BENCH_NODE_ITEMS ?? 1_000);
// Issue 38: the bulk path with retries on and pacing off costs at most 0.6 of the HTTP Request node per item.
const TARGET_RATIO = 0.6;
const RUN_TIMEOUT_MS = 30 * 60_000;

/** The gateway's envelope, as far as this script reads it. */
interface Answer {
	data: { token: string; jid: string; messages: Message[]; hasMore: boolean };
}
interface Message {
	text: string;
	chatid: string;
	status: string;
	track_id: string;
}

async function call(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
	const res = await fetch(url, {
		method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
		headers: { 'content-type': 'application/json', ...init.headers },
		body: init.body === undefined ? undefined : JSON.stringify(init.body),
	});
	const body = (await res.json()) as Answer;
	if (res.status >= 300) throw new Error(`${init.method ?? 'POST'} ${url}: HTTP ${res.status} ${JSON.stringify(body)}`);
	return body;
}

/** A paired device: its token. */
async function pairedDevice(server: string, name: string): Promise<string> {
	const key = { authorization: `Bearer ${ADMIN_KEY}` };
	const created = await call(`${server}/wp-json/wdm/v1/devices`, { body: { name }, headers: key });
	await call(`${server}/wp-json/wdm/v1/devices/${name}/qr`, { headers: key });
	await call(`${server}/wp-json/sandbox/v1/devices/${name}/pair`, { body: {}, headers: key });
	return created.data.token;
}

/** Every message the device stored, read through /message/find (newest first). */
async function storedMessages(gateway: string, token: string) {
	const messages: Message[] = [];
	for (let offset = 0; ; offset += 1000) {
		const { data } = await call(`${gateway}/message/find`, { body: { limit: 1000, offset }, headers: { token } });
		messages.push(...data.messages);
		if (!data.hasMore) return messages;
	}
}

/** Messages of a bulk send that are stored with the right recipient and text (queued ones too). */
function rightTexts(messages: Message[]) {
	return messages.filter((m) => {
		const i = Number(m.track_id?.slice('sub-'.length));
		return m.chatid === `${5511900000000 + i}@s.whatsapp.net` && m.text === bulkText(i);
	}).length;
}

interface Result {
	scenario: string;
	sender: string;
	items: number;
	status: string;
	error?: string;
	sendMs: number;
	stored: number;
	peakRssMb: number;
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function main() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-bench-n8n-'));
	const server = await startServer(path.join(dir, 'data'));
	try {
		await ensureN8n();
		await buildPackage(path.join(dir, 'custom', 'n8n-nodes-wdm'));
		// BENCH_PROFILE=DIR: CPU profiles of the n8n processes (one per run), to read with Chrome DevTools.
		const profile = process.env.BENCH_PROFILE && path.resolve(process.env.BENCH_PROFILE);
		const n8n = await n8nCli(path.join(dir, 'n8n'), path.join(dir, 'custom'), { nodeOptions: profile ? `--cpu-prof --cpu-prof-dir=${profile}` : undefined });
		const gateway = `${server.url}/wp-json/wdm/v1`;
		const results: Result[] = [];

		/** Imports and runs one workflow; `stored` reads back what the server kept once the run is over. */
		async function measure(scenario: string, sender: string, items: number, workflow: ReturnType<typeof bulkWorkflow>, stored: () => Promise<number>) {
			await n8n.importWorkflow(workflow);
			process.stdout.write(`${scenario} / ${sender}: ${items} items ... `);
			let result: Result;
			try {
				const run = await n8n.execute(workflow.id, RUN_TIMEOUT_MS);
				const send = run.data.resultData.runData.Send?.[0];
				result = {
					scenario,
					sender,
					items,
					status: run.status,
					error: run.data.resultData.error?.message,
					sendMs: send?.executionTime ?? NaN,
					stored: await stored(),
					peakRssMb: Math.round(run.peakRssKb / 1024),
				};
				if (run.status === 'success' && nodeOutput(run, 'Send').length !== items) result.error = `${nodeOutput(run, 'Send').length} output items`;
			} catch (error) {
				result = { scenario, sender, items, status: 'failed', error: (error as Error).message.split('\n')[0], sendMs: NaN, stored: await stored(), peakRssMb: NaN };
			}
			console.log(`${result.status}, send node ${(result.sendMs / 1000).toFixed(1)} s, stored ${result.stored}, peak RSS ${result.peakRssMb} MB${result.error ? `, error: ${result.error}` : ''}`);
			results.push(result);
		}

		// Credentials: a device (instance token) per Send Text run; the site's admin for the content nodes.
		const senders = ['http', 'wdm', 'wdm-async', 'group-http', 'group-wdm'] as const;
		const tokens = Object.fromEntries(await Promise.all(senders.map(async (s) => [s, await pairedDevice(server.url, `bench-${s}`)] as const)));
		// n8n ids are 16 characters: a number per name keeps them apart.
		const ids = new Map<string, string>();
		const cred = (name: string): CredentialRef => {
			if (!ids.has(name)) ids.set(name, `benchCredential${ids.size}`.padEnd(16, '0').slice(-16));
			return { id: ids.get(name)!, name };
		};
		const credentials = [
			...senders.map((s) => ({ ...cred(`instance ${s}`), type: 'wdmInstanceApi', data: { baseUrl: gateway, token: tokens[s] } })),
			...senders.map((s) => ({ ...cred(`header ${s}`), type: 'httpHeaderAuth', data: { name: 'token', value: tokens[s] } })),
			{ ...cred('site'), type: 'wdmSiteApi', data: { url: server.url, addressing: 'wpJson', username: 'admin', password: APP_PASSWORD } },
			{ ...cred('basic'), type: 'httpBasicAuth', data: { user: 'admin', password: APP_PASSWORD } },
		];
		await n8n.importCredentials(credentials);

		// 1. Send Text, ITEMS items: HTTP Request, WDM, WDM async.
		const messagesOf = (s: (typeof senders)[number]) => async () => rightTexts(await storedMessages(gateway, tokens[s]));
		await measure('Send Text', 'HTTP Request', ITEMS, bulkWorkflow('benchSendHttp001', ITEMS, httpSendText(gateway, cred('header http'))), messagesOf('http'));
		await measure('Send Text', 'WDM Message', ITEMS, bulkWorkflow('benchSendWdm0001', ITEMS, wdmSendText(cred('instance wdm'))), messagesOf('wdm'));
		await measure('Send Text async', 'WDM Message', ITEMS, bulkWorkflow('benchSendAsync01', ITEMS, wdmSendText(cred('instance wdm-async'), { async: true })), messagesOf('wdm-async'));

		// 2. Per-item cost of the other large nodes, NODE_ITEMS items each (none with BENCH_NODE_ITEMS=0).
		if (NODE_ITEMS > 0) await otherNodes();
		report(results);

		async function otherNodes() {
		const group = async (s: 'group-http' | 'group-wdm') =>
			(await call(`${gateway}/group/create`, { body: { name: 'Bench', participants: ['5511900000001'] }, headers: { token: tokens[s] } })).data.jid as string;
		const RENAME = "=Group {{ $json.name }}";
		const groupHttp = await group('group-http');
		await measure('Group Rename', 'HTTP Request', NODE_ITEMS,
			bulkWorkflow('benchGroupHttp01', NODE_ITEMS, httpRequest(`${gateway}/group/updateName`, cred('header group-http'), { groupjid: groupHttp, name: RENAME }, 'httpHeaderAuth')),
			async () => NODE_ITEMS);
		const groupWdm = await group('group-wdm');
		await measure('Group Rename', 'WDM Group', NODE_ITEMS,
			bulkWorkflow('benchGroupWdm001', NODE_ITEMS, node('Send', 'CUSTOM.wdmGroup', { operation: 'updateName', groupjid: groupWdm, name: RENAME }, { wdmInstanceApi: cred('instance group-wdm') })),
			async () => NODE_ITEMS);

		const site = `${server.url}/wp-json/cms/v2`;
		const siteAuth = { authorization: `Basic ${Buffer.from(`admin:${APP_PASSWORD}`).toString('base64')}` };
		const countOf = (type: 'posts' | 'pages', slugPrefix: string) => async () => {
			const res = await fetch(`${site}/${type}?per_page=1&status=any&search=${slugPrefix}`, { headers: siteAuth });
			return Number(res.headers.get('x-wp-total'));
		};
		for (const [type, nodeType, label] of [['posts', 'CUSTOM.wdmPost', 'WDM Post'], ['pages', 'CUSTOM.wdmPage', 'WDM Page']] as const) {
			const fields = (who: string) => ({ title: `=${who} {{ $json.name }}`, content: '=Hello {{ $json.name }}', slug: `=${who}-{{ $json.id }}` });
			await measure(`${label.slice(4)} Create`, 'HTTP Request', NODE_ITEMS,
				bulkWorkflow(`bench${type}Http0`.padEnd(16, '0'), NODE_ITEMS, httpRequest(`${site}/${type}`, cred('basic'), fields(`http${type}`), 'httpBasicAuth')),
				countOf(type, `http${type}`));
			const { title, content, slug } = fields(`wdm${type}`);
			await measure(`${label.slice(4)} Create`, label, NODE_ITEMS,
				bulkWorkflow(`bench${type}Wdm00`.padEnd(16, '0'), NODE_ITEMS, node('Send', nodeType, { operation: 'create', title, content, additionalFields: { slug } }, { wdmSiteApi: cred('site') })),
				countOf(type, `wdm${type}`));
		}
		}
	} finally {
		server.child.kill('SIGTERM');
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** Prints the results and writes them into docs/benchmarks.md between the markers. */
function report(results: Result[]) {
	const baseline = (scenario: string) => results.find((r) => r.sender === 'HTTP Request' && scenario.startsWith(r.scenario));
	const rows = results.map((r) => {
		const base = baseline(r.scenario);
		const ratio = r.sender === 'HTTP Request' || !base ? '' : (r.sendMs / base.sendMs).toFixed(2);
		const perItem = (r.sendMs / r.items).toFixed(2);
		return `| ${r.scenario} | ${r.sender} | ${r.items} | ${r.status}${r.error ? ` (${r.error})` : ''} | ${(r.sendMs / 1000).toFixed(1)} | ${perItem} | ${ratio} | ${r.stored} | ${r.peakRssMb} |`;
	});
	const sendText = results.filter((r) => r.scenario.startsWith('Send Text') && r.sender !== 'HTTP Request');
	const worst = Math.max(...sendText.map((r) => r.sendMs / (baseline(r.scenario)?.sendMs ?? NaN)));
	const ok = results.every((r) => r.status === 'success' && !r.error && r.stored === r.items);
	const text = [
		`Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, n8n 2.40.7; load average before the report ${load()}.`,
		'',
		'| scenario | send node | items | result | send node time (s) | per item (ms) | ratio to HTTP Request | stored | n8n peak RSS (MB) |',
		'|---|---|---|---|---|---|---|---|---|',
		...rows,
		'',
		`Send Text, worst WDM / HTTP Request ratio: ${worst.toFixed(2)} (target <= ${TARGET_RATIO}); every run complete with 0 errors: ${ok ? 'yes' : 'NO'}.`,
	].join('\n');
	console.log(`\n${text}`);
	const file = path.join(ROOT, 'docs', 'benchmarks.md');
	const [start, end] = ['<!-- bench:n8n-bulk-send:start -->', '<!-- bench:n8n-bulk-send:end -->'];
	const doc = fs.readFileSync(file, 'utf8');
	fs.writeFileSync(file, doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${text}\n${end}`));
	if (!ok) process.exitCode = 1;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
