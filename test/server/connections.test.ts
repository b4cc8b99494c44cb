// Connection churn (issue 37, finding 5): one client reopening half-open connections filled the
// connection cap, and `/readyz` failed 9 probes of 13. Connections are capped per client address, health
// probes are answered ahead of both caps, and the refusals are counted in /metrics. The other loopback
// addresses (127.0.0.2, ...) stand for other clients.
import http from 'node:http';
import net from 'node:net';
import type { App } from '../../server/src/app';
import { startServer } from '../helpers/server';

const ATTACKER = '127.0.0.2';
const OTHER = '127.0.0.3';
const CLIENT = '127.0.0.1';

/** A raw connection from `from`, once connected; its errors are ignored and its answers read. */
function connect(server: App, from: string): Promise<net.Socket> {
	const { port } = new URL(server.url);
	return new Promise((resolve, reject) => {
		const socket = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: from }, () => {
			socket.off('error', reject);
			socket.on('error', () => undefined);
			resolve(socket);
		});
		socket.once('error', reject);
	});
}

interface Exchange {
	/** The answer's status, 0 when the server closed the connection without one, -1 when nothing came in `ms`. */
	status: number;
	text: string;
	ms: number;
}

/** Sends `request` on a new connection from `from` and reads until the server closes it. */
async function exchange(server: App, from: string, request: string, ms = 2000): Promise<Exchange> {
	const started = Date.now();
	const socket = await connect(server, from);
	return new Promise((resolve) => {
		let text = '';
		const done = (status: number) => {
			clearTimeout(timer);
			socket.destroy();
			resolve({ status, text, ms: Date.now() - started });
		};
		const timer = setTimeout(() => done(-1), ms);
		socket.on('data', (chunk) => (text += chunk.toString('latin1')));
		socket.on('close', () => done(Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1] ?? 0)));
		socket.write(request);
	});
}

