import dns from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { ipLiteral, isPublicAddress } from './policy';

/** Every address a host name resolves to. Injectable so tests can map names without DNS. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const dnsResolver: Resolver = async (hostname) =>
	(await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface OutboundOptions {
	/** Allow loopback and private targets (local development and tests). */
	allowPrivate: boolean;
	resolve?: Resolver;
	/** Which addresses may be connected to; by default the public ones (tests may widen it). */
	isAllowed?: (address: string) => boolean;
}

export interface FetchOptions {
	method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	headers?: Record<string, string>;
	body?: string;
	/** Time limit for the whole exchange: resolving, connecting, every redirect and reading the body. */
	timeoutMs: number;
	/** Largest body read. Past it the request fails with `too-large`, or, with `truncate`, reading just stops. */
	maxBytes: number;
	truncate?: boolean;
	/** Redirects followed (each hop checked like the first); a redirect past them is answered as is. */
	maxRedirects?: number;
}

/** A POST over a kept-alive connection (`Outbound.post`). */
export interface PostOptions {
	headers: Record<string, string>;
	body: string;
	/** Time limit for the whole exchange, waiting for a free connection included. */
	timeoutMs: number;
	/** Only this much of the answer's body is read (and dropped); past it, its connection is closed. */
	maxBytes: number;
}

/** Kept-alive connections per origin for `post`; more requests to one origin wait for a free one. */
export const POOL_CONNECTIONS = 32;

export interface FetchResult {
	status: number;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

/** An answer whose body is still arriving (`Outbound.open`). */
export interface StreamResult {
	status: number;
	headers: IncomingHttpHeaders;
	/** Fails with an OutboundError past `maxBytes` or the time limit; destroying it closes the connection. */
	body: Readable;
}

/**
 * Why a fetch failed. Only these reasons reach callers: what the target said or how it failed
 * (connection refused, reset...) must not leak, or the server becomes a probe of other hosts.
 */
export type OutboundFailure = 'private' | 'timeout' | 'too-large' | 'failed';

export class OutboundError extends Error {
	constructor(readonly reason: OutboundFailure) {
		super(`outbound request ${reason}`);
	}
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The one HTTP client for everything the server fetches or posts to. The host is resolved and every
 * address checked before connecting; the connection goes to the checked address itself (no second
 * lookup a rebinding DNS could answer differently), and the connected peer is checked once more.
 */
export class Outbound {
	private resolve: Resolver;
	private isAllowed: (address: string) => boolean;
	/** The connections `post` keeps alive, made on first use. */
	private pool?: Agent;

	constructor(options: OutboundOptions) {
		this.resolve = options.resolve ?? dnsResolver;
		this.isAllowed = options.allowPrivate ? () => true : (options.isAllowed ?? isPublicAddress);
	}

	async fetch(url: string, options: FetchOptions): Promise<FetchResult> {
		const signal = AbortSignal.timeout(options.timeoutMs);
		try {
			let target = new URL(url);
			for (let hops = 0; ; hops++) {
				const res = await this.exchange(target, options, signal);
				const location = res.headers.location;
				if (!REDIRECTS.has(res.statusCode ?? 0) || !location || hops >= (options.maxRedirects ?? 0)) {
					return { status: res.statusCode ?? 0, headers: res.headers, body: await readBody(res, options) };
				}
				res.destroy();
				target = new URL(location, target);
				if (!/^https?:$/.test(target.protocol)) throw new OutboundError('failed');
				// A 303 (and, as browsers do, a 301/302 after POST) continues as a GET without the body.
				if (res.statusCode === 303 || (options.method === 'POST' && res.statusCode !== 307 && res.statusCode !== 308)) {
					options = { ...options, method: 'GET', body: undefined };
				}
			}
		} catch (error) {
			if (error instanceof OutboundError) throw error;
			throw new OutboundError(signal.aborted ? 'timeout' : 'failed');
		}
	}

	/**
	 * One request answered as soon as its headers arrive, its body streamed as it comes (server-sent
	 * events pass through unbuffered), under the same checks and limits as `fetch`: the time limit runs
	 * on until the body ends, and a body past `maxBytes` fails. Redirects are answered as they are.
	 */
	async open(url: string, options: FetchOptions): Promise<StreamResult> {
		const signal = AbortSignal.timeout(options.timeoutMs);
		try {
			const res = await this.exchange(new URL(url), options, signal);
			return { status: res.statusCode ?? 0, headers: res.headers, body: limitedBody(res, options.maxBytes, signal) };
		} catch (error) {
			if (error instanceof OutboundError) throw error;
			throw new OutboundError(signal.aborted ? 'timeout' : 'failed');
		}
	}

	/**
	 * A POST whose connection is kept for the next one to the same origin (webhook deliveries: thousands a
	 * second to one receiver, where a connection per request was most of the cost). Every connection the
	 * pool opens passes the same checks as `fetch`'s (see `guardedConnector`), so reusing it is safe.
	 * Redirects are answered as they are; the status, the headers and the start of the body (`head`, up to
	 * 64 bytes) are kept.
	 */
	async post(url: string, options: PostOptions): Promise<{ status: number; headers: IncomingHttpHeaders; head: string }> {
		const signal = AbortSignal.timeout(options.timeoutMs);
		try {
			const res = await request(url, {
				dispatcher: (this.pool ??= this.newPool()),
				method: 'POST',
				headers: { 'user-agent': 'wdm-reference-server', ...options.headers },
				body: options.body,
				signal,
			});
			// Up to `maxBytes` is read and dropped, so a short answer leaves its connection for the next
			// request; past it, leaving the loop destroys the body and closes the connection. A body cut
			// short (or out of time) fails the request, as `fetch` does.
			let size = 0;
			let head = '';
			for await (const chunk of res.body as AsyncIterable<Buffer>) {
				if (size === 0) head = chunk.subarray(0, 64).toString('utf8');
				size += chunk.length;
				if (size >= options.maxBytes) break;
			}
			return { status: res.statusCode, headers: res.headers as IncomingHttpHeaders, head };
		} catch (error) {
			if (error instanceof OutboundError) throw error;
			throw new OutboundError(signal.aborted ? 'timeout' : 'failed');
		}
	}

