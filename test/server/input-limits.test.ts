import { Readable } from 'node:stream';
import fc from 'fast-check';
import type { App } from '../../server/src/app';
import { multipartFields, urlencodedFields } from '../../server/src/http/forms';
import { splitPath } from '../../server/src/http/in-process';
import { bracketQuery } from '../../server/src/http/query';
import { readReply, startServer, type Reply } from '../helpers/server';

/**
 * Query strings and form bodies, read as PHP reads them, cost time linear in their size, and past PHP's
 * input limits (fields, nesting, files) they are refused with a 400 naming the limit, in milliseconds,
 * whoever sends them: anonymous POSTs from any web page reach a server on loopback.
 */

let server: App;
beforeAll(async () => {
	server = await startServer();
});
afterAll(() => server.close());

/** Limits far past any input below, so that the readers' own cost shows. */
const UNLIMITED = { maxInputVars: 1e9, maxInputNestingLevel: 64, maxFileUploads: 1e9 };

const BOUNDARY = 'wdmboundary';
function multipart(fields: [string, string][], files = 0): Buffer {
	const parts = fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
	for (let i = 0; i < files; i++) parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${i}"; filename="f${i}.txt"\r\nContent-Type: text/plain\r\n\r\nx\r\n`);
	return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`);
}
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** The readers of a query string or form body, each fed `fields` (the multipart reader reads a stream, and answers a promise). */
const readers: Record<string, (fields: [string, string][]) => unknown> = {
	urlencoded: (fields) => urlencodedFields(new URLSearchParams(fields).toString(), UNLIMITED),
	multipart: (fields) => multipartFields(Readable.from([multipart(fields)]), MULTIPART, UNLIMITED),
	'query string': (fields) => bracketQuery(splitPath(`/x?${new URLSearchParams(fields).toString()}`).query),
};

/**
 * The least CPU time of a few runs of `run`, in ms: CPU time, not wall time, so that other processes on
 * the machine do not count, and the least run is the one the garbage collector disturbed least. A run
 * that answers a promise is awaited: it is done when it settles (run unawaited, a stream reader would
 * leave every part of every run pending until the event loop turns).
 */
async function fastest(run: () => unknown, times = 3): Promise<number> {
	let best = Infinity;
	for (let i = 0; i < times; i++) {
		const start = process.cpuUsage();
		await run();
		const { user, system } = process.cpuUsage(start);
		best = Math.min(best, (user + system) / 1000);
	}
	return best;
}

describe('reading input is linear in its size', () => {
	// A few fields, as a form or query writes them: repeated names, lists (`a[]`), maps and nesting.
	const name = fc.oneof(
		fc.constantFrom('a', 'tags', 'meta'),
		fc.constantFrom('a[]', 'tags[]', 'a[b][]', 'meta[x][]', 'a[][]'),
		fc.tuple(fc.constantFrom('a', 'meta'), fc.array(fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z0-9]{1,3}$/)), { minLength: 1, maxLength: 6 })).map(([root, keys]) => `${root}${keys.map((k) => `[${k}]`).join('')}`),
	);
	const unit = fc.array(fc.tuple(name, fc.stringMatching(/^[a-z0-9]{0,4}$/)), { minLength: 1, maxLength: 4 });

	test.each(Object.keys(readers))('%s: four times the fields cost far less than 16 times the time', async (reader) => {
		await fc.assert(
			fc.asyncProperty(unit, async (fields) => {
				// Each unit repeated until the small input has about 40,000 fields (tens of ms: past the young
				// generation's size, whose collections would make a smaller input look cheaper), then four times that.
				const small = Array.from({ length: Math.ceil(40_000 / fields.length) }, () => fields).flat();
				const large = Array.from({ length: 4 }, () => small).flat();
				const read = readers[reader];
				// Linear is 4, quadratic 16 (today's code took 13 s for 20,000 `a=` fields).
				return (await fastest(() => read(large))) / (await fastest(() => read(small))) < 10;
			}),
			{ seed: 20261207, numRuns: 4 },
		);
	}, 120_000);

	test('PHP appends after the largest index so far', () => {
		expect(bracketQuery(splitPath('/x?a[x]=1&a[5]=3&a[]=4').query)).toEqual({ a: { x: '1', 5: '3', 6: '4' } });
		expect(bracketQuery(splitPath('/x?a[x]=1&a[]=2').query)).toEqual({ a: { x: '1', 0: '2' } });
		expect(bracketQuery(splitPath('/x?a[]=1&a[]=2').query)).toEqual({ a: ['1', '2'] });
	});
});

/** The form body of `count` fields named `name`. */
const urlencoded = (count: number, name = 'a') => Array.from({ length: count }, (_, i) => `${encodeURIComponent(name)}=${i}`).join('&');
const nested = (depth: number) => `a${'[b]'.repeat(depth)}`;

async function post(path: string, body: string | Buffer, contentType: string): Promise<Reply> {
	return readReply(await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body }));
}

/** The longest `/healthz` took while `attack` ran, probed every few milliseconds. */
async function healthDuring(attack: () => Promise<unknown>): Promise<number> {
	let worst = 0;
	let done = false;
	const probes = (async () => {
		while (!done) {
			const start = performance.now();
			await fetch(`${server.url}/healthz`);
			worst = Math.max(worst, performance.now() - start);
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
	})();
	try {
		await attack();
	} finally {
		done = true;
		await probes;
	}
	return worst;
}

const COMMENTS = '/wp-json/cms/v2/comments';

describe('PHP\'s input limits, anonymously, on a site route', () => {
	test('a form body at the field limit is read; one field more is a 400 naming max_input_vars', async () => {
		const at = await post(COMMENTS, urlencoded(1000), 'application/x-www-form-urlencoded');
		expect(at.body.code).not.toBe('rest_too_many_input_vars');
		const over = await post(COMMENTS, urlencoded(1001), 'application/x-www-form-urlencoded');
		expect(over.status).toBe(400);
		expect(over.body.code).toBe('rest_too_many_input_vars');
		expect(over.body.message).toMatch(/more than 1000 fields.*max_input_vars.*--max-input-vars \(WDM_MAX_INPUT_VARS\)/);
		expect(over.body.data).toMatchObject({ status: 400, limit: 1000, setting: 'max-input-vars' });
	});

	test('multipart fields and files: over either limit is a 400', async () => {
		const fields = (count: number) => Array.from({ length: count }, (_, i): [string, string] => [`a[]`, String(i)]);
		expect((await post(COMMENTS, multipart(fields(1000)), MULTIPART)).body.code).not.toBe('rest_too_many_input_vars');
		expect((await post(COMMENTS, multipart(fields(1001)), MULTIPART)).body.code).toBe('rest_too_many_input_vars');
		expect((await post(COMMENTS, multipart([], 20), MULTIPART)).body.code).not.toBe('rest_too_many_files');
		const files = await post(COMMENTS, multipart([], 21), MULTIPART);
		expect(files.status).toBe(400);
		expect(files.body.message).toMatch(/more than 20 files.*max_file_uploads/);
	});

	test('nesting past 64 levels is a 400, in a form body and a query string', async () => {
		const formAt = await post(COMMENTS, `${nested(64)}=1`, 'application/x-www-form-urlencoded');
		expect(formAt.body.code).not.toBe('rest_input_nesting_too_deep');
		const formOver = await post(COMMENTS, `${nested(65)}=1`, 'application/x-www-form-urlencoded');
		expect(formOver.status).toBe(400);
		expect(formOver.body.code).toBe('rest_input_nesting_too_deep');
		expect(formOver.body.message).toMatch(/nested more than 64 levels.*max_input_nesting_level/);
		const queryAt = await readReply(await fetch(`${server.url}/wp-json/cms/v2/posts?${nested(64)}=1`));
		expect(queryAt.status).toBe(200);
		const queryOver = await readReply(await fetch(`${server.url}/wp-json/cms/v2/posts?${nested(65)}=1`));
		expect(queryOver.body.code).toBe('rest_input_nesting_too_deep');
	});

	test('a query string over the field limit is a 400 on any route, in the namespace\'s envelope', async () => {
		const site = await readReply(await fetch(`${server.url}/wp-json/cms/v2/posts?${urlencoded(1001, 'a[]')}`));
		expect(site.status).toBe(400);
		expect(site.body.code).toBe('rest_too_many_input_vars');
		expect(site.body.message).toMatch(/query string has more than 1000 fields/);
		const gateway = await readReply(await fetch(`${server.url}/wp-json/wdm/v1/devices?${urlencoded(1001)}`));
		expect(gateway.status).toBe(400);
		expect(gateway.body).toMatchObject({ success: false });
		expect(JSON.stringify(gateway.body)).toMatch(/max_input_vars/);
		expect((await readReply(await fetch(`${server.url}/wp-json/cms/v2/posts?${urlencoded(1000, 'a[]')}`))).status).toBe(200);
	});

	test('the review\'s bodies and query strings answer in milliseconds while /healthz stays under 50 ms', async () => {
		const repeated = (field: string, bytes: number) => field.repeat(Math.floor(bytes / field.length));
		// Made before the probes start: the test's client shares the server's event loop.
		const form = repeated('a=&', 120_000);
		const list = repeated('a[]=&', 1_000_000);
		// 15,000 parts: 0.9 MB, within the anonymous body limit.
		const parts = multipart(Array.from({ length: 15_000 }, (): [string, string] => ['a[]', '']));
		const query = repeated('a[]=&', 15_000);
		const attacks = [
			() => post(COMMENTS, form, 'application/x-www-form-urlencoded'),
			() => post(COMMENTS, list, 'application/x-www-form-urlencoded'),
			() => post(COMMENTS, parts, MULTIPART),
			() => fetch(`${server.url}/wp-json/cms/v2/posts?${query}`).then(readReply),
		];
		const answers: { status: number; ms: number }[] = [];
		const worst = await healthDuring(async () => {
			for (const attack of attacks) {
				const start = performance.now();
				const { status } = await attack();
				answers.push({ status, ms: Math.round(performance.now() - start) });
			}
		});
		// Before the limits and the linear readers: 13 s and more for the first, minutes for the second.
		expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400]);
		expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(1000);
		expect(worst).toBeLessThan(50);
	});
});