const get = (path: string, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;

/**
 * `workers` loops, each opening a connection from `from`, sending nothing or half a request line, and
 * opening the next as soon as the server closes it (header timeout, cap), a few ms later.
 */
function churn(server: App, from: string, workers: number) {
	let running = true;
	let opened = 0;
	const worker = async (i: number) => {
		while (running) {
			const socket = await connect(server, from).catch(() => undefined);
			if (socket) {
				opened++;
				socket.resume();
				if (i % 2) socket.write('POST /wp-json/wdm/v1/send/te');
				await new Promise((resolve) => socket.once('close', resolve));
			}
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	};
	const loops = Array.from({ length: workers }, (_, i) => worker(i));
	return {
		opened: () => opened,
		stop: async () => {
			running = false;
			await Promise.all(loops);
		},
	};
}

/** Connections from `from` held open (nothing sent) until the test ends. */
async function hold(server: App, from: string, count: number): Promise<net.Socket[]> {
	const sockets: net.Socket[] = [];
	for (let i = 0; i < count; i++) sockets.push(await connect(server, from));
	sockets.forEach((s) => s.resume());
	return sockets;
}

/**
 * `wdm_connections_refused_total{reason}` in /metrics, read through `agent` (a keep-alive connection
 * opened before the caps were reached, as Prometheus keeps one), or a new connection.
 */
async function refused(server: App, reason: string, agent?: http.Agent): Promise<number> {
	const text = await new Promise<string>((resolve, reject) =>
		http
			.get(`${server.url}/metrics`, { agent, localAddress: OTHER }, (res) => {
				let body = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => (body += chunk));
				res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`/metrics: ${res.statusCode}`))));
			})
			.on('error', reject),
	);
	const sample = new RegExp(`^wdm_connections_refused_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text);
	return sample ? Number(sample[1]) : NaN;
}

describe('one address churning half-open connections past its cap', () => {
	let server: App;
	beforeAll(async () => {
		server = await startServer({ maxConnections: 60, maxConnectionsPerAddress: 20, headersTimeoutMs: 1000 });
	});
	afterAll(() => server.close());

	test('/healthz and /readyz answer 200 at once, from that address too; a client under the cap is unaffected; the refusals are counted', async () => {
		const attack = churn(server, ATTACKER, 100);
		await new Promise((resolve) => setTimeout(resolve, 300));
		const probes: (Exchange & { path: string; from: string })[] = [];
		const requests: Exchange[] = [];
		const until = Date.now() + 3000;
		for (let i = 0; Date.now() < until; i++) {
			const path = i % 2 ? '/readyz' : '/healthz';
			const from = i % 4 < 2 ? CLIENT : ATTACKER;
			probes.push({ path, from, ...(await exchange(server, from, get(path))) });
			requests.push(await exchange(server, CLIENT, get('/wp-json/wp/v2/posts')));
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		await attack.stop();
		const slowest = Math.max(...probes.map((p) => p.ms));
		console.log(`connections: churn opened ${attack.opened()} connections; ${probes.length} probes, slowest ${slowest} ms; ${requests.length} requests`);
		expect(attack.opened()).toBeGreaterThan(200);
		expect(probes.filter((p) => p.status !== 200)).toEqual([]);
		expect(slowest).toBeLessThan(1000);
		expect(requests.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
		expect(await refused(server, 'per_address')).toBeGreaterThan(100);
	}, 20_000);
});

describe('past the caps', () => {
	let server: App;
	let held: net.Socket[];
	const scraper = new http.Agent({ keepAlive: true, maxSockets: 1 });
	beforeAll(async () => {
		server = await startServer({ maxConnections: 30, maxConnectionsPerAddress: 20 });
		// 20 from one address (its cap), 10 from another (the scraper's included): the server's cap is reached.
		await refused(server, 'global', scraper);
		held = [...(await hold(server, ATTACKER, 20)), ...(await hold(server, OTHER, 9))];
	});
	afterAll(async () => {
		held.forEach((s) => s.destroy());
		scraper.destroy();
		await server.close();
	});

	test('a new connection is closed without an answer, counted by reason; the connections held stay open', async () => {
		const [perAddress, global] = [await refused(server, 'per_address', scraper), await refused(server, 'global', scraper)];
		const overAddress = await exchange(server, ATTACKER, get('/wp-json/'));
		expect(overAddress.status).toBe(0);
		const overServer = await exchange(server, CLIENT, get('/wp-json/'));
		expect(overServer.status).toBe(0);
		// Half a request line, or nothing at all, is closed too (within a second).
		expect((await exchange(server, CLIENT, 'GET /heal')).status).toBe(0);
		const silent = await exchange(server, CLIENT, '');
		expect(silent.status).toBe(0);
		expect(silent.ms).toBeLessThan(1500);
		expect(held.every((s) => !s.destroyed)).toBe(true);
		expect(await refused(server, 'per_address', scraper)).toBe(perAddress + 1);
		expect(await refused(server, 'global', scraper)).toBe(global + 3);
	});

	test('health probes are answered, and their connection closed after the answer', async () => {
		for (const from of [CLIENT, ATTACKER]) {
			const health = await exchange(server, from, get('/healthz'));
			expect({ from, status: health.status, ms: health.ms < 500 }).toEqual({ from, status: 200, ms: true });
			expect(health.text).toMatch(/\r\nconnection: close\r\n/i);
			expect(health.text.endsWith('\r\n\r\n{"status":"ok"}')).toBe(true);
			const ready = await exchange(server, from, get('/readyz?verbose'));
			expect({ from, status: ready.status }).toEqual({ from, status: 200 });
			expect(JSON.parse(ready.text.slice(ready.text.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 'ready' });
			const head = await exchange(server, from, get('/readyz', 'HEAD'));
			expect(head.status).toBe(200);
			expect(head.text.endsWith('\r\n\r\n')).toBe(true);
		}
		// A keep-alive probe gets one answer, then the connection is closed: it cannot be kept for other requests.
		const keepAlive = await exchange(server, CLIENT, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /wp-json/ HTTP/1.1\r\nHost: x\r\n\r\n');
		expect(keepAlive.status).toBe(200);
		expect(keepAlive.text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
		// Other methods and paths are no probes.
		expect((await exchange(server, CLIENT, get('/healthz', 'POST'))).status).toBe(0);
		expect((await exchange(server, CLIENT, get('/healthzz'))).status).toBe(0);
	});
});

test('with the default settings, 500 concurrent keep-alive requests from loopback (a bulk send) all succeed', async () => {
	const server = await startServer();
	let connections = 0;
	server.app.server.on('connection', () => connections++);
	try {
		const statuses = await Promise.all(Array.from({ length: 500 }, () => fetch(`${server.url}/wp-json/wp/v2/posts`).then((r) => r.arrayBuffer().then(() => r.status))));
		expect(statuses.filter((s) => s !== 200)).toEqual([]);
		expect(connections).toBeGreaterThan(250);
		expect([await refused(server, 'per_address'), await refused(server, 'global')]).toEqual([0, 0]);
	} finally {
		await server.close();
	}
}, 60_000);
