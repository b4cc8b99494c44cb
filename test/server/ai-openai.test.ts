import type { App } from '../../server/src/app';
import { ADMIN_KEY, startServer } from '../helpers/server';

/**
 * `sandbox/v1/openai`: the simulated model as an OpenAI-compatible service (a user's API key as the
 * Bearer key), with deterministic tool calls.
 */

let server: App;
beforeAll(async () => {
	server = await startServer();
});
afterAll(() => server.close());

const BASE = '/wp-json/sandbox/v1/openai';

async function call(method: string, path: string, body?: unknown, key: string | null = ADMIN_KEY) {
	const res = await fetch(`${server.url}${BASE}${path}`, {
		method,
		headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined,
	});
	const text = await res.text();
	return { status: res.status, type: res.headers.get('content-type') ?? '', text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

const sendText = {
	type: 'function',
	function: {
		name: 'Send_Text',
		description: 'Send a text message to a WhatsApp number',
		parameters: {
			type: 'object',
			properties: { number: { type: 'string', description: 'Phone number of the recipient' }, text: { type: 'string', description: 'The message to send' } },
			required: ['number', 'text'],
		},
	},
};
const weather = {
	type: 'function',
	function: { name: 'get_weather', description: 'Get the weather forecast of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const ask = 'Please send the message "Your order has shipped" to +55 11 99999-0001 on WhatsApp.';

test('models: listed with a user API key; without one, or with a wrong one, a 401', async () => {
	const models = await call('GET', '/models');
	expect(models.status).toBe(200);
	expect(models.body.data.map((m: { id: string }) => m.id)).toEqual(['wdm-echo-1', 'wdm-echo-mini', 'wdm-embed-1']);
	expect((await call('GET', '/models', undefined, null)).status).toBe(401);
	expect((await call('GET', '/models', undefined, 'not-a-key')).status).toBe(401);
});

test('a prompt that asks for what a tool does: the tool is called with arguments read from the prompt', async () => {
	const res = await call('POST', '/chat/completions', { model: 'wdm-echo-1', messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: ask }], tools: [weather, sendText] });
	expect(res.status).toBe(200);
	expect(res.body).toMatchObject({ object: 'chat.completion', model: 'wdm-echo-1', choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: null } }] });
	const [toolCall] = res.body.choices[0].message.tool_calls;
	expect(toolCall).toMatchObject({ id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'Send_Text' } });
	expect(JSON.parse(toolCall.function.arguments)).toEqual({ number: '+5511999990001', text: 'Your order has shipped' });

	// The same request, the same call (deterministic).
	const again = await call('POST', '/chat/completions', { model: 'wdm-echo-1', messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: ask }], tools: [weather, sendText] });
	expect(again.body.choices[0].message.tool_calls).toEqual(res.body.choices[0].message.tool_calls);

	// The tool answered: the model says what it answered.
	const after = await call('POST', '/chat/completions', {
		model: 'wdm-echo-1',
		messages: [
			{ role: 'user', content: ask },
			{ role: 'assistant', content: null, tool_calls: [toolCall] },
			{ role: 'tool', tool_call_id: toolCall.id, content: '{"status":"sent"}' },
		],
		tools: [weather, sendText],
	});
	expect(after.body.choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant', content: 'Done: Send_Text answered {"status":"sent"}' } });
});

test('`name: value` in the prompt fills any parameter; numbers are numbers', async () => {
	const tool = { type: 'function', function: { name: 'set_price', description: 'Set the price of a product', parameters: { type: 'object', properties: { sku: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, note: { type: 'string' } } } } };
	const res = await call('POST', '/chat/completions', { model: 'wdm-echo-1', messages: [{ role: 'user', content: 'Set the product price with sku: AB-12, price=19.5 and currency: "BRL"' }], tools: [tool] });
	expect(JSON.parse(res.body.choices[0].message.tool_calls[0].function.arguments)).toEqual({ sku: 'AB-12', price: 19.5, currency: 'BRL' });
});

test('no tool fits, or tool_choice none: an answer, no call', async () => {
	const unrelated = await call('POST', '/chat/completions', { model: 'wdm-echo-1', messages: [{ role: 'user', content: 'How are you?' }], tools: [weather, sendText] });
	expect(unrelated.body.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'You said: "How are you?" (3 words, message 1 of this conversation).' } });
	const none = await call('POST', '/chat/completions', { model: 'wdm-echo-1', messages: [{ role: 'user', content: ask }], tools: [sendText], tool_choice: 'none' });
	expect(none.body.choices[0].finish_reason).toBe('stop');
	expect(none.body.choices[0].message.tool_calls).toBeUndefined();
});

test('a streamed tool call: the call in one delta, then finish_reason tool_calls and [DONE]', async () => {
	const res = await call('POST', '/chat/completions', { model: 'wdm-echo-1', messages: [{ role: 'user', content: ask }], tools: [sendText], stream: true });
	expect(res.type).toContain('text/event-stream');
	const events = res.text.split('\n\n').filter(Boolean);
	expect(events.at(-1)).toBe('data: [DONE]');
	const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)));
	expect(chunks[0].choices[0].delta.tool_calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'Send_Text' } });
	expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
});

test('bad input: OpenAI-style errors naming the parameter', async () => {
	const badTools = await call('POST', '/chat/completions', { model: 'wdm-echo-1', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function' }] });
	expect(badTools.status).toBe(400);
	expect(badTools.body.error).toMatchObject({ param: 'tools', code: 'invalid_value' });
	const badModel = await call('POST', '/chat/completions', { model: 'gpt-nothing', messages: [{ role: 'user', content: 'hi' }] });
	expect(badModel.status).toBe(404);
	expect(badModel.body.error).toMatchObject({ param: 'model', code: 'model_not_found' });
	const badMessages = await call('POST', '/chat/completions', { model: 'wdm-echo-1', messages: [{ role: 'user', content: 7 }] });
	expect(badMessages.status).toBe(400);
	expect(badMessages.body.error.param).toBe('messages');
});
