import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Method, route, type Route } from '../../http/route';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { wpInt } from '../content/params';
import { canUse } from './access';
import { Redactor } from './redact';
import { aiModel, apiKey, type ConversationMessage, conversation, conversationMessageAnswer, remember, saveConversation } from './state';
import { answerText, callUpstream, failure, upstreamError } from './upstream';

/**
 * The proxy itself (`edit_posts`): every method of `/ai-api-proxy/{api_path}` goes to the AI service
 * with the stored key, and its answer comes back as it is (status and body; server-sent events
 * streamed as they arrive); a failure of the service is a 502 with its message. Chat completions are
 * remembered per user: `response` answers the last reply, `clear-conversation` forgets them.
 */

const base = '/proxyext/v1/ai-api-proxy';
const ALL_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const EDITABLE: Method[] = ['POST', 'PUT', 'PATCH'];
/** The requests the chosen model stands in for when they name none (an embedding needs a model of its own kind). */
const CHAT_PATHS = new Set(['chat/completions', 'completions', 'responses']);

/**
 * A path of the AI service, relative (`chat/completions`, `models/gpt-4o`): the rest of the route's path
 * (WordPress's `(?P<api_path>.+)`). No `..`, no empty segment: the URL stays under the service's base.
 */
const apiPath = z.string().regex(/^(?!.*(?:^|\/)\.\.?(?:\/|$))[\w.:@-]+(?:\/[\w.:@-]+)*$/, {
	error: 'must be a path of the AI service such as chat/completions (segments of letters, digits and . _ - : @)',
});


/** The query string of the request (after the route), as the service gets it. */
const queryOf = (request: FastifyRequest) => {
	const q = request.url.indexOf('?');
	return q < 0 ? '' : request.url.slice(q + 1);
};

/** The messages of a chat completion worth remembering: the user's newest one, and the reply (both without the key). */
function exchange(redactor: Redactor, body: unknown, reply: string, model: string): ConversationMessage[] {
	const date = new Date().toISOString();
	const messages = (body as { messages?: unknown })?.messages;
	const last = Array.isArray(messages) ? messages[messages.length - 1] : undefined;
	const asked = last && last.role === 'user' && typeof last.content === 'string' ? [{ role: 'user', content: redactor.redact(last.content), date }] : [];
	return [...asked, { role: 'assistant', content: redactor.redact(reply), model: redactor.redact(model), date }];
}

type FieldStream = ReturnType<Redactor['stream']>;

/**
 * Server-sent events as they come, redacted: whole events only (a key split across network chunks is
 * in one), and the text a chat completion streams piece by piece (`delta.content`, tool call
 * `arguments`) through a stream redactor per choice and field, so a key spread over several events is
 * blanked too; what such a redactor holds back goes out in an extra chunk before the choice finishes.
 * Keeps the first choice's reply text (redacted) and model, to remember.
 */
class EventRedactor {
	private pending = '';
	private fields = new Map<string, { choice: number; tool?: number; stream: FieldStream }>();
	/** The id, created and model of the chunks, for the extra chunks. */
	private shape: Record<string, unknown> = {};
	content = '';
	model = '';

	constructor(private redactor: Redactor) {}

	push(text: string): string {
		this.pending += text;
		let out = '';
		for (let end = /\r?\n\r?\n/.exec(this.pending); end; end = /\r?\n\r?\n/.exec(this.pending)) {
			const event = this.pending.slice(0, end.index + end[0].length);
			this.pending = this.pending.slice(end.index + end[0].length);
			out += this.event(event);
		}
		return out;
	}

	/** What is left: held text, and an event the stream did not finish. */
	end(): string {
		const rest = this.flush();
		const partial = this.redactor.redact(this.pending);
		this.pending = '';
		return rest + partial;
	}

	private field(key: string, choice: number, tool?: number): FieldStream {
		let field = this.fields.get(key);
		if (!field) this.fields.set(key, (field = { choice, tool, stream: this.redactor.stream() }));
		return field.stream;
	}

	/** An extra chunk with what the redactors of `choice` (all, when undefined) hold back. */
	private flush(choice?: number): string {
		const choices = new Map<number, { content?: string; tool_calls?: Array<{ index: number; function: { arguments: string } }> }>();
		for (const [key, field] of this.fields) {
			if (choice !== undefined && field.choice !== choice) continue;
			this.fields.delete(key);
			const held = field.stream.end();
			if (!held) continue;
			const delta = choices.get(field.choice) ?? {};
			choices.set(field.choice, delta);
			if (field.tool === undefined) delta.content = held;
			else (delta.tool_calls ??= []).push({ index: field.tool, function: { arguments: held } });
			if (field.choice === 0 && field.tool === undefined) this.content += held;
		}
		if (!choices.size) return '';
		const chunk = { ...this.shape, object: 'chat.completion.chunk', choices: [...choices].map(([index, delta]) => ({ index, delta, finish_reason: null })) };
		return `data: ${JSON.stringify(chunk)}\n\n`;
	}

