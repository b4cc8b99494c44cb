import type { Route } from './route';
import { headerCase } from './rest-server';

/**
 * For running a route in process, as WordPress's REST server dispatches an internal request (`_embed`'s
 * links, a batch's requests, an MCP tool): the route the router would pick, and a reply that keeps
 * what the route sets on it.
 */

/** Splits `/cms/v2/posts?status=draft` the way the server reads a URL (repeated keys become arrays). */
export function splitPath(path: string): { path: string; query: Record<string, string | string[]> } {
	const q = path.indexOf('?');
	const bare = (q < 0 ? path : path.slice(0, q)).split('#')[0];
	const query: Record<string, string | string[]> = Object.create(null);
	for (const [key, value] of new URLSearchParams(q < 0 ? '' : path.slice(q + 1).split('#')[0])) {
		const seen = query[key];
		if (seen === undefined) query[key] = value;
		else if (Array.isArray(seen)) seen.push(value);
		else query[key] = [seen, value];
	}
	// The router ignores a trailing slash.
	return { path: bare.length > 1 ? bare.replace(/\/+$/, '') : bare, query };
}

/**
 * The route of the table a request would reach, with its path parameters; static segments win over
 * parameters, as in the router. Undefined when none matches.
 */
export function matchRoute(routes: Route[], method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
	const segments = path.split('/');
	let best: { route: Route; params: Record<string, string>; rank: string } | undefined;
	for (const candidate of routes) {
		if (candidate.method !== method) continue;
		const pattern = candidate.path.split('/');
		if (pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		let rank = '';
		const fits = pattern.every((part, i) => {
			const name = part.match(/^\{(\w+)\}$/)?.[1];
			rank += name ? '1' : '0';
			if (!name) return part === segments[i];
			if (segments[i] === '') return false;
			try {
				params[name] = decodeURIComponent(segments[i]);
			} catch {
				return false;
			}
			return true;
		});
		if (fits && (!best || rank < best.rank)) best = { route: candidate, params, rank };
	}
	return best && { route: best.route, params: best.params };
}

/**
 * The reply a route answers on when the server runs it in process (a request of the batch, an MCP
 * tool): the status, headers and body the route sets on it.
 */
export class InProcessReply {
	statusCode = 200;
	headers: Record<string, string> = {};
	payload: unknown;

	code(status: number) {
		this.statusCode = status;
		return this;
	}

	/** Names as WordPress writes them in a batch's answers (`X-WP-Total`, `Location`), whatever case the route used. */
	header(name: string, value: unknown) {
		this.headers[headerCase(name)] = Array.isArray(value) ? value.join(', ') : String(value);
		return this;
	}

	send(payload: unknown) {
		this.payload = payload;
		return this;
	}
}

