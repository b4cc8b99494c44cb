// Real n8n, end to end: n8n's AI Agent, whose chat model is n8n's OpenAI Chat Model on the reference
// server's simulated model (sandbox/v1/openai), calls WDM Message Send Text as a tool (the node's
// `usableAsTool` variant); the message arrives on the server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, client, connectedDevice, startServer } from '../helpers/server';
import { buildPackage, ensureN8n, n8nCli, nodeOutput } from './n8n';
import { node } from './workflows';

let server: App;
let dir: string;

beforeAll(async () => {
	await ensureN8n(); // ~8 min on a machine's first run, then nothing
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-e2e-agent-'));
	await buildPackage(path.join(dir, 'custom', 'n8n-nodes-wdm'));
	// Manual pairing: the sandbox pairs the device (auto pairing could beat it to it on a loaded machine).
	server = await startServer({ pairing: 'manual' });
}, 20 * 60_000);

afterAll(async () => {
	await server?.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('AI Agent (OpenAI Chat Model on the simulated model) sends a message with the WDM Send Text tool', async () => {
	const device = await connectedDevice(server, 'agent');
	const openAi = { id: 'wdmE2eOpenAiKey1', name: 'Simulated model' };
	const instance = { id: 'wdmE2eAgentInst1', name: 'WDM agent' };
	const n8n = await n8nCli(path.join(dir, 'user'), path.join(dir, 'custom'));
	await n8n.importCredentials([
		// The simulated model takes a user's API key as its OpenAI key.
		{ ...openAi, type: 'openAiApi', data: { apiKey: ADMIN_KEY, url: `${server.url}/wp-json/sandbox/v1/openai`, header: false } },
		{ ...instance, type: 'wdmInstanceApi', data: { baseUrl: `${server.url}/wp-json/wdm/v1`, token: device.token } },
	]);
	const customer = '5511999990123';
	await n8n.importWorkflow({
		id: 'wdmE2eAiAgent001',
		name: 'AI Agent with a WDM tool',
		active: false,
		// As the editor saves a new workflow. Under the older order (v0, the default of a workflow without
		// the setting), n8n 2.40 resumes the agent before its tools ran, and the model sees empty results
		// (n8n-io/n8n#38870).
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}),
			{
				...node('AI Agent', '@n8n/n8n-nodes-langchain.agent', {
					promptType: 'define',
					text: `Send the WhatsApp message "Your order #42 has shipped" to ${customer}.`,
					options: {},
				}),
				typeVersion: 3,
			},
			{
				...node('OpenAI Chat Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', { model: { __rl: true, mode: 'id', value: 'wdm-echo-1' }, options: {} }, { openAiApi: openAi }),
				typeVersion: 1.2,
			},
			// The node as a tool: the model fills the chat and the text ($fromAI), the rest is set here.
			node(
				'Send Text',
				'CUSTOM.wdmMessageTool',
				{
					operation: 'sendText',
					number: "={{ $fromAI('number', 'Phone number of the recipient, digits only', 'string') }}",
					text: "={{ $fromAI('text', 'The text of the message', 'string') }}",
				},
				{ wdmInstanceApi: instance },
			),
		],
		connections: {
			'Manual Trigger': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			'Send Text': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	});
	const run = await n8n.execute('wdmE2eAiAgent001');
	expect(run.status).toBe('success');

	// The agent's answer is the model's after the tool ran: it names the tool and what it answered.
	const [answer] = nodeOutput(run, 'AI Agent');
	expect(answer.output).toMatch(/^Done: Send_Text answered /);
	expect(answer.output).toContain('Your order #42 has shipped');

	// The message is on the server, sent from the device to the customer.
	const chat = await client(server.url).post('/message/find', { chatid: `${customer}@s.whatsapp.net` }, { token: device.token });
	expect(chat.body.data.messages).toEqual([
		expect.objectContaining({ text: 'Your order #42 has shipped', fromMe: true, chatid: `${customer}@s.whatsapp.net`, wasSentByApi: true }),
	]);
}, 10 * 60_000);

