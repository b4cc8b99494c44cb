import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { App } from '../../server/src/app';
import { createNonce, NONCE_LIFETIME_MS, SETTINGS_ACTION } from '../../server/src/site/ai-proxy/state';
import { client, expectWpError, readReply, type Client } from '../helpers/server';
import { startSite, type SiteUser, type SiteUsers } from '../helpers/content';

/** `proxyext/v1`: key and model with nonces, the built-in model, forwarding to a loopback upstream, conversations. */

const KEY = 'sk-test-SECRET-0123456789abcdef';
const P = '/wp-json/proxyext/v1/ai-api-proxy';

/** Every log line the server writes (it logs at `debug` here). */
function captureLogs(server: App): string[] {
	const lines: string[] = [];
	(server.app.log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = { write: (line: string) => void lines.push(line) };
	return lines;
}

const as = (user: SiteUser) => ({ headers: user.headers });

/** OpenAI's error body, as the proxy's forwarding routes answer their refusals. */
function expectOpenAiError(res: { status: number; body: any }, status: number, code: string, message: string) {
	expect({ status: res.status, body: res.body }).toEqual({
		status,
		body: { error: { message, type: status === 401 ? 'authentication_error' : 'invalid_request_error', param: null, code } },
	});
}

async function nonceFor(api: Client, user: SiteUser): Promise<string> {
	const res = await api.get('/settings', as(user));
	expect(res.status).toBe(200);
	return res.body.nonce;
}

async function configure(api: Client, user: SiteUser, key = KEY, model?: string) {
	const nonce = await nonceFor(api, user);
	expect((await api.post('/key', { api_key: key, nonce }, as(user))).status).toBe(200);
	if (model) expect((await api.post('/model', { model, nonce }, as(user))).status).toBe(200);
}

describe('built-in model (default upstream)', () => {
	let server: App;
	let u: SiteUsers;
	let api: Client;
	let logs: string[];
	/** Every answer body of the suite, searched for the key at the end. */
	const answers: string[] = [];

	beforeAll(async () => {
		({ server, u } = await startSite({ logLevel: 'debug' }));
		logs = captureLogs(server);
		const raw = client(server.url, P);
		const keep = <T extends { body: unknown }>(res: T) => (answers.push(JSON.stringify(res.body)), res);
		api = {
			get: async (route, auth) => keep(await raw.get(route, auth)),
			post: async (route, body, auth) => keep(await raw.post(route, body, auth)),
			delete: async (route, auth) => keep(await raw.delete(route, auth)),
			call: async (method, route, body, auth) => keep(await raw.call(method, route, body, auth)),
		} as Client;
	});
	afterAll(() => server.close());

	test('settings: a nonce per user; key and model need a valid one; the key is never shown', async () => {
		const before = await api.get('/settings', as(u.admin));
		expect(before.body).toEqual({ key_set: false, model: '', nonce: expect.stringMatching(/^[0-9a-f]{12}$/) });
		const nonce = before.body.nonce;

		const saved = await api.post('/key', { api_key: KEY, nonce }, as(u.admin));
		expect(saved.body).toEqual({ key_set: true, model: '', nonce });
		expect((await api.call('PUT', '/model', { model: 'wdm-echo-mini', nonce }, as(u.admin))).body).toMatchObject({ key_set: true, model: 'wdm-echo-mini' });
		expect((await api.call('PATCH', '/model', { model: 'wdm-echo-1', nonce }, as(u.admin))).body.model).toBe('wdm-echo-1');
		expect((await api.get('/settings', as(u.admin))).body).toMatchObject({ key_set: true, model: 'wdm-echo-1' });

		// Wrong, another user's, or expired nonces are refused, and nothing changes.
		const refused = 'The nonce is invalid or has expired; get a new one from GET /proxyext/v1/ai-api-proxy/settings.';
		expectWpError(await api.post('/model', { model: 'x', nonce: 'deadbeef0000' }, as(u.admin)), 403, 'proxyext_invalid_nonce', refused);
		const other = createNonce(server.services.store, u.editor.id, SETTINGS_ACTION);
		expectWpError(await api.post('/key', { api_key: 'other', nonce: other }, as(u.admin)), 403, 'proxyext_invalid_nonce', refused);
		const old = createNonce(server.services.store, u.admin.id, SETTINGS_ACTION, Date.now() - NONCE_LIFETIME_MS - 1000);
		expectWpError(await api.post('/key', { api_key: 'other', nonce: old }, as(u.admin)), 403, 'proxyext_invalid_nonce', refused);
		// Half a lifetime ago is still good (a nonce lives 12 to 24 hours).
		const recent = createNonce(server.services.store, u.admin.id, SETTINGS_ACTION, Date.now() - NONCE_LIFETIME_MS / 2);
		expect((await api.post('/model', { model: 'wdm-echo-1', nonce: recent }, as(u.admin))).status).toBe(200);

		// Validation never repeats the key.
		const missing = await api.post('/key', { api_key: 12345678 }, as(u.admin));
		expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['nonce'] } });
		const typed = await api.post('/key', { api_key: 987654321, nonce }, as(u.admin));
		expect(typed.body.data.params).toEqual({ api_key: 'api_key must be a string' });
		expect(JSON.stringify(typed.body)).not.toContain('987654321');
		const badModel = await api.post('/model', { model: 'no spaces', nonce }, as(u.admin));
		expect(badModel.body.data.params.model).toBe('model must be a model id such as gpt-4o-mini (letters, digits and . _ - : / @)');

		expectWpError(await api.get('/settings', as(u.editor)), 403, 'proxyext_cannot_configure', 'Sorry, you are not allowed to configure the AI proxy.');
		expectWpError(await api.post('/key', { api_key: 'x', nonce: other }, as(u.editor)), 403, 'proxyext_cannot_configure', 'Sorry, you are not allowed to configure the AI proxy.');
		expectWpError(await api.post('/model', { model: 'x', nonce }, as(u.anonymous)), 401, 'proxyext_cannot_configure', 'Sorry, you are not allowed to configure the AI proxy.');
		expect((await api.get('/settings', as(u.admin))).body).toMatchObject({ key_set: true, model: 'wdm-echo-1' });
	});

	test('models, chat (deterministic, usage counted, max_tokens), embeddings, the stored model standing in', async () => {
		const models = await api.get('/models', as(u.contributor));
		expect(models.status).toBe(200);
		expect(models.body.data.map((m: any) => m.id)).toEqual(['wdm-echo-1', 'wdm-echo-mini', 'wdm-embed-1']);
		expect((await api.get('/models/wdm-echo-mini', as(u.author))).body).toMatchObject({ id: 'wdm-echo-mini', object: 'model' });

		const body = { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there, model!' }] };
		const chat = await api.post('/chat/completions', body, as(u.author));
		expect(chat.status).toBe(200);
		expect(chat.body).toMatchObject({
			object: 'chat.completion',
			model: 'wdm-echo-1',
			choices: [{ index: 0, message: { role: 'assistant', content: 'You said: "Hello there, model!" (3 words, message 1 of this conversation).' }, finish_reason: 'stop' }],
			usage: { prompt_tokens: 3 + (3 + 3) + (5 + 3), completion_tokens: 21, total_tokens: 38 },
		});
		// Deterministic: the same input, the same answer.
		expect((await api.post('/chat/completions', body, as(u.author))).body.choices).toEqual(chat.body.choices);
		const short = await api.post('/chat/completions', { ...body, model: 'wdm-echo-mini', max_tokens: 4 }, as(u.author));
		expect(short.body).toMatchObject({ model: 'wdm-echo-mini', choices: [{ message: { content: 'You said: ' }, finish_reason: 'length' }], usage: { completion_tokens: 3 } });

		const embedded = await api.post('/embeddings', { input: ['a', 'b'], dimensions: 8 }, as(u.author));
		expect(embedded.body).toMatchObject({ object: 'list', model: 'wdm-embed-1', usage: { prompt_tokens: 2 } });
		expect(embedded.body.data).toHaveLength(2);
		const norm = Math.hypot(...embedded.body.data[0].embedding);
		expect(norm).toBeCloseTo(1, 4);
		expect(embedded.body.data[0].embedding).not.toEqual(embedded.body.data[1].embedding);

		// The service's own errors come back with their status and body.
		const unknown = await api.post('/chat/completions', { ...body, model: 'gpt-nope' }, as(u.author));
		expect(unknown.status).toBe(404);
		expect(unknown.body.error).toMatchObject({ code: 'model_not_found', message: 'The model `gpt-nope` does not exist or is not a chat model.' });
		const invalid = await api.post('/chat/completions', { messages: [] }, as(u.author));
		expect(invalid.status).toBe(400);
		expect(invalid.body.error.param).toBe('messages');
		expect((await api.delete('/chat/completions', as(u.author))).status).toBe(405);
	});

	test('streaming: server-sent events, one per word, then [DONE]', async () => {
		const res = await fetch(`${server.url}${P}/chat/completions`, {
			method: 'POST',
			headers: { ...u.author.headers, 'content-type': 'application/json' },
			body: JSON.stringify({ stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Stream me' }] }),
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
		const text = await res.text();
		answers.push(text);
		const events = text.split('\n\n').filter(Boolean);
		expect(events[events.length - 1]).toBe('data: [DONE]');
		const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)));
		expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('You said: "Stream me" (2 words, message 1 of this conversation).');
		expect(chunks[chunks.length - 1].usage).toMatchObject({ completion_tokens: 18 });
	});

	test('conversation: remembered per user; response answers, records and forgets the last reply; clear-conversation forgets', async () => {
		const last = await api.get('/response', as(u.author));
		expect(last.body).toMatchObject({ role: 'assistant', content: 'You said: "Stream me" (2 words, message 1 of this conversation).', model: 'wdm-echo-1' });
		// Another user has a conversation of their own.
		expectWpError(await api.get('/response', as(u.editor)), 404, 'proxyext_no_response', 'There is no response in this conversation yet.');

		const added = await api.call('PATCH', '/response', { content: 'Edited reply', model: 'human' }, as(u.author));
		expect(added.body).toMatchObject({ role: 'assistant', content: 'Edited reply', model: 'human' });
		expect((await api.post('/response', { content: 'Another' }, as(u.author))).body.content).toBe('Another');
		expect((await api.get('/response', as(u.author))).body.content).toBe('Another');
		const forgotten = await api.delete('/response', as(u.author));
		expect(forgotten.body).toMatchObject({ deleted: true, previous: { content: 'Another' } });
		expect((await api.call('GET', '/response', undefined, as(u.author))).body.content).toBe('Edited reply');
		const bad = await api.post('/response', {}, as(u.author));
		expect(bad.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['content'] } });

		// Four chats that worked (the stream's too), each a question and a reply, plus the reply added: 9.
		const trimmed = await api.post('/clear-conversation', { keep: 2 }, as(u.author));
		expect(trimmed.body).toMatchObject({ deleted: 7, kept: 2 });
		expect(trimmed.body.previous[0]).toMatchObject({ role: 'user', content: 'Hello there, model!' });
		expect((await api.get('/clear-conversation?keep=1', as(u.author))).body).toMatchObject({ deleted: 1, kept: 1 });
		expect((await api.delete('/clear-conversation', as(u.author))).body).toMatchObject({ deleted: 1, kept: 0 });
		expect((await api.call('PUT', '/clear-conversation', {}, as(u.author))).body).toEqual({ deleted: 0, kept: 0, previous: [] });
		expectWpError(await api.get('/response', as(u.author)), 404, 'proxyext_no_response', 'There is no response in this conversation yet.');
		const badKeep = await api.delete('/clear-conversation?keep=-1', as(u.author));
		expect(badKeep.body.data.params).toEqual({ keep: 'keep must be at least 0' });
	});

	test('use needs edit_posts; a path outside the rules is a 400; no key is a 409', async () => {
		// The forwarding routes speak OpenAI's API: their refusals are OpenAI's error body.
		expectOpenAiError(await api.get('/models', as(u.subscriber)), 403, 'proxyext_cannot_use', 'Sorry, you are not allowed to use the AI proxy.');
		expectOpenAiError(await api.post('/chat/completions', {}, as(u.anonymous)), 401, 'invalid_api_key', 'Sorry, you are not allowed to use the AI proxy.');
		expectWpError(await api.get('/response', as(u.subscriber)), 403, 'proxyext_cannot_use', 'Sorry, you are not allowed to use the AI proxy.');
		const escape = await api.get('/..%2Fsecrets', as(u.author));
		expect(escape.status).toBe(400);
		expect(escape.body.error).toMatchObject({ param: 'api_path', message: expect.stringMatching(/^api_path must be a path of the AI service/) });

		const nonce = await nonceFor(api, u.admin);
		expect((await api.post('/key', { api_key: '', nonce }, as(u.admin))).body.key_set).toBe(false);
		expectOpenAiError(await api.get('/models', as(u.author)), 409, 'proxyext_no_api_key', 'No API key is set for the AI service; set one with POST /proxyext/v1/ai-api-proxy/key.');
		await configure(api, u.admin);
	});

	test('key, response and clear-conversation at PUT and PATCH too; the namespace index lists the routes', async () => {
		const nonce = await nonceFor(api, u.admin);
		expect((await api.call('PUT', '/key', { api_key: '', nonce }, as(u.admin))).body).toMatchObject({ key_set: false });
		expect((await api.get('/settings', as(u.admin))).body.key_set).toBe(false);
		expect((await api.call('PATCH', '/key', { api_key: KEY, nonce }, as(u.admin))).body).toMatchObject({ key_set: true });
		expect((await api.get('/models', as(u.author))).status).toBe(200);

		const put = await api.call('PUT', '/response', { content: 'Put reply' }, as(u.editor));
		expect(put.body).toMatchObject({ role: 'assistant', content: 'Put reply' });
		expect((await api.get('/response', as(u.editor))).body.content).toBe('Put reply');
		const cleared = await api.call('PATCH', '/clear-conversation', { keep: 0 }, as(u.editor));
		expect(cleared.body).toMatchObject({ deleted: 1, kept: 0, previous: [{ content: 'Put reply' }] });
		expectWpError(await api.get('/response', as(u.editor)), 404, 'proxyext_no_response', 'There is no response in this conversation yet.');

		const index = await client(server.url, '/wp-json').get('/proxyext/v1', as(u.admin));
		expect(index.status).toBe(200);
		expect(Object.keys(index.body.routes)).toEqual(expect.arrayContaining([`/proxyext/v1/ai-api-proxy/settings`, `/proxyext/v1/ai-api-proxy/clear-conversation`]));
	});

	test('the key appears in no answer and no log line', async () => {
		expect(logs.length).toBeGreaterThan(20);
		expect(logs.filter((line) => line.includes(KEY))).toEqual([]);
		expect(answers.filter((body) => body.includes(KEY))).toEqual([]);
	});
});

