// WDM Send and Wait for Reply through n8n's engine against the live server: the question is sent and
// subscribed to, the execution waits; the node's webhook takes only a signed answer from that chat.
// (Resuming a waiting execution needs n8n itself: test/e2e/send-and-wait.test.ts.)
import type { INode, Workflow } from 'n8n-workflow';
import type { App } from '../../server/src/app';
import { sign } from '../../server/src/webhooks/signing';
import { ADMIN_KEY, client, connectedDevice, startGateway, type Device } from '../helpers/server';
import { jidOf, runNode, userHarness } from '../helpers/nodes';
import type { N8nTestHarness } from '../helpers/n8n';

const TYPE = 'CUSTOM.wdmSendAndWait';
let server: App;
let device: Device;
let harness: N8nTestHarness;

beforeAll(async () => {
	({ server } = await startGateway());
	device = await connectedDevice(server, 'asker');
	harness = userHarness(server);
});
afterAll(() => server.close());

const api = () => client(server.url);
const subscriptions = async () => (await api().get('/devices/asker/webhook', { key: ADMIN_KEY })).body.data as Array<{ id: string; url: string; chatid?: string; expiresAt?: number; events: string[]; excludeMessages: string[] }>;
const chat = async (number: string) => (await api().post('/message/find', { chatid: jidOf(number), limit: 50 }, { token: device.token })).body.data.messages as Array<Record<string, any>>;

/** The Device as the editor saves it: a resource locator (From List). */
const ASKER = { __rl: true, mode: 'list', value: 'asker', cachedResultName: 'asker' };
const ask = (parameters: INode['parameters']) => runNode(harness, TYPE, { device: ASKER, message: 'Which day suits you?', ...parameters });

test('sends the question, subscribes to the chat until the deadline, and puts the execution to wait', async () => {
	const number = '5511955550001';
	const before = Date.now();
	const { run, error } = await ask({
		number,
		answerKind: 'list',
		listButton: 'Days',
		choices: { choice: [{ label: 'Monday', id: 'mon' }, { label: 'Tuesday', id: 'tue' }] },
		waitAmount: 2,
		waitUnit: 'hours',
	});
	expect(error).toBeUndefined();
	expect(run.status).toBe('waiting');
	const waitTill = new Date(run.waitTill!).getTime();
	expect(waitTill).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
	expect(waitTill).toBeLessThan(Date.now() + 2 * 3_600_000);

	const [question] = await chat(number);
	expect(question).toMatchObject({ fromMe: true, messageType: 'list', text: 'Which day suits you?' });
	expect(question.content.sections[0].rows.map((r: { id: string }) => r.id)).toEqual(['mon', 'tue']);
	// The resume URL of this execution (the harness's n8n base URL and execution id), naming chat and question.
	const [sub] = (await subscriptions()).filter((s) => s.chatid === jidOf(number));
	expect(sub).toMatchObject({ events: ['messages'], excludeMessages: ['fromMeYes'], expiresAt: waitTill });
	const url = new URL(sub.url);
	expect(`${url.origin}${url.pathname}`).toBe('http://localhost:5678/webhook-waiting/1');
	expect(Object.fromEntries(url.searchParams)).toEqual({ chat: jidOf(number), question: question.id });
});

test('Limit Wait Time off: waits without end, and so does the subscription', async () => {
	const number = '5511955550002';
	const { run, error } = await ask({ number, answerKind: 'text', limitWaitTime: false });
	expect(error).toBeUndefined();
	expect(new Date(run.waitTill!).getUTCFullYear()).toBe(3000); // n8n's WAIT_INDEFINITELY
	const [sub] = (await subscriptions()).filter((s) => s.chatid === jidOf(number));
	expect(sub.expiresAt).toBeUndefined();
});

test('bad input is refused before anything is sent or subscribed', async () => {
	const number = '5511955550003';
	const noId = await ask({ number, answerKind: 'button', choices: { choice: [{ label: 'Yes', id: 'yes' }, { label: 'No', id: ' ' }] } });
	expect(noId.error?.message).toBe('Choice 2 needs a label and an ID');
	const unknownDevice = await runNode(harness, TYPE, { device: 'nope', number, message: 'Hi?' });
	expect(unknownDevice.error?.message).toBe("No device named 'nope' among this API key's devices");
	// The gateway's own rule, in its own words.
	const onePollOption = await ask({ number, answerKind: 'poll', pollOptions: { option: [{ text: 'Only' }] } });
	expect(onePollOption.error?.message).toMatch(/poll/i);
	expect(await chat(number)).toEqual([]);
	expect((await subscriptions()).filter((s) => s.chatid === jidOf(number))).toEqual([]);
});

