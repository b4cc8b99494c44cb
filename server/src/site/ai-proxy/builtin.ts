import { openAiError } from '../../http/errors';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { UpstreamAnswer, UpstreamRequest } from './exchange';

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

const error = (status: number, message: string, code: string, param: string | null = null) => json(status, openAiError(status, message, code, param));

/** A message of a chat completion: `content` may be null (an assistant's tool calls) or text parts. */
interface ChatMessage {
	role: string;
	content: string | null | Array<{ type?: string; text?: string }>;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
}

interface ToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

/** A tool the caller offers: a function with a JSON Schema of its arguments. */
interface Tool {
	type: 'function';
	function: { name: string; description?: string; parameters?: { properties?: Record<string, { type?: string; description?: string; enum?: unknown[] }>; required?: string[] } };
}

function parseBody(body: string | undefined): Record<string, unknown> | undefined {
	try {
		const value = body ? JSON.parse(body) : {};
		return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

const isMessage = (m: unknown): m is ChatMessage => {
	if (!m || typeof m !== 'object' || typeof (m as ChatMessage).role !== 'string') return false;
	const { content } = m as ChatMessage;
	return typeof content === 'string' || content === null || (Array.isArray(content) && content.every((part) => part && typeof part === 'object'));
};

const isTool = (t: unknown): t is Tool =>
	!!t && typeof t === 'object' && (t as Tool).type === 'function' && typeof (t as Tool).function?.name === 'string' && (t as Tool).function.name !== '';

/** The text of a message: its content, or its text parts joined. */
const textOf = (m: ChatMessage) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => p.text ?? '').join('') : '');

/** The reply to a conversation: what the last user message says, echoed with what the model saw. */
function reply(messages: ChatMessage[], model: string): string {
	const last = [...messages].reverse().find((m) => m.role === 'user');
	if (!last) return `(${model}) There is no user message to answer.`;
	const text = textOf(last);
	const words = tokens(text).filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
	return `You said: "${text}" (${words} ${words === 1 ? 'word' : 'words'}, message ${messages.filter((m) => m.role === 'user').length} of this conversation).`;
}

/*
 * Tool calls, deterministic: when the last message is the user's and tools are offered, the tool whose
 * name and description share the most words with the prompt is called (none shared, no call), its
 * arguments read from the prompt by what each parameter is for: a phone number for a recipient, the
 * quoted text for a message, `name: value` for anything else. Once the tool answered (the last
 * message is the tool's), the model answers with what it said.
 */

/** Lowercase words of four letters or more, singular: `messages` and `message` are one word. */
const keywords = (text: string) =>
	new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).map((word) => word.replace(/(?<=[^s])s$/, '')));

/** The offered tool that fits the prompt best, if any fits. Ties go to the first offered. */
function chooseTool(prompt: string, tools: Tool[]): Tool | undefined {
	const asked = keywords(prompt);
	let best: Tool | undefined;
	let bestScore = 0;
	for (const tool of tools) {
		const offered = keywords(`${tool.function.name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')} ${tool.function.description ?? ''}`);
		const score = [...offered].filter((word) => asked.has(word)).length;
		if (score > bestScore) [best, bestScore] = [tool, score];
	}
	return best;
}

const PHONE = /\+?\d[\d\s().-]{6,}\d/;
/** Quoted text, double quotes first (an apostrophe is no quote unless nothing else is quoted). */
const QUOTES = [/"([^"]+)"/, /“([^”]+)”/, /'([^']+)'/];

const kindOf = (about: string): 'phone' | 'text' | undefined => {
	const lower = about.toLowerCase();
	if (/phone|number|recipient|\bto\b|contact|jid/.test(lower)) return 'phone';
	if (/text|message|body|content|caption/.test(lower)) return 'text';
	return undefined;
};

/** An argument for a parameter, read from the prompt by what the parameter is for; undefined if the prompt does not say. */
function argumentFor(name: string, schema: { type?: string; description?: string; enum?: unknown[] }, prompt: string): unknown {
	const named = new RegExp(`\\b${name.replace(/[^\w]/g, '')}\\s*[:=]\\s*(?:"([^"]*)"|([^\\s,;]+))`, 'i').exec(prompt);
	let value: string | undefined = named ? (named[1] ?? named[2]) : undefined;
	// What the parameter is for: its name says it best, else its description.
	const kind = kindOf(name) ?? kindOf(schema.description ?? '');
	if (value === undefined && kind === 'phone') value = PHONE.exec(prompt)?.[0].replace(/[^\d+]/g, '');
	if (value === undefined && kind === 'text') value = QUOTES.map((quotes) => quotes.exec(prompt)?.[1]).find((text) => text !== undefined);
	if (value === undefined) return undefined;
	if (schema.type === 'number' || schema.type === 'integer') return Number.isFinite(Number(value)) ? Number(value) : undefined;
	if (schema.type === 'boolean') return value === 'true';
	return value;
}

