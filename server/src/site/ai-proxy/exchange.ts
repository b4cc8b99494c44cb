// What the proxy sends to the AI service and gets back, whether the service is remote (upstream.ts) or
// the built-in model (builtin.ts): below both.
import type { Readable } from 'node:stream';
import type { Method } from '../../http/route';

/** A request to the AI service: `path` relative to its base URL (`chat/completions`), `query` without `?`. */
export interface UpstreamRequest {
	method: Method;
	path: string;
	query: string;
	headers: Record<string, string>;
	body?: string;
}

export interface UpstreamAnswer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Readable;
}