	private event(text: string): string {
		const data = text.split(/\r?\n/).filter((line) => line.startsWith('data:'));
		const payload = data.length === 1 ? data[0].slice(5).trim() : '';
		if (payload === '[DONE]') return this.flush() + text;
		let chunk: { id?: unknown; created?: unknown; model?: unknown; choices?: unknown } | undefined;
		try {
			chunk = payload ? JSON.parse(payload) : undefined;
		} catch {
			chunk = undefined;
		}
		if (!chunk || typeof chunk !== 'object' || !Array.isArray(chunk.choices)) return this.redactor.redact(text);
		this.shape = { id: chunk.id, created: chunk.created, model: chunk.model };
		if (typeof chunk.model === 'string') this.model ||= this.redactor.redact(chunk.model);
		let before = '';
		let changed = false;
		const pass = (key: string, choice: number, value: string, tool?: number) => {
			const out = this.field(key, choice, tool).push(value);
			changed ||= out !== value;
			return out;
		};
		type Delta = { content?: unknown; tool_calls?: unknown };
		type Call = { index?: unknown; function?: { arguments?: unknown } } | null;
		for (const item of chunk.choices as Array<{ index?: unknown; delta?: Delta | null; finish_reason?: unknown } | null>) {
			if (!item || typeof item !== 'object') continue;
			const index = typeof item.index === 'number' ? item.index : 0;
			const delta = item.delta;
			if (delta && typeof delta === 'object') {
				if (typeof delta.content === 'string') {
					delta.content = pass(`${index}:content`, index, delta.content);
					if (index === 0) this.content += delta.content;
				}
				for (const call of (Array.isArray(delta.tool_calls) ? delta.tool_calls : []) as Call[]) {
					const tool = typeof call?.index === 'number' ? call.index : 0;
					if (call?.function && typeof call.function.arguments === 'string') call.function.arguments = pass(`${index}:tool:${tool}`, index, call.function.arguments, tool);
				}
			}
			if (item.finish_reason) before += this.flush(index);
		}
		return before + this.redactor.redact(changed ? `data: ${JSON.stringify(chunk)}\n\n` : text);
	}
}

interface Forward {
	services: Services;
	user: UserRow;
	method: Method;
	path: string;
	request: FastifyRequest;
	reply: FastifyReply;
}

/** Sends the request on and answers the service's answer. */
async function forward({ services, user, method, path, request, reply }: Forward) {
	const store = services.store;
	const key = apiKey(store);
	if (!key) throw new ApiError(409, 'No API key is set for the AI service; set one with POST /proxyext/v1/ai-api-proxy/key.', 'proxyext_no_api_key');

	let body = EDITABLE.includes(method) ? request.body : undefined;
	const model = aiModel(store);
	// The chosen model stands in for a request that names none.
	if (model && CHAT_PATHS.has(path) && body && typeof body === 'object' && !Array.isArray(body) && !('model' in body)) body = { ...body, model };
	const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: request.headers.accept ?? 'application/json' };
	if (body !== undefined) headers['content-type'] = 'application/json';
	const answer = await callUpstream(services, { method, path, query: queryOf(request), headers, body: body === undefined ? undefined : JSON.stringify(body) });
	const chat = method === 'POST' && path === 'chat/completions';
	const type = String(answer.headers['content-type'] ?? '');

	// The key never leaves the server: anything the service echoes of it, in any form, is blanked.
	const redactor = new Redactor(key);
	if (answer.status < 300 && type.includes('text/event-stream')) {
		// Relayed event by event; a failure half-way ends the stream with an `error` event.
		const events = new EventRedactor(redactor);
		const decoder = new TextDecoder();
		async function* relay() {
			try {
				for await (const chunk of answer.body) {
					const out = events.push(decoder.decode(chunk as Buffer, { stream: true }));
					if (out) yield Buffer.from(out);
				}
				const rest = events.push(decoder.decode()) + events.end();
				if (rest) yield Buffer.from(rest);
			} catch (error) {
				const { message } = failure(error);
				const rest = events.end();
				yield Buffer.from(`${rest}event: error\ndata: ${JSON.stringify({ error: { message, code: 'proxyext_upstream_error' } })}\n\n`);
				return;
			}
			if (chat) remember(store, user.id, exchange(redactor, body, events.content, events.model));
		}
		reply.code(answer.status).header('content-type', type).header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
		return reply.send(Readable.from(relay()));
	}

	const text = redactor.redact(await answerText(answer));
	let parsed: unknown;
	try {
		parsed = redactor.redactValue(JSON.parse(text));
	} catch {
		parsed = undefined;
	}
	if (answer.status >= 500) {
		const said = (parsed as { error?: { message?: unknown }; message?: unknown })?.error?.message ?? (parsed as { message?: unknown })?.message ?? text.slice(0, 500);
		throw upstreamError(`The AI service failed (HTTP ${answer.status}): ${String(said) || 'no message'}`, { upstream_status: answer.status });
	}
	if (chat && answer.status < 300) {
		const completion = parsed as { model?: string; choices?: Array<{ message?: { content?: unknown } }> } | undefined;
		const content = completion?.choices?.[0]?.message?.content;
		if (typeof content === 'string') remember(store, user.id, exchange(redactor, body, content, completion?.model ?? ''));
	}
	reply.code(answer.status);
	if (parsed !== undefined) return parsed;
	return reply.header('content-type', type || 'text/plain; charset=utf-8').send(text);
}

