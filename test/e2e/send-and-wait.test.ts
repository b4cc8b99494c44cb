// A real n8n running as a server (n8n-server.ts), with the package installed as n8n's community-package
// installer does (node types `n8n-nodes-wdm.*`):
// - WDM Send and Wait for Reply: a Webhook trigger starts the workflow, the node sends the question
//   and waits (n8n's waiting executions), the sandbox answers as the contact, and a follow-up WDM
//   Message: Send Text says what the workflow got, which the test reads back on the reference server;
//   a second user of the server tries to answer the question through the sandbox and cannot;
// - examples/bot.json, the webhook-triggered bot: activated, it answers a contact's question.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, connectedDevice, eventually, startServer, type Device } from '../helpers/server';
import { ensureN8n } from './n8n';
import { n8nWithPackage, type N8nServer } from './n8n-server';
import { link, node } from './workflows';

let server: App;
let dir: string;
let n8n: N8nServer;
let device: Device;
let shop: Device;

const WORKFLOW = 'wdmE2eSendWait01';
const BOT = 'wdmExHoursBot001'; // examples/bot.json's own id
// The bot example names its credentials "WDM User account" and "WDM bot device" (device `bot-demo`).
const userKey = { id: 'wdmE2eSwUserKey1', name: 'WDM User account' };
const instance = { id: 'wdmE2eSwInstanc1', name: 'WDM ask' };
const shopInstance = { id: 'wdmE2eSwShopIns1', name: 'WDM bot device' };
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

/** A Webhook trigger on `path` (POST, answered at once) whose body is `{ number }`. */
const trigger = (name: string, webhookPath: string) => ({
	...node(name, 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} }),
	typeVersion: 2,
	webhookId: crypto.randomUUID(),
});

/** Send and Wait for Reply to the number the trigger got; `options` pick the kind of answer and the wait. */
const ask = (name: string, options: object) =>
	node(
		name,
		'n8n-nodes-wdm.wdmSendAndWait',
		{ device: { __rl: true, mode: 'list', value: 'ask', cachedResultName: 'ask' }, number: '={{ $json.body.number }}', message: 'Shall we deliver today?', waitAmount: 10, waitUnit: 'minutes', ...options },
		{ wdmUserApi: userKey },
	);

/** Three ways to ask, each from its own trigger, all answered by one follow-up that says what came back. */
const workflow = {
	id: WORKFLOW,
	name: 'WDM e2e send and wait',
	active: false,
	settings: {},
	nodes: [
		trigger('Ask Text', 'ask-text'),
		trigger('Ask Menu', 'ask-menu'),
		trigger('Ask Quick', 'ask-quick'),
		ask('Wait Text', { answerKind: 'text' }),
		ask('Wait Menu', {
			answerKind: 'button',
			choices: { choice: [{ label: 'Yes', id: 'yes' }, { label: 'Tomorrow', id: 'later' }] },
		}),
		ask('Wait Quick', { answerKind: 'text', waitAmount: 5, waitUnit: 'seconds' }),
		node(
			'Follow Up',
			'n8n-nodes-wdm.wdmMessage',
			{
				operation: 'sendText',
				number: '={{ $json.chatid }}',
				text: '=got: {{ $json.text }} | choice: {{ JSON.stringify($json.choice) }} | timedOut: {{ $json.timedOut }} | question: {{ $json.questionId }}',
			},
			{ wdmInstanceApi: instance },
		),
	],
	connections: {
		'Ask Text': link('Wait Text'),
		'Ask Menu': link('Wait Menu'),
		'Ask Quick': link('Wait Quick'),
		'Wait Text': link('Follow Up'),
		'Wait Menu': link('Follow Up'),
		'Wait Quick': link('Follow Up'),
	},
};


beforeAll(async () => {
	await ensureN8n();
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-wait-'));
	n8n = await n8nWithPackage(dir);
	// Deliveries keep being retried for a while: n8n may be restarting when an event comes. No private-fetch
	// setting: listening on loopback, the server reaches the n8n of this machine by default.
	server = await startServer({ pairing: 'manual', webhookBackoffMs: 500, webhookMaxBackoffMs: 5000, webhookMaxAttempts: 30 });
	expect(server.services.config.allowPrivateFetch).toBeUndefined();
	device = await connectedDevice(server, 'ask');
	shop = await connectedDevice(server, 'bot-demo');
	const baseUrl = `${server.url}/wp-json/wdm/v1`;
	await n8n.importCredentials([
		{ ...userKey, type: 'wdmUserApi', data: { baseUrl, apiKey: ADMIN_KEY } },
		{ ...instance, type: 'wdmInstanceApi', data: { baseUrl, token: device.token } },
		{ ...shopInstance, type: 'wdmInstanceApi', data: { baseUrl, token: shop.token } },
	]);
	await n8n.importWorkflow([workflow]);
	// The example as a user imports it: its own workflow id, its credentials bound by name.
	await n8n.importWorkflowFile(path.join(EXAMPLES, 'bot.json'));
	await n8n.publish(WORKFLOW);
	await n8n.publish(BOT);
	await n8n.start();
}, 20 * 60_000);

