import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Store } from '../../server/src/store';
import { type App } from '../../server/src/app';
import { SANDBOX, client, connectedDevice, eventually, tempDataDir } from '../helpers/server';

/**
 * Issue 26, finding 6: `GET /sandbox/v1/events` is bounded. Streams per user and in all are capped (a 429
 * naming the limit and its setting), and a stream whose client does not read is cut once the bytes
 * waiting for it pass `--event-stream-buffer-bytes`. The server runs as its own process (tsx), so that
 * its descriptors and memory (RSS, /proc) are its alone.
 */

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'server', 'src', 'main.ts');
const KEY = 'sse_limits_admin_key_0123456789';
const CONTACT = '5511999990042';

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(async () => {
	const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
	await Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL'))));
});

/** Starts the server on a new data directory holding `users` more users; their API keys. */
async function start(users = 0, flags: string[] = []) {
	const data = tempDataDir();
	const store = Store.open(data);
	const keys = Array.from({ length: users }, (_, i) => store.users.create(`streamer${i}`).apiKey);
	store.close();
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WDM_')));
	const proc = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--data', data, '--log-level', 'warn', '--pairing', 'manual', ...flags], {
		env: { ...env, WDM_ADMIN_KEY: KEY },
		cwd: ROOT,
	});
	children.push(proc);
	let out = '';
	proc.stdout.on('data', (chunk) => (out += chunk));
	proc.stderr.on('data', (chunk) => (out += chunk));
	const url = await eventually(() => {
		if (proc.exitCode !== null) throw new Error(`exited early (${proc.exitCode}):\n${out}`);
		return out.includes('site URL:') ? /listening on (http:\/\/\S+)/.exec(out)?.[1] : undefined;
	}, 60_000);
	const pid = proc.pid!;
	const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
	return {
		url,
		keys,
		/** Open descriptors of the server process. */
		fds: () => fs.readdirSync(`/proc/${pid}/fd`).length,
		rss: () => status('VmRSS'),
		/** The most memory the process ever held (so a peak between two samples is not missed). */
		peak: () => status('VmHWM'),
	};
}
type Started = Awaited<ReturnType<typeof start>>;

const MB = 1024 * 1024;
const open = (url: string, key: string) => fetch(`${url}${SANDBOX}/events`, { headers: { authorization: `Bearer ${key}` } });

/** Opens `attempts` streams at once, each with the key `keyOf(i)`; the answers, the open ones kept open. */
async function attempt(server: Started, attempts: number, keyOf: (i: number) => string) {
	const answers = await Promise.all(Array.from({ length: attempts }, (_, i) => open(server.url, keyOf(i))));
	const refused = answers.filter((res) => res.status === 429);
	const bodies = await Promise.all(refused.map((res) => res.json() as Promise<{ success: boolean; message: string }>));
	return { opened: answers.filter((res) => res.status === 200), refused: bodies, other: answers.filter((res) => res.status !== 200 && res.status !== 429).map((res) => res.status) };
}

test('2,000 stream attempts by one user: 16 open, the rest 429 naming the limit; descriptors and memory bounded', async () => {
	const server = await start();
	const fdsBefore = server.fds();
	const rssBefore = server.rss();
	const { opened, refused, other } = await attempt(server, 2000, () => KEY);
	const fdsOpen = server.fds();
	const peak = server.peak() - rssBefore;
	console.log(`one user, 2,000 attempts: ${opened.length} open, ${refused.length} refused; server descriptors ${fdsBefore} -> ${fdsOpen}; RSS peak +${(peak / MB).toFixed(0)} MB`);
	expect(other).toEqual([]);
	expect(opened.length).toBe(16);
	expect(refused.length).toBe(1984);
	expect(refused[0]).toEqual({ success: false, message: 'too many event streams: you have 16 open, at most 16 per user (--event-streams-per-user); close one first' });
	// The refused attempts' connections were closed with their answer: only the open streams hold descriptors.
	await eventually(() => server.fds() <= fdsBefore + 16 + 8, 10_000);
	expect(peak).toBeLessThan(150 * MB);
	// A closed stream makes room for another.
	await opened[0].body!.cancel();
	await eventually(async () => {
		const res = await open(server.url, KEY);
		if (res.status === 200) opened.push(res);
		else await res.body?.cancel();
		return res.status === 200;
	});
	await Promise.all(opened.map((res) => res.body!.cancel()));
});

