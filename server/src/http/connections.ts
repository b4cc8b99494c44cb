import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config';
import { connectionCap } from './limits';

/**
 * The connection caps: the server's (`maxConnections`, kept below the descriptor limit) and one client
 * address's (`maxConnectionsPerAddress`), counted here rather than by Node's `server.maxConnections`,
 * which closes a connection before a byte of it is read. A connection past a cap never reaches the HTTP
 * server: its request line is read, a health probe is answered and the connection closed, anything else
 * is closed unanswered and counted. So a client that churns connections cannot fail `/readyz`, even from
 * the prober's own address.
 */

export type RefusalReason = 'per_address' | 'global';

/** The health probes by path, each giving its answer (JSON). */
export type Probes = Map<string, () => { status: number; body: unknown }>;

/**
 * Connections past a cap read at once; past it the oldest is closed. A probe sends its request line as it
 * connects, so it is read long before as many other connections arrive: a churn that keeps the room full
 * evicts its own connections, not the probe, and the room never takes more descriptors than this.
 */
const SCREENED_AT_ONCE = 64;
/** A probe's request head (request line and headers) is a few hundred bytes. */
const PROBE_HEAD_BYTES = 4096;
const REQUEST_LINE = /^(GET|HEAD) (\/[^\s?]*)(?:\?\S*)? HTTP\/1\.[01]\r?\n/;

export interface ConnectionLimits {
	/** Connections closed unanswered past a cap, since the start. */
	refused: Record<RefusalReason, number>;
}

/** Takes over the server's `connection` event: connections within the caps go on to the HTTP server. */
export function limitConnections(server: Server, config: Config, probes: Probes): ConnectionLimits {
	const cap = connectionCap(config);
	// Unset, three quarters of the server's cap: a local n8n's bulk send (10,000 connections at once, from
	// one address) fits, and a quarter stays for everyone else.
	const perAddress = config.maxConnectionsPerAddress ?? Math.floor((cap * 3) / 4);
	const screenMs = Math.min(1000, config.headersTimeoutMs);
	const refused: Record<RefusalReason, number> = { per_address: 0, global: 0 };
	const byAddress = new Map<string, number>();
	let open = 0;
	const screened = new Set<Socket>();

	// Node's HTTP server (and whatever listened before) runs for the connections admitted.
	const serve = server.listeners('connection') as ((socket: Socket) => void)[];
	server.removeAllListeners('connection');
	server.on('connection', (socket: Socket) => {
		const address = socket.remoteAddress ?? '';
		const held = byAddress.get(address) ?? 0;
		const reason: RefusalReason | undefined = held >= perAddress ? 'per_address' : open >= cap ? 'global' : undefined;
		if (reason) return screen(socket, reason);
		open++;
		byAddress.set(address, held + 1);
		socket.once('close', () => {
			open--;
			const left = byAddress.get(address)! - 1;
			if (left) byAddress.set(address, left);
			else byAddress.delete(address);
		});
		for (const listener of serve) listener.call(server, socket);
	});

	/** Reads the request head of a connection past a cap: a health probe is answered, anything else closed. */
	function screen(socket: Socket, reason: RefusalReason) {
		if (screened.size >= SCREENED_AT_ONCE) {
			const oldest = screened.values().next().value!;
			screened.delete(oldest);
			oldest.destroy();
		}
		screened.add(socket);
		let head = '';
		let answered = false;
		const timer = setTimeout(() => socket.destroy(), screenMs);
		socket.on('error', () => undefined);
		socket.on('end', () => {
			if (!answered) socket.destroy();
		});
		socket.on('close', () => {
			clearTimeout(timer);
			screened.delete(socket);
			if (!answered) refused[reason]++;
		});
		socket.on('data', (chunk: Buffer) => {
			if (answered) return; // the rest of what it sends is dropped
			head += chunk.toString('latin1');
			const [, method, path] = REQUEST_LINE.exec(head) ?? [];
			const probe = path === undefined ? undefined : probes.get(path);
			if ((!probe && head.includes('\n')) || head.length > PROBE_HEAD_BYTES) return socket.destroy();
			if (!probe || !head.includes('\r\n\r\n')) return;
			answered = true;
			clearTimeout(timer);
			screened.delete(socket);
			const answer = probe();
			const body = Buffer.from(JSON.stringify(answer.body));
			const headers = [
				`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
				'content-type: application/json; charset=utf-8',
				`content-length: ${body.length}`,
				`date: ${new Date().toUTCString()}`,
				'connection: close',
			];
			socket.end(Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n\r\n`), method === 'HEAD' ? Buffer.alloc(0) : body]), () => socket.destroy());
		});
	}

	return { refused };
}
