import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Hit {
	at: number;
	path: string;
	headers: http.IncomingHttpHeaders;
	/** The body exactly as it arrived: signatures are computed over these bytes. */
	raw: string;
	body: any;
	/** When the connection of this request closed, if it did. */
	closedAt?: number;
}

/**
 * What a receiver does with a request: answer a status, `hang` (never answer), `destroy` the
 * socket, `trickle` (send 200 headers, then a byte every 50 ms for 5 s), `starting` (n8n's 200 to any
 * request while it starts), or wait for a promise first. `n` counts the hits on the same `webhook-id` from 1.
 */
export type Action = number | 'hang' | 'destroy' | 'trickle' | 'starting';
export type Behaviour = (hit: Hit, n: number) => Action | Promise<Action>;

export interface Receiver {
	url: string;
	port: number;
	hits: Hit[];
	/** Successfully answered hits (2xx). */
	delivered: Hit[];
	respond: Behaviour;
	/** Hits of one event type, or on one path. */
	events(event: string, path?: string): Hit[];
	onPath(path: string): Hit[];
	close(): Promise<void>;
}

/** A local webhook receiver on 127.0.0.1 (a fixed port when given, so it can come back after being down). */
export async function startReceiver(respond: Behaviour = () => 200, port = 0): Promise<Receiver> {
	const perId = new Map<string, number>();
	const hanging = new Set<http.ServerResponse>();
	const receiver: Receiver = {
		url: '',
		port: 0,
		hits: [],
		delivered: [],
		respond,
		events: (event, path) => receiver.delivered.filter((h) => h.body?.event === event && (path === undefined || h.path === path)),
		onPath: (path) => receiver.delivered.filter((h) => h.path === path),
		close: () =>
			new Promise<void>((resolve) => {
				for (const res of hanging) res.destroy();
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', async () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			let body: unknown;
			try {
				body = JSON.parse(raw);
			} catch {
				body = undefined;
			}
			const hit: Hit = { at: Date.now(), path: req.url ?? '/', headers: req.headers, raw, body };
			receiver.hits.push(hit);
			res.on('close', () => (hit.closedAt = Date.now()));
			const id = String(req.headers['webhook-id']);
			const n = (perId.get(id) ?? 0) + 1;
			perId.set(id, n);
			const action = await receiver.respond(hit, n);
			if (action === 'hang') {
				hanging.add(res);
				res.on('close', () => hanging.delete(res));
				return;
			}
			if (action === 'destroy') return void req.socket.destroy();
			if (action === 'trickle') {
				res.writeHead(200, { 'content-type': 'text/plain' });
				const timer = setInterval(() => res.write(' '), 50);
				const stop = setTimeout(() => res.end(), 5000);
				res.on('close', () => {
					clearInterval(timer);
					clearTimeout(stop);
					hanging.delete(res);
				});
				hanging.add(res);
				return;
			}
			if (action === 'starting') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('n8n is starting up. Please wait');
			if (action >= 200 && action < 300) receiver.delivered.push(hit);
			res.writeHead(action, { 'content-type': 'text/plain' }).end(String(action));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	receiver.port = (server.address() as AddressInfo).port;
	receiver.url = `http://127.0.0.1:${receiver.port}`;
	return receiver;
}

/** A port nothing listens on right now (connections to it are refused). */
export async function freePort(): Promise<number> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/**
 * Standard Webhooks verification, written out independently of the server: `webhook-signature`
 * holds space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>` keyed with the Base64-decoded secret.
 */
export function verifySignature(secret: string, hit: Hit): boolean {
	expect(secret.startsWith('whsec_')).toBe(true);
	const id = hit.headers['webhook-id'];
	const timestamp = hit.headers['webhook-timestamp'];
	const header = hit.headers['webhook-signature'];
	if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof header !== 'string') return false;
	if (!/^\d+$/.test(timestamp)) return false;
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${hit.raw}`).digest();
	return header.split(' ').some((part) => {
		const [version, sig] = part.split(',');
		if (version !== 'v1' || !sig) return false;
		const given = Buffer.from(sig, 'base64');
		return given.length === expected.length && crypto.timingSafeEqual(given, expected);
	});
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
