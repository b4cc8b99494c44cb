import fs from 'node:fs';
import type { App } from '../../server/src/app';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';

/**
 * Issue 37, finding 2: one POST to the MCP endpoint cannot make the server build hundreds of MiB or
 * hold its event loop. Before: a batch of 100 `preview-query` calls over a 3 MB post (an 18 kB request)
 * answered 286 MiB and took the process to 2 GB, and the calls of a batch ran back to back in
 * microtasks, so `/healthz` waited for the whole batch. Now a batch has at most `--mcp-batch-max`
 * messages, and the answer of one POST at most `--batch-answer-max-bytes` (small here, so that posts of
 * a megabyte or two reach it).
 */

const MB = 1024 * 1024;
const ANSWER_MAX = 2 * MB;

let server: App;
let cms: CmsClient;
let u: SiteUsers;
/** A published post of 1.5 MB (one answer fits in the cap, two do not) and one of 3 MB (alone past the cap). */
let medium: number;
let big: number;

beforeAll(async () => {
	({ server, cms, u } = await startSite({ batchAnswerMaxBytes: ANSWER_MAX }));
	medium = (await cms.create('/posts', u.author, { title: 'Medium', status: 'publish', content: 'm'.repeat(1.5 * MB) })).id;
	big = (await cms.create('/posts', u.author, { title: 'Big', status: 'publish', content: 'b'.repeat(3 * MB) })).id;
});
afterAll(() => server.close());

/** A POST to the MCP endpoint as the author: its status, the answer's text and its JSON. */
async function mcp(body: unknown) {
	const res = await fetch(`${server.url}/wp-json/engine/v1/mcp`, {
		method: 'POST',
		headers: { ...u.author.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
		body: JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, text, json: JSON.parse(text) };
}

const preview = (id: number, post: number) => ({
	jsonrpc: '2.0',
	id,
	method: 'tools/call',
	params: { name: 'preview-query', arguments: { query_type: 'posts', args: { include: [post] } } },
});

/** The process's peak RSS (VmHWM) since `resetPeak`: the server runs in this process. */
const peakRss = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
const resetPeak = () => fs.writeFileSync('/proc/self/clear_refs', '5');

/** Runs `attack` while `/healthz` is polled: the attack's result and the slowest health check. */
async function whileProbing<T>(attack: () => Promise<T>): Promise<{ result: T; slowest: number }> {
	let slowest = 0;
	let done = false;
	const probe = (async () => {
		while (!done) {
			const start = performance.now();
			expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
			slowest = Math.max(slowest, performance.now() - start);
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	})();
	try {
		return { result: await attack(), slowest };
	} finally {
		done = true;
		await probe;
	}
}

test('a batch of more than --mcp-batch-max messages is refused, naming the limit; one of 50 is answered', async () => {
	const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
	const over = await mcp(Array.from({ length: 51 }, (_, i) => ping(i)));
	expect(over.status).toBe(400);
	expect(over.json).toEqual({
		code: 'rest_mcp_batch_too_large',
		message: 'This POST carries 51 JSON-RPC messages: at most 50 are taken in one batch (server setting --mcp-batch-max). Send them in several POSTs.',
		data: { status: 400, jsonrpc_code: -32600, limit: 50 },
	});
	const at = await mcp(Array.from({ length: 50 }, (_, i) => ping(i)));
	expect(at.status).toBe(200);
	expect(at.json).toHaveLength(50);
});

test('a batch of 50 previews of a 1.5 MB post: the answer stays within --batch-answer-max-bytes, the memory bounded, /healthz answered', async () => {
	resetPeak();
	const before = peakRss();
	const { result: res, slowest } = await whileProbing(() => mcp(Array.from({ length: 50 }, (_, i) => preview(i, medium))));
	const grown = peakRss() - before;
	console.log(`50 previews of 1.5 MB: answer ${(res.text.length / MB).toFixed(1)} MiB, peak RSS +${(grown / MB).toFixed(0)} MB, slowest /healthz ${slowest.toFixed(0)} ms`);
	expect(res.status).toBe(200);
	expect(Buffer.byteLength(res.text)).toBeLessThan(ANSWER_MAX + 64 * 1024);
	expect(grown).toBeLessThan(150 * MB);
	expect(slowest).toBeLessThan(500);

	const answers = res.json as { id: number; result?: { content: { text: string }[] }; error?: { code: number; message: string; data: unknown } }[];
	expect(answers).toHaveLength(50);
	// The first fits whole; the second ran but does not fit; the others are not run.
	expect(JSON.parse(answers[0].result!.content[0].text)).toMatchObject({ success: true, count: 1, data: [{ ID: medium, post_title: 'Medium' }] });
	expect(answers[1].error).toEqual({
		code: -32000,
		message: expect.stringMatching(/^The tool ran, but its answer \(\d+ bytes\) does not fit in the answer of this POST, at most 2097152 bytes \(server setting --batch-answer-max-bytes\)/),
		data: { code: 'rest_mcp_answer_too_large', size: expect.any(Number), limit: ANSWER_MAX },
	});
	for (const answer of answers.slice(2)) {
		expect(answer.error).toEqual({
			code: -32000,
			message: 'Not run: the answer of this POST is full (at most 2097152 bytes, server setting --batch-answer-max-bytes). Send this call in another POST.',
			data: { code: 'rest_mcp_answer_full', limit: ANSWER_MAX },
		});
	}
});

test('one call whose answer alone is past the cap answers an error, not the answer', async () => {
	const { result: res, slowest } = await whileProbing(() => mcp(preview(1, big)));
	expect(res.status).toBe(200);
	expect(res.text.length).toBeLessThan(64 * 1024);
	expect(res.json.error).toMatchObject({ code: -32000, data: { code: 'rest_mcp_answer_too_large', limit: ANSWER_MAX } });
	expect(res.json.error.data.size).toBeGreaterThan(3 * MB);
	expect(slowest).toBeLessThan(500);
	// A call after the answer is full is not run: the post is not created.
	const create = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create-post', arguments: { title: 'After the full answer' } } };
	const [, refused] = (await mcp([preview(2, big), create])).json;
	expect(refused).toMatchObject({ id: 3, error: { code: -32000, data: { code: 'rest_mcp_answer_full' } } });
	expect((await cms.get('/posts', u.author, { search: 'After the full answer', status: 'draft' })).body).toEqual([]);
	// Small answers are whole, as before.
	const small = await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search-posts', arguments: { query: 'Medium' } } });
	expect(JSON.parse(small.json.result.content[0].text)).toEqual([{ value: String(medium), label: 'Medium' }]);
});