function lastReply(messages: ConversationMessage[]): number {
	for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant') return i;
	return -1;
}

const noResponse = () => new ApiError(404, 'There is no response in this conversation yet.', 'proxyext_no_response');

/**
 * `response`: GET answers the last reply; POST/PUT/PATCH record one (a reply the caller got elsewhere,
 * or an edit); DELETE forgets it.
 */
function responseRoute(method: Method): Route {
	const summaries: Record<string, string> = {
		GET: 'The last reply of your conversation through the proxy',
		DELETE: 'Forget the last reply of your conversation',
	};
	return route({
		method,
		path: `${base}/response`,
		auth: 'site',
		summary: summaries[method] ?? 'Add a reply to your conversation (content, and optionally the model)',
		body: EDITABLE.includes(method) ? z.object({ content: z.string().min(1).max(100_000), model: z.string().max(200).optional() }) : undefined,
		// The reply read or added; a delete answers the reply it forgot.
		answer: method === 'DELETE' ? z.object({ deleted: z.literal(true), previous: conversationMessageAnswer }) : conversationMessageAnswer,
		errors: method === 'GET' || method === 'DELETE' ? [403, 404] : [403],
		handler: ({ services, siteUser, body }) => {
			canUse(siteUser);
			const store = services.store;
			return store.tx(() => {
				const messages = conversation(store, siteUser.id);
				// (A route without a body schema gets the raw body: a DELETE's must not add a reply.)
				if (body && EDITABLE.includes(method)) {
					const added: ConversationMessage = { role: 'assistant', content: body.content, ...(body.model ? { model: body.model } : {}), date: new Date().toISOString() };
					saveConversation(store, siteUser.id, [...messages, added]);
					return added;
				}
				const at = lastReply(messages);
				if (at < 0) throw noResponse();
				if (method === 'GET') return messages[at];
				saveConversation(store, siteUser.id, messages.filter((_, i) => i !== at));
				return { deleted: true as const, previous: messages[at] };
			});
		},
	});
}

/** `clear-conversation`, any method: forgets the conversation but its last `keep` messages; answers what it forgot. */
const keep = wpInt(0, 200).optional();
const clearRoute = (method: Method): Route =>
	route({
		method,
		path: `${base}/clear-conversation`,
		auth: 'site',
		summary: 'Forget your conversation through the proxy (but its last `keep` messages); answers the messages forgotten',
		query: phpQuery({ keep }),
		body: EDITABLE.includes(method) ? z.object({ keep }) : undefined,
		answer: z.object({
			deleted: z.number().int().meta({ description: 'How many messages were forgotten' }),
			kept: z.number().int(),
			previous: z.array(conversationMessageAnswer).meta({ description: 'The messages forgotten, oldest first' }),
		}),
		errors: [403],
		handler: ({ services, siteUser, query, body }) => {
			canUse(siteUser);
			const store = services.store;
			const kept = (body as { keep?: number } | undefined)?.keep ?? query.keep ?? 0;
			return store.tx(() => {
				const messages = conversation(store, siteUser.id);
				const cut = Math.max(0, messages.length - kept);
				saveConversation(store, siteUser.id, messages.slice(cut));
				return { deleted: cut, kept: messages.length - cut, previous: messages.slice(0, cut) };
			});
		},
	});

/**
 * The forwarding routes' contract: the AI service's own answer, passed on as it is (its status, its
 * media type: JSON, an event stream, text), so the body is not described; their errors are the
 * proxy's (WordPress's shape) or the service's 4XX as it sent them (OpenAI's shape).
 */
const FORWARDED = {
	produces: '*/*',
	status: [200, 201, 202, 204],
	errors: [403, 405, 409, 422, 429, 502],
} as const satisfies Pick<Route, 'produces' | 'errors'> & { status: Route['status'] };

export const proxyRoutes: Route[] = [
	route({
		method: 'GET',
		path: `${base}/models`,
		auth: 'site',
		summary: 'The models of the AI service (its answer as it is, OpenAI\'s `{object: "list", data: [{id, ...}]}` from an OpenAI-compatible one)',
		...FORWARDED,
		handler: ({ services, siteUser, request, reply }) => {
			canUse(siteUser);
			return forward({ services, user: siteUser, method: 'GET', path: 'models', request, reply });
		},
	}),
	...ALL_METHODS.map(responseRoute),
	...ALL_METHODS.map(clearRoute),
	...ALL_METHODS.map((method) =>
		route({
			method,
			path: `${base}/{api_path}`,
			auth: 'site',
			summary: `Forward a ${method} request to the AI service at api_path; its answer comes back as is, streamed when it streams`,
			params: z.object({ api_path: apiPath }),
			patterns: { api_path: '.+' },
			...FORWARDED,
			handler: ({ services, siteUser, params, request, reply }) => {
				canUse(siteUser);
				return forward({ services, user: siteUser, method, path: params.api_path as string, request, reply });
			},
		}),
	),
];
