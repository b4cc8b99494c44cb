import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_APP_PASSWORD, basicAuth, startServer } from '../helpers/server';
import { ensureN8n, failure, NODE24, run } from './n8n';

/**
 * The official MCP Inspector's command line (`@modelcontextprotocol/inspector --cli`, which needs Node 22
 * or newer: it runs on the e2e's Node 24) against the engine's MCP endpoint: it lists and calls the
 * tools with the site's Basic credentials, and without them reports the server's own 401 message.
 * The Inspector is installed once into a cache beside n8n's (about 110 MB, from the npm registry).
 */

const INSPECTOR_VERSION = '2.12.0';
const CACHE = path.join(os.homedir(), '.cache', 'n8n-nodes-wdm', `mcp-inspector-${INSPECTOR_VERSION}`);
const CLI = path.join(CACHE, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

async function ensureInspector() {
	if (fs.existsSync(path.join(CACHE, '.complete'))) return;
	fs.rmSync(CACHE, { recursive: true, force: true });
	fs.mkdirSync(CACHE, { recursive: true });
	fs.writeFileSync(path.join(CACHE, 'package.json'), JSON.stringify({ name: 'wdm-mcp-inspector', private: true }));
	const exit = await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`], { cwd: CACHE, timeoutMs: 5 * 60_000 });
	if (exit.code !== 0) throw failure('installing the MCP Inspector', exit);
	fs.writeFileSync(path.join(CACHE, '.complete'), '');
}

let server: App;
beforeAll(async () => {
	await ensureN8n();
	await ensureInspector();
	server = await startServer();
}, 25 * 60_000);
afterAll(() => server?.close());

/** One Inspector command on the endpoint, non-interactive (`--stored-auth-only`: no OAuth dance); its JSON answer. */
async function inspector(args: string[], authorization?: string) {
	const endpoint = `${server.url}/wp-json/engine/v1/mcp`;
	const headers = authorization ? ['--header', `Authorization: ${authorization}`] : [];
	const exit = await run(NODE24, [CLI, '--cli', endpoint, '--transport', 'http', '--stored-auth-only', ...args, ...headers], { timeoutMs: 60_000 });
	return { code: exit.code, answer: JSON.parse(exit.stdout || exit.stderr) };
}

const admin = basicAuth('admin', ADMIN_APP_PASSWORD);

test('lists the tools, each with its input schema', async () => {
	const { code, answer } = await inspector(['--method', 'tools/list'], admin);
	expect(code).toBe(0);
	const names = answer.tools.map((tool: { name: string }) => tool.name);
	expect(names).toEqual(expect.arrayContaining(['add-query', 'list-post-types']));
	expect(answer.tools.find((tool: { name: string }) => tool.name === 'add-query').inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['name', 'query_type']) });
}, 90_000);

test('calls a tool: what it writes is there afterwards', async () => {
	const added = await inspector(['--method', 'tools/call', '--tool-name', 'add-query', '--tool-arg', 'name=Inspected', 'query_type=terms'], admin);
	expect(added.code).toBe(0);
	expect(added.answer.structuredContent).toMatchObject({ success: true, data: { name: 'Inspected', slug: 'inspected', query_type: 'terms' } });
	const listed = await inspector(['--method', 'tools/call', '--tool-name', 'list-queries'], admin);
	expect(JSON.stringify(listed.answer.structuredContent)).toContain('"slug":"inspected"');
}, 90_000);

test("without credentials, or with wrong ones, it reports the server's 401 message, not an OAuth prompt", async () => {
	const anonymous = await inspector(['--method', 'tools/list']);
	expect(anonymous.code).not.toBe(0);
	expect(anonymous.answer.error.message).toContain('"code":"rest_forbidden"');
	const wrong = await inspector(['--method', 'tools/list'], basicAuth('admin', 'wrong'));
	expect(wrong.answer.error.message).toContain('The provided password is an invalid application password.');
}, 90_000);
