import { buffer } from 'node:stream/consumers';
import { z } from 'zod';
import { type Method, route, type Route } from '../../http/route';
import { builtinUpstream } from './builtin';

/**
 * The simulated model as an OpenAI-compatible service, for clients that speak OpenAI's API: n8n's
 * OpenAI Chat Model takes the base URL `…/wp-json/sandbox/v1/openai` and a user's API key as its
 * API key (sent as `Authorization: Bearer`, as OpenAI's are). It answers `models`, `chat/completions`
 * (with tool calls, plain and streamed) and `embeddings` exactly as the AI proxy's built-in upstream
 * does, its answers and errors in OpenAI's format. It lives in the sandbox, the simulated other side
 * of things: the AI proxy itself signs callers in as the site does (Basic), which OpenAI clients cannot.
 */

const base = '/sandbox/v1/openai';

/** What the simulated model answers, in OpenAI's shapes (a streamed completion is an event stream, not checked). */
const model = z.object({ id: z.string(), object: z.literal('model'), created: z.number(), owned_by: z.string() });
const toolCall = z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) });
const usage = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() });
const answers = {
	GET: z.union([z.object({ object: z.literal('list'), data: z.array(model) }), model]).meta({ description: '`models`: the list; `models/{id}`: one model' }),
	POST: z
		.union([
			z.object({
				id: z.string(),
				object: z.literal('chat.completion'),
				created: z.number(),
				model: z.string(),
				choices: z.array(
					z.object({
						index: z.number(),
						message: z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(toolCall).optional() }),
						finish_reason: z.string(),
					}),
				),
				usage,
			}),
			z.object({
				object: z.literal('list'),
				data: z.array(z.object({ object: z.literal('embedding'), index: z.number(), embedding: z.union([z.array(z.number()), z.string()]) })),
				model: z.string(),
				usage: z.object({ prompt_tokens: z.number(), total_tokens: z.number() }),
			}),
		])
		.meta({ description: '`chat/completions` (with `stream: true`, an event stream of chunks) or `embeddings`' }),
};

const openAiRoute = (method: Method): Route =>
	route({
		method,
		path: `${base}/{api_path}`,
		auth: 'user',
		summary: `OpenAI-compatible ${method} on the simulated model (models, chat/completions with tool calls, embeddings)`,
		params: z.object({ api_path: z.string() }),
		patterns: { api_path: '.+' },
		answer: answers[method as 'GET' | 'POST'],
		// It reads a JSON body that it parses itself (no `body` schema): another type is refused too.
		errors: method === 'POST' ? [405, 415] : [405],
		handler: async ({ params, request, reply }) => {
			const answer = builtinUpstream({
				method,
				path: params.api_path,
				query: '',
				headers: { authorization: request.headers.authorization ?? '' },
				body: method === 'POST' ? JSON.stringify(request.body ?? {}) : undefined,
			});
			reply.code(answer.status);
			for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) reply.header(name, value);
			// A JSON answer goes out whole (what the contract check reads); an event stream as it comes.
			const json = String(answer.headers['content-type'] ?? '').startsWith('application/json');
			return reply.send(json ? await buffer(answer.body) : answer.body);
		},
	});

export const openAiRoutes: Route[] = [openAiRoute('GET'), openAiRoute('POST')];
