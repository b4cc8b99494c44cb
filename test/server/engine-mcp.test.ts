import Ajv from 'ajv/dist/2020';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { App } from '../../server/src/app';
import { ADMIN_APP_PASSWORD, basicAuth, client, expectWpError, type Client as HttpClient } from '../helpers/server';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';

/** engine/v1: the MCP tools over REST, and the Model Context Protocol endpoint with the SDK's own client. */

let server: App;
let cms: CmsClient;
let u: SiteUsers;
let v1: HttpClient;
let v2: HttpClient;

const FORBIDDEN = 'Sorry, you are not allowed to do that.';
const as = (user: SiteUser) => ({ headers: user.headers });
const run = (name: string, input: unknown, user: SiteUser) => v1.post(`/mcp-tools/run/${name}`, input === undefined ? {} : { input }, as(user));

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	v1 = client(server.url, '/wp-json/engine/v1');
	v2 = client(server.url, '/wp-json/engine/v2');
	await cms.create('/posts', u.admin, { title: 'Alpha', status: 'publish' });
	await cms.create('/posts', u.admin, { title: 'Beta', status: 'publish' });
});
afterAll(() => server.close());

describe('GET /engine/v1/mcp-tools', () => {
	test('lists the tools with a description and the JSON Schema of their input', async () => {
		const res = await v1.get('/mcp-tools', as(u.author));
		expect(res.status).toBe(200);
		expect(res.body.success).toBe(true);
		const tools = Object.fromEntries(res.body.data.map((tool: { name: string }) => [tool.name, tool]));
		expect(Object.keys(tools)).toEqual(expect.arrayContaining(['list-queries', 'get-query', 'add-query', 'preview-query', 'run-query', 'search-posts', 'create-post', 'create-page']));
		// Media is uploaded as a file: no tool.
		expect(tools['create-attachment']).toBeUndefined();
		expect(tools['add-query']).toMatchObject({
			description: expect.any(String),
			inputSchema: { type: 'object', additionalProperties: false, required: ['name', 'query_type'], properties: { query_type: { enum: ['posts', 'terms', 'users'] } } },
		});
		// `args` is as strict as add-query's check: the args of a query type, no other key (a client validating
		// its input before the call learns what the route would refuse).
		const valid = new Ajv({ strict: false }).compile(tools['add-query'].inputSchema);
		expect(valid({ name: 'q', query_type: 'posts', args: { post_type: ['post'], search: 'beta', order: 'ASC' } })).toBe(true);
		expect(valid({ name: 'q', query_type: 'posts', args: { no_such_arg: 1 } })).toBe(false);
		expect((await run('add-query', { name: 'q', query_type: 'posts', args: { no_such_arg: 1 } }, u.admin)).status).toBe(400);
		expect(tools['get-query'].inputSchema).toMatchObject({ required: ['id'], properties: { id: { type: 'string' } } });
		expect(tools['create-post'].inputSchema.properties).toHaveProperty('title');
	});

	test('needs edit_posts', async () => {
		expectWpError(await v1.get('/mcp-tools', as(u.subscriber)), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await v1.get('/mcp-tools', as(u.anonymous)), 401, 'rest_forbidden', FORBIDDEN);
	});
});

describe('POST /engine/v1/mcp-tools/run/{name}', () => {
	test('runs the route of the tool: what it writes reads back through the routes', async () => {
		const added = await run('add-query', { name: 'By title', query_type: 'posts', args: { orderby: 'title', order: 'ASC' } }, u.admin);
		expect(added.status).toBe(200);
		expect(added.body).toMatchObject({ success: true, tool: 'add-query', data: { success: true, item_id: expect.any(Number), data: { slug: 'by-title' } } });
		const id = added.body.data.item_id;
		expect((await v2.get(`/get-query/${id}`, as(u.admin))).body.data.name).toBe('By title');

		const rows = await run('run-query', { query_id: id, columns: ['post_title'] }, u.author);
		expect(rows.body.data.data).toMatchObject({ rows: [{ post_title: 'Alpha' }, { post_title: 'Beta' }], total: 2 });
		expect((await run('get-query', { id: 'by-title' }, u.author)).body.data.data.id).toBe(id);

		const post = await run('create-post', { title: 'Made by a tool', status: 'publish' }, u.author);
		expect(post.body.data).toMatchObject({ id: expect.any(Number), status: 'publish', title: { raw: 'Made by a tool' } });
		expect((await cms.get(`/posts/${post.body.data.id}`, u.anonymous)).body.title.rendered).toBe('Made by a tool');
		const page = await run('create-page', { title: 'A page' }, u.editor);
		expect(page.body.data).toMatchObject({ type: 'page', status: 'draft' });
	});

	test('the input is checked against the tool’s schema', async () => {
		const unknown = await run('add-query', { name: 'x', query_type: 'posts', colour: 'red' }, u.admin);
		expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { colour: 'colour is not an input of the tool "add-query"' } } });
		const invalid = await run('add-query', { name: 'x', query_type: 'sql' }, u.admin);
		expect(invalid.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { query_type: expect.stringContaining('query_type must be one of') } } });
		const missing = await run('get-query', {}, u.admin);
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['id'] } });
		const pattern = await run('get-query', { id: 'Not An Id' }, u.admin);
		expect(pattern.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { id: 'id must match the pattern ^[a-z0-9_-]+$' } } });
		const notObject = await v1.post('/mcp-tools/run/get-query', { input: [1] }, as(u.admin));
		expect(notObject.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { input: expect.any(String) } } });
		expect((await v2.get('/get-queries', as(u.admin))).body.data.map((q: { name: string }) => q.name)).not.toContain('x');
	});

	test('unknown tools and names outside the pattern; capabilities are the route’s', async () => {
		expectWpError(await run('no-such-tool', {}, u.admin), 404, 'rest_mcp_tool_invalid_name', 'No MCP tool is named "no-such-tool".');
		expectWpError(await run('bad_name', {}, u.admin), 404, 'rest_no_route', 'no route matches POST /engine/v1/mcp-tools/run/bad_name');
		// An editor may run tools but not store queries (manage_options), as the route says.
		expectWpError(await run('add-query', { name: 'x', query_type: 'posts' }, u.editor), 403, 'rest_forbidden', FORBIDDEN);
		// A contributor creates drafts only.
		const publish = await run('create-post', { title: 'x', status: 'publish' }, u.contributor);
		expect(publish.body).toMatchObject({ code: 'rest_cannot_publish', data: { status: 403 } });
		expectWpError(await run('list-queries', {}, u.subscriber), 403, 'rest_forbidden', FORBIDDEN);
		expectWpError(await run('list-queries', {}, u.anonymous), 401, 'rest_forbidden', FORBIDDEN);
	});
});