test('2,000 stream attempts by 400 users: 256 open in all, the rest 429 naming the server-wide limit', async () => {
	const server = await start(400);
	const fdsBefore = server.fds();
	const rssBefore = server.rss();
	const { opened, refused, other } = await attempt(server, 2000, (i) => server.keys[i % 400]);
	const peak = server.peak() - rssBefore;
	console.log(`400 users, 2,000 attempts: ${opened.length} open, ${refused.length} refused; server descriptors ${fdsBefore} -> ${server.fds()}; RSS peak +${(peak / MB).toFixed(0)} MB`);
	expect(other).toEqual([]);
	expect(opened.length).toBe(256);
	expect(refused.length).toBe(1744);
	expect(refused.map((body) => body.message)).toContain('too many event streams on this server: 256 open, at most 256 in all (--event-streams-max); try again later');
	await eventually(() => server.fds() <= fdsBefore + 256 + 8, 10_000);
	expect(peak).toBeLessThan(150 * MB);
	await Promise.all(opened.map((res) => res.body!.cancel()));
});

/** A stream opened over a raw socket that never reads what the server sends. */
function stalledStream(url: string, key: string) {
	const { hostname, port } = new URL(url);
	const socket = net.connect(Number(port), hostname);
	socket.on('error', () => {});
	socket.write(`GET ${SANDBOX}/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
	socket.pause();
	return socket;
}

test('100 streams that never read and 200 events of 50 kB: the stalled streams are cut, memory stays bounded, a reader gets every event', async () => {
	// 100 streams of one user: the per-user limit is raised for this test, the buffer bound is the default.
	const server = await start(0, ['--event-streams-per-user', '200']);
	const device = await connectedDevice({ url: server.url } as App, 'shop', KEY);
	const fdsBefore = server.fds();
	const stalled = Array.from({ length: 100 }, () => stalledStream(server.url, KEY));
	await eventually(() => server.fds() >= fdsBefore + 100, 10_000);

	const reader = await open(server.url, KEY);
	expect(reader.status).toBe(200);
	const received: string[] = [];
	const reading = (async () => {
		const lines = reader.body!.pipeThrough(new TextDecoderStream()).getReader();
		let buffer = '';
		for (;;) {
			const { value, done } = await lines.read();
			if (done) return;
			buffer += value;
			let end: number;
			while ((end = buffer.indexOf('\n\n')) >= 0) {
				const block = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				if (block.startsWith('event: messages')) received.push(JSON.parse(block.slice(block.indexOf('data: ') + 6)).data.text);
				if (received.length === 200) return;
			}
		}
	})();

	const rssBefore = server.rss();
	const sandbox = client(server.url, SANDBOX);
	for (let i = 0; i < 200; i++) {
		const text = `${i} ${'x'.repeat(50_000)}`;
		const res = await sandbox.post(`/devices/${device.name}/inbound`, { from: CONTACT, text }, { key: KEY });
		expect(res.status).toBe(200);
	}
	await reading;
	const peak = server.peak() - rssBefore;
	console.log(`100 stalled streams + 1 reader, 200 x 50 kB events: RSS peak +${(peak / MB).toFixed(0)} MB; descriptors ${server.fds()} (before the streams: ${fdsBefore})`);
	expect(received.map((text) => Number(text.split(' ')[0]))).toEqual([...Array(200).keys()]);
	// Each stalled stream had 200 x 50 kB = 10 MB to take: cut at the bound instead of buffered.
	await eventually(() => server.fds() <= fdsBefore + 1 + 2, 10_000);
	expect(peak).toBeLessThan(100 * MB);
	stalled.forEach((socket) => socket.destroy());
	await reader.body!.cancel().catch(() => {});
});
