/**
 * What the server benchmarks share: the built server (server/dist) started in this process on a temporary
 * data directory, paired devices, settings from the environment, and the statistics they report.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `require` as the server resolves modules (its dist, fastify, undici...). */
export const requireFromServer = createRequire(path.join(serverDir, 'package.json'));

export const ADMIN_KEY = 'bench_admin_key_0123456789';

/** The built server's modules; exits with a hint when server/dist is missing. */
export function serverModules() {
	if (!fs.existsSync(path.join(serverDir, 'dist', 'app.js'))) {
		console.error('server/dist is missing: build it first (npm run build -w server)');
		process.exit(2);
	}
	return { ...requireFromServer('./dist/app.js'), ...requireFromServer('./dist/config.js') };
}

/**
 * The reference server in this process on a fresh data directory (a persisted WAL store, as in
 * production), logging silent, pairing manual. `close` stops it and removes the directory.
 */
export async function startReference(settings = {}) {
	const { startApp, configSchema } = serverModules();
	const data = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-bench-'));
	const config = configSchema.parse({ port: 0, host: '127.0.0.1', data, logLevel: 'silent', pairing: 'manual', adminKey: ADMIN_KEY, ...settings });
	const app = await startApp(config);
	return {
		app,
		config,
		url: app.url,
		api: `${app.url}/wp-json/wdm/v1`,
		close: async () => {
			await app.close();
			fs.rmSync(data, { recursive: true, force: true });
		},
	};
}

/** Creates a device, asks its QR and pairs it through the sandbox; answers its token. */
export async function pairedDevice(baseUrl, name) {
	const api = `${baseUrl}/wp-json`;
	const auth = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
	const created = await fetch(`${api}/wdm/v1/devices`, { method: 'POST', headers: auth, body: JSON.stringify({ name }) });
	const createdBody = await created.json();
	if (created.status !== 201) throw new Error(`create device: ${JSON.stringify(createdBody)}`);
	const qr = await fetch(`${api}/wdm/v1/devices/${name}/qr`, { headers: { authorization: auth.authorization } });
	if (qr.status !== 200) throw new Error(`device QR: ${await qr.text()}`);
	const paired = await fetch(`${api}/sandbox/v1/devices/${name}/pair`, { method: 'POST', headers: auth, body: '{}' });
	if (paired.status !== 200) throw new Error(`pair device: ${await paired.text()}`);
	return { token: createdBody.data.token };
}

/** A setting from the environment: a non-negative number, or the fallback when unset. */
export function envNumber(name, fallback) {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number (got "${raw}")`);
	return value;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function median(values) {
	const s = [...values].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The q-quantile (0..1) of ascending values (nearest rank). */
export function quantile(sorted, q) {
	if (!sorted.length) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const fmt = (n, digits) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

/** A line for the log saying how busy the machine was (the benchmarks share it with other work). */
export const machine = () =>
	`node ${process.version}, ${os.cpus().length} CPU(s), load average ${os
		.loadavg()
		.map((n) => n.toFixed(2))
		.join(' ')}`;

/**
 * Writes a benchmark's report into docs/benchmarks.md between `<!-- bench:NAME:start -->` and its end
 * marker, headed by the date, the machine and the settings it ran with. BENCH_DOCS=0 leaves the page alone
 * (quick runs while developing).
 */
export function writeSection(name, settings, lines) {
	const text = [
		`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ` +
			`node ${process.version}, load average at the end ${os
				.loadavg()
				.map((n) => n.toFixed(2))
				.join(' ')}; settings: ${Object.entries(settings)
				.map(([k, v]) => `${k} ${v}`)
				.join(', ')}.`,
		'',
		...lines,
	].join('\n');
	if (process.env.BENCH_DOCS === '0') return;
	const file = path.resolve(serverDir, '..', 'docs', 'benchmarks.md');
	const [start, end] = [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`];
	const doc = fs.readFileSync(file, 'utf8');
	if (!doc.includes(start) || !doc.includes(end)) return console.log(`(docs/benchmarks.md has no ${start} section: not written)`);
	fs.writeFileSync(file, doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), () => `${start}\n${text}\n${end}`));
}

/** Waits until `check` answers true (a server that is not listening yet throws: tried again), at most `timeoutMs`. */
export async function until(check, timeoutMs) {
	const end = Date.now() + timeoutMs;
	for (;;) {
		try {
			if (await check()) return;
		} catch {
			// Not listening yet.
		}
		if (Date.now() > end) throw new Error('the server did not start');
		await sleep(100);
	}
}

/** A free TCP port on loopback. */
export function freePort() {
	return new Promise((resolve, reject) => {
		const probe = net.createServer();
		probe.on('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const { port } = probe.address();
			probe.close(() => resolve(port));
		});
	});
}

/** Calls to a worker thread that answers each message with one message, in order; a worker's error ends the run. */
export function receiverClient(worker) {
	const pending = [];
	worker.on('message', (msg) => pending.shift()?.(msg));
	worker.on('error', (error) => {
		console.error(error);
		process.exit(1);
	});
	return {
		call: (msg) =>
			new Promise((resolve) => {
				pending.push(resolve);
				worker.postMessage(msg);
			}),
		close: () => worker.terminate(),
	};
}
