/**
 * Benchmark: memory of the reference server holding many paired, idle devices, and the time to pair them.
 *
 *   npm run bench                      (builds server/dist first)
 *   BENCH_DEVICES=1000 BENCH_PAIR_CONCURRENCY=8 node server/bench/devices.mjs
 *
 * What is measured
 *   The server runs as its own process (`wdm-server`, built, persisted store, manual pairing), so its RSS is
 *   its own and not this script's. Baseline: its RSS once started and warmed up by one device paired and
 *   dropped (the code paths loaded, caches made). Then BENCH_DEVICES devices are created, given a QR and
 *   paired through the sandbox, BENCH_PAIR_CONCURRENCY at a time; the time is from the first request to
 *   the last pairing. RSS is read from /proc after a short idle (devices stay connected, nothing else
 *   happens); the figure is RSS with every device paired (target < 200 MB), against the baseline.
 *   Correctness: every device answers `connected` in the device list, with its own phone number.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_KEY, envNumber, fmt, freePort, machine, pairedDevice, serverDir, sleep, until, writeSection } from './lib.mjs';

const TARGET_MB = 200;

async function main() {
	const count = Math.round(envNumber('BENCH_DEVICES', 1000));
	const concurrency = Math.max(1, Math.round(envNumber('BENCH_PAIR_CONCURRENCY', 8)));
	const data = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-bench-devices-'));
	const port = await freePort();
	const server = spawn(
		process.execPath,
		[path.join(serverDir, 'dist', 'main.js'), '--port', String(port), '--data', data, '--pairing', 'manual', '--admin-key', ADMIN_KEY, '--log-level', 'warn'],
		{ stdio: ['ignore', 'ignore', 'inherit'] },
	);
	const url = `http://127.0.0.1:${port}`;
	const auth = { authorization: `Bearer ${ADMIN_KEY}` };
	let failed = false;
	try {
		await until(async () => (await fetch(`${url}/wp-json/wdm/v1/devices`, { headers: auth })).status === 200, 30000);
		console.log(`devices bench: ${count} devices, ${concurrency} pairings at a time; ${machine()}`);
		await pairedDevice(url, 'warm-up');
		const dropped = await fetch(`${url}/wp-json/wdm/v1/devices/warm-up`, { method: 'DELETE', headers: auth });
		if (dropped.status !== 200) throw new Error(`delete warm-up device: ${dropped.status} ${await dropped.text()}`);
		await sleep(1000);
		const baseline = rssMb(server.pid);

		const started = performance.now();
		let next = 0;
		await Promise.all(
			Array.from({ length: concurrency }, async () => {
				while (next < count) await pairedDevice(url, `idle-${next++}`);
			}),
		);
		const seconds = (performance.now() - started) / 1000;
		await sleep(2000);
		const rss = rssMb(server.pid);

		const list = await (await fetch(`${url}/wp-json/wdm/v1/devices`, { headers: auth })).json();
		const idle = list.data.filter((d) => d.name.startsWith('idle-'));
		const connected = idle.filter((d) => d.status === 'connected' && d.phone);
		const phones = new Set(connected.map((d) => d.phone));
		const problems = [];
		if (idle.length !== count) problems.push(`${idle.length} devices listed, ${count} created`);
		if (connected.length !== count) problems.push(`${count - connected.length} devices not connected`);
		if (phones.size !== connected.length) problems.push('phone numbers shared between devices');

		const lines = [
			`- baseline: ${fmt(baseline, 1)} MB RSS (started, one device paired and deleted)`,
			`- paired: ${count} devices in ${fmt(seconds, 1)} s (${fmt((seconds * 1000) / count, 1)} ms a device, ${concurrency} at a time)`,
			'',
			`devices: ${fmt(rss, 1)} MB RSS with ${count} paired idle devices (target < ${TARGET_MB} MB)${rss < TARGET_MB ? '' : '  ABOVE TARGET'}; ` +
				`${fmt(rss / baseline, 2)} of the baseline, ${fmt(((rss - baseline) * 1024) / count, 1)} KB a device.`,
			'',
			`check: ${connected.length} of ${count} connected, each with its own number -> ${problems.length ? 'FAIL: ' + problems.join('; ') : 'OK'}.`,
		];
		console.log(lines.join('\n'));
		writeSection('devices', { BENCH_DEVICES: count, BENCH_PAIR_CONCURRENCY: concurrency }, lines);
		failed = problems.length > 0;
	} finally {
		server.kill('SIGTERM');
		await new Promise((done) => server.once('exit', done));
		fs.rmSync(data, { recursive: true, force: true });
	}
	process.exitCode = failed ? 1 : 0;
}

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid) {
	const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
	return kb / 1024;
}

await main();
