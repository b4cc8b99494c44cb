import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { Store } from '../../server/src/store';
import { eventually, tempDataDir } from '../helpers/server';

/**
 * Reliability: the server is killed with SIGKILL (no shutdown, no flush) while async sends pour in, then
 * started again on the same data directory. Every send it answered 2xx before dying must be in the store
 * afterwards and must go out. Runs the server from source (tsx) as a real process: a kill in-process
 * would take the test with it.
 */

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'server', 'src', 'main.ts');
const KEY = 'kill9_admin_key_0123456789';
const CONTACT = '5511999990001';

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(async () => {
	const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
	await Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL'))));
});

/** Starts the server on `data` (the node process itself, so that SIGKILL reaches it) and waits for its banner. */
async function start(data: string) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WDM_')));
	const proc = spawn(
		process.execPath,
		['--import', 'tsx', MAIN, '--port', '0', '--data', data, '--log-level', 'warn', '--pair-delay-ms', '0', '--receipt-delay-ms', '20'],
		{ env: { ...env, WDM_ADMIN_KEY: KEY }, cwd: ROOT },
	);
	children.push(proc);
	let out = '';
	proc.stdout.on('data', (chunk) => (out += chunk));
	proc.stderr.on('data', (chunk) => (out += chunk));
	const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
	const url = await eventually(() => {
		if (proc.exitCode !== null) throw new Error(`exited early (${proc.exitCode}):\n${out}`);
		return out.includes('site URL:') ? /listening on (http:\/\/\S+)/.exec(out)?.[1] : undefined;
	}, 30_000);
	return { proc, exited, base: `${url}/wp-json/wdm/v1`, output: () => out };
}

async function call(base: string, route: string, init: { method?: string; headers: Record<string, string>; body?: unknown }) {
	const res = await fetch(`${base}${route}`, {
		method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
		headers: { 'content-type': 'application/json', ...init.headers },
		body: init.body === undefined ? undefined : JSON.stringify(init.body),
	});
	return { status: res.status, body: (await res.json()) as any };
}

/** The device's outbound messages in the store: messageid to status. */
function outbound(data: string): Map<string, string> {
	const store = Store.open(data);
	try {
		const rows = store.db.prepare('SELECT messageid, status FROM messages WHERE from_me = 1').all() as { messageid: string; status: string }[];
		return new Map(rows.map((r) => [r.messageid, r.status]));
	} finally {
		store.close();
	}
}

test('kill -9 under async load loses no accepted send; the queued ones go out after the restart', async () => {
	const data = tempDataDir();
	const first = await start(data);
	const admin = { authorization: `Bearer ${KEY}` };
	const created = await call(first.base, '/devices', { headers: admin, body: { name: 'loaded' } });
	expect(created.status).toBe(201);
	const token = created.body.data.token as string;
	await call(first.base, '/devices/loaded/qr', { headers: admin });
	await eventually(async () => (await call(first.base, '/devices/loaded/status', { headers: admin })).body.data.status === 'connected');

	// Concurrent senders until the kill. Some sends wait (delay) in the queue, so that the kill finds
	// messages still queued as well as some already sent.
	const accepted: string[] = [];
	let refused = 0;
	let killed = false;
	let n = 0;
	const sender = async () => {
		while (!killed) {
			const i = n++;
			try {
				const res = await call(first.base, '/send/text', { headers: { token }, body: { number: CONTACT, text: `load ${i}`, async: true, delay: i % 3 === 0 ? 3000 : 0 } });
				if (res.status >= 200 && res.status < 300) accepted.push(res.body.data.messageid);
				else refused++;
			} catch {
				// The connection died with the server: this send was never accepted.
			}
		}
	};
	const senders = Array.from({ length: 16 }, sender);
	await eventually(() => accepted.length >= 300, 20_000, 10);
	first.proc.kill('SIGKILL');
	killed = true;
	expect(await first.exited).toBe('SIGKILL');
	await Promise.all(senders);
	expect(refused).toBe(0);

	// Every accepted send is in the store, before anything runs on it again.
	const afterKill = outbound(data);
	expect(accepted.filter((id) => !afterKill.has(id))).toEqual([]);
	const queued = accepted.filter((id) => afterKill.get(id) === 'queued');
	expect(queued.length).toBeGreaterThan(0);

	// The restarted server sends what was still queued.
	const second = await start(data);
	try {
		await eventually(() => {
			const now = outbound(data);
			return accepted.every((id) => ['sent', 'delivered', 'read'].includes(now.get(id)!));
		}, 20_000, 200);
	} finally {
		second.proc.kill('SIGTERM');
		await second.exited;
	}
});
