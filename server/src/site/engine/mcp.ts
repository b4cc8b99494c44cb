import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { configSchema } from '../../config';
import { ApiError } from '../../http/errors';
import { REST_PREFIX } from '../../http/dispatch';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import { answer, answerOf, allow } from './query-common';
import { findTool, type McpTool, runTool, siteTools, toolAnswer } from './mcp-tools';

/**
 * engine/v1: the engine's MCP tools, listed and run one by one over REST, and served over the Model
 * Context Protocol (streamable HTTP transport of the official SDK) at `/engine/v1/mcp`.
 */

const V1 = '/engine/v1';
const SERVER_INFO = { name: 'wdm-engine', title: 'WDM dynamic-content engine', version: '1.0.0' };

/**
 * Largest route answer a tool result also carries as `structuredContent`. The text block is what every
 * client reads (the protocol's backwards-compatible channel); the structured copy doubles the answer,
 * so a large answer (a post with megabytes of content) is carried once, as text only.
 */
export const STRUCTURED_MAX_BYTES = 64 * 1024;

/** A route answer as MCP tool content: the JSON as text, and as structured content when it is a small object. */
function toolResult(data: unknown) {
	const text = JSON.stringify(data ?? null);
	const structured = data !== null && typeof data === 'object' && !Array.isArray(data) && Buffer.byteLength(text) <= STRUCTURED_MAX_BYTES;
	return { content: [{ type: 'text' as const, text }], ...(structured ? { structuredContent: data as Record<string, unknown> } : {}) };
}

/**
 * A tool call refused for the size of the answer: JSON-RPC error -32000 (the server-error range), its
 * message as it is (an McpError's would start with "MCP error -32000:", which the client adds again).
 */
const answerError = (message: string, data: Record<string, unknown>) => Object.assign(new Error(message), { code: -32000, data });

/**
 * An MCP server for one request: the site's tools, each run as the request's caller.
 *
 * Its tool calls share the request's answer: at most `--batch-answer-max-bytes`, as `/batch/v1`'s, so
 * that a batch of calls over a large post cannot build hundreds of MiB. A call whose answer does not fit
 * any more has run, and answers a JSON-RPC error saying so; the calls after it are not run (the answer
 * is full: running them would only be work thrown away). The SDK starts the calls of a batch all at
 * once: they are queued to run one at a time, in order, each after the event loop's turn, so that a
 * call knows what is left of the answer and other requests (`/healthz`) are answered between two calls.
 */
function mcpServer(services: Services, request: FastifyRequest, table: Route[]): Server {
	const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } } });
	const limit = services.config.batchAnswerMaxBytes;
	let left = limit;
	let turn: Promise<unknown> = Promise.resolve();
	server.setRequestHandler(ListToolsRequestSchema, () => ({
		tools: siteTools(services, table).map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
	}));
	server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
		const tool = siteTools(services, table).find((candidate) => candidate.name === params.name);
		if (!tool) throw new McpError(ErrorCode.InvalidParams, `No MCP tool is named "${params.name}".`);
		const call = turn.then(async () => {
			await new Promise((resolve) => setImmediate(resolve));
			if (left <= 0) {
				const message = `Not run: the answer of this POST is full (at most ${limit} bytes, server setting --batch-answer-max-bytes). Send this call in another POST.`;
				throw answerError(message, { code: 'rest_mcp_answer_full', limit });
			}
			const result = await callTool(services, request, tool, params.arguments ?? {});
			// What the result adds to the answer: its JSON, the tool's text escaped once more.
			const size = Buffer.byteLength(JSON.stringify(result));
			if (size > left) {
				left = 0;
				const message =
					`The tool ran, but its answer (${size} bytes) does not fit in the answer of this POST, at most ${limit} bytes ` +
					'(server setting --batch-answer-max-bytes). What it wrote is kept: ask for less (fewer rows or columns), or read it back in another POST.';
				throw answerError(message, { code: 'rest_mcp_answer_too_large', size, limit });
			}
			left -= size;
			return result;
		});
		turn = call.catch(() => undefined);
		return call;
	});
	return server;
}

/** Runs a tool as the request's caller: the route's answer as the tool's result, or its refusal as an error result. */
async function callTool(services: Services, request: FastifyRequest, tool: McpTool, input: Record<string, unknown>) {
	try {
		return toolResult((await runTool(services, request, tool, input)).data);
	} catch (error) {
		// A route's refusal is the tool's error result, with the route's WordPress error as its content.
		if (!(error instanceof ApiError)) throw error;
		return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify({ code: error.code, message: error.message, data: { status: error.status, ...error.data } }) }] };
	}
}

