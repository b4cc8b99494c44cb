/**
 * Profile of the send path: `POST /wp-json/wdm/v1/send/text` (or the bare echo of send-text.mjs) under load,
 * with V8's sampling profiler on the server's thread, and the tables of where its time goes.
 *
 *   npm run build -w server && node server/bench/profile-send.mjs
 *   PROFILE_TARGET=echo PROFILE_CONNECTIONS=10 PROFILE_SECONDS=10 PROFILE_OUT=/tmp/send.cpuprofile node server/bench/profile-send.mjs
 *
 * The server runs in this process (as in send-text.mjs); autocannon runs in a child process, so none of its
 * work is in the profile. After a warm-up the profiler records PROFILE_SECONDS of load (sampling every
 * PROFILE_INTERVAL_US, default 100 us), then prints: requests, this thread's CPU time per request (Linux's
 * per-thread accounting, as the bench's column), the self time and the inclusive time of the heaviest
 * functions, the self time by module, the inclusive time of the steps of a request (`MARKED`) and the call
 * tree top down (a text flame graph, frames of at least PROFILE_TREE_MIN of the busy time, default 0.01), in us per request.
 * The .cpuprofile (PROFILE_OUT) opens in Chrome DevTools or speedscope as a flame graph.
 */
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envNumber, pairedDevice, requireFromServer, serverDir, sleep, startReference } from './lib.mjs';

const target = process.env.PROFILE_TARGET ?? 'send';
const connections = envNumber('PROFILE_CONNECTIONS', 10);
const seconds = envNumber('PROFILE_SECONDS', 10);
const warmup = envNumber('PROFILE_WARMUP', 3);
const intervalUs = envNumber('PROFILE_INTERVAL_US', 100);
const out = process.env.PROFILE_OUT ?? path.join(os.tmpdir(), `wdm-${target}.cpuprofile`);
const top = envNumber('PROFILE_TOP', 30);

/**
 * The server's own functions whose inclusive time (the function and all it calls, counted once per
 * sample however deep it recurses) is shown per request. Fastify runs a request's hooks, its handler
 * and its answer as one chain of calls, so these overlap; the table by module (self time) does not.
 */
const MARKED = [
	['authenticateOnce', 'http/auth'],
	['limitBody', 'http/limits'],
	['checkJsonBody', 'http/json'],
	['parse', 'http/dispatch'],
	['allowFor', 'http/dispatch'],
	['callRoute', 'http/dispatch'],
	['handler', 'gateway/send'],
	['sendMessage', 'gateway/sending'],
	['commitQueued', 'store/index'],
	['send', 'network/messaging'],
	['insert', 'store/messages'],
	['confirmDueReceipts', 'network/messaging'],
	['messageView', 'gateway/views'],
	['serialize', 'fastify/lib/reply'],
	['writev', ''],
	['(garbage collector)', ''],
];

