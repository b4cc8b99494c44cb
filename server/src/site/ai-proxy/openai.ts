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

const openAiRoute = (method: Method): Route =>
	route({
		method,
		path: `${base}/{api_path}`,
		auth: 'user',
		summary: `OpenAI-compatible ${method} on the simulated model (models, chat/completions with tool calls, embeddings)`,
		params: z.object({ api_path: z.string() }),
		patterns: { api_path: '.+' },
		handler: ({ params, request, reply }) => {
			const answer = builtinUpstream({
				method,
				path: params.api_path,
				query: '',
				headers: { authorization: request.headers.authorization ?? '' },
				body: method === 'POST' ? JSON.stringify(request.body ?? {}) : undefined,
			});
			reply.code(answer.status);
			for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) reply.header(name, value);
			return reply.send(answer.body);
		},
	});

export const openAiRoutes: Route[] = [openAiRoute('GET'), openAiRoute('POST')];