test('the namespace index shows the MCP routes', async () => {
	const index = await client(server.url, '/wp-json').get('/engine/v1');
	expect(Object.keys(index.body.routes)).toEqual(
		expect.arrayContaining(['/engine/v1/mcp-tools', '/engine/v1/mcp-tools/run/(?P<name>[a-zA-Z0-9/-]+)', '/engine/v1/mcp']),
	);
	expect(index.body.routes['/engine/v1/mcp'].methods).toEqual(['GET', 'POST']);
});

describe('/engine/v1/mcp', () => {
	const endpoint = () => new URL(`${server.url}/wp-json/engine/v1/mcp`);
	const connect = async (authorization = basicAuth('admin', ADMIN_APP_PASSWORD)) => {
		const mcp = new Client({ name: 'wdm-test', version: '1.0.0' });
		await mcp.connect(new StreamableHTTPClientTransport(endpoint(), { requestInit: { headers: { authorization } } }));
		return mcp;
	};

	test('the SDK client initializes, lists the tools and calls them', async () => {
		const mcp = await connect();
		try {
			expect(mcp.getServerVersion()).toMatchObject({ name: 'wdm-engine', version: '1.0.0' });
			expect(mcp.getServerCapabilities()?.tools).toBeDefined();
			const { tools } = await mcp.listTools();
			const rest = (await v1.get('/mcp-tools', as(u.admin))).body.data;
			expect(tools.map((tool) => tool.name)).toEqual(rest.map((tool: { name: string }) => tool.name));
			expect(tools.find((tool) => tool.name === 'add-query')?.inputSchema).toEqual(rest.find((tool: { name: string }) => tool.name === 'add-query').inputSchema);

			const added = await mcp.callTool({ name: 'add-query', arguments: { name: 'Over MCP', query_type: 'terms' } });
			expect(added.isError).toBeFalsy();
			const stored = added.structuredContent as { item_id: number; data: { slug: string } };
			expect(stored.data.slug).toBe('over-mcp');
			expect(JSON.parse((added.content as { text: string }[])[0].text)).toEqual(added.structuredContent);
			expect((await v2.get(`/get-query/${stored.item_id}`, as(u.admin))).body.data.query_type).toBe('terms');

			const preview = await mcp.callTool({ name: 'preview-query', arguments: { query_type: 'posts', args: { search: 'beta' } } });
			expect(preview.structuredContent).toMatchObject({ count: 1, data: [{ post_title: 'Beta' }] });

			// A route's refusal is the tool's error result.
			const refused = await mcp.callTool({ name: 'get-query', arguments: { id: 'missing' } });
			expect(refused.isError).toBe(true);
			expect(JSON.parse((refused.content as { text: string }[])[0].text)).toEqual({ code: 'rest_query_invalid_id', message: 'No query has the id or slug "missing".', data: { status: 404 } });
			await expect(mcp.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow('No MCP tool is named "no-such-tool".');
		} finally {
			await mcp.close();
		}
	});

	test('tools run as the signed-in user', async () => {
		const mcp = await connect(u.editor.headers.authorization);
		try {
			const refused = await mcp.callTool({ name: 'add-query', arguments: { name: 'No', query_type: 'posts' } });
			expect(refused.isError).toBe(true);
			expect(JSON.parse((refused.content as { text: string }[])[0].text)).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
		} finally {
			await mcp.close();
		}
		await expect(connect(basicAuth('admin', 'wrong pass word 0000'))).rejects.toThrow();
		await expect(connect(u.subscriber.headers.authorization)).rejects.toThrow();
	});

	test('GET describes the endpoint; an event stream is refused (405)', async () => {
		const info = await v1.get('/mcp', as(u.editor));
		expect(info.body).toMatchObject({
			success: true,
			data: { name: 'wdm-engine', transport: 'streamable-http', stateless: true, endpoint: endpoint().href, tools: expect.arrayContaining(['run-query']) },
		});
		expect(info.body.data.protocol_versions).toContain('2025-06-18');
		const stream = await v1.get('/mcp', { headers: { ...u.editor.headers, accept: 'text/event-stream' } });
		expect(stream.status).toBe(405);
		expect(stream.headers.get('allow')).toBe('POST');
		expect(stream.body).toMatchObject({ code: 'rest_mcp_no_stream', data: { status: 405 } });
		expectWpError(await v1.get('/mcp', as(u.anonymous)), 401, 'rest_forbidden', FORBIDDEN);
	});

	test("the transport's other methods: DELETE is 405 (stateless, no session), a browser's CORS preflight passes", async () => {
		const deleted = await fetch(endpoint(), { method: 'DELETE', headers: u.admin.headers });
		expect(deleted.status).toBe(405);
		expect(deleted.headers.get('allow')).toBe('GET, POST');
		expect(await deleted.json()).toEqual({ code: 'rest_mcp_no_session', message: 'This MCP endpoint is stateless: there is no session to end.', data: { status: 405 } });

		const origin = 'http://localhost:6274'; // the Inspector's page
		const preflight = await fetch(endpoint(), {
			method: 'OPTIONS',
			headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,mcp-protocol-version' },
		});
		expect(preflight.status).toBe(200);
		expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
		expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
		const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
		expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id']));
		// No credentials a browser adds by itself: the Authorization header is the client's own.
		expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
		// The answer itself carries the origin too, and exposes what clients read.
		const list = await fetch(endpoint(), {
			method: 'POST',
			headers: { ...u.admin.headers, origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
		});
		expect(list.status).toBe(200);
		expect(list.headers.get('access-control-allow-origin')).toBe(origin);
		expect(list.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
		expect(list.headers.get('vary')).toContain('Origin');
	});

	test('a 401 names Basic in WWW-Authenticate for an MCP client (not OAuth), never for a browser page', async () => {
		const asClient = await fetch(endpoint(), {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
		});
		expect(asClient.status).toBe(401);
		expect(asClient.headers.get('www-authenticate')).toBe('Basic realm="WDM site", charset="UTF-8"');
		const wrong = await fetch(endpoint(), { headers: { authorization: basicAuth('admin', 'wrong pass word 0000'), accept: 'text/event-stream' } });
		expect(wrong.status).toBe(401);
		expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
		// A browser opening the URL gets no prompt (cached Basic credentials would ride on every later link).
		const page = await fetch(endpoint(), { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
		expect(page.status).toBe(401);
		expect(page.headers.get('www-authenticate')).toBeNull();
		// The SDK client, without credentials, fails with the server's 401 rather than starting OAuth.
		await expect(connect('')).rejects.toThrow(/401|Unauthorized/);
	});

	test('POST: a notification is accepted without an answer (202); a batch answers its request only', async () => {
		const headers = { ...u.admin.headers, accept: 'application/json, text/event-stream' };
		const note = await fetch(endpoint(), {
			method: 'POST',
			headers: { ...headers, 'content-type': 'application/json' },
			body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
		});
		expect(note.status).toBe(202);
		expect(await note.text()).toBe('');
		const batch = await v1.post('/mcp', [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 7, method: 'tools/list' }], { headers });
		expect(batch.status).toBe(200);
		// The SDK's transport answers a batch's one answer as a single message, not a list of one.
		expect(batch.body).toEqual({ jsonrpc: '2.0', id: 7, result: { tools: expect.any(Array) } });
		expect(batch.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('add-query');
	});

	test('POST refusals keep the namespace’s error shape', async () => {
		const headers = { ...u.admin.headers, accept: 'application/json, text/event-stream' };
		const list = await v1.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers });
		expect(list.status).toBe(200);
		expect(list.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } });

		const accept = await v1.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, as(u.admin));
		expect(accept.status).toBe(406);
		expect(accept.body).toEqual({
			code: 'rest_mcp_invalid_request',
			message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
			data: { status: 406, jsonrpc_code: -32000 },
		});
		const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } };
		const twice = await v1.post('/mcp', [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'initialize', params })), { headers });
		expect(twice.body).toEqual({
			code: 'rest_mcp_invalid_request',
			message: 'Invalid Request: Only one initialization request is allowed',
			data: { status: 400, jsonrpc_code: -32600 },
		});
		const notRpc = await v1.post('/mcp', { hello: 'world' }, { headers });
		expect(notRpc.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
		expectWpError(await v1.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, as(u.subscriber)), 403, 'rest_forbidden', FORBIDDEN);
	});
});