/** Headers of the Fastify request as the Fetch API's. */
function fetchHeaders(request: FastifyRequest): Headers {
	const headers = new Headers();
	for (const [name, value] of Object.entries(request.headers)) {
		if (value === undefined) continue;
		for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
	}
	return headers;
}

/**
 * The body of the transport's answer as bytes, with no copy for a body of one chunk (the SDK's JSON
 * answer is one): `arrayBuffer()` copies it twice more, and `text()` decodes it for Fastify to encode
 * again; for an answer of tens of MiB each copy holds the event loop.
 */
async function bodyBytes(response: Response): Promise<Buffer> {
	const chunks: Uint8Array[] = [];
	for await (const chunk of response.body ?? []) chunks.push(chunk);
	return chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength) : Buffer.concat(chunks);
}

/**
 * Hands a POST to the SDK's transport, stateless (a server and transport per request, no session),
 * answering JSON rather than an event stream. The transport's own refusals (a wrong Accept header, a
 * message that is not JSON-RPC, two initializations in one batch) become errors in this namespace's
 * shape, with the JSON-RPC code kept in `data`.
 */
async function handleMcp(services: Services, request: FastifyRequest, reply: FastifyReply, table: Route[]) {
	const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
	const server = mcpServer(services, request, table);
	await server.connect(transport);
	try {
		const url = `${services.baseUrl}${REST_PREFIX}${V1}/mcp`;
		const body = JSON.stringify(request.body ?? null);
		const response = await transport.handleRequest(new Request(url, { method: 'POST', headers: fetchHeaders(request), body }), { parsedBody: request.body });
		const bytes = await bodyBytes(response);
		if (response.status >= 400) {
			let rpc: { error?: { code?: number; message?: string } } = {};
			try {
				rpc = JSON.parse(bytes.toString('utf8'));
			} catch {
				/* not JSON: the status says enough */
			}
			throw new ApiError(response.status, rpc.error?.message ?? `The MCP transport refused the request (HTTP ${response.status}).`, 'rest_mcp_invalid_request', {
				jsonrpc_code: rpc.error?.code ?? null,
			});
		}
		reply.code(response.status);
		const type = response.headers.get('content-type');
		if (type) reply.header('content-type', type);
		return reply.send(bytes.length === 0 ? undefined : bytes);
	} finally {
		await server.close();
	}
}

/** Most messages a batch may have: the largest `--mcp-batch-max` can be. */
const BATCH_CEILING = configSchema.shape.mcpBatchMax.unwrap().maxValue ?? 100;

/** A JSON-RPC message (or a batch of them): what an MCP client POSTs. The SDK checks the rest. */
const rpcMessage = z.looseObject({
	jsonrpc: z.literal('2.0'),
	id: z.union([z.string(), z.int()]).optional(),
	method: z.string().max(200).optional(),
	params: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A JSON-RPC answer of the endpoint: a result (the protocol's: `initialize`'s server and capabilities,
 * `tools/list`'s tools, `tools/call`'s content) or an error, for the request of the same id.
 */
const rpcAnswer = z.object({
	jsonrpc: z.literal('2.0'),
	id: z.union([z.string(), z.number(), z.null()]),
	result: z.record(z.string(), z.unknown()).optional().meta({ description: "The method's result, as the Model Context Protocol defines it" }),
	error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }).optional(),
});

/** What GET answers: the endpoint described. */
const endpointAnswer = z.object({
	name: z.string(),
	title: z.string(),
	version: z.string(),
	endpoint: z.string().meta({ description: 'The URL to POST JSON-RPC messages to' }),
	transport: z.literal('streamable-http'),
	stateless: z.literal(true),
	protocol_versions: z.array(z.string()),
	tools: z.array(z.string()).meta({ description: 'The names of the tools the caller sees' }),
});

/**
 * The MCP routes over the route table the tools run on (`table`, read when a tool is listed or run: these
 * routes are part of the table, which routes.ts builds, as the batch routes).
 */