	/** Closes the kept-alive connections (at shutdown). */
	async close() {
		await this.pool?.destroy();
		this.pool = undefined;
	}

	private newPool(): Agent {
		return new Agent({ connections: POOL_CONNECTIONS, keepAliveTimeout: 10_000, connect: this.guardedConnector() });
	}

	/**
	 * undici's connector behind the same checks as `exchange`: the host resolved and every address
	 * checked first, the socket opened to the checked address itself, and its peer checked once connected.
	 */
	private guardedConnector(): buildConnector.connector {
		const connect = buildConnector({ timeout: 10_000 });
		return (options, callback) => {
			this.checkedAddress(options.hostname, AbortSignal.timeout(10_000)).then(
				(address) =>
					connect({ ...options, hostname: address }, (error, socket) => {
						if (error) return callback(error, null);
						if (!socket.remoteAddress || !this.isAllowed(socket.remoteAddress)) {
							socket.destroy();
							return callback(new OutboundError('private'), null);
						}
						callback(null, socket);
					}),
				(error: Error) => callback(error, null),
			);
		};
	}

	/** One request to `url`, answered up to its headers. */
	private async exchange(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
		const address = await this.checkedAddress(url.hostname, signal);
		const family = address.includes(':') ? 6 : 4;
		// Node asks for every address when it may try several families (`all`); either way, this one.
		const lookup = ((_host, opts, callback) =>
			opts.all ? callback(null, [{ address, family }]) : callback(null, address, family)) as LookupFunction;
		return new Promise((resolve, reject) => {
			const req = (url.protocol === 'https:' ? https : http).request(url, {
				method: options.method ?? 'GET',
				headers: {
					'user-agent': 'wdm-reference-server',
					...options.headers,
					...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
				},
				lookup,
				// A fresh connection each time: a pooled socket would skip the peer check below.
				agent: false,
				signal,
			});
			req.on('socket', (socket) =>
				socket.once('connect', () => {
					if (!socket.remoteAddress || !this.isAllowed(socket.remoteAddress)) req.destroy(new OutboundError('private'));
				}),
			);
			req.on('response', resolve);
			req.on('error', reject);
			req.end(options.body);
		});
	}

	/** The address to connect to: the IP literal, or the first the name resolves to; refused unless every one is allowed. */
	private async checkedAddress(hostname: string, signal: AbortSignal): Promise<string> {
		const literal = ipLiteral(hostname);
		const addresses = literal ? [literal] : await abortable(this.resolve(hostname), signal);
		if (addresses.length === 0) throw new OutboundError('failed');
		// A name that also resolves to a private address is refused as a whole, not retried on another one.
		if (!addresses.every((a) => this.isAllowed(a))) throw new OutboundError('private');
		return addresses[0];
	}
}

/** Reads the body up to `maxBytes`, then fails (`too-large`) or, with `truncate`, stops and closes the connection. */
function readBody(res: IncomingMessage, options: FetchOptions): Promise<Buffer> {
	const declared = Number(res.headers['content-length']);
	if (!options.truncate && declared > options.maxBytes) {
		res.destroy();
		return Promise.reject(new OutboundError('too-large'));
	}
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		res.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= options.maxBytes) return void chunks.push(chunk);
			if (!options.truncate) return res.destroy(new OutboundError('too-large'));
			chunks.push(chunk.subarray(0, chunk.length - (size - options.maxBytes)));
			res.destroy();
			resolve(Buffer.concat(chunks));
		});
		res.on('error', reject);
		// After a truncated read this settles nothing (already resolved); otherwise a body cut short is a failure.
		res.on('close', () => (res.complete ? resolve(Buffer.concat(chunks)) : reject(new OutboundError('failed'))));
	});
}

/** `res` passed on chunk by chunk, with backpressure, failing (OutboundError) past `maxBytes`, on the time limit or a cut. */
function limitedBody(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Readable {
	const out = new PassThrough();
	let size = 0;
	res.on('data', (chunk: Buffer) => {
		size += chunk.length;
		if (size > maxBytes) return out.destroy(new OutboundError('too-large'));
		if (!out.write(chunk)) res.pause();
	});
	out.on('drain', () => res.resume());
	res.on('end', () => out.end());
	res.on('error', () => out.destroy(new OutboundError(signal.aborted ? 'timeout' : 'failed')));
	res.on('close', () => {
		if (!res.complete) out.destroy(new OutboundError(signal.aborted ? 'timeout' : 'failed'));
	});
	// The reader went away (or the body failed): the connection goes too.
	out.on('close', () => res.destroy());
	return out;
}

/** A whole body of `open`, as one Buffer (its limits apply). */
export async function readAll(body: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of body) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	return Promise.race([
		promise,
		new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
	]);
}
