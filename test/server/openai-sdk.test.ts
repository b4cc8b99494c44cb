import OpenAI from 'openai';
import type { App } from '../../server/src/app';
import { ADMIN_KEY, startServer } from '../helpers/server';

/** The official `openai` SDK against the sandbox's OpenAI-compatible model: chat, stream, tools, embeddings, errors. */

let server: App;
let openai: OpenAI;
beforeAll(async () => {
	server = await startServer({ logLevel: 'warn' });
	openai = new OpenAI({ baseURL: `${server.url}/wp-json/sandbox/v1/openai`, apiKey: ADMIN_KEY, maxRetries: 0 });
});
afterAll(() => server.close());

test('embeddings in both encodings: base64 (the SDK default) decodes to the float vector', async () => {
	const asFloats = await openai.embeddings.create({ model: 'wdm-embed-1', input: ['hello', 'world'], encoding_format: 'float' });
	const byDefault = await openai.embeddings.create({ model: 'wdm-embed-1', input: ['hello', 'world'] });
	expect(asFloats.data[0].embedding).toHaveLength(16);
	expect(asFloats.data[0].embedding.some((v) => v !== 0)).toBe(true);
	// The SDK asks for base64 and decodes it as float32: the same vector, to float32's precision.
	for (const [i, item] of byDefault.data.entries()) {
		item.embedding.forEach((v, k) => expect(v).toBeCloseTo(asFloats.data[i].embedding[k], 6));
	}
	const raw = await fetch(`${server.url}/wp-json/sandbox/v1/openai/embeddings`, {
		method: 'POST',
		headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
		body: JSON.stringify({ input: 'hello', encoding_format: 'base64' }),
	}).then((r) => r.json() as Promise<{ data: { embedding: unknown }[] }>);
	expect(typeof raw.data[0].embedding).toBe('string');
	await expect(openai.embeddings.create({ model: 'wdm-embed-1', input: 'x', encoding_format: 'hex' as 'float' })).rejects.toMatchObject({
		status: 400,
		error: { param: 'encoding_format', code: 'invalid_value' },
	});
});

test('chat, a stream and a tool call through the SDK', async () => {
	const chat = await openai.chat.completions.create({ model: 'wdm-echo-1', messages: [{ role: 'user', content: 'Hello there' }] });
	expect(chat.choices[0].message.content).toEqual(expect.any(String));
	const stream = await openai.chat.completions.create({ model: 'wdm-echo-1', messages: [{ role: 'user', content: 'Hello there' }], stream: true });
	let text = '';
	for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
	expect(text).toBe(chat.choices[0].message.content);
	const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Get the weather forecast of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
	const called = await openai.chat.completions.create({ model: 'wdm-echo-1', messages: [{ role: 'user', content: 'What is the weather forecast in city: Lisbon?' }], tools });
	expect(called.choices[0].message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
});

test('a wrong key: the SDK reports a 401 with the server\'s message (OpenAI-shaped error body)', async () => {
	const wrong = new OpenAI({ baseURL: `${server.url}/wp-json/sandbox/v1/openai`, apiKey: 'not-a-key', maxRetries: 0 });
	const failure = await wrong.models.list().catch((error: unknown) => error);
	expect(failure).toBeInstanceOf(OpenAI.AuthenticationError);
	expect(failure).toMatchObject({ status: 401, message: '401 invalid API key', error: { type: 'authentication_error', code: 'invalid_api_key' } });
	const none = await fetch(`${server.url}/wp-json/sandbox/v1/openai/models`);
	expect(await none.json()).toEqual({
		error: { message: 'missing API key: send the header "Authorization: Bearer <API key>"', type: 'authentication_error', param: null, code: 'invalid_api_key' },
	});
});
