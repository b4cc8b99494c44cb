import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, IN8nHttpFullResponse, INodeExecutionData, JsonObject } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteResponse, siteSend } from '../shared/site';
import { engineResponse, jsonBody, parseJson } from './fields';

/** The engine's MCP tools: listed and run over REST, or reached over the Model Context Protocol endpoint. */

const TOOL_NAME = {
	displayName: 'Tool Name',
	name: 'mcpToolName',
	type: 'string' as const,
	required: true,
	default: '',
	placeholder: 'e.g. list-queries',
	description: 'Name of the tool, as Get Many lists it',
};

const getTools: Operation = {
	name: 'Get Many',
	value: 'getMcpTools',
	action: 'Get many MCP tools',
	description: 'List the MCP tools with their descriptions and the JSON Schema of their input',
	routing: { request: { method: 'GET', url: '/engine/v1/mcp-tools' }, output: { postReceive: [engineResponse] } },
};

const RUN_ROUTE = '/engine/v1/mcp-tools/run/{name}';

const runTool: Operation = {
	name: 'Run',
	value: 'runMcpTool',
	action: 'Run an MCP tool',
	description: 'Run one tool with its input; it runs as the credential’s user, with that user’s rights',
	routing: {
		request: { method: 'POST', url: RUN_ROUTE },
		send: siteSend(RUN_ROUTE, { name: 'mcpToolName' }),
		output: { postReceive: [engineResponse] },
	},
	fields: [
		TOOL_NAME,
		{
			displayName: 'Input (JSON)',
			name: 'mcpToolInput',
			type: 'json',
			default: '{}',
			description: 'The tool’s input, as its input schema describes it',
			routing: jsonBody('mcpToolInput', 'input', 'Input (JSON)'),
		},
	],
};

const getServer: Operation = {
	name: 'Get Server Info',
	value: 'getMcpServer',
	action: 'Get the MCP server info',
	description: 'Describe the MCP endpoint: its address, transport, protocol versions and tools',
	routing: { request: { method: 'GET', url: '/engine/v1/mcp' }, output: { postReceive: [engineResponse] } },
};

/** The protocol version the node speaks when it initializes. */
const PROTOCOL_VERSION = '2025-06-18';

/** Builds the JSON-RPC request of the chosen method; the transport wants both answer types accepted. */
async function sendRpc(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const method = this.getNodeParameter('mcpMethod', 'tools/list') as string;
	let params: IDataObject | undefined;
	if (method === 'tools/call') {
		const args = parseJson.call(this, this.getNodeParameter('mcpCallArguments', '{}'), 'Arguments (JSON)') as IDataObject | undefined;
		params = { name: this.getNodeParameter('mcpCallTool', '') as string, arguments: args ?? {} };
	} else if (method === 'initialize') {
		params = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'n8n-nodes-wdm', version: '1.0.0' } };
	}
	return {
		...options,
		headers: { ...options.headers, Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': PROTOCOL_VERSION },
		body: { jsonrpc: '2.0', id: this.getItemIndex() + 1, method, ...(params ? { params } : {}) },
	};
}

/** A JSON-RPC answer: an error (or a tool's error result) is the node's error; tools/list gives one item per tool. */
async function rpcResult(this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
	const [{ json }] = await siteResponse.call(this, items, response);
	const fail = (message: string, description?: string) => {
		throw new NodeApiError(this.getNode(), json as JsonObject, { message, description, itemIndex: this.getItemIndex() });
	};
	const error = json.error as { code?: number; message?: string } | undefined;
	if (error) fail(error.message ?? 'The MCP server answered an error', `JSON-RPC error ${error.code}`);
	const result = (json.result ?? {}) as IDataObject;
	if (result.isError) {
		const [first] = (result.content ?? []) as { text?: string }[];
		fail('The MCP tool reported an error', first?.text);
	}
	if (Array.isArray(result.tools)) return (result.tools as IDataObject[]).map((tool) => ({ json: tool }));
	return [{ json: result }];
}

const sendRequest: Operation = {
	name: 'Send MCP Request',
	value: 'sendMcpRequest',
	action: 'Send an MCP request',
	description: 'Send one Model Context Protocol request (JSON-RPC) to the endpoint: list tools, call a tool, initialize or ping',
	routing: { request: { method: 'POST', url: '/engine/v1/mcp' }, send: { preSend: [sendRpc] }, output: { postReceive: [rpcResult] } },
	fields: [
		{
			displayName: 'Method',
			name: 'mcpMethod',
			type: 'options',
			options: [
				{ name: 'Call Tool', value: 'tools/call', description: 'Run a tool with arguments' },
				{ name: 'Initialize', value: 'initialize', description: 'Get the server’s info, capabilities and protocol version' },
				{ name: 'List Tools', value: 'tools/list', description: 'One item per tool' },
				{ name: 'Ping', value: 'ping' },
			],
			default: 'tools/list',
		},
		{ ...TOOL_NAME, name: 'mcpCallTool', displayOptions: { show: { mcpMethod: ['tools/call'] } } },
		{
			displayName: 'Arguments (JSON)',
			name: 'mcpCallArguments',
			type: 'json',
			default: '{}',
			description: 'The tool’s arguments, as its input schema describes them',
			displayOptions: { show: { mcpMethod: ['tools/call'] } },
		},
	],
};

export const mcpTools: Resource = {
	name: 'MCP Tool',
	value: 'mcpTool',
	description: 'The engine’s MCP tools and its Model Context Protocol endpoint',
	operations: [getTools, runTool, getServer, sendRequest],
};