export const mcpRoutes = (table: () => Route[]): Route[] => [
	route({
		method: 'GET',
		path: `${V1}/mcp-tools`,
		auth: 'site',
		summary: 'List the MCP tools: name, description and the JSON Schema of their input',
		answer: answerOf(z.array(toolAnswer)),
		errors: [403],
		handler: ({ services, siteUser }) => {
			allow(siteUser, 'edit_posts');
			return answer(siteTools(services, table()).map(({ name, description, inputSchema }) => ({ name, description, inputSchema })));
		},
	}),

	route({
		method: 'POST',
		path: `${V1}/mcp-tools/run/{name}`,
		auth: 'site',
		summary: "Run an MCP tool with `input` (checked against its schema); the tool's route checks the caller's capabilities",
		params: z.object({ name: z.string() }),
		patterns: { name: '[a-zA-Z0-9/-]+' },
		body: z.object({ input: z.record(z.string(), z.unknown()).prefault({}) }),
		answer: answerOf(z.unknown().meta({ description: "The answer of the tool's route" }), { tool: z.string() }),
		// The refusals of the tool's route come through (a slug already taken: 409).
		errors: [403, 409],
		handler: async ({ services, siteUser, params, body, request }) => {
			allow(siteUser, 'edit_posts');
			const tool = findTool(services, table(), params.name);
			const { data } = await runTool(services, request, tool, body.input);
			return answer(data, { tool: tool.name });
		},
	}),

	route({
		method: 'GET',
		path: `${V1}/mcp`,
		auth: 'site',
		summary: 'Describe the MCP endpoint (server, protocol versions, tools); an event stream is not offered (405): the endpoint is stateless',
		answer: answerOf(endpointAnswer),
		errors: [403, 405],
		handler: ({ services, siteUser, request, reply }) => {
			allow(siteUser, 'edit_posts');
			// The streamable HTTP transport's GET opens a server-to-client stream; a stateless server has
			// nothing to send on it, and answers 405 as the protocol allows.
			if (String(request.headers.accept ?? '').includes('text/event-stream')) {
				reply.header('allow', 'POST');
				throw new ApiError(405, 'This MCP endpoint is stateless and offers no event stream: send JSON-RPC messages with POST.', 'rest_mcp_no_stream');
			}
			return answer({
				...SERVER_INFO,
				endpoint: `${services.baseUrl}${REST_PREFIX}${V1}/mcp`,
				transport: 'streamable-http' as const,
				stateless: true as const,
				protocol_versions: [...SUPPORTED_PROTOCOL_VERSIONS],
				tools: siteTools(services, table()).map((tool) => tool.name),
			});
		},
	}),

	route({
		method: 'POST',
		path: `${V1}/mcp`,
		auth: 'site',
		summary: 'The Model Context Protocol endpoint (streamable HTTP, stateless, JSON answers): initialize, tools/list, tools/call',
		// The setting's own ceiling here: an array past it is refused before its messages are checked.
		body: z.union([rpcMessage, z.array(rpcMessage).min(1).max(BATCH_CEILING)]),
		answer: z.union([rpcAnswer, z.array(rpcAnswer)]),
		// 202 without a body: only notifications (or answers) were sent.
		status: [200, 202],
		// The transport's refusals: an Accept without JSON and an event stream (406), a body not JSON (415).
		errors: [403, 406, 415],
		handler: ({ services, siteUser, body, request, reply }) => {
			allow(siteUser, 'edit_posts');
			const max = services.config.mcpBatchMax;
			if (Array.isArray(body) && body.length > max) {
				const message = `This POST carries ${body.length} JSON-RPC messages: at most ${max} are taken in one batch (server setting --mcp-batch-max). Send them in several POSTs.`;
				throw new ApiError(400, message, 'rest_mcp_batch_too_large', { jsonrpc_code: ErrorCode.InvalidRequest, limit: max });
			}
			return handleMcp(services, request, reply, table());
		},
	}),
];

/** The MCP endpoint's URL path. */
const MCP_PATH = `${REST_PREFIX}${V1}/mcp`;

/**
 * What MCP's streamable-HTTP transport asks of an endpoint beyond the table's GET and POST:
 * - `DELETE` ends a session; a stateless server has none and answers 405 with `Allow`, as the transport
 *   allows (not the REST server's 404, which a client reads as "no MCP here").
 * - A 401 carries `WWW-Authenticate: Basic`, so that a client knows to send the application password
 *   rather than start OAuth. Not to a browser's page or a bare `fetch` (`Accept` without JSON or an
 *   event stream): a browser that prompted for Basic credentials would send them with every later link,
 *   `?_method=DELETE` ones included.
 * (`OPTIONS`, the CORS preflight, is every route's: http/options.ts and http/cors.ts.)
 */
export function serveMcpTransport(app: FastifyInstance) {
	app.route({
		method: 'DELETE',
		url: MCP_PATH,
		handler: async (_request, reply) => {
			reply.header('allow', 'GET, POST');
			throw new ApiError(405, 'This MCP endpoint is stateless: there is no session to end.', 'rest_mcp_no_session');
		},
	});
	app.addHook('onSend', (request, reply, payload, done) => {
		// Every answer passes here: the status first, the headers only for a 401 of this endpoint.
		if (reply.statusCode === 401 && request.url.split('?')[0] === MCP_PATH) {
			const accept = String(request.headers.accept ?? '');
			const mcpClient = /application\/json|text\/event-stream/.test(accept) && !accept.includes('text/html');
			if (mcpClient) reply.header('www-authenticate', 'Basic realm="WDM site", charset="UTF-8"');
		}
		done(null, payload);
	});
}
