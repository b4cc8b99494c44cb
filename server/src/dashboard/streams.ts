import type { FastifyReply } from 'fastify';
import { ApiError } from '../http/errors';

/** How long a stream may stay silent: a comment line then keeps proxies and browsers from timing it out. */
const KEEP_ALIVE_MS = 15_000;

/** One open server-sent-events answer. */
export interface EventStream {
	send(event: string, data: unknown): void;
	/** Runs once the stream ends, whoever ends it (the client leaving, or the server closing). */
	onEnd(cleanup: () => void): void;
}

/** Bounds of the streams (server settings `--event-streams-per-user`, `--event-streams-max`, `--event-stream-buffer-bytes`). */
export interface StreamLimits {
	perUser: number;
	max: number;
	/** Bytes a stream may have waiting for its client before it is closed. */
	bufferBytes: number;
}

/**
 * The server's open event streams. A stream never ends by itself, so a shutdown ends them first
 * (Fastify would otherwise wait for them until the grace period cuts their connections).
 * Each stream holds a connection (a descriptor) and what its client has not read yet: their number is
 * capped per user and in all, and a stream whose client stops reading is cut.
 */
export class EventStreams {
	private ends = new Set<() => void>();
	private perUser = new Map<number, number>();

	/** Streams open now, in all (for tests and metrics). */
	get size() {
		return this.ends.size;
	}

	/**
	 * Takes the answer over from Fastify and opens a stream on it for `userId`; a 429 naming the limit
	 * and its setting when the user or the server has as many streams open as allowed. A refused
	 * request's connection is closed with it, so refused attempts hold no descriptor either.
	 */
	open(reply: FastifyReply, userId: number, limits: StreamLimits): EventStream {
		const mine = this.perUser.get(userId) ?? 0;
		const refuse = (message: string, setting: string, limit: number) => {
			reply.header('connection', 'close');
			reply.header('retry-after', '5');
			return new ApiError(429, message, 'wdm_too_many_streams', { limit, setting });
		};
		if (mine >= limits.perUser) {
			throw refuse(`too many event streams: you have ${mine} open, at most ${limits.perUser} per user (--event-streams-per-user); close one first`, '--event-streams-per-user', limits.perUser);
		}
		if (this.ends.size >= limits.max) {
			throw refuse(`too many event streams on this server: ${this.ends.size} open, at most ${limits.max} in all (--event-streams-max); try again later`, '--event-streams-max', limits.max);
		}
		this.perUser.set(userId, mine + 1);
		reply.hijack();
		const res = reply.raw;
		// Set one by one rather than given to writeHead, so that they can still be read (the contract check does).
		res.setHeader('content-type', 'text/event-stream; charset=utf-8');
		res.setHeader('cache-control', 'no-store');
		res.setHeader('connection', 'keep-alive');
		// Tells reverse proxies (nginx) not to buffer the stream.
		res.setHeader('x-accel-buffering', 'no');
		res.writeHead(200);
		// The first bytes: a client's fetch resolves once headers and something of the body arrived.
		res.write(': stream open\n\n');
		const cleanups: (() => void)[] = [];
		let ended = false;
		const end = (cut = false) => {
			if (ended) return;
			ended = true;
			clearInterval(keepAlive);
			this.ends.delete(end);
			const left = (this.perUser.get(userId) ?? 1) - 1;
			if (left > 0) this.perUser.set(userId, left);
			else this.perUser.delete(userId);
			for (const cleanup of cleanups) cleanup();
			// A client that does not read would hold `end()`'s flush (and its buffer) forever: cut the socket.
			if (cut) res.destroy();
			else res.end();
		};
		/**
		 * Writes unless the client left more than the bound unread (Node buffers what the socket does not
		 * take): then the stream is cut, so a stalled reader costs at most the bound plus one event.
		 */
		const write = (text: string) => {
			if (ended) return;
			if (res.writableLength > limits.bufferBytes) return end(true);
			res.write(text);
		};
		const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS).unref();
		this.ends.add(end);
		res.on('close', () => end());
		// No `id:` fields: missed events are not replayed (a client reloads its state when it reconnects).
		return {
			// Called from inside the transaction that emits the event: it must never throw (that would undo the change).
			send: (event, data) => {
				if (ended) return;
				try {
					write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
				} catch {
					end(true);
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
