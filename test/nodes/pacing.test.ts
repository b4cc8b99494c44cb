// Pacing of the send operations (Request Options > Pacing, nodes/shared/pacing.ts): a bulk send from one
// device goes at most N messages a minute, each gap one interval to a fifth more, through n8n's engine.
import type { INodeExecutionData, INodeParameters, INodeProperties } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { gatewayWithDevice, harnessFor, NODE_TYPES, runNode, type NodeParameters } from '../helpers/nodes';
import { storedDevice, type Device } from '../helpers/server';

let server: App;
let shop: Device;
/** When each send request reached the server (its headers, before any handling), in arrival order. */
let arrivals: number[] = [];

beforeAll(async () => {
	({ server, shop } = await gatewayWithDevice('shop'));
	// Arrival, not the stored timestamp: a send leaves on its slot, and what the server does with it after
	// (a shared commit, a loaded machine) must not make two sends look closer than they left.
	server.app.server.on('request', (request: { method?: string; url?: string }) => {
		if (request.method === 'POST' && request.url?.endsWith('/send/text')) arrivals.push(Date.now());
	});
});
beforeEach(() => (arrivals = []));
afterAll(async () => await server.close());

const harness = () => harnessFor({ wdmInstanceApi: { baseUrl: `${server.url}/wp-json/wdm/v1`, token: shop.token } });
const items = (n: number, prefix: string): INodeExecutionData[] => Array.from({ length: n }, (_, i) => ({ json: { phone: `5511987${prefix}${String(i).padStart(4, '0')}` } }));
const sendText = (text: string, requestOptions: INodeParameters = {}): NodeParameters => ({
	operation: 'sendText',
	number: { __rl: true, mode: 'id', value: '={{ $json.phone }}' },
	text,
	options: {},
	requestOptions,
});

/** When the gateway stored each message with this text, in order. */
function sentAt(text: string): number[] {
	const device = storedDevice(server.services.store, 'shop')!;
	const rows = server.services.store.db.prepare('SELECT timestamp FROM messages WHERE device_id = ? AND text = ? ORDER BY timestamp').all(device.id, text) as Array<{ timestamp: number }>;
	return rows.map((row) => row.timestamp);
}
const main = (run: Awaited<ReturnType<typeof runNode>>) => run.run.data.resultData.runData.Node?.[0]?.data?.main ?? [];

test('at 300 messages a minute, 8 sends are 200 to 240 ms apart, in item order, and the run ends with the last send', async () => {
	const started = Date.now();
	const run = await runNode(harness(), 'CUSTOM.wdmMessage', sendText('paced', { pacing: 300 }), { input: items(8, '1') });
	const ms = Date.now() - started;
	expect(run.error).toBeUndefined();
	expect(main(run)[0]!.map((item) => item.json.chatid)).toEqual(items(8, '1').map((item) => `${item.json.phone as string}@s.whatsapp.net`));
	expect(sentAt('paced')).toHaveLength(8);
	const times = arrivals;
	expect(times).toHaveLength(8);
	// Never faster than the pace: k sends span at least k - 1 intervals. They leave on their slots and reach
	// the server a connection's latency later (a first request on a new connection is slower): 50 ms of slack.
	for (let i = 0; i < 8; i++) for (let j = i + 1; j < 8; j++) expect(times[j] - times[i]).toBeGreaterThanOrEqual((j - i) * 200 - 50);
	// At most a fifth slower, plus the machine's noise.
	expect(times[7] - times[0]).toBeLessThan(7 * 240 + 300);
	// Nothing waits after the last send.
	expect(ms).toBeLessThan(times[7] - times[0] + 1500);
});

test('without Pacing (or at 0) the sends are not spaced', async () => {
	for (const [label, options] of [
		['unpaced', {}],
		['paced at 0', { pacing: 0 }],
	] as const) {
		const run = await runNode(harness(), 'CUSTOM.wdmMessage', sendText(label, options), { input: items(20, label.length === 7 ? '2' : '3') });
		expect(run.error).toBeUndefined();
		const times = sentAt(label);
		expect(times).toHaveLength(20);
		expect(times[19] - times[0]).toBeLessThan(1000);
	}
});

test('two runs sending from the same device at once share its pace', async () => {
	const [a, b] = await Promise.all([
		runNode(harness(), 'CUSTOM.wdmMessage', sendText('shared a', { pacing: 600 }), { input: items(4, '4') }),
		runNode(harness(), 'CUSTOM.wdmMessage', sendText('shared b', { pacing: 600 }), { input: items(4, '5') }),
	]);
	expect([a.error, b.error]).toEqual([undefined, undefined]);
	expect([...sentAt('shared a'), ...sentAt('shared b')]).toHaveLength(8);
	const times = arrivals;
	expect(times).toHaveLength(8);
	// 100 ms slots: the two runs' 8 sends span 7 of them, not 3 side by side (slack as above).
	expect(times[7] - times[0]).toBeGreaterThanOrEqual(700 - 50);
});

test('a Pacing that is not a number of messages a minute is an error naming the option', async () => {
	const run = await runNode(harness(), 'CUSTOM.wdmMessage', sendText('bad pacing', { pacing: -5 }), { input: items(1, '6') });
	expect(run.error?.message).toBe('Pacing (Request Options) must be a number of messages per minute, 0 (off) or more: got -5');
	expect(sentAt('bad pacing')).toEqual([]);
});

test('Pacing is offered on the send operations only', () => {
	const requestOptions = NODE_TYPES['CUSTOM.wdmMessage'].description.properties.find((p) => p.name === 'requestOptions')!;
	const pacingOption = (requestOptions.options as INodeProperties[]).find((o) => o.name === 'pacing')!;
	const shownFor = pacingOption.displayOptions!.show!['/operation'] as string[];
	expect(shownFor).toEqual(expect.arrayContaining(['sendText', 'sendMedia', 'sendMenu']));
	expect(shownFor).not.toContain('find');
	expect(shownFor).not.toContain('react');
});
