// Retries on the direct path (nodes/shared/direct.ts, nodes/shared/retry.ts): a WDM Message bulk send
// rides out a short outage of the gateway within the run. A fault-injecting HTTP proxy sits between n8n's
// engine and the in-process gateway; for a window it answers 503, or 429 with Retry-After, or stops
// listening (connection refused; the connections it had are cut, as when the gateway is killed), or
// passes the request on and cuts the connection before the answer (the message is sent, the answer lost).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { gatewayWithDevice, harnessFor, runNode, type NodeParameters, type RunOptions } from '../helpers/nodes';
import { storedDevice, type Device } from '../helpers/server';

type Fault = 'none' | '503' | '429' | 'refuse' | 'lose-answer';

interface Seen {
	at: number;
	path: string;
	number?: string;
	key?: string;
	/** What the proxy did: answered with a fault, or passed it on (and the gateway's status). */
	fault: Fault;
	status?: number;
}

/** An HTTP proxy to `target` that injects faults: `window(fault, ms, afterRequests)`. */
class FaultProxy {
	readonly seen: Seen[] = [];
	private fault: Fault = 'none';
	private readonly server: http.Server;
	private readonly agent = new http.Agent({ keepAlive: true });
	private plan?: { fault: Fault; ms: number; after: number };
	port = 0;

	constructor(private readonly target: URL) {
		this.server = http.createServer((req, res) => void this.handle(req, res));
	}

	get url() {
		return `http://127.0.0.1:${this.port}`;
	}

	async listen() {
		await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
		this.port = (this.server.address() as AddressInfo).port;
	}

	async close() {
		this.server.closeAllConnections();
		await new Promise((resolve) => this.server.close(resolve));
		this.agent.destroy();
	}

	/** From the `after`-th request on (0: now), `fault` for `ms` (Infinity: until `heal`). */
	window(fault: Fault, ms: number, after = 0) {
		this.plan = { fault, ms, after };
		if (after === 0) this.begin();
	}

	async heal() {
		this.plan = undefined;
		const was = this.fault;
		this.fault = 'none';
		if (was === 'refuse') await this.listen();
	}

	private begin() {
		const { fault, ms } = this.plan!;
		this.plan = undefined;
		this.fault = fault;
		if (fault === 'refuse') {
			// Killed: it stops listening (new connections are refused) and the connections it had are cut.
			this.server.close();
			this.server.closeAllConnections();
		}
		if (Number.isFinite(ms)) void new Promise((resolve) => setTimeout(resolve, ms).unref()).then(() => {
				if (this.fault === fault) this.heal();
			});
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const body = Buffer.concat(chunks);
		let number: string | undefined;
		try {
			number = (JSON.parse(body.toString() || '{}') as { number?: string }).number;
		} catch {
			// not JSON
		}
		const seen: Seen = { at: Date.now(), path: req.url ?? '', number, key: req.headers['idempotency-key'] as string | undefined, fault: this.fault };
		this.seen.push(seen);
		if (this.plan && this.seen.length > this.plan.after) this.begin();
		seen.fault = this.fault;
		switch (this.fault) {
			case '503':
				res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, message: 'Service unavailable (proxy)' }));
				return;
			case '429':
				res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ success: false, message: 'Too many requests (proxy)' }));
				return;
			case 'refuse':
				req.socket.destroy();
				return;
		}
		const fault = this.fault;
		const upstream = http.request(
			new URL(req.url ?? '/', this.target),
			{ method: req.method, headers: { ...req.headers, host: this.target.host }, agent: this.agent },
			(answer) => {
				seen.status = answer.statusCode;
				if (fault === 'lose-answer') {
					answer.resume();
					answer.on('end', () => req.socket.destroy());
					return;
				}
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => req.socket.destroy());
		upstream.end(body);
	}
}

let server: App;
let shop: Device;
let proxy: FaultProxy;

beforeAll(async () => {
	({ server, shop } = await gatewayWithDevice('shop'));
	proxy = new FaultProxy(new URL(server.url));
	await proxy.listen();
});
afterAll(async () => {
	await proxy.close();
	await server.close();
});
afterEach(async () => await proxy.heal());