afterAll(async () => {
	await n8n?.stop();
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

const api = () => client(server.url);
const sandbox = () => client(server.url, '/wp-json/sandbox/v1');
const jidOf = (number: string) => `${number}@s.whatsapp.net`;

/** The device's messages in a chat, oldest first. */
async function chat(number: string): Promise<Array<{ id: string; text: string | null; fromMe: boolean; messageType: string; messageTimestamp: number }>> {
	const found = await api().post('/message/find', { chatid: jidOf(number), limit: 100 }, { token: device.token });
	return [...found.body.data.messages].sort((a, b) => a.messageTimestamp - b.messageTimestamp);
}

/** The device's webhook subscriptions. */
async function subscriptions(): Promise<Array<{ url: string; chatid?: string; expiresAt?: number }>> {
	return (await api().get('/devices/ask/webhook', { key: ADMIN_KEY })).body.data;
}

/** Starts the workflow at `webhookPath` for `number`; resolves with the question once it is sent and the answer subscribed to. */
async function askVia(webhookPath: string, number: string) {
	const started = await fetch(n8n.webhookUrl(webhookPath), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ number }),
	});
	if (started.status !== 200) throw new Error(`n8n answered ${started.status}: ${await started.text()}\n--- n8n log:\n${n8n.log().slice(-3000)}`);
	const question = await eventually(async () => (await chat(number)).find((m) => m.fromMe && m.text === 'Shall we deliver today?'), 60_000, 250);
	const subscription = await eventually(async () => (await subscriptions()).find((s) => s.chatid === jidOf(number)), 60_000, 250);
	return { question, subscription };
}

/** The follow-up the workflow sent to `number` once the wait ended. */
const followUp = (number: string, ms = 60_000) =>
	eventually(async () => (await chat(number)).find((m) => m.fromMe && m.text?.startsWith('got: ')), ms, 250);

/** The contact writes to the device. */
const contactWrites = (number: string, text: string) => sandbox().post('/devices/ask/inbound', { from: number, text }, { key: ADMIN_KEY });

test('text answer: the workflow goes on with what the contact wrote; the subscription is gone', async () => {
	const alice = '5511966660001';
	const { question, subscription } = await askVia('ask-text', alice);
	expect(subscription.expiresAt).toBeGreaterThan(Date.now());
	// The resume URL is only half of it: an unsigned request is refused and resumes nothing.
	const forged = await fetch(subscription.url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ event: 'messages', data: { chatid: jidOf(alice), fromMe: false, text: 'forged' } }),
	});
	expect(forged.status).toBe(401);

	expect((await contactWrites(alice, 'Yes, after 5 pm please')).status).toBe(200);
	const sent = await followUp(alice);
	expect(sent.text).toBe(`got: Yes, after 5 pm please | choice: null | timedOut: false | question: ${question.id}`);
	expect((await subscriptions()).filter((s) => s.chatid === jidOf(alice))).toEqual([]);
}, 5 * 60_000);

test('menu answer: the chosen button\'s id; another chat\'s messages and the device\'s own are not the answer', async () => {
	const bob = '5511966660002';
	const other = '5511966660003';
	const { question } = await askVia('ask-menu', bob);
	await contactWrites(other, 'Yes');
	// The device writing to the chat itself, and the contact typing instead of tapping a button.
	expect((await api().post('/send/text', { number: bob, text: 'Tap a button, please' }, { token: device.token })).status).toBe(200);
	await contactWrites(bob, 'hmm');
	// None of these resumed it: give a wrong resume the time to show.
	await new Promise((resolve) => setTimeout(resolve, 3000));
	expect((await chat(bob)).filter((m) => m.text?.startsWith('got: '))).toEqual([]);
	expect(await chat(other)).toEqual([expect.objectContaining({ fromMe: false, text: 'Yes' })]);

	expect((await sandbox().post('/devices/ask/answer', { id: question.id, choice: 'later' }, { key: ADMIN_KEY })).status).toBe(200);
	const sent = await followUp(bob);
	expect(sent.text).toBe(`got: Tomorrow | choice: "later" | timedOut: false | question: ${question.id}`);
	expect((await subscriptions()).filter((s) => s.chatid === jidOf(bob))).toEqual([]);
}, 5 * 60_000);

test('timeout: no answer in time, the workflow goes on with a timed-out item and the subscription expires', async () => {
	const carol = '5511966660004';
	const { question } = await askVia('ask-quick', carol);
	// n8n looks for due waiting executions once a minute.
	const sent = await followUp(carol, 3 * 60_000);
	// n8n writes null as nothing in a text, or as "null" (JSON.stringify).
	expect(sent.text).toBe(`got:  | choice: null | timedOut: true | question: ${question.id}`);
	// An answer after the deadline reaches nobody.
	await contactWrites(carol, 'sorry, late');
	expect((await subscriptions()).filter((s) => s.chatid === jidOf(carol))).toEqual([]);
	await new Promise((resolve) => setTimeout(resolve, 2000));
	expect((await chat(carol)).filter((m) => m.text?.startsWith('got: '))).toHaveLength(1);
}, 5 * 60_000);

