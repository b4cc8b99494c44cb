import { ApiError } from '../../http/errors';
import { OutboundError, readAll } from '../../outbound/fetch';
import type { Services } from '../../services';
import { builtinUpstream } from './builtin';
import type { UpstreamAnswer, UpstreamRequest } from './exchange';

/** Largest answer read from the AI service (a streamed one included). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const FAILURES: Record<OutboundError['reason'], string> = {
	timeout: 'it did not answer in time',
	failed: 'the connection failed',
	private: 'its address is private and the server may not reach it',
	'too-large': `its answer is larger than ${MAX_ANSWER_BYTES} bytes`,
};

/** The 502 the proxy answers when the AI service fails: what happened, never the key. */
export const upstreamError = (message: string, data: Record<string, unknown> = {}) => new ApiError(502, message, 'proxyext_upstream_error', data);

/** Why a read from the AI service failed, as a 502. */
export function failure(error: unknown): ApiError {
	if (error instanceof OutboundError) return upstreamError(`The AI service could not be reached: ${FAILURES[error.reason]}.`);
	throw error;
}

/**
 * Sends a request to the configured AI service: the built-in model in-process, or the upstream URL
 * through the guarded outbound client. Answers as soon as the headers arrive (the body streams).
 */
export async function callUpstream(services: Services, request: UpstreamRequest): Promise<UpstreamAnswer> {
	const base = services.config.aiUpstreamUrl;
	if (base === 'builtin') return builtinUpstream(request);
	const url = `${base.replace(/\/+$/, '')}/${request.path}${request.query ? `?${request.query}` : ''}`;
	try {
		return await services.outbound.open(url, {
			method: request.method,
			headers: request.headers,
			body: request.body,
			timeoutMs: services.config.aiTimeoutMs,
			maxBytes: MAX_ANSWER_BYTES,
		});
	} catch (error) {
		throw failure(error);
	}
}

/** A whole answer as text (its limits apply). */
export async function answerText(answer: UpstreamAnswer): Promise<string> {
	try {
		return (await readAll(answer.body)).toString('utf8');
	} catch (error) {
		throw failure(error);
	}
}