async function main() {
	const Fastify = requireFromServer('fastify');
	const reference = await startReference();
	const echo = Fastify({ logger: false });
	echo.post('/echo', async (request) => request.body);
	await echo.listen({ port: 0, host: '127.0.0.1' });
	const device = await pairedDevice(reference.url, 'profile');
	const body = JSON.stringify({ number: '5511999990001', text: 'Benchmark message: your order #1234 has shipped.' });
	const url = target === 'echo' ? `http://127.0.0.1:${echo.server.address().port}/echo` : `${reference.url}/wp-json/wdm/v1/send/text`;
	const headers = target === 'echo' ? [] : ['-H', `token=${device.token}`];

	const load = (duration) =>
		new Promise((resolve, reject) => {
			const bin = path.join(path.dirname(requireFromServer.resolve('autocannon/package.json')), 'autocannon.js');
			const child = spawn(process.execPath, [bin, '-j', '-c', String(connections), '-d', String(duration), '-m', 'POST', '-H', 'content-type=application/json', ...headers, '-b', body, url], {
				stdio: ['ignore', 'pipe', 'ignore'],
			});
			let text = '';
			child.stdout.on('data', (chunk) => (text += chunk));
			child.on('error', reject);
			child.on('exit', () => {
				try {
					resolve(JSON.parse(text));
				} catch (error) {
					reject(error);
				}
			});
		});

	if (warmup > 0) await load(warmup);
	await sleep(1000);
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
	const cpu0 = threadCpuMs();
	await session.post('Profiler.start');
	const result = await load(seconds);
	const { profile } = await session.post('Profiler.stop');
	const cpuMs = threadCpuMs() - cpu0;
	session.disconnect();
	fs.writeFileSync(out, JSON.stringify(profile));
	const requests = result.requests.total;
	if (result.non2xx || result.errors) console.warn(`warning: ${result.non2xx} non-2xx, ${result.errors} errors`);

	console.log(
		`# ${target}: ${connections} connections, ${seconds} s, ${requests} requests (${Math.round(requests / seconds)} req/s), ` +
			`p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
	);
	console.log(`# server thread CPU ${(cpuMs * 1000 / requests).toFixed(1)} us/request (kernel's per-thread accounting); profile ${out}\n`);
	report(profile, requests);
	await echo.close();
	await reference.close();
}

/** Self and inclusive time per function, and per part of a send, in us per request. */
function report(profile, requests) {
	const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const dt = new Map();
	for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
	const keyOf = (f) => `${f.functionName || '(anonymous)'} ${short(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
	const self = new Map();
	const inclusive = new Map();
	const marked = MARKED.map(() => 0);
	const modules = new Map();
	let total = 0;
	let idle = 0;
	for (const [id, us] of dt) {
		const leaf = nodes.get(id);
		total += us;
		if (leaf.callFrame.functionName === '(idle)') {
			idle += us;
			continue;
		}
		const k = keyOf(leaf.callFrame);
		self.set(k, (self.get(k) ?? 0) + us);
		const seen = new Set();
		const markSeen = new Set();
		let module;
		for (let n = leaf; n; n = nodes.get(parent.get(n.id))) {
			const key = keyOf(n.callFrame);
			if (!seen.has(key)) {
				seen.add(key);
				inclusive.set(key, (inclusive.get(key) ?? 0) + us);
			}
			module ??= moduleOf(n.callFrame);
			MARKED.forEach(([name, where], i) => {
				if (!markSeen.has(i) && n.callFrame.functionName === name && n.callFrame.url.includes(where)) {
					markSeen.add(i);
					marked[i] += us;
				}
			});
		}
		module ??= leaf.callFrame.functionName;
		modules.set(module, (modules.get(module) ?? 0) + us);
	}
	const busy = total - idle;
	const per = (us) => (us / requests).toFixed(2);
	const pct = (us) => `${((us / busy) * 100).toFixed(1)}%`;
	console.log(`busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled: ${per(busy)} us/request\n`);
	const table = (title, map, what = 'function') => {
		console.log(`\n## ${title}\n\n| ${what} | us/request | share of busy |\n|---|---|---|`);
		for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| \`${k}\` | ${per(us)} | ${pct(us)} |`);
	};
	table('Self time by module (a built-in or native function counts for the module that called it)', modules, 'module');
	// A text flame graph: the call tree top down, each frame with its inclusive time, down to TREE_MIN of the busy time.
	const cutoff = busy * envNumber('PROFILE_TREE_MIN', 0.01);
	const totals = new Map();
	const sum = (n) => {
		let us = dt.get(n.id) ?? 0;
		for (const c of n.children ?? []) us += sum(nodes.get(c));
		totals.set(n.id, us);
		return us;
	};
	const root = profile.nodes.find((n) => !parent.has(n.id));
	sum(root);
	console.log(`\n## Call tree (inclusive us/request, frames of at least ${(cutoff / requests).toFixed(2)} us/request)\n\n\`\`\``);
	const walk = (n, depth) => {
		const kids = (n.children ?? []).map((c) => nodes.get(c)).filter((c) => totals.get(c.id) >= cutoff && c.callFrame.functionName !== '(idle)');
		kids.sort((a, b) => totals.get(b.id) - totals.get(a.id));
		for (const c of kids) {
			console.log(`${per(totals.get(c.id)).padStart(6)} ${'  '.repeat(depth)}${keyOf(c.callFrame)}`);
			walk(c, depth + 1);
		}
	};
	walk(root, 0);
	console.log('```');
	console.log('\n## Inclusive time of the steps of a request (they overlap: Fastify chains hooks, handler and answer)\n\n| function | us/request | share of busy |\n|---|---|---|');
	MARKED.forEach(([name, where], i) => console.log(`| \`${name}\` ${where} | ${per(marked[i])} | ${pct(marked[i])} |`));
	table(`Self time, top ${top}`, self);
	table(`Inclusive time, top ${top}`, inclusive);
}

/**
 * The module a frame's time is counted for: a package of node_modules, a file of the server, a module of
 * Node; undefined for a frame without a script (native code, V8's own), whose caller then counts.
 */
function moduleOf(frame) {
	if (!frame.url) return undefined;
	const file = short(frame.url);
	if (frame.url.includes('node_modules/')) return file.startsWith('@') ? file.split('/').slice(0, 2).join('/') : file.split('/')[0];
	if (file.startsWith('node:')) return file.replace(/^node:(internal\/)?/, 'node:').split('/')[0];
	return file.replace(/^server\/dist\//, '').replace(/\.js$/, '');
}

/** A script's path from the repository or node_modules on, or the built-in's name. */
function short(url) {
	if (!url) return '';
	const p = url.replace(/^file:\/\//, '');
	const nm = p.lastIndexOf('node_modules/');
	if (nm >= 0) return p.slice(nm + 'node_modules/'.length);
	const repo = path.dirname(serverDir);
	return p.startsWith(repo) ? path.relative(repo, p) : p;
}

/** CPU time of this (the main) thread in ms: user + system, as the kernel accounts it. */
function threadCpuMs() {
	const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

await main();
