import type { FastifyReply } from 'fastify';

/** How long a stream may stay silent: a comment line then keeps proxies and browsers from timing it out. */
const KEEP_ALIVE_MS = 15_000;

/** One open server-sent-events answer. */
export interface EventStream {
	send(event: string, data: unknown): void;
	/** Runs once the stream ends, whoever ends it (the client leaving, or the server closing). */
	onEnd(cleanup: () => void): void;
}

/**
 * The server's open event streams. A stream never ends by itself, so a shutdown ends them first
 * (Fastify would otherwise wait for them until the grace period cuts their connections).
 */
export class EventStreams {
	private ends = new Set<() => void>();

	/** Takes the answer over from Fastify and opens a stream on it. */
	open(reply: FastifyReply): EventStream {
		reply.hijack();
		const res = reply.raw;
		res.writeHead(200, {
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-store',
			connection: 'keep-alive',
			// Tells reverse proxies (nginx) not to buffer the stream.
			'x-accel-buffering': 'no',
		});
		// The first bytes: a client's fetch resolves once headers and something of the body arrived.
		res.write(': stream open\n\n');
		const cleanups: (() => void)[] = [];
		const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS).unref();
		let ended = false;
		const end = () => {
			if (ended) return;
			ended = true;
			clearInterval(keepAlive);
			this.ends.delete(end);
			for (const cleanup of cleanups) cleanup();
			res.end();
		};
		this.ends.add(end);
		res.on('close', end);
		// No `id:` fields: missed events are not replayed (a client reloads its state when it reconnects).
		return {
			// Called from inside the transaction that emits the event: it must never throw (that would undo the change).
			send: (event, data) => {
				if (ended) return;
				try {
					res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
				} catch {
					end();
				}
			},
			onEnd: (cleanup) => cleanups.push(cleanup),
		};
	}

	closeAll() {
		for (const end of [...this.ends]) end();
	}
}

declare module 'fastify' {
	interface FastifyInstance {
		/** The open server-sent-event streams (`GET /sandbox/v1/events`). */
		eventStreams: EventStreams;
	}
}