test('n8n restarted while waiting: the answer still resumes the workflow', async () => {
	const dave = '5511966660005';
	const { question } = await askVia('ask-text', dave);
	await n8n.stop();
	await n8n.start();
	await contactWrites(dave, 'still here');
	const sent = await followUp(dave);
	expect(sent.text).toBe(`got: still here | choice: null | timedOut: false | question: ${question.id}`);
	expect(n8n.executions(WORKFLOW).filter((e) => e.status === 'waiting')).toEqual([]);
}, 10 * 60_000);

test('a second user of the server cannot answer the question: not by pairing as the contact, nor through the sandbox', async () => {
	const frank = '5511966660007';
	const { question } = await askVia('ask-text', frank);
	const takerKey = server.services.store.users.create('e2e-taker', undefined, 'subscriber').apiKey;
	const taker = await connectedDevice(server, 'e2e-taker-phone', takerKey, '5511977770001');
	// 1. A device of the taker paired with the contact's number (then answering from it): refused.
	expect((await api().post('/devices', { name: 'e2e-taker-contact' }, { key: takerKey })).status).toBe(201);
	expect((await api().get('/devices/e2e-taker-contact/qr', { key: takerKey })).status).toBe(200);
	expect((await sandbox().post('/devices/e2e-taker-contact/pair', { phone: frank }, { key: takerKey })).status).toBe(409);
	// 2. The contact played towards the asking device with the taker's key: not the taker's device.
	expect((await sandbox().post('/devices/ask/inbound', { from: frank, text: 'yes' }, { key: takerKey })).status).toBe(404);
	// 3. Played towards the taker's own device: it stays in the taker's world.
	expect((await sandbox().post(`/devices/${taker.name}/inbound`, { from: frank, text: 'yes' }, { key: takerKey })).status).toBe(200);
	// 4. The taker's device writes to the asking device: from its own number, another chat.
	expect((await api().post('/send/text', { number: device.phone, text: 'yes' }, { token: taker.token })).status).toBe(200);
	// None of these resumed the workflow: give a wrong resume the time to show.
	await new Promise((resolve) => setTimeout(resolve, 3000));
	expect((await chat(frank)).filter((m) => !m.fromMe || m.text?.startsWith('got: '))).toEqual([]);
	expect((await subscriptions()).filter((s) => s.chatid === jidOf(frank))).toHaveLength(1);

	// The contact itself answers: the workflow goes on with its answer.
	await contactWrites(frank, 'no, tomorrow');
	const sent = await followUp(frank);
	expect(sent.text).toBe(`got: no, tomorrow | choice: null | timedOut: false | question: ${question.id}`);
}, 5 * 60_000);

test('examples/bot.json: activated, the bot answers a question about opening hours in the same chat, and only that', async () => {
	const erin = '5511966660006';
	const shopChat = async () =>
		(await api().post('/message/find', { chatid: jidOf(erin), limit: 100 }, { token: shop.token })).body.data.messages as Array<{ id: string; fromMe: boolean; text: string; quoted: string | null }>;
	// Activation registered the trigger's own subscription on the device.
	const hooks = (await api().get('/devices/bot-demo/webhook', { key: ADMIN_KEY })).body.data;
	expect(hooks).toEqual([expect.objectContaining({ url: expect.stringContaining(`${n8n.url}/webhook/`), events: ['messages'], enabled: true })]);

	const smallTalk = await sandbox().post('/devices/bot-demo/inbound', { from: erin, text: 'Nice shop!' }, { key: ADMIN_KEY });
	const question = await sandbox().post('/devices/bot-demo/inbound', { from: erin, text: 'What are your opening HOURS?' }, { key: ADMIN_KEY });
	const reply = await eventually(async () => (await shopChat()).find((m) => m.fromMe), 60_000, 250);
	expect(reply).toMatchObject({ text: 'We are open Monday to Saturday, 9:00 to 18:00.', quoted: question.body.data.id });
	// The small talk went in first and got nothing; the bot's own reply (sent by the API) started no run.
	await new Promise((resolve) => setTimeout(resolve, 3000));
	expect((await shopChat()).filter((m) => m.fromMe)).toHaveLength(1);
	expect(n8n.executions(BOT).map((e) => e.status)).toEqual(['success', 'success']);
	expect(smallTalk.status).toBe(200);
}, 5 * 60_000);

test('afterwards no one-chat subscription is left on the server', async () => {
	expect((await subscriptions()).filter((s) => s.chatid)).toEqual([]);
	expect(n8n.executions(WORKFLOW).map((e) => e.status)).toEqual(['success', 'success', 'success', 'success', 'success']);
});