/** Runs WDM Message through the proxy; the node's main output and its error output. */
async function message(parameters: NodeParameters, options: RunOptions = {}) {
	const harness = harnessFor({ wdmInstanceApi: { baseUrl: `${proxy.url}/wp-json/wdm/v1`, token: shop.token } });
	const started = Date.now();
	const run = await runNode(harness, 'CUSTOM.wdmMessage', parameters, options);
	const main = run.run.data.resultData.runData.Node?.[0]?.data?.main ?? [];
	return { ...run, ms: Date.now() - started, ok: main[0] ?? [], failed: main[1] ?? [] };
}

/** Messages the gateway stored for the shop with this text, by recipient (the chat's number). */
function storedByNumber(text: string): Map<string, number> {
	const device = storedDevice(server.services.store, 'shop')!;
	const rows = server.services.store.db.prepare('SELECT chatid FROM messages WHERE device_id = ? AND text = ?').all(device.id, text) as Array<{ chatid: string }>;
	const counts = new Map<string, number>();
	for (const { chatid } of rows) counts.set(chatid.split('@')[0], (counts.get(chatid.split('@')[0]) ?? 0) + 1);
	return counts;
}

const phones = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `55119${prefix}${String(i).padStart(5, '0')}`);
const items = (numbers: string[]): INodeExecutionData[] => numbers.map((phone) => ({ json: { phone } }));
const sendText = (text: string, options: INodeParameters = {}, requestOptions?: INodeParameters): NodeParameters => ({
	operation: 'sendText',
	// As n8n's editor saves a resource locator.
	number: { __rl: true, mode: 'id', value: '={{ $json.phone }}' },
	text,
	options,
	...(requestOptions ? { requestOptions } : {}),
});
const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
/** An error item's message: in its JSON (n8n 1.x takes `error` off the items of the error output) and, in n8n 2.x, its error. */
const errorOf = (item: INodeExecutionData) => {
	if (item.error) expect(item.error.message).toBe(item.json.error);
	return { message: item.json.error as string };
};
const requestsFor = (number: string) => proxy.seen.filter((seen) => seen.number === number);
/**
 * Lets n8n's HTTP client see the connections the proxy cut when it stopped listening: a request on a
 * connection the server has just closed fails with a reset ("socket hang up"), which may have reached
 * the server as far as the client can tell; on a new one, it is refused.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('a bulk send during a short outage ends with only the bad phones failed, each good phone sent once', () => {
	// Bad phones (the gateway answers 400 naming the number), at fixed places of 200 items.
	const BAD = new Map([
		[3, 'abc'],
		[57, '12'],
		[58, '5511'],
		[150, 'x@y'],
	]);

	test.each<[Fault, string, number]>([
		['503', '7', 1500],
		['429', '6', 1],
		['refuse', '5', 1500],
		['lose-answer', '4', 800],
	])('%s', async (fault, prefix, ms) => {
		const numbers = phones(prefix, 200).map((phone, i) => BAD.get(i) ?? phone);
		const text = `campaign ${fault}`;
		const before = proxy.seen.length;
		// The window opens at about a third of the run (after 60 requests).
		proxy.window(fault, fault === '429' ? 1200 : ms, 60);
		const run = await message(sendText(text), { input: items(numbers), onError: 'continueErrorOutput' });
		const seen = proxy.seen.slice(before);
		expect(seen.filter((s) => s.fault === fault).length).toBeGreaterThan(0); // the outage happened

		expect(run.error).toBeUndefined();
		// The error output: exactly the bad phones, each paired with its input item, with the gateway's message.
		expect(run.failed.map(pairedIndex).sort((a, b) => a - b)).toEqual([...BAD.keys()]);
		for (const item of run.failed) {
			expect(errorOf(item).message).toContain(`(got "${BAD.get(pairedIndex(item))}")`);
			// A 400 is not retried: its answer reached n8n once, and no try came after it.
			const tries = seen.filter((s) => s.number === BAD.get(pairedIndex(item)));
			expect(tries.filter((s) => s.fault === 'none').map((s) => s.status)).toEqual([400]);
			expect(tries[tries.length - 1]).toMatchObject({ fault: 'none', status: 400 });
		}
		// The main output: every good phone, in order, sent.
		expect(run.ok.map(pairedIndex)).toEqual(numbers.map((_, i) => i).filter((i) => !BAD.has(i)));
		// (A message answered again, to a retry whose first answer was lost, is as it is now: delivered, perhaps.)
		const statuses = fault === 'lose-answer' ? ['sent', 'delivered'] : ['sent'];
		expect(run.ok.filter((item) => !statuses.includes(item.json.status as string))).toEqual([]);
		// The store: exactly one message per good phone, none twice.
		const stored = storedByNumber(text);
		expect(stored.size).toBe(196);
		for (const [i, phone] of numbers.entries()) if (!BAD.has(i)) expect([phone, stored.get(phone)]).toEqual([phone, 1]);
		// Each good phone's tries all carried one key: its own, made for this execution and item.
		for (const phone of numbers.filter((_, i) => !BAD.has(i))) {
			const keys = new Set(seen.filter((s) => s.number === phone).map((s) => s.key));
			expect(keys.size).toBe(1);
			expect([...keys][0]).toMatch(/^n8n-1-/);
		}
		if (fault === '429') {
			// Retry-After: 1 is honoured: no item came back before a second had passed.
			for (const [n, s] of seen.entries()) {
				if (s.fault !== '429') continue;
				const next = seen.slice(n + 1).find((later) => later.number === s.number);
				expect(next && next.at - s.at).toBeGreaterThanOrEqual(990);
			}
		}
		if (fault === 'lose-answer') {
			// The sends whose answer was lost were stored, and their retries answered with that message.
			expect(seen.filter((s) => s.fault === 'lose-answer' && s.status === 200).length).toBeGreaterThan(0);
		}
	});
});

describe('the bound and its messages', () => {
	test('an outage longer than the bound fails the items quickly, saying what happened and that a re-run is safe', async () => {
		const numbers = phones('3', 80);
		proxy.window('503', Infinity);
		const run = await message(sendText('long outage', {}, { retryTransientFailures: 2 }), { input: items(numbers), onError: 'continueErrorOutput' });
		// 2 s of retries for the first items; the later ones find the outage past the bound and try once.
		expect(run.ms).toBeLessThan(5000);
		expect(run.ok).toHaveLength(0);
		expect(run.failed.map(pairedIndex)).toEqual(numbers.map((_, i) => i));
		for (const item of run.failed) {
			expect(errorOf(item).message).toMatch(
				/^Service unavailable \(proxy\)\. Tried \d+ times? in [\d.]+ s, up to Retry Transient Failures \(Request Options: 2 s\)\. Nothing was sent: a re-run is safe\.$/,
			);
		}
		expect(run.failed.some((item) => /Tried [2-9]\d* times/.test(errorOf(item).message))).toBe(true);
		expect(requestsFor(numbers[79])).toHaveLength(1);
		expect(storedByNumber('long outage').size).toBe(0);
	});

	test('connection refused past the bound: the refusal, the tries and that nothing was sent', async () => {
		proxy.window('refuse', Infinity);
		await settle();
		const run = await message(sendText('refused', {}, { retryTransientFailures: 1 }), { input: items(phones('2', 3)), onError: 'continueErrorOutput' });
		expect(run.ms).toBeLessThan(3000);
		expect(run.failed).toHaveLength(3);
		for (const item of run.failed) {
			expect(errorOf(item).message).toMatch(/^The service refused the connection - perhaps it is offline\. Tried \d+ times in [\d.]+ s, up to Retry Transient Failures \(Request Options: 1 s\)\. Nothing was sent: a re-run is safe\.$/);
		}
	});

	test('answers lost past the bound: "it may have been sent", with the generated key; sent once all the same', async () => {
		const numbers = phones('1', 3);
		proxy.window('lose-answer', Infinity);
		const run = await message(sendText('answers lost', {}, { retryTransientFailures: 1 }), { input: items(numbers), onError: 'continueErrorOutput' });
		expect(run.failed).toHaveLength(3);
		for (const item of run.failed) {
			const key = requestsFor(numbers[pairedIndex(item)])[0].key!;
			expect(key).toMatch(/^n8n-1-/);
			expect(errorOf(item).message).toContain(`Tried `);
			expect(errorOf(item).message).toContain(`It may have been sent: re-run with the same Idempotency Key to be safe. This run's was ${key};`);
			// Every try reached the gateway: one message, the others answered with it.
			expect(requestsFor(numbers[pairedIndex(item)]).length).toBeGreaterThan(1);
		}
		expect([...storedByNumber('answers lost').values()]).toEqual([1, 1, 1]);
	});

	test("with the user's key: a re-run with the same key is safe", async () => {
		proxy.window('lose-answer', Infinity);
		const run = await message(sendText('answers lost, keyed', { idempotencyKey: '=camp-{{ $json.phone }}' }, { retryTransientFailures: 1 }), {
			input: items(phones('0', 1)),
			onError: 'continueErrorOutput',
		});
		expect(errorOf(run.failed[0]).message).toMatch(/It may have been sent: a re-run with the same Idempotency Key is safe \(it sends nothing twice\)\.$/);
	});

	test('Retry Transient Failures 0: no retries, the item fails at once', async () => {
		const numbers = phones('8', 5);
		proxy.window('503', Infinity);
		const run = await message(sendText('no retries', {}, { retryTransientFailures: 0 }), { input: items(numbers), onError: 'continueErrorOutput' });
		expect(run.ms).toBeLessThan(1500);
		expect(run.failed).toHaveLength(5);
		for (const phone of numbers) expect(requestsFor(phone)).toHaveLength(1);
		expect(errorOf(run.failed[0]).message).toBe('Service unavailable (proxy). Not retried: Retry Transient Failures (Request Options) is 0. Nothing was sent: a re-run is safe.');
	});

	test('a bad value of the option is an error naming it', async () => {
		const run = await message(sendText('bad option', {}, { retryTransientFailures: -1 }), { input: items(phones('9', 1)) });
		expect(run.error?.message).toBe('Retry Transient Failures (Request Options) must be a number of seconds, 0 or more: got -1');
	});
});

describe('keys and what is repeated', () => {
	test("a key the user gives wins over the generated one; without one, each item's key is of the execution, the item and the request", async () => {
		const [a, b] = phones('9', 2);
		await message(sendText('user key', { idempotencyKey: '=camp-{{ $json.phone }}' }), { input: items([a]) });
		expect(requestsFor(a).map((s) => s.key)).toEqual([`camp-${a}`]);
		await message(sendText('generated key'), { input: items([b, b]) });
		const [first, second] = requestsFor(b).map((s) => s.key!);
		expect(first).toMatch(/^n8n-1-[\w-]+-0-0-[\w-]{16}$/);
		expect(second).toMatch(/^n8n-1-[\w-]+-0-1-[\w-]{16}$/);
		expect(storedByNumber('generated key').get(b)).toBe(2);
	});

	test('a POST without an idempotency key that may have reached the server is not repeated; one refused is', async () => {
		const [a, b] = phones('9', 4).slice(2);
		proxy.window('lose-answer', Infinity);
		const lost = await message({ operation: 'setPresence', number: { __rl: true, mode: 'id', value: '={{ $json.phone }}' }, presence: 'paused' }, { input: items([a]), onError: 'continueErrorOutput' });
		expect(requestsFor(a)).toHaveLength(1);
		expect(errorOf(lost.failed[0]).message).toMatch(
			/Tried 1 time in [\d.]+ s, not again: it may have reached the server, and a POST without an idempotency key could be done twice\. It may have been done: check before running it again\.$/,
		);
		await proxy.heal();
		proxy.window('refuse', 700);
		await settle();
		const refused = await message({ operation: 'setPresence', number: { __rl: true, mode: 'id', value: '={{ $json.phone }}' }, presence: 'paused' }, { input: items([b]) });
		expect(refused.error).toBeUndefined();
		expect(refused.ok).toHaveLength(1);
		expect(requestsFor(b).map((s) => s.status)).toEqual([200]);
	});
});

describe('operations that page (Return All) are retried page by page', () => {
	test('Message Find with Return All rides out a 503 between its pages and returns every message once', async () => {
		// More than one page (100 a request): the sends of this test.
		await message(sendText('to be found'), { input: items(phones('6', 130)) });
		const device = storedDevice(server.services.store, 'shop')!;
		const stored = (server.services.store.db.prepare('SELECT count(*) AS n FROM messages WHERE device_id = ?').get(device.id) as { n: number }).n;
		const before = proxy.seen.length;
		// The first page passes; the next request gets 503 for 600 ms.
		proxy.window('503', 600, 1);
		const run = await message({ operation: 'find', returnAll: true });
		expect(run.error).toBeUndefined();
		const seen = proxy.seen.slice(before);
		expect(seen.filter((s) => s.fault === '503').length).toBeGreaterThan(0);
		expect(seen.every((s) => s.path.endsWith('/message/find'))).toBe(true);
		const ids = run.ok.map((item) => item.json.id);
		expect(ids).toHaveLength(stored);
		expect(new Set(ids).size).toBe(stored);
	});
});
