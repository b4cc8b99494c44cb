import type { App } from '../../server/src/app';
import { configSchema, loadConfig, type ConfigInput } from '../../server/src/config';
import { ADMIN_KEY, connectedDevice, eventually, expectError, findMessage, startGateway, tempDataDir, type Device } from '../helpers/server';

/**
 * The sandbox network's rules (issue 38): account kinds, limits (tier, rates), simulated recipients (not on
 * the network, blocking, reporting), quality and restriction, lost connections, opt-outs, the async queue at
 * the device's pace, and where all this shows (status data, /metrics).
 */

const servers: App[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

const key = ADMIN_KEY;
const DAY = 24 * 60 * 60 * 1000;
/** A simulated contact's number: 55119 and eight digits. */
const contact = (i: number) => `55119${String(i).padStart(8, '0')}`;

async function start(config: Partial<ConfigInput> = {}) {
	const { server, api, sandbox } = await startGateway(config);
	servers.push(server);
	const net = {
		get: (name: string) => sandbox.get(`/devices/${name}/network`, { key }),
		put: (name: string, body: unknown) => sandbox.call('PUT', `/devices/${name}/network`, body, { key }),
		optOuts: (name: string) => sandbox.get(`/devices/${name}/network/opt-outs`, { key }),
		optOut: (name: string, number: string) => sandbox.call('PUT', `/devices/${name}/network/opt-outs/${number}`, undefined, { key }),
		clear: (name: string, number: string) => sandbox.delete(`/devices/${name}/network/opt-outs/${number}`, { key }),
	};
	/** A paired device whose network has these settings. */
	const device = async (name: string, settings: Record<string, unknown> = {}, phone?: string) => {
		const d = await connectedDevice(server, name, key, phone);
		if (Object.keys(settings).length) expect((await net.put(name, settings)).status).toBe(200);
		return d;
	};
	const send = (d: Device, number: string, text = 'hello', extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
		api.post('/send/text', { number, text, ...extra }, { token: d.token, headers });
	const inbound = (d: Device, from: string, text: string) => sandbox.post(`/devices/${d.name}/inbound`, { from, text }, { key });
	const stored = async (d: Device) => (await api.post('/message/find', { limit: 1000 }, { token: d.token })).body.data.messages as any[];
	return { server, api, sandbox, net, device, send, inbound, stored };
}

/** The default network of a device of each kind, with nothing sent yet. */
const fresh = {
	notOnNetworkRate: 0,
	blockRate: 0,
	reportRate: 0,
	seed: 0,
	quality: { rating: 'high', score: 100, blocks: 0, reports: 0 },
	restrictedUntil: null,
	reconnectingUntil: null,
	uniqueRecipients24h: 0,
	optOuts: 0,
	rules: 'on',
};
const BUSINESS = { account: 'business', tier: 100000, perSecond: 0, perMinute: 0, disconnectRate: 0, ...fresh };
const ORDINARY = { account: 'ordinary', tier: 250, perSecond: 1, perMinute: 20, disconnectRate: 0.002, ...fresh };
/** An ordinary account without its rates and disconnections: the other rules alone. */
const STEADY = { account: 'ordinary', perSecond: 0, perMinute: 0, disconnectRate: 0 };

/** Sends to many numbers, a few at a time; the answers' statuses in order. */
async function sendAll(send: (number: string) => Promise<{ status: number }>, numbers: string[]): Promise<number[]> {
	const statuses: number[] = [];
	for (let i = 0; i < numbers.length; i += 25) statuses.push(...(await Promise.all(numbers.slice(i, i + 25).map(async (n) => (await send(n)).status))));
	return statuses;
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => contact(from + i));

describe('account kinds', () => {
	test('a device is business by default, with limits that leave bulk sends alone; ordinary gets low limits; null goes back to the default', async () => {
		const { net, device, api } = await start();
		await device('biz');
		expect((await net.get('biz')).body.data).toEqual(BUSINESS);
		const ordinary = await net.put('biz', { account: 'ordinary' });
		expect(ordinary.body.data).toEqual(ORDINARY);
		// The account kind is the device's `isBusiness`.
		const listed = (await api.get('/devices', { key })).body.data.find((d: { name: string }) => d.name === 'biz');
		expect(listed.isBusiness).toBe(false);
		// A device's own value wins over the account's; null goes back to the default.
		expect((await net.put('biz', { perMinute: 5, tier: 1000 })).body.data).toMatchObject({ account: 'ordinary', perMinute: 5, tier: 1000, perSecond: 1 });
		expect((await net.put('biz', { perMinute: null, account: null })).body.data).toEqual({ ...BUSINESS, tier: 1000 });
		expect((await net.put('biz', { tier: 'unlimited' })).body.data.tier).toBe('unlimited');
	});

	test("the server's settings are every device's defaults: --network-account, --network-tier, the rates and the seed", async () => {
		const { net, device, api } = await start({ networkAccount: 'ordinary', networkTier: '1000', networkPerMinute: 40, networkBlockRate: 0.1, networkSeed: 9 });
		await device('plain');
		expect((await net.get('plain')).body.data).toEqual({ ...ORDINARY, tier: 1000, perMinute: 40, blockRate: 0.1, seed: 9 });
		expect((await api.get('/devices', { key })).body.data[0].isBusiness).toBe(false);
		expect((await net.put('plain', { account: 'business' })).body.data).toMatchObject({ account: 'business', tier: 1000, perSecond: 0, perMinute: 40, disconnectRate: 0 });
	});

	test('an ordinary device loses its connection now and then: 503 with Retry-After until it is back, deterministic with the seed', async () => {
		const { net, device, send } = await start({ networkReconnectMs: 1500 });
		const d = await device('flaky', { ...STEADY, disconnectRate: 1 });
		const dropped = await send(d, contact(1));
		expectError(dropped, 503, /^device 'flaky' lost its connection to the network \(ordinary account\); it is back at \d{4}-\d\d-\d\dT[\d:.]+Z, retry after 2 s$/);
		expect(dropped.headers.get('retry-after')).toBe('2');
		const state = (await net.get('flaky')).body.data;
		expect(state.reconnectingUntil).toBeGreaterThan(Date.now());
		await net.put('flaky', { disconnectRate: 0 });
		// Still off the network until then, whatever the rate now.
		expect((await send(d, contact(1))).status).toBe(503);
		await eventually(async () => (await send(d, contact(1))).status === 200, 5000, 100);
		expect((await net.get('flaky')).body.data.reconnectingUntil).toBeNull();
	});

	test('which sends draw a disconnection depends on the seed only', async () => {
		const drops = async (seed: number) => {
			const { device, send } = await start({ networkReconnectMs: 0 });
			const d = await device(`seed${seed}`, { ...STEADY, disconnectRate: 0.3, seed }, '5511970000001');
			const statuses: number[] = [];
			for (let i = 0; i < 20; i++) statuses.push((await send(d, contact(1))).status);
			return statuses.map((s, i) => (s === 503 ? i : -1)).filter((i) => i >= 0);
		};
		const first = await drops(1);
		expect(first.length).toBeGreaterThan(0);
		expect(first.length).toBeLessThan(20);
		expect(await drops(1)).toEqual(first);
		expect(await drops(2)).not.toEqual(first);
	});
});

describe('limits', () => {
	test('tier: past its unique recipients in 24 hours a send is refused with 429, Retry-After and a message naming the limit and the device', async () => {
		const { net, device, send, inbound, stored } = await start();
		const d = await device('tiered', STEADY);
		expect(await sendAll((n) => send(d, n), range(1, 250))).toEqual(Array(250).fill(200));
		const refused = await send(d, contact(251));
		expectError(
			refused,
			429,
			new RegExp(
				`^device 'tiered' reached its messaging limit of 250 unique recipients in a rolling 24 hours \\(tier 250, ordinary account\\): ${contact(251)} would open one more conversation; retry after \\d{4}-[\\d-]+T[\\d:.]+Z, when the oldest leaves the window \\(contacts who wrote to the device in the last 24 hours can still be answered\\)$`,
			),
		);
		const retryAfter = Number(refused.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThan(DAY / 1000 - 120);
		expect(retryAfter).toBeLessThanOrEqual(DAY / 1000);
		// A recipient of the last 24 hours is no new conversation; nor is a contact who wrote to the device.
		expect((await send(d, contact(1), 'again')).status).toBe(200);
		expect((await inbound(d, contact(300), 'hi, do you ship?')).status).toBe(200);
		expect((await send(d, contact(300), 'we do')).status).toBe(200);
		expect((await net.get('tiered')).body.data.uniqueRecipients24h).toBe(250);
		// The refused send was not stored.
		const texts = (await stored(d)).filter((m) => m.fromMe).map((m) => m.chatid);
		expect(texts).toHaveLength(252);
		expect(texts).not.toContain(`${contact(251)}@s.whatsapp.net`);
	}, 60000);

	test('rate per second: the next send within the second is a 429 with Retry-After; a second later it goes', async () => {
		const { device, send } = await start();
		const d = await device('fast', { account: 'ordinary', disconnectRate: 0 });
		// At once: one goes, the others are past the limit.
		const answers = await Promise.all([1, 2, 3].map(() => send(d, contact(1))));
		expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429]);
		const refused = answers.find((a) => a.status === 429)!;
		expectError(refused, 429, "device 'fast' is past its limit of 1 messages per second (ordinary account); retry after 1 s");
		expect(refused.headers.get('retry-after')).toBe('1');
		await new Promise((r) => setTimeout(r, 1000));
		expect((await send(d, contact(1))).status).toBe(200);
	});

	test('rate per minute: past it, 429 with the wait until the oldest send of the minute leaves it', async () => {
		const { device, send } = await start();
		const d = await device('minute', { ...STEADY, perMinute: 3 });
		for (let i = 0; i < 3; i++) expect((await send(d, contact(i))).status).toBe(200);
		const refused = await send(d, contact(4));
		expectError(refused, 429, /^device 'minute' is past its limit of 3 messages per minute \(ordinary account\); retry after (59|60) s$/);
		expect(['59', '60']).toContain(refused.headers.get('retry-after'));
	});

	test('a refused send is never stored, and its Idempotency-Key stays free for the retry', async () => {
		const { device, send, stored, net } = await start();
		const d = await device('keyed');
		expect((await send(d, contact(1), 'first', {}, { 'idempotency-key': 'k1' })).status).toBe(200);
		await net.optOut('keyed', contact(1));
		expect((await send(d, contact(1), 'second', {}, { 'idempotency-key': 'k2' })).status).toBe(422);
		expect((await stored(d)).map((m) => m.text)).toEqual(['first']);
		await net.clear('keyed', contact(1));
		const retried = await send(d, contact(1), 'second', {}, { 'idempotency-key': 'k2' });
		expect({ status: retried.status, replayed: retried.headers.get('idempotent-replayed') }).toEqual({ status: 200, replayed: null });
		expect((await stored(d)).map((m) => m.text).sort()).toEqual(['first', 'second']);
	});
});

describe('recipients', () => {
	/** The contacts (of 30) a device paired as `phone` finds not on the network, with this seed. */
	async function absentWith(seed: number, phone = '5511970000002') {
		const { device, send } = await start();
		const d = await device(`absent${seed}`, { notOnNetworkRate: 0.3, seed }, phone);
		const numbers = range(1, 30);
		const answers = await Promise.all(numbers.map((n) => send(d, n)));
		for (const res of answers.filter((r) => r.status !== 200)) expectError(res, 500, /^55119\d{8} is not on the network$/);
		return numbers.filter((_, i) => answers[i].status === 500);
	}

	test('not on the network: drawn per contact with the seed (same seed, same contacts; another seed, others)', async () => {
		const absent = await absentWith(3);
		expect(absent.length).toBeGreaterThan(2);
		expect(absent.length).toBeLessThan(20);
		expect(await absentWith(3)).toEqual(absent);
		expect(await absentWith(4)).not.toEqual(absent);
	});

	/**
	 * The contacts (of 10) who block a device paired as `phone` with these settings: each gets the device's
	 * first message (delivered), and its second stays `sent`. Also the device's quality after.
	 */
	async function blockersWith(settings: Record<string, unknown>, phone = '5511970000003') {
		const { net, device, send, api } = await start();
		const d = await device('blocked', settings, phone);
		const numbers = range(1, 10);
		const first = await Promise.all(numbers.map(async (n) => (await send(d, n, 'first')).body.data.id as string));
		const second = await Promise.all(numbers.map(async (n) => (await send(d, n, 'second')).body.data.id as string));
		// Blocks are recorded as the first messages go; the receipts come after.
		const { quality } = (await net.get('blocked')).body.data;
		const blocks = quality.blocks + quality.reports;
		const status = async (id: string) => (await findMessage(api, d.token, id)).status;
		await eventually(async () => (await Promise.all(first.map(status))).every((s) => s === 'delivered'));
		const seconds = await eventually(async () => {
			const now = await Promise.all(second.map(status));
			return now.filter((s) => s === 'delivered').length === 10 - blocks ? now : undefined;
		});
		const blockers = numbers.filter((_, i) => seconds[i] === 'sent');
		expect(blockers).toHaveLength(blocks);
		return { blockers, quality };
	}

	test('a contact who blocks gets the first message, the later ones stay sent, never delivered; the quality falls 2 per block; drawn with the seed', async () => {
		const { blockers, quality } = await blockersWith({ blockRate: 0.5, seed: 5 });
		expect(blockers.length).toBeGreaterThan(0);
		expect(blockers.length).toBeLessThan(10);
		const score = 100 - 2 * blockers.length;
		expect(quality).toEqual({ rating: score >= 80 ? 'high' : 'medium', score, blocks: blockers.length, reports: 0 });
		expect((await blockersWith({ blockRate: 0.5, seed: 5 })).blockers).toEqual(blockers);
		expect((await blockersWith({ blockRate: 0.5, seed: 6 })).blockers).not.toEqual(blockers);
	});

	test('a contact who reports also blocks; the quality falls 5 per report; drawn with the seed', async () => {
		const { blockers, quality } = await blockersWith({ reportRate: 0.4, seed: 5 });
		expect(blockers.length).toBeGreaterThan(0);
		expect(blockers.length).toBeLessThan(10);
		const score = 100 - 5 * blockers.length;
		expect(quality).toEqual({ rating: score >= 80 ? 'high' : score >= 50 ? 'medium' : 'low', score, blocks: 0, reports: blockers.length });
		expect((await blockersWith({ reportRate: 0.4, seed: 5 })).blockers).toEqual(blockers);
		expect((await blockersWith({ reportRate: 0.4, seed: 6 })).blockers).not.toEqual(blockers);
	});

	test('reports lower the quality 5 each; below 30 the device is restricted: 429 with Retry-After, but it may still answer who wrote to it; then it comes back at 50', async () => {
		const { net, device, send, inbound } = await start({ networkRestrictionMs: 4000 });
		const d = await device('reported', { reportRate: 1 });
		// A contact who writes first keeps the service window open.
		expect((await inbound(d, contact(99), 'is my order ready?')).status).toBe(200);
		for (let i = 1; i <= 14; i++) expect((await send(d, contact(i))).status).toBe(200);
		expect((await net.get('reported')).body.data).toMatchObject({ quality: { rating: 'low', score: 30, blocks: 0, reports: 14 }, restrictedUntil: null });
		expect((await send(d, contact(15))).status).toBe(200);
		const restricted = (await net.get('reported')).body.data;
		expect(restricted.quality).toEqual({ rating: 'low', score: 25, blocks: 0, reports: 15 });
		expect(restricted.restrictedUntil).toBeGreaterThan(Date.now());
		const refused = await send(d, contact(16));
		expectError(
			refused,
			429,
			/^device 'reported' is restricted until \d{4}-[\d-]+T[\d:.]+Z: its quality rating fell to low \(score 25; 0 contacts blocked it, 15 reported it\); until then it may only answer contacts who wrote to it in the last 24 hours$/,
		);
		expect(['3', '4']).toContain(refused.headers.get('retry-after'));
		// Customer service window: the reply goes.
		expect((await send(d, contact(99), 'yes, it is')).status).toBe(200);
		await eventually(async () => (await net.get('reported')).body.data.restrictedUntil === null, 6000, 100);
		// The contact answered reported too (16 reports); the score is 50 once the restriction ends, whatever fell meanwhile.
		expect((await net.get('reported')).body.data).toMatchObject({ restrictedUntil: null, quality: { rating: 'medium', score: 50, reports: 16 } });
		expect((await send(d, contact(16))).status).toBe(200);
		expect((await net.get('reported')).body.data).toMatchObject({ restrictedUntil: null, quality: { rating: 'low', score: 45, reports: 17 } });
	}, 30000);
});

describe('opt-outs', () => {
	const optOutMessage = (number: string, device: string, how: string) =>
		`${number} opted out of messages from device '${device}' (${how}); they opt in again by sending START, or the owner clears it with DELETE /sandbox/v1/devices/${device}/network/opt-outs/${number}`;

	test('a contact who answers STOP is refused with 422 until they send START; the list shows it', async () => {
		const { net, device, send, inbound, stored } = await start();
		const d = await device('shop');
		expect((await send(d, contact(1), 'our sale starts today')).status).toBe(200);
		expect((await inbound(d, contact(1), '  Stop ')).status).toBe(200);
		const list = (await net.optOuts('shop')).body.data;
		expect(list).toEqual([{ number: contact(1), keyword: 'Stop', at: expect.any(Number) }]);
		const refused = await send(d, contact(1), 'last chance!');
		expectError(refused, 422, optOutMessage(contact(1), 'shop', `sent "Stop" at ${new Date(list[0].at).toISOString()}`));
		// Known at once for the async queue too: nothing is queued.
		expect((await send(d, contact(1), 'later', { async: true })).status).toBe(422);
		expect((await stored(d)).filter((m) => m.fromMe).map((m) => m.text)).toEqual(['our sale starts today']);
		// A text that merely contains the word is no opt-out; START opts in again.
		expect((await inbound(d, contact(2), 'please stop by tomorrow')).status).toBe(200);
		expect((await net.get('shop')).body.data.optOuts).toBe(1);
		expect((await inbound(d, contact(1), 'start')).status).toBe(200);
		expect((await net.optOuts('shop')).body.data).toEqual([]);
		expect((await send(d, contact(1), 'welcome back')).status).toBe(200);
	});

	test('the owner records and clears opt-outs through the sandbox; a device of this server opts out the same way', async () => {
		const { net, device, send, api } = await start({ optOutKeywords: 'STOP, baja', optInKeywords: 'ALTA' });
		const d = await device('crm');
		const recorded = await net.optOut('crm', `+${contact(5)}`);
		expect(recorded.body.data).toEqual({ number: contact(5), keyword: null, at: expect.any(Number) });
		const refused = await send(d, contact(5));
		expect(refused.status).toBe(422);
		expect(refused.body.message).toBe(
			`${contact(5)} opted out of messages from device 'crm' (recorded by the device's owner at ${new Date(recorded.body.data.at).toISOString()}); they opt in again by sending ALTA, or the owner clears it with DELETE /sandbox/v1/devices/crm/network/opt-outs/${contact(5)}`,
		);
		expect((await net.clear('crm', contact(5))).body.data).toEqual({ number: contact(5), deleted: true });
		expect((await send(d, contact(5))).status).toBe(200);
		expectError(await net.clear('crm', contact(5)), 404, `${contact(5)} has not opted out of messages from device 'crm'`);
		expect((await net.optOut('crm', 'not-a-number')).status).toBe(400);
		// Another device of this server writes the (configured) keyword to it.
		const other = await device('customer');
		expect((await api.post('/send/text', { number: d.phone, text: 'BAJA' }, { token: other.token })).status).toBe(200);
		expect((await net.optOuts('crm')).body.data).toEqual([{ number: other.phone, keyword: 'BAJA', at: expect.any(Number) }]);
		expect((await send(d, other.phone)).status).toBe(422);
	});
});

describe('the async queue', () => {
	test('drains at the device\'s pace, in order, and reports each final status: sent, or failed with the refusal', async () => {
		const { device, send, inbound, api } = await start();
		const d = await device('bulk', { ...STEADY, perSecond: 1 });
		// The recipient of the third opts out while the messages wait (`delay`): known only when it goes.
		const queued: Array<{ id: string; status: string }> = [];
		for (let i = 1; i <= 5; i++) queued.push((await send(d, i === 3 ? contact(99) : contact(i), `msg ${i}`, { async: true, delay: 300 })).body.data);
		expect(queued.map((m) => m.status)).toEqual(Array(5).fill('queued'));
		expect((await inbound(d, contact(99), 'STOP')).status).toBe(200);
		const final = await eventually(async () => {
			const rows = await Promise.all(queued.map((m) => findMessage(api, d.token, m.id)));
			return rows.every((m) => m.status !== 'queued') ? rows : undefined;
		}, 10000, 50);
		// The others went: sent, or delivered once their receipt came.
		expect(final.map((m) => (m.status === 'sent' || m.status === 'delivered' ? 'went' : m.status))).toEqual(['went', 'went', 'failed', 'went', 'went']);
		expect(final[2].content).toEqual({ error: expect.stringMatching(new RegExp(`^${contact(99)} opted out of messages from device 'bulk'`)), refusal: 'opted_out' });
		// One a second: the four that went are in order, a second apart.
		const went = final.filter((m) => m.status !== 'failed').map((m) => m.messageTimestamp as number);
		expect([...went].sort((a, b) => a - b)).toEqual(went);
		for (let i = 1; i < went.length; i++) expect(went[i] - went[i - 1]).toBeGreaterThanOrEqual(990);
	}, 20000);

	test('a refusal for good fails the queued message with its reason: restricted', async () => {
		const { device, send, net, api } = await start({ networkRestrictionMs: 60000 });
		const d = await device('restrict', { reportRate: 1 });
		for (let i = 1; i <= 15; i++) expect((await send(d, contact(i))).status).toBe(200);
		expect((await net.get('restrict')).body.data.restrictedUntil).not.toBeNull();
		const queued = (await send(d, contact(50), 'queued', { async: true })).body.data;
		const failed = await eventually(async () => {
			const m = await findMessage(api, d.token, queued.id);
			return m.status === 'failed' ? m : undefined;
		});
		expect(failed.content).toEqual({ error: expect.stringMatching(/^device 'restrict' is restricted until /), refusal: 'restricted' });
	});
});

describe('settings', () => {
	test('--network-rules off: the ideal network, no limit, no opt-out, no draw', async () => {
		const { net, device, send, inbound } = await start({ networkRules: 'off', networkAccount: 'ordinary', networkNotOnNetworkRate: 1 });
		const d = await device('ideal');
		expect((await net.get('ideal')).body.data).toMatchObject({ account: 'ordinary', perSecond: 1, rules: 'off' });
		expect(await sendAll((n) => send(d, n), range(1, 30))).toEqual(Array(30).fill(200));
		expect((await inbound(d, contact(1), 'STOP')).status).toBe(200);
		expect((await send(d, contact(1))).status).toBe(200);
		expect((await net.get('ideal')).body.data).toMatchObject({ optOuts: 0, uniqueRecipients24h: 0 });
	});

	test('bad input to PUT network is a 400 naming the field and the rule', async () => {
		const { net, device } = await start();
		await device('strict');
		expectError(await net.put('strict', { tier: 300 }), 400, 'tier must be one of: 250, 1000, 10000, 100000, "unlimited"');
		expectError(await net.put('strict', { blockRate: 2 }), 400, 'blockRate must be at most 1');
		expectError(await net.put('strict', { perSecond: 1.5 }), 400, 'perSecond must be an integer (got number 1.5)');
		expectError(await net.put('strict', { account: 'personal' }), 400, 'account must be one of: "business", "ordinary"');
		expectError(await net.put('strict', { limit: 3 }), 400, 'body has unknown field(s): limit');
		expect((await net.get('strict')).body.data).toEqual(BUSINESS);
	});

	test('bad settings are refused naming the flag; --help lists them', () => {
		expect(() => loadConfig({ 'network-tier': '300' }, {})).toThrow('--network-tier (WDM_NETWORK_TIER) must be one of: "250", "1000", "10000", "100000", "unlimited"');
		expect(() => loadConfig({}, { WDM_NETWORK_BLOCK_RATE: '1.5' })).toThrow('--network-block-rate (WDM_NETWORK_BLOCK_RATE) must be at most 1');
		expect(() => loadConfig({ 'opt-out-keywords': 'STOP,,END' }, {})).toThrow('--opt-out-keywords (WDM_OPT_OUT_KEYWORDS) must be a comma list of words, e.g. STOP,UNSUBSCRIBE');
		expect(loadConfig({ 'network-tier': '1000', 'network-account': 'ordinary' }, {})).toMatchObject({ networkTier: '1000', networkAccount: 'ordinary' });
		const defaults = configSchema.parse({});
		expect(defaults).toMatchObject({ networkRules: 'on', networkAccount: 'business', networkSeed: 0, optOutKeywords: 'STOP,UNSUBSCRIBE', optInKeywords: 'START' });
	});
});

describe('where it shows', () => {
	test("the device's status data carries its network", async () => {
		const { device, net, api, inbound } = await start();
		const d = await device('shown', { account: 'ordinary', disconnectRate: 0 });
		await inbound(d, contact(1), 'STOP');
		const status = (await api.get('/devices/shown/status', { key })).body.data;
		expect(status).toMatchObject({ name: 'shown', connected: true, isBusiness: false });
		expect(status.network).toEqual((await net.get('shown')).body.data);
		expect(status.network).toMatchObject({ account: 'ordinary', optOuts: 1 });
	});

	test('/metrics: refusals by rule, and each device quality, restriction and opt-outs', async () => {
		const { server, device, send, inbound } = await start({ networkRestrictionMs: 60000 });
		const d = await device('watched', { account: 'ordinary', disconnectRate: 0, reportRate: 1, perSecond: 0, perMinute: 2 });
		await send(d, contact(1));
		await send(d, contact(2));
		expect((await send(d, contact(3))).status).toBe(429);
		await inbound(d, contact(3), 'stop');
		const text = await (await fetch(`${server.url}/metrics`)).text();
		expect(text).toContain('wdm_network_refusals_total{reason="rate"} 1\n');
		expect(text).toContain('wdm_network_refusals_total{reason="opted_out"} 0\n');
		expect(text).toContain('wdm_network_quality_score{user="admin",device="watched",account="ordinary"} 90\n');
		expect(text).toContain('wdm_network_restricted{user="admin",device="watched"} 0\n');
		expect(text).toContain('wdm_network_opt_outs{user="admin",device="watched"} 1\n');
	});
});

test('a restart keeps the opt-outs, the quality, who blocked the device and the tier window', async () => {
	const data = tempDataDir();
	const first = await start({ data });
	const d = await first.device('kept', STEADY, '5511970000009');
	expect(await sendAll((n) => first.send(d, n), range(1, 250))).toEqual(Array(250).fill(200));
	await first.inbound(d, contact(500), 'UNSUBSCRIBE');
	// One more message to the first contact, who reports it; the next one is never delivered, restart or not.
	await first.net.put('kept', { reportRate: 1 });
	expect((await first.send(d, contact(1))).status).toBe(200);
	const before = (await first.send(d, contact(1), 'are you there?')).body.data;
	await first.server.close();
	servers.splice(servers.indexOf(first.server), 1);

	const second = await start({ data });
	expect((await second.net.get('kept')).body.data).toMatchObject({
		account: 'ordinary',
		reportRate: 1,
		uniqueRecipients24h: 250,
		optOuts: 1,
		quality: { rating: 'high', score: 95, blocks: 0, reports: 1 },
	});
	expect((await second.send(d, contact(2))).status).toBe(200);
	expectError(await second.send(d, contact(251)), 429, /^device 'kept' reached its messaging limit of 250 unique recipients/);
	expectError(await second.send(d, contact(500)), 422, /^55119\d{8} opted out of messages from device 'kept' \(sent "UNSUBSCRIBE" at /);
	// Who reported it stays blocked: the messages stay sent (the receipts a restart resumes are not theirs).
	const after = (await second.send(d, contact(1), 'still there?')).body.data;
	const delivered = (await second.send(d, contact(3), 'hello')).body.data;
	await eventually(async () => (await findMessage(second.api, d.token, delivered.id)).status === 'delivered');
	expect((await findMessage(second.api, d.token, before.id)).status).toBe('sent');
	expect((await findMessage(second.api, d.token, after.id)).status).toBe('sent');
}, 60000);
