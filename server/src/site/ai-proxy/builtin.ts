import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { UpstreamAnswer, UpstreamRequest } from './upstream';

/**
 * The default AI upstream: a deterministic simulated model served in-process, OpenAI-compatible
 * (`/models`, `/chat/completions` plain and streamed, `/embeddings`), so the proxy works with no
 * network. Answers derive from the input alone; token usage counts words and punctuation.
 */

const CREATED = 1735689600; // 2025-01-01, when the simulated models "appeared"

export const BUILTIN_MODELS = [
	{ id: 'wdm-echo-1', kind: 'chat' },
	{ id: 'wdm-echo-mini', kind: 'chat' },
	{ id: 'wdm-embed-1', kind: 'embedding' },
] as const;

export const DEFAULT_CHAT_MODEL = 'wdm-echo-1';

const modelView = (id: string) => ({ id, object: 'model', created: CREATED, owned_by: 'wdm' });

/** Tokens as this model counts them: words and single punctuation marks. */
const tokens = (text: string) => text.match(/[\p{L}\p{N}_']+|[^\s\p{L}\p{N}_']/gu) ?? [];

const json = (status: number, body: unknown): UpstreamAnswer => ({
	status,
	headers: { 'content-type': 'application/json' },
	body: Readable.from([Buffer.from(JSON.stringify(body))]),
});

const error = (status: number, message: string, code: string, param: string | null = null) =>
	json(status, { error: { message, type: status === 401 ? 'authentication_error' : 'invalid_request_error', param, code } });

interface ChatMessage {
	role: string;
	content: string;
}

function parseBody(body: string | undefined): Record<string, unknown> | undefined {
	try {
		const value = body ? JSON.parse(body) : {};
		return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

const isMessage = (m: unknown): m is ChatMessage =>
	!!m && typeof m === 'object' && typeof (m as ChatMessage).role === 'string' && typeof (m as ChatMessage).content === 'string';

/** The reply to a conversation: what the last user message says, echoed with what the model saw. */
function reply(messages: ChatMessage[], model: string): string {
	const last = [...messages].reverse().find((m) => m.role === 'user');
	if (!last) return `(${model}) There is no user message to answer.`;
	const words = tokens(last.content).filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
	return `You said: "${last.content}" (${words} ${words === 1 ? 'word' : 'words'}, message ${messages.filter((m) => m.role === 'user').length} of this conversation).`;
}

function chat(body: Record<string, unknown>): UpstreamAnswer {
	const model = typeof body.model === 'string' && body.model ? body.model : DEFAULT_CHAT_MODEL;
	if (!BUILTIN_MODELS.some((m) => m.id === model && m.kind === 'chat')) return error(404, `The model \`${model}\` does not exist or is not a chat model.`, 'model_not_found', 'model');
	const messages = body.messages;
	if (!Array.isArray(messages) || messages.length === 0) return error(400, "'messages' must be a non-empty array.", 'invalid_value', 'messages');
	if (!messages.every(isMessage)) return error(400, "Each message must have a string 'role' and 'content'.", 'invalid_value', 'messages');
	const max = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? Math.floor(body.max_tokens) : Infinity;

	const words = reply(messages, model).split(/(?<= )/); // keeps each word's trailing space
	const kept = words.filter((_, i) => tokens(words.slice(0, i + 1).join('')).length <= max);
	const content = kept.join('');
	const finish = kept.length < words.length ? 'length' : 'stop';
	const prompt = messages.reduce((sum, m) => sum + tokens(m.content).length + 3, 3);
	const usage = { prompt_tokens: prompt, completion_tokens: tokens(content).length, total_tokens: prompt + tokens(content).length };
	const id = `chatcmpl-${crypto.createHash('sha256').update(JSON.stringify([model, messages])).digest('hex').slice(0, 24)}`;
	const created = Math.floor(Date.now() / 1000);

	if (body.stream !== true) {
		return json(200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }], usage });
	}
	// Server-sent events, one per word, as OpenAI streams them.
	const chunk = (delta: object, finishReason: string | null, extra = {}) =>
		`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
	const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
	const events = [
		chunk({ role: 'assistant', content: '' }, null),
		...kept.map((word) => chunk({ content: word }, null)),
		chunk({}, finish),
		...(includeUsage ? [`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`] : []),
		'data: [DONE]\n\n',
	];
	return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: Readable.from(events.map((e) => Buffer.from(e))) };
}

/** A unit vector of `dimensions` numbers derived from the text's hash. */
function embedding(text: string, dimensions: number): number[] {
	const values: number[] = [];
	for (let block = 0; values.length < dimensions; block++) {
		const digest = crypto.createHash('sha256').update(`${block}:${text}`).digest();
		for (let i = 0; i + 1 < digest.length && values.length < dimensions; i += 2) values.push(digest.readUInt16BE(i) / 32767.5 - 1);
	}
	const norm = Math.hypot(...values) || 1;
	return values.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}

function embeddings(body: Record<string, unknown>): UpstreamAnswer {
	const model = typeof body.model === 'string' && body.model ? body.model : 'wdm-embed-1';
	if (!BUILTIN_MODELS.some((m) => m.id === model && m.kind === 'embedding')) return error(404, `The model \`${model}\` does not exist or is not an embedding model.`, 'model_not_found', 'model');
	const input = typeof body.input === 'string' ? [body.input] : body.input;
	if (!Array.isArray(input) || input.length === 0 || !input.every((s) => typeof s === 'string')) {
		return error(400, "'input' must be a string or a non-empty array of strings.", 'invalid_value', 'input');
	}
	const dimensions = body.dimensions === undefined ? 16 : Number(body.dimensions);
	if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 256) return error(400, "'dimensions' must be an integer from 1 to 256.", 'invalid_value', 'dimensions');
	const prompt = input.reduce((sum, text) => sum + tokens(text).length, 0);
	return json(200, {
		object: 'list',
		data: input.map((text, index) => ({ object: 'embedding', index, embedding: embedding(text, dimensions) })),
		model,
		usage: { prompt_tokens: prompt, total_tokens: prompt },
	});
}

/** Answers one request as the simulated service. */
export function builtinUpstream(request: UpstreamRequest): UpstreamAnswer {
	if (!/^Bearer \S+/.test(request.headers.authorization ?? '')) return error(401, 'You must provide an API key (Authorization: Bearer ...).', 'invalid_api_key');
	const body = parseBody(request.body);
	const path = request.path.replace(/^\/+|\/+$/g, '');
	const route = (method: string, handle: () => UpstreamAnswer) =>
		request.method === method ? handle() : error(405, `${request.method} is not allowed on /${path}; use ${method}.`, 'method_not_allowed');

	if (path === 'models') return route('GET', () => json(200, { object: 'list', data: BUILTIN_MODELS.map((m) => modelView(m.id)) }));
	if (path.startsWith('models/')) {
		const id = path.slice('models/'.length);
		return route('GET', () => (BUILTIN_MODELS.some((m) => m.id === id) ? json(200, modelView(id)) : error(404, `The model \`${id}\` does not exist.`, 'model_not_found')));
	}
	if (path === 'chat/completions' || path === 'embeddings') {
		if (request.method === 'POST' && !body) return error(400, 'The body must be a JSON object.', 'invalid_json');
		return route('POST', () => (path === 'embeddings' ? embeddings(body!) : chat(body!)));
	}
	return error(404, `Unknown request URL: ${request.method} /${path}.`, 'unknown_url');
}
