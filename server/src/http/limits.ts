import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { envName, kebab, type Config } from '../config';
import { ApiError } from './errors';
import type { Route } from './route';

/**
 * What a request may cost before and while its body is read. Credentials are checked before a body is
 * read (`dispatch.ts`, the route's `onRequest` hook); then the body's limit follows the caller and the
 * route: a caller without credentials gets `anonymousBodyLimit`, a signed-in one `jsonBodyLimit`, and
 * only the routes that take media (`route.media`, `route.rawBody`) `bodyLimit`, which caps the others.
 */

export const LIMIT_SETTINGS = ['anonymousBodyLimit', 'jsonBodyLimit', 'bodyLimit'] as const;
type LimitSetting = (typeof LIMIT_SETTINGS)[number];

/** Whether the route takes files in its body: an upload, or Base64 media. */
export const takesMedia = (route: Route) => !!(route.media || route.rawBody);

/** The limit that binds (the smallest of the settings that apply) and the setting that raises it. */
function binding(config: Config, settings: LimitSetting[]): { limit: number; setting: LimitSetting } {
	const setting = settings.reduce((a, b) => (config[b] < config[a] ? b : a));
	return { limit: config[setting], setting };
}

/** The largest body the route takes from anyone: Fastify's own check, a backstop behind `limitBody`. */
export const routeBodyLimit = (config: Config, route: Route) => binding(config, takesMedia(route) ? ['bodyLimit'] : ['jsonBodyLimit', 'bodyLimit']).limit;

/** The largest body of a request without credentials, and of everything outside the route table. */
export const anonymousBodyLimit = (config: Config) => binding(config, ['anonymousBodyLimit', 'bodyLimit']).limit;

/** The 413 of a body over `limit`, naming the setting that raises it. */
export function bodyTooLarge(limit: number, setting: LimitSetting, anonymous = false) {
	const who = anonymous ? ' for a request without credentials (sign in to send more)' : '';
	return new ApiError(413, `body is larger than the limit of ${limit} bytes${who}; the server's --${kebab(setting)} (${envName(setting)}) raises it`, 'rest_body_too_large');
}

/**
 * For the route's `preParsing` hook, once the caller is known: a body announced larger than its limit
 * is refused before a byte of it is read (Node then discards the rest as it arrives); a chunked one is
 * counted as it arrives and refused at the first byte past the limit (the connection is then closed).
 */
export function limitBody(config: Config, route: Route, request: FastifyRequest, payload: Readable, anonymous: boolean): Readable {
	const settings: LimitSetting[] = anonymous ? ['anonymousBodyLimit', 'bodyLimit'] : takesMedia(route) ? ['bodyLimit'] : ['jsonBodyLimit', 'bodyLimit'];
	const { limit, setting } = binding(config, settings);
	const length = Number(request.headers['content-length']);
	if (length > limit) throw bodyTooLarge(limit, setting, anonymous);
	// With a Content-Length, Node's parser delivers no more than it says.
	if (request.headers['content-length'] !== undefined) return payload;
	let seen = 0;
	const counter = new Transform({
		transform(chunk: Buffer, _encoding, done) {
			seen += chunk.length;
			if (seen <= limit) return done(null, chunk);
			// The rest is read and dropped, as Node drops the rest of a body refused by its length, so that
			// the client, still sending, reads the 413 (a connection closed under it would be reset).
			payload.unpipe(counter);
			payload.resume();
			done(Object.assign(bodyTooLarge(limit, setting, anonymous), { statusCode: 413, keepConnection: true }));
		},
	});
	return payload.pipe(counter);
}

/** Descriptors the server keeps for itself (the store, files, webhooks and media it fetches, logs). */
const RESERVED_DESCRIPTORS = 256;

/**
 * The connection cap in force: the setting, kept below the process's descriptor limit (Linux's
 * `/proc/self/limits`; Node raises the soft limit to the hard one), so that a flood of connections
 * never takes the descriptors the store and `/healthz` need. Elsewhere the setting as given.
 */
export function connectionCap(config: Config): number {
	let limits = '';
	try {
		limits = fs.readFileSync('/proc/self/limits', 'utf8');
	} catch {
		return config.maxConnections;
	}
	const soft = Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1]);
	return soft > RESERVED_DESCRIPTORS * 2 ? Math.min(config.maxConnections, soft - RESERVED_DESCRIPTORS) : config.maxConnections;
}

/**
 * The HTTP server's timeouts, as Fastify's options: slow headers and slow requests are cut (Node checks
 * every connection each second, instead of every 30 s), idle keep-alive connections close.
 */
export function connectionOptions(config: Config) {
	const headersTimeout = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
	return {
		keepAliveTimeout: config.keepAliveTimeoutMs,
		requestTimeout: config.requestTimeoutMs,
		http: { headersTimeout, connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(headersTimeout / 4))) },
	};
}
