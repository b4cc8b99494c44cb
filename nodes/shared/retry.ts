import { createHash, randomUUID } from 'crypto';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse, JsonObject } from 'n8n-workflow';

/**
 * Retries of the direct path (direct.ts): each item's request is tried again, for a bound of seconds
 * the user sets (Request Options > Retry Transient Failures), when it failed for a passing reason:
 *
 * - the connection: refused, or the host not found or unreachable (nothing reached the server), reset,
 *   timed out or hung up (it may have reached the server: "maybe sent");
 * - the answer: 429 and 503 (the server says it did not take the request), 502 and 504 (a proxy in
 *   between: the server behind it may have taken it).
 *
 * A request that may have reached the server is tried again only when a repeat does nothing more: a
 * send (it carries an idempotency key, the gateway answers a repeat with the first message) or a GET,
 * HEAD, OPTIONS, PUT or DELETE. A POST or PATCH without a key that may have reached the server fails at
 * once, saying so. Any other answer (a 4xx is the request's fault, a 500 the server's verdict) is final.
 *
 * Waits: exponential backoff with full jitter (AWS's "Exponential Backoff And Jitter"), at least what
 * `Retry-After` asks (seconds or an HTTP date). The bound runs from the item's first try, and from the
 * start of the outage the whole run sees (the first failure since the last answer): in an outage longer
 * than the bound, the items after it are tried once and fail at once, instead of each waiting the bound.
 *
 * Nothing of this runs when nothing fails: a request that succeeds costs a Set lookup.
 */

/** Methods whose repeat has no further effect (RFC 9110, 9.2.2). */
export const REPEATABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Answers that mean "not now": 429 and 503 say the request was not taken; 502 and 504 come from a proxy. */
const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);
const NOT_TAKEN_STATUSES = new Set([429, 503]);

/** Connection errors (the `code` of Node's or axios's error) of a request that never reached the server. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN']);
/** Connection errors of a request that may have reached it (axios names its timeout ECONNABORTED). */
const MAYBE_SENT_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_CONNECTION_TIMEOUT']);

/** Backoff: the first wait is up to 250 ms, doubling to at most 8 s (then each wait is up to 8 s). */
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 8_000;

type Sent = 'no' | 'maybe';

/**
 * Whether an error of `httpRequestWithAuthentication` is a connection failure, and whether the request
 * may have reached the server. n8n wraps axios's error in a NodeApiError: its `httpCode` is the error's
 * `code` (Node's: ECONNREFUSED, ECONNRESET, ...; axios names its timeout ECONNABORTED) and its
 * `messages` keep axios's message ("connect ECONNREFUSED 127.0.0.1:5678", "socket hang up"). Its
 * `cause` is axios's error in n8n 1.x only (2.x drops an Error cause).
 */
export function connectionFailure(error: unknown): Sent | undefined {
	let at = error as { code?: unknown; httpCode?: unknown; message?: unknown; messages?: unknown; cause?: unknown } | undefined;
	for (let depth = 0; at && typeof at === 'object' && depth < 5; depth++, at = at.cause as typeof at) {
		for (const code of [at.code, at.httpCode]) {
			if (typeof code !== 'string') continue;
			if (NOT_SENT_CODES.has(code)) return 'no';
			if (MAYBE_SENT_CODES.has(code)) return 'maybe';
		}
		const texts = [at.message, ...(Array.isArray(at.messages) ? at.messages : [])].filter((text): text is string => typeof text === 'string');
		for (const text of texts) {
			const code = /\b(E[A-Z_]+)\b/.exec(text)?.[1];
			if (code && NOT_SENT_CODES.has(code)) return 'no';
			if ((code && MAYBE_SENT_CODES.has(code)) || /socket hang up/i.test(text)) return 'maybe';
		}
	}
	return undefined;
}

/** `Retry-After` in ms: delay-seconds or an HTTP date (RFC 9110, 10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: unknown, now = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const trimmed = String(text).trim();
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What the retries of one item did, for the message of an item that failed all the same. */
interface Tries {
	attempts: number;
	since: number;
	/** Whether a try may have reached the server (a reset, a timeout, a 502 or 504). */
	maybeSent: boolean;
	why: 'bound' | 'retryAfter' | 'off' | 'notRepeatable';
	retryAfter?: number;
}

/** What `send` gives back: the answer, and, when retries gave up on it, how to explain its error. */
export interface Sending {
	response: IN8nHttpFullResponse;
	gaveUp?: (error: Error) => Error;
}

export interface RetryPolicy {
	/** Sends (`request`, once or more) the request of an item; `generatedKey` is its idempotency key when made here. */
	send(request: () => Promise<IN8nHttpFullResponse>, generatedKey?: string): Promise<Sending>;
}

/**
 * The retries of one run of an operation: `seconds` is Request Options > Retry Transient Failures
 * (undefined: the default), read once per run; `keyed`: the operation's requests carry an idempotency
 * key; `method`: the request's method.
 */