/** A stand-in AI service on loopback: records what it gets, answers as each path says (errors in OpenAI's shape). */
function startUpstream() {
	const received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
	let release: () => void = () => undefined;
	const gate = () => new Promise<void>((resolve) => (release = resolve));
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', async () => {
			received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
			const path = req.url!.split('?')[0];
			const send = (status: number, value: unknown) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(value));
			};
			if (path === '/v1/chat/completions') {
				const parsed = JSON.parse(body || '{}');
				if (parsed.stream) {
					res.writeHead(200, { 'content-type': 'text/event-stream' });
					const chunk = (content: string) => `data: ${JSON.stringify({ model: parsed.model, choices: [{ index: 0, delta: { content } }] })}\n\n`;
					res.write(chunk('first '));
					// The second part waits until the test has seen the first through the proxy.
					await gate();
					res.write(chunk('second'));
					res.end('data: [DONE]\n\n');
					return;
				}
				return send(200, { model: parsed.model, choices: [{ index: 0, message: { role: 'assistant', content: `upstream says: ${parsed.messages.at(-1).content}` } }] });
			}
			if (path === '/v1/things/1') return send(req.method === 'DELETE' ? 200 : 201, { method: req.method, deleted: req.method === 'DELETE' });
			if (path === '/v1/bad') return send(422, { error: { message: 'temperature is out of range', type: 'invalid_request_error', code: null } });
			if (path === '/v1/overloaded') return send(503, { error: { message: 'The engine is overloaded', type: 'server_error', code: null } });
			if (path === '/v1/echo-key') return send(401, { error: { message: `Incorrect API key provided: ${req.headers.authorization}`, type: 'invalid_request_error', code: 'invalid_api_key' } });
			if (path === '/v1/plain') {
				res.writeHead(200, { 'content-type': 'text/plain' });
				return res.end('just text');
			}
			if (path === '/v1/hang') return; // never answers
			if (path === '/v1/cut') {
				res.writeHead(200, { 'content-type': 'text/event-stream' });
				res.write('data: {"choices":[{"delta":{"content":"half"}}]}\n\n');
				setTimeout(() => res.destroy(), 50);
				return;
			}
			send(404, { error: { message: `no ${path}`, type: 'invalid_request_error', code: 'unknown_url' } });
		});
	});
	return new Promise<{ url: string; received: typeof received; release: () => void; close: () => void }>((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({
				url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
				received,
				release: () => release(),
				close: () => {
					server.closeAllConnections();
					server.close();
				},
			}),
		),
	);
}