/** The call of `tool` the prompt asks for. */
function toolCall(tool: Tool, prompt: string, id: string): ToolCall {
	const properties = tool.function.parameters?.properties ?? {};
	const args: Record<string, unknown> = {};
	for (const [name, schema] of Object.entries(properties)) {
		const value = argumentFor(name, schema ?? {}, prompt);
		if (value !== undefined) args[name] = value;
	}
	return { id, type: 'function', function: { name: tool.function.name, arguments: JSON.stringify(args) } };
}

/** The answer after a tool ran: the tool's name and what it answered. */
function afterTool(messages: ChatMessage[]): string {
	const last = messages[messages.length - 1];
	const call = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === last.tool_call_id);
	return `Done: ${call?.function.name ?? 'the tool'} answered ${textOf(last)}`;
}

function chat(body: Record<string, unknown>): UpstreamAnswer {
	const model = typeof body.model === 'string' && body.model ? body.model : DEFAULT_CHAT_MODEL;
	if (!BUILTIN_MODELS.some((m) => m.id === model && m.kind === 'chat')) return error(404, `The model \`${model}\` does not exist or is not a chat model.`, 'model_not_found', 'model');
	const messages = body.messages;
	if (!Array.isArray(messages) || messages.length === 0) return error(400, "'messages' must be a non-empty array.", 'invalid_value', 'messages');
	if (!messages.every(isMessage)) return error(400, "Each message must have a string 'role' and a 'content' (text, text parts or null).", 'invalid_value', 'messages');
	const tools = body.tools === undefined ? [] : body.tools;
	if (!Array.isArray(tools) || !tools.every(isTool)) return error(400, "'tools' must be an array of {type: 'function', function: {name, description, parameters}}.", 'invalid_value', 'tools');
	const max = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? Math.floor(body.max_tokens) : Infinity;
	const id = `chatcmpl-${crypto.createHash('sha256').update(JSON.stringify([model, messages])).digest('hex').slice(0, 24)}`;
	const created = Math.floor(Date.now() / 1000);
	const prompt = messages.reduce((sum, m) => sum + tokens(textOf(m) + (m.tool_calls ? JSON.stringify(m.tool_calls) : '')).length + 3, 3);

	const last = messages[messages.length - 1];
	const tool = last.role === 'user' && body.tool_choice !== 'none' ? chooseTool(textOf(last), tools) : undefined;
	if (tool) {
		const call = toolCall(tool, textOf(last), `call_${id.slice('chatcmpl-'.length)}`);
		const completion = tokens(call.function.name + call.function.arguments).length;
		const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
		if (body.stream !== true) {
			return json(200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }], usage });
		}
		return stream(id, created, model, [{ role: 'assistant', content: null, tool_calls: [{ index: 0, ...call }] }], 'tool_calls', body, usage);
	}

	const text = last.role === 'tool' ? afterTool(messages) : reply(messages, model);
	const words = text.split(/(?<= )/); // keeps each word's trailing space
	const kept = words.filter((_, i) => tokens(words.slice(0, i + 1).join('')).length <= max);
	const content = kept.join('');
	const finish = kept.length < words.length ? 'length' : 'stop';
	const usage = { prompt_tokens: prompt, completion_tokens: tokens(content).length, total_tokens: prompt + tokens(content).length };

	if (body.stream !== true) {
		return json(200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }], usage });
	}
	// One event per word, as OpenAI streams them.
	return stream(id, created, model, [{ role: 'assistant', content: '' }, ...kept.map((word) => ({ content: word }))], finish, body, usage);
}

/** Server-sent events: one chunk per delta, the finish, the usage if asked for, then [DONE]. */
function stream(id: string, created: number, model: string, deltas: object[], finish: string, body: Record<string, unknown>, usage: object): UpstreamAnswer {
	const chunk = (delta: object, finishReason: string | null) =>
		`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
	const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
	const events = [
		...deltas.map((delta) => chunk(delta, null)),
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
	const format = body.encoding_format ?? 'float';
	if (format !== 'float' && format !== 'base64') return error(400, "'encoding_format' must be 'float' or 'base64'.", 'invalid_value', 'encoding_format');
	const prompt = input.reduce((sum, text) => sum + tokens(text).length, 0);
	return json(200, {
		object: 'list',
		data: input.map((text, index) => {
			const vector = embedding(text, dimensions);
			// base64: the vector's float32 values, little-endian, as OpenAI sends them (its SDK asks for this by default).
			return { object: 'embedding', index, embedding: format === 'float' ? vector : Buffer.from(new Float32Array(vector).buffer).toString('base64') };
		}),
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
