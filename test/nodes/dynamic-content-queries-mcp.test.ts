import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { runNode, siteHarness, type NodeParameters } from '../helpers/nodes';

/** WDM Dynamic Content: the MCP Tool resource, every operation through n8n's engine, in both addressing styles. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	await cms.create('/posts', u.admin, { title: 'Gamma', status: 'publish' });
});
afterAll(() => server.close());

describe.each([['restRoute'], ['wpJson']])('addressing %s', (addressing) => {
	const mcp = (operation: string, parameters: NodeParameters = {}, user = u.admin) =>
		runNode(siteHarness(server.url, addressing, user), 'CUSTOM.wdmDynamicContent', { resource: 'mcpTool', operation, ...parameters });
	const jsonOf = (run: Awaited<ReturnType<typeof mcp>>) => {
		expect(run.error).toBeUndefined();
		return run.items.map((item) => item.json as Record<string, any>);
	};

	test('Get Many lists the tools; Run runs one as the credential’s user', async () => {
		const tools = jsonOf(await mcp('getMcpTools'));
		expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['add-query', 'run-query', 'create-post']));
		expect(tools.find((tool) => tool.name === 'add-query')).toMatchObject({ inputSchema: { type: 'object', required: ['name', 'query_type'] } });

		const [created] = jsonOf(await mcp('runMcpTool', { mcpToolName: 'create-post', mcpToolInput: '{"title": "From a node", "status": "publish"}' }));
		expect(created).toMatchObject({ type: 'post', status: 'publish', title: { raw: 'From a node' } });
		expect((await cms.get(`/posts/${created.id}`, u.anonymous)).body.title.rendered).toBe('From a node');

		const [added] = jsonOf(await mcp('runMcpTool', { mcpToolName: 'add-query', mcpToolInput: { name: `Node ${addressing}`, query_type: 'posts' } }));
		expect(added).toMatchObject({ success: true, data: { name: `Node ${addressing}`, query_type: 'posts' } });

		const refused = await mcp('runMcpTool', { mcpToolName: 'add-query', mcpToolInput: '{"name": "x", "query_type": "posts"}' }, u.editor);
		expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to do that.' });
		const unknown = await mcp('runMcpTool', { mcpToolName: 'nothing-here' });
		expect(unknown.error).toMatchObject({ httpCode: '404', message: 'No MCP tool is named "nothing-here".' });
	});

	test('Get Server Info and Send MCP Request speak to the MCP endpoint', async () => {
		const [info] = jsonOf(await mcp('getMcpServer'));
		expect(info).toMatchObject({ name: 'wdm-engine', transport: 'streamable-http', stateless: true, tools: expect.arrayContaining(['list-queries']) });

		const [init] = jsonOf(await mcp('sendMcpRequest', { mcpMethod: 'initialize' }));
		expect(init).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'wdm-engine' }, capabilities: { tools: {} } });
		expect(jsonOf(await mcp('sendMcpRequest', { mcpMethod: 'ping' }))).toEqual([{}]);
		const listed = jsonOf(await mcp('sendMcpRequest', { mcpMethod: 'tools/list' }));
		expect(listed.map((tool) => tool.name)).toEqual(info.tools);

		const [called] = jsonOf(await mcp('sendMcpRequest', { mcpMethod: 'tools/call', mcpCallTool: 'search-posts', mcpCallArguments: '{"query": "gam"}' }));
		expect(JSON.parse(called.content[0].text)).toEqual([{ value: expect.any(String), label: 'Gamma' }]);

		const failed = await mcp('sendMcpRequest', { mcpMethod: 'tools/call', mcpCallTool: 'get-query', mcpCallArguments: '{"id": "missing"}' });
		expect(failed.error).toMatchObject({ message: 'The MCP tool reported an error' });
		expect(failed.error?.description).toContain('rest_query_invalid_id');
		const unknown = await mcp('sendMcpRequest', { mcpMethod: 'tools/call', mcpCallTool: 'nope' });
		expect(unknown.error).toMatchObject({ message: 'MCP error -32602: No MCP tool is named "nope".', description: 'JSON-RPC error -32602' });
		const denied = await mcp('sendMcpRequest', { mcpMethod: 'tools/list' }, u.subscriber);
		expect(denied.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to do that.' });
	});
});
