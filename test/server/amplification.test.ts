import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Store } from '../../server/src/store';
import { basicAuth, eventually, tempDataDir } from '../helpers/server';

/**
 * Issue 26, finding 8: no answer is bigger than a bound proportional to what the route returns. Before:
 * an author's MCP `create-post` answered 6 times its request (the route's answer, which has the content
 * three times: raw, rendered and the excerpt of a one-word text, once as text and once again as
 * `structuredContent`), and a batch answered the sum of its answers however large. The server runs as
 * its own process, so that its memory (RSS) is its alone.
 */

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'server', 'src', 'main.ts');
const MB = 1024 * 1024;
const AUTHOR = basicAuth('arthur', 'arthur pass word 1234');

let proc: ChildProcessWithoutNullStreams;
let url: string;
afterAll(() => new Promise((resolve) => (proc.exitCode === null ? proc.once('exit', resolve).kill('SIGKILL') : resolve(null))));

beforeAll(async () => {
	const data = tempDataDir();
	const store = Store.open(data);
	const { user } = store.users.create('arthur', undefined, 'author');
	store.users.addAppPassword(user.id, 'tests', 'arthur pass word 1234');
	store.close();
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WDM_')));
	// A batch answer of at most 8 MiB, so that a batch of 2 MB bodies reaches it.
	// The 50 MB batch is over the default JSON body limit (16 MiB): raised, as its caller would.
	proc = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--data', data, '--log-level', 'warn', '--batch-answer-max-bytes', String(8 * MB), '--json-body-limit', String(64 * MB)], { env, cwd: ROOT });
	let out = '';
	proc.stdout.on('data', (chunk) => (out += chunk));
	proc.stderr.on('data', (chunk) => (out += chunk));
	url = await eventually(() => {
		if (proc.exitCode !== null) throw new Error(`exited early (${proc.exitCode}):\n${out}`);
		return out.includes('site URL:') ? /listening on (http:\/\/\S+)/.exec(out)?.[1] : undefined;
	}, 60_000);
});

const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) * 1024;

async function post(route: string, body: string, headers: Record<string, string> = {}) {
	const rssBefore = status('VmRSS');
	const res = await fetch(`${url}/wp-json${route}`, { method: 'POST', headers: { authorization: AUTHOR, 'content-type': 'application/json', ...headers }, body });
	const text = await res.text();
	return { status: res.status, text, ratio: text.length / body.length, peak: status('VmHWM') - rssBefore };
}

test('MCP create-post: the tool result carries the route answer once (ratio 3, was 6)', async () => {
	// One word of 2 MiB: the route's own answer has it three times (content raw and rendered, and the excerpt).
	// (6 MiB: within the answer cap of 8 MiB, which bounds an MCP POST too, test/server/mcp-limits.test.ts.)
	const content = 'A'.repeat(2 * MB);
	const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create-post', arguments: { title: 'Big', content } } });
	const res = await post('/engine/v1/mcp', call, { accept: 'application/json, text/event-stream' });
	console.log(`MCP create-post: request ${(call.length / MB).toFixed(1)} MiB, answer ${(res.text.length / MB).toFixed(1)} MiB (ratio ${res.ratio.toFixed(2)}); RSS peak +${(res.peak / MB).toFixed(0)} MB`);
	expect(res.status).toBe(200);
	const { result } = JSON.parse(res.text);
	expect(result.structuredContent).toBeUndefined();
	const item = JSON.parse(result.content[0].text);
	expect(item).toMatchObject({ type: 'post', status: 'draft', title: { raw: 'Big' }, content: { raw: content } });
	expect(res.ratio).toBeLessThan(3.1);

	// A small answer keeps its structured copy (clients that read structured content).
	const small = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create-post', arguments: { title: 'Small' } } });
	const answer = JSON.parse((await post('/engine/v1/mcp', small, { accept: 'application/json, text/event-stream' })).text).result;
	expect(answer.structuredContent).toEqual(JSON.parse(answer.content[0].text));
});

test('batch of 25 x 2 MB: the answer stays within --batch-answer-max-bytes; every request ran, its status kept', async () => {
	const requests = Array.from({ length: 25 }, (_, i) => ({ method: 'POST', path: '/cms/v2/posts', body: { title: `Batch ${i}`, content: 'B'.repeat(2_000_000) } }));
	const body = JSON.stringify({ requests });
	const res = await post('/batch/v1', body);
	console.log(`batch: request ${(body.length / MB).toFixed(1)} MiB, answer ${(res.text.length / MB).toFixed(1)} MiB (ratio ${res.ratio.toFixed(2)}); RSS peak +${(res.peak / MB).toFixed(0)} MB`);
	expect(res.status).toBe(207);
	expect(Buffer.byteLength(res.text)).toBeLessThan(8 * MB + 64 * 1024);
	const { responses } = JSON.parse(res.text) as { responses: { status: number; headers: Record<string, string>; body: any }[] };
	expect(responses.map((r) => r.status)).toEqual(Array(25).fill(201));
	// The first answers fit whole (each about 6 MB: content raw, rendered and the excerpt of one word): one here.
	expect(responses[0].body).toMatchObject({ title: { raw: 'Batch 0' } });
	const cut = responses.filter((r) => r.body.code === 'rest_batch_answer_too_large');
	expect(cut.length).toBe(24);
	expect(cut[0].body).toEqual({
		code: 'rest_batch_answer_too_large',
		message: expect.stringMatching(/^The answer of this request \(\d+ bytes\) does not fit in the batch's answer, which is at most 8388608 bytes \(server setting --batch-answer-max-bytes\)\. The request ran/),
		data: { status: 201, size: expect.any(Number), limit: 8 * MB },
	});
	// The requests ran: each post is there, read back through its Location.
	const last = await fetch(responses[24].headers.Location, { headers: { authorization: AUTHOR } });
	expect(((await last.json()) as { title: { rendered: string } }).title.rendered).toBe('Batch 24');
	expect(res.ratio).toBeLessThan(0.2);
});