test('a subscription the server refuses takes the question back: no question is left that nobody waits for', async () => {
	// A server that may not deliver to this machine refuses the resume URL (localhost).
	const { server: strict } = await startGateway({ allowPrivateFetch: false });
	try {
		const strictDevice = await connectedDevice(strict, 'asker');
		const number = '5511955550005';
		const { error } = await runNode(userHarness(strict), TYPE, { device: 'asker', number, message: 'Still there?' });
		expect(error?.message).toMatch(/^url: refused: private address/);
		const found = await client(strict.url).post('/message/find', { chatid: jidOf(number) }, { token: strictDevice.token });
		expect(found.body.data.messages).toEqual([expect.objectContaining({ fromMe: true, status: 'deleted' })]);
		expect((await client(strict.url).get('/devices/asker/webhook', { key: ADMIN_KEY })).body.data).toEqual([]);
	} finally {
		await strict.close();
	}
});

describe('the webhook', () => {
	const number = '5511955550004';
	let workflow: Workflow;
	let question: Record<string, any>;
	let sub: { id: string; url: string };

	beforeAll(async () => {
		const { run } = await ask({ number, answerKind: 'poll', pollOptions: { option: [{ text: 'Mon' }, { text: 'Tue' }, { text: 'Wed' }] } });
		expect(run.status).toBe('waiting');
		[question] = await chat(number);
		[sub] = (await subscriptions()).filter((s) => s.chatid === jidOf(number));
		const node: INode = {
			id: 'node',
			name: 'Node',
			type: TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { device: ASKER, number, message: 'Which day suits you?', answerKind: 'poll' },
			credentials: { wdmUserApi: { id: '1', name: 'wdmUserApi' } },
		};
		workflow = harness.createWorkflow([node], {});
	});

	/** Delivers `data` as a `messages` event to the node's webhook at the subscription's URL, signed with `secret`. */
	async function deliver(data: Record<string, unknown>, secret = server.services.store.webhooks.byId(sub.id)!.secret) {
		const body = JSON.stringify({ id: `evt_${Math.random()}`, event: 'messages', device: 'asker', timestamp: Date.now(), data });
		const timestamp = Math.floor(Date.now() / 1000);
		const id = `evt_${timestamp}`;
		const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secret, id, timestamp, body) };
		const refused: Array<{ status: number; body: unknown }> = [];
		let status = 200;
		const response = {
			status(code: number) {
				status = code;
				return response;
			},
			json(answer: unknown) {
				refused.push({ status, body: answer });
			},
		};
		const [webhook] = harness.getNodeWebhooks(workflow, workflow.getNode('Node')!);
		const query = Object.fromEntries(new URL(sub.url).searchParams);
		const result = await harness.runWebhook(workflow, webhook, { body: JSON.parse(body), rawBody: Buffer.from(body), headers, query } as never, response);
		return { result, refused };
	}

	const vote = (overrides: Record<string, unknown> = {}) => ({
		id: 'answer-1',
		chatid: jidOf(number),
		fromMe: false,
		messageType: 'pollVote',
		text: 'Tue, Wed',
		quoted: question.id,
		messageTimestamp: 1767000000000,
		sender: jidOf(number),
		senderName: 'Contact',
		content: { selectedOptions: ['Tue', 'Wed'] },
		...overrides,
	});

	test('refuses a delivery not signed with the subscription\'s secret', async () => {
		const { result, refused } = await deliver(vote(), `whsec_${Buffer.alloc(32, 7).toString('base64')}`);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(refused).toEqual([{ status: 401, body: { message: 'Signature refused: signature does not match' } }]);
	});

	test('ignores another chat, the device\'s own message, and a message that does not answer the poll', async () => {
		for (const other of [vote({ chatid: jidOf('5511955559999') }), vote({ fromMe: true }), vote({ messageType: 'text', quoted: null, content: {} })]) {
			expect((await deliver(other)).result).toEqual({ webhookResponse: 'ignored' });
		}
		expect((await subscriptions()).filter((s) => s.id === sub.id)).toHaveLength(1);
	});

	test('the answer resumes with the poll options voted for, and removes the subscription', async () => {
		const { result } = await deliver(vote());
		expect(result.workflowData).toEqual([
			[
				{
					json: {
						timedOut: false,
						text: 'Tue, Wed',
						choice: ['Tue', 'Wed'],
						messageId: 'answer-1',
						timestamp: 1767000000000,
						chatid: jidOf(number),
						sender: jidOf(number),
						senderName: 'Contact',
						messageType: 'pollVote',
						questionId: question.id,
					},
				},
			],
		]);
		expect((await subscriptions()).filter((s) => s.id === sub.id)).toEqual([]);
	});
});