export function retryPolicy(ctx: IExecuteFunctions, seconds: number | undefined, defaultSeconds: number, keyed: boolean, method: string): RetryPolicy {
	const bound = seconds === undefined || (seconds as unknown) === '' ? defaultSeconds : Number(seconds);
	if (!Number.isFinite(bound) || bound < 0) {
		throw new NodeOperationError(ctx.getNode(), `Retry Transient Failures (Request Options) must be a number of seconds, 0 or more: got ${JSON.stringify(seconds)}`);
	}
	const boundMs = bound * 1000;
	const repeatable = keyed || REPEATABLE_METHODS.has(method.toUpperCase());
	/** When the run's requests started failing (the first failure since the last answer), if they are. */
	let failingSince: number | undefined;
	let cancelled: Promise<void> | undefined;

	/** A wait that ends early when the execution is cancelled (one listener for the run, on the first wait). */
	const pause = async (ms: number) => {
		const signal = ctx.getExecutionCancelSignal?.();
		cancelled ??= new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
		await Promise.race([sleep(ms), cancelled]);
		if (signal?.aborted) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled while waiting to retry');
	};

	const explain = (tries: Tries, generatedKey?: string) => (error: Error) => {
		const failure = error.message.replace(/[.\s]*$/, '.');
		error.message = `${failure} ${whatHappened(tries, bound, method)} ${reRun(tries.maybeSent, keyed, generatedKey, method)}`;
		return error;
	};

	return {
		async send(request, generatedKey) {
			const started = Date.now();
			let attempts = 0;
			let maybeSent = false;
			for (;;) {
				attempts++;
				let response: IN8nHttpFullResponse | undefined;
				let failure: unknown;
				let sent: Sent = 'no';
				let after: number | undefined;
				try {
					response = await request();
				} catch (error) {
					const kind = connectionFailure(error);
					// Not a passing failure: as it is (a NodeApiError from n8n's helper is given back as it is).
					if (!kind) throw new NodeApiError(ctx.getNode(), error as JsonObject);
					failure = error;
					sent = kind;
				}
				if (response) {
					if (!TRANSIENT_STATUSES.has(response.statusCode)) {
						failingSince = undefined;
						return { response };
					}
					sent = NOT_TAKEN_STATUSES.has(response.statusCode) ? 'no' : 'maybe';
					after = retryAfterMs(response.headers?.['retry-after']);
				}
				if (sent === 'maybe') maybeSent = true;
				const now = Date.now();
				failingSince ??= now;
				const remaining = Math.min(started, failingSince) + boundMs - now;
				let why: Tries['why'] | undefined;
				if (boundMs === 0) why = 'off';
				else if (sent === 'maybe' && !repeatable) why = 'notRepeatable';
				else if (after !== undefined && after > remaining) why = 'retryAfter';
				else if (remaining <= 0) why = 'bound';
				if (why) {
					const gaveUp = explain({ attempts, since: started, maybeSent, why, retryAfter: after }, generatedKey);
					if (!response) throw gaveUp(failure as Error);
					return { response, gaveUp };
				}
				// Full jitter: a random wait up to the backoff (250 ms, doubling, at most 8 s); after
				// Retry-After, up to a second more, so that the items it stopped do not come back at once.
				const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (attempts - 1));
				const wait = after !== undefined ? after + Math.random() * Math.min(backoff, 1000) : Math.random() * backoff;
				await pause(Math.min(wait, remaining));
			}
		},
	};
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function whatHappened(tries: Tries, bound: number, method: string): string {
	const tried = `Tried ${tries.attempts} ${tries.attempts === 1 ? 'time' : 'times'} in ${seconds(Date.now() - tries.since)}`;
	switch (tries.why) {
		case 'off':
			return 'Not retried: Retry Transient Failures (Request Options) is 0.';
		case 'notRepeatable':
			return `${tried}, not again: it may have reached the server, and a ${method} without an idempotency key could be done twice.`;
		case 'retryAfter':
			return `${tried}; the server asked to wait ${seconds(tries.retryAfter!)} (Retry-After), past Retry Transient Failures (Request Options: ${bound} s).`;
		case 'bound':
			return `${tried}, up to Retry Transient Failures (Request Options: ${bound} s).`;
	}
}

function reRun(maybeSent: boolean, keyed: boolean, generatedKey: string | undefined, method: string): string {
	if (!maybeSent) return keyed ? 'Nothing was sent: a re-run is safe.' : 'Nothing was done: a re-run is safe.';
	if (keyed && !generatedKey) return 'It may have been sent: a re-run with the same Idempotency Key is safe (it sends nothing twice).';
	if (keyed) {
		return `It may have been sent: re-run with the same Idempotency Key to be safe. This run's was ${generatedKey}; a re-run makes new ones, so set Options > Idempotency Key (e.g. from the campaign and the contact) for re-runs that send once.`;
	}
	if (REPEATABLE_METHODS.has(method.toUpperCase())) return `It may have been done: a re-run is safe (a ${method} again does nothing more).`;
	return 'It may have been done: check before running it again.';
}

/**
 * The first part of the idempotency keys of a run of a send operation, when the user gives none: the
 * execution (n8n's ID; a random one if it has none), the run of the node in it (a node in a loop runs
 * once per pass) and a hash of the workflow and the node (their IDs).
 */
export function runKeyOf(ctx: IExecuteFunctions): string {
	const execution = String(ctx.getExecutionId?.() || randomUUID()).slice(0, 64);
	const runIndex = Number(ctx.getWorkflowDataProxy(0).$runIndex ?? 0);
	const where = createHash('sha256').update(`${ctx.getWorkflow().id ?? ''}\n${ctx.getNode().id}`).digest('base64url').slice(0, 12);
	return `n8n-${execution}-${where}-${runIndex}`;
}

/**
 * The idempotency key of item `i`: the run's, the item's index and a hash of the request (method, URL,
 * body). The request is in it because n8n's execution IDs are those of one n8n database (they start
 * again at 1 in a new one; in tests every run is execution 1): a key of another execution that comes
 * back with another request must not be the gateway's 422 "key reused", and is not.
 */
export function generatedKey(runKey: string, i: number, options: IHttpRequestOptions): string {
	const request = createHash('sha256').update(`${options.method ?? 'GET'} ${options.url}\n${JSON.stringify(options.body ?? null)}`).digest('base64url').slice(0, 16);
	return `${runKey}-${i}-${request}`;
}