describe('forwarding to an upstream on loopback', () => {
	let server: App;
	let u: SiteUsers;
	let api: Client;
	let upstream: Awaited<ReturnType<typeof startUpstream>>;
	let logs: string[];

	beforeAll(async () => {
		upstream = await startUpstream();
		({ server, u } = await startSite({ aiUpstreamUrl: `${upstream.url}/v1/`, aiTimeoutMs: 700, logLevel: 'debug' }));
		logs = captureLogs(server);
		api = client(server.url, P);
		await configure(api, u.admin, KEY, 'upstream-model');
	});
	afterAll(() => {
		server.close();
		upstream.close();
	});

	test('the request goes on with the stored key and model, the query, the body; never the caller’s credentials', async () => {
		const res = await api.post('/chat/completions?trace=1&user=x', { messages: [{ role: 'user', content: 'hi' }] }, as(u.editor));
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ model: 'upstream-model', choices: [{ index: 0, message: { role: 'assistant', content: 'upstream says: hi' } }] });
		const got = upstream.received.at(-1)!;
		expect(got).toMatchObject({ method: 'POST', url: '/v1/chat/completions?trace=1&user=x' });
		expect(got.headers.authorization).toBe(`Bearer ${KEY}`);
		expect(got.headers['content-type']).toBe('application/json');
		expect(JSON.parse(got.body)).toEqual({ messages: [{ role: 'user', content: 'hi' }], model: 'upstream-model' });
		// A model the request names wins.
		await api.post('/chat/completions', { model: 'mine', messages: [{ role: 'user', content: 'x' }] }, as(u.editor));
		expect(JSON.parse(upstream.received.at(-1)!.body).model).toBe('mine');
		expect((await api.get('/response', as(u.editor))).body).toMatchObject({ content: 'upstream says: x', model: 'mine' });

		// Every method, through the rest_route addressing too.
		for (const method of ['PUT', 'PATCH', 'DELETE', 'GET']) {
			const r = await readReply(
				await fetch(`${server.url}/index.php?rest_route=/proxyext/v1/ai-api-proxy/things/1`, { method, headers: { ...u.editor.headers, ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }) }, body: method === 'GET' || method === 'DELETE' ? undefined : '{}' }),
			);
			expect({ method, status: r.status, body: r.body }).toEqual({ method, status: method === 'DELETE' ? 200 : 201, body: { method, deleted: method === 'DELETE' } });
			expect(upstream.received.at(-1)).toMatchObject({ method, url: '/v1/things/1' });
		}
		expect(upstream.received.every((r) => !String(r.headers.authorization).startsWith('Basic'))).toBe(true);
	});

	test("the service's errors: a 4xx comes back as it is, a 5xx is a 502 with its message; the key is blanked out of answers", async () => {
		const bad = await api.post('/bad', { temperature: 9 }, as(u.editor));
		expect(bad).toMatchObject({ status: 422, body: { error: { message: 'temperature is out of range' } } });
		const down = await api.post('/overloaded', {}, as(u.editor));
		expect(down.status).toBe(502);
		expect(down.body).toEqual({ error: { message: 'The AI service failed (HTTP 503): The engine is overloaded', type: 'invalid_request_error', param: null, code: 'proxyext_upstream_error' } });
		const echoed = await api.get('/echo-key', as(u.editor));
		expect(echoed.status).toBe(401);
		expect(echoed.body.error.message).toBe('Incorrect API key provided: Bearer [redacted]');
		const text = await api.get('/plain', as(u.editor));
		expect(text).toMatchObject({ status: 200, body: 'just text' });
		expect((await api.get('/missing', as(u.editor))).status).toBe(404);
	});

	test('an upstream that never answers is a 502 after the time limit, not a hang; one that cannot be reached too', async () => {
		const started = Date.now();
		const hang = await api.get('/hang', as(u.editor));
		expect(Date.now() - started).toBeLessThan(5000);
		expectOpenAiError(hang, 502, 'proxyext_upstream_error', 'The AI service could not be reached: it did not answer in time.');

		const closed = await startSite({ aiUpstreamUrl: 'http://127.0.0.1:9/v1' });
		try {
			await configure(client(closed.server.url, P), closed.u.admin);
			expectOpenAiError(await client(closed.server.url, P).get('/models', as(closed.u.admin)), 502, 'proxyext_upstream_error', 'The AI service could not be reached: the connection failed.');
		} finally {
			await closed.server.close();
		}
		const refused = await startSite({ aiUpstreamUrl: `${upstream.url}/v1`, allowPrivateFetch: false });
		try {
			await configure(client(refused.server.url, P), refused.u.admin);
			expectOpenAiError(
				await client(refused.server.url, P).get('/models', as(refused.u.admin)),
				502,
				'proxyext_upstream_error',
				'The AI service could not be reached: its address is private and the server may not reach it.',
			);
		} finally {
			await refused.server.close();
		}
	});

	test('a streamed answer passes through unbuffered, and is remembered', async () => {
		const res = await fetch(`${server.url}${P}/chat/completions`, {
			method: 'POST',
			headers: { ...u.author.headers, 'content-type': 'application/json' },
			body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'go' }] }),
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/event-stream');
		const reader = res.body!.getReader();
		const first = new TextDecoder().decode((await reader.read()).value);
		// The upstream holds its second part until now: the first arrived on its own.
		expect(first).toContain('"first "');
		expect(first).not.toContain('second');
		upstream.release();
		let rest = '';
		for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
		// The second part's text, whole (the key's redactor may hold back a last character that could begin its Base64 until the next event).
		const deltas = rest.split('\n\n').filter((e) => e.startsWith('data: {'));
		expect(deltas.map((e) => JSON.parse(e.slice('data: '.length)).choices[0].delta?.content ?? '').join('')).toBe('second');
		expect(rest.endsWith('data: [DONE]\n\n')).toBe(true);
		expect((await api.get('/response', as(u.author))).body).toMatchObject({ content: 'first second', model: 'upstream-model' });
		expect((await api.get('/clear-conversation', as(u.author))).body.previous.map((m: any) => m.content)).toEqual(['go', 'first second']);
	});

	test('a stream cut half-way ends with an error event', async () => {
		const res = await fetch(`${server.url}${P}/cut`, { method: 'POST', headers: { ...u.author.headers, 'content-type': 'application/json' }, body: '{}' });
		const text = await res.text();
		expect(text).toContain('"half"');
		expect(text).toContain('event: error\ndata: {"error":{"message":"The AI service could not be reached: the connection failed.","code":"proxyext_upstream_error"}}');
	});

	test('the key appears in no log line', () => {
		expect(logs.length).toBeGreaterThan(10);
		expect(logs.filter((line) => line.includes(KEY))).toEqual([]);
	});
});
