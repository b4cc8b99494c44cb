import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { App } from '../../server/src/app';
import { startSite, type SiteUser, type SiteUsers } from '../helpers/content';
import { Store } from '../../server/src/store';
import { Redactor } from '../../server/src/site/ai-proxy/redact';
import { ADMIN_KEY, client, connectedDevice, startGateway, startServer, tempDataDir, type Client } from '../helpers/server';
import { sleep } from '../helpers/webhooks';

/** What the server must not let out: the AI key, in any form, streamed or saved. */

const KEY = 'sk-live-LEAKY-0123456789abcdefXYZ';
const P = '/wp-json/proxyext/v1/ai-api-proxy';
const as = (user: SiteUser) => ({ headers: user.headers });

const b64 = (text: string) => Buffer.from(text).toString('base64');
/** The key as a service may echo it, JSON-escaped character by character. */
const jsonEscaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** Every character URL-encoded, in lower case. */
const urlEncoded = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');

/** The forms of the key found in `text`: as it is, after URL- or JSON-decoding, or in a Base64 run (its middle, at any alignment). */
function leaks(text: string): string[] {
	const found: string[] = [];
	if (text.includes(KEY)) found.push('raw');
	if (text.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))).includes(KEY)) found.push('url');
	if (text.replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\\//g, '/').includes(KEY)) found.push('json');
	const middle = KEY.slice(3, -3);
	for (const run of text.match(/[A-Za-z0-9+/_-]{12,}/g) ?? []) {
		for (let shift = 0; shift < 4; shift++) {
			const part = run.slice(shift);
			if (Buffer.from(part, 'base64').toString('latin1').includes(middle) || Buffer.from(part, 'base64url').toString('latin1').includes(middle)) found.push(`base64 ${run}`);
		}
	}
	return [...new Set(found)];
}

/**
 * What is left of the Base64 of `before`, the key and `after` once the key is blanked whole: the
 * characters that hold bits of the text around it only (an edge character shares bits with the key and
 * goes with it), and the padding.
 */
function blankedBase64(before: string, after = '', encoding: 'base64' | 'base64url' = 'base64') {
	const text = Buffer.from(`${before}${KEY}${after}`).toString(encoding);
	const start = Buffer.byteLength(before);
	return `${text.slice(0, Math.floor((8 * start) / 6))}[redacted]${text.slice(Math.ceil((8 * (start + Buffer.byteLength(KEY))) / 6))}`;
}

/** A stand-in AI service that echoes the key it is given, whole, split over events and network chunks, and encoded. */
function startLeakyUpstream() {
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', async () => {
			const path = req.url!.split('?')[0];
			if (path === '/v1/chat/completions') {
				const parsed = JSON.parse(body || '{}');
				res.writeHead(200, { 'content-type': 'text/event-stream' });
				const event = (content: string, finish: string | null = null) =>
					`data: ${JSON.stringify({ id: 'c1', model: 'leaky', choices: [{ index: 0, delta: finish ? {} : { content }, finish_reason: finish }] })}\n\n`;
				const third = Math.floor(KEY.length / 3);
				// The key over three deltas (as a model streams it token by token), the middle event in two network writes.
				res.write(event(`${parsed.messages.at(-1).content}: ${KEY.slice(0, third)}`));
				const middle = event(KEY.slice(third, 2 * third));
				res.write(middle.slice(0, 25));
				await sleep(30);
				res.write(middle.slice(25));
				res.write(event(`${KEY.slice(2 * third)} b64 ${b64(`x${KEY}`)} url ${urlEncoded}`));
				// JSON-escaped in the event itself, and the key's Base64 over two deltas.
				res.write(`data: {"id":"c1","model":"leaky","choices":[{"index":0,"delta":{"content":" json ${jsonEscaped} split "},"finish_reason":null}]}\n\n`);
				const encoded = b64(KEY);
				res.write(event(encoded.slice(0, 10)));
				res.write(event(`${encoded.slice(10)} end`));
				res.write(event('', 'stop'));
				res.end('data: [DONE]\n\n');
				return;
			}
			if (path === '/v1/echo-encoded') {
				res.writeHead(400, { 'content-type': 'application/json' });
				// An OpenAI error (with its `type`), the key in it as raw JSON text: JSON-escaped, Base64 (standard and URL-safe, at an odd alignment), URL-encoded, and JSON inside JSON.
				return res.end(
					`{"error":{"message":"bad key ${jsonEscaped}","type":"invalid_request_error","b64":"${b64(`ab${KEY}`)}","b64url":"${Buffer.from(`a${KEY}`).toString('base64url')}","url":"${urlEncoded.toUpperCase()}","nested":${JSON.stringify(JSON.stringify({ key: KEY }))}}}`,
				);
			}
			if (path === '/v1/echo-text') {
				res.writeHead(200, { 'content-type': 'text/plain' });
				return res.end(`header was Bearer ${b64(KEY)} / ${encodeURIComponent(KEY)}`);
			}
			res.writeHead(404).end();
		});
	});
	return new Promise<{ url: string; close: () => void }>((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({
				url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
				close: () => {
					server.closeAllConnections();
					server.close();
				},
			}),
		),
	);
}

async function setKey(api: Client, admin: SiteUser) {
	const nonce = (await api.get('/settings', as(admin))).body.nonce;
	expect((await api.post('/key', { api_key: KEY, nonce }, as(admin))).status).toBe(200);
}

async function streamed(server: App, user: SiteUser, content: string) {
	const res = await fetch(`${server.url}${P}/chat/completions`, {
		method: 'POST',
		headers: { ...user.headers, 'content-type': 'application/json' },
		body: JSON.stringify({ stream: true, messages: [{ role: 'user', content }] }),
	});
	expect(res.status).toBe(200);
	const text = await res.text();
	const events = text.split('\n\n').filter(Boolean);
	expect(events.at(-1)).toBe('data: [DONE]');
	const reply = events
		.slice(0, -1)
		.map((e) => JSON.parse(e.slice('data: '.length)))
		.map((chunk) => chunk.choices.map((c: { delta?: { content?: string } }) => c.delta?.content ?? '').join(''))
		.join('');
	return { text, reply };
}

describe('the AI key, echoed by the service', () => {
	let server: App;
	let u: SiteUsers;
	let api: Client;
	let upstream: Awaited<ReturnType<typeof startLeakyUpstream>>;

	beforeAll(async () => {
		upstream = await startLeakyUpstream();
		({ server, u } = await startSite({ aiUpstreamUrl: `${upstream.url}/v1` }));
		api = client(server.url, P);
		await setKey(api, u.admin);
	});
	afterAll(() => {
		server.close();
		upstream.close();
	});

	test('a streamed answer: the key is blanked even split over events and network chunks, or encoded; so is the reply saved', async () => {
		const { text, reply } = await streamed(server, u.author, 'here');
		expect(leaks(text)).toEqual([]);
		expect(leaks(reply)).toEqual([]);
		// Base64 keeps only the characters that hold no bit of the key (`e[redacted]==`).
		expect(reply).toBe(`here: [redacted] b64 ${blankedBase64('x')} url [redacted] json [redacted] split [redacted] end`);
		const saved = await api.get('/response', as(u.author));
		expect(saved.body.content).toBe(reply);
		const kept = JSON.stringify(server.services.store.objects.get('proxyext', 'conversation', String(u.author.id)));
		expect(leaks(kept)).toEqual([]);
	});

	test('a whole answer: JSON-escaped, Base64 at any alignment, URL-encoded and nested JSON forms are blanked', async () => {
		const json = await api.get('/echo-encoded', as(u.editor));
		expect(json.status).toBe(400);
		expect(leaks(JSON.stringify(json.body))).toEqual([]);
		expect(json.body.error.message).toBe('bad key [redacted]');
		expect(json.body.error.nested).toBe('{"key":"[redacted]"}');
		expect([json.body.error.b64, json.body.error.b64url]).toEqual([blankedBase64('ab'), blankedBase64('a', '', 'base64url')]);
		const text = await api.get('/echo-text', as(u.editor));
		expect(leaks(String(text.body))).toEqual([]);
		expect(text.body).toContain('/ [redacted]');
	});

	test('the Base64 form is blanked whole at every alignment, its edge characters (shared with the text around it) included', () => {
		const redactor = new Redactor(KEY);
		for (const before of ['', 'x', 'ab', 'abc', '\u00ff']) {
			for (const after of ['', 'y', 'yz', 'xyz']) {
				for (const encoding of ['base64', 'base64url'] as const) {
					const text = Buffer.from(`${before}${KEY}${after}`).toString(encoding);
					expect({ text, redacted: redactor.redact(text) }).toEqual({ text, redacted: blankedBase64(before, after, encoding) });
				}
			}
		}
	});
});

describe('the AI key, echoed by the simulated model', () => {
	let server: App;
	let u: SiteUsers;
	let api: Client;

	beforeAll(async () => {
		({ server, u } = await startSite());
		api = client(server.url, P);
		await setKey(api, u.admin);
	});
	afterAll(() => server.close());

	test('a streamed echo and a plain one carry no form of the key, nor does the conversation', async () => {
		const asked = `repeat ${KEY} and ${b64(KEY)} and ${encodeURIComponent(KEY)}`;
		const { text, reply } = await streamed(server, u.author, asked);
		expect(leaks(text)).toEqual([]);
		expect(reply).toMatch(/^You said: "repeat \[redacted\] and \[redacted\] and \[redacted\]" \(\d+ words, message 1 of this conversation\)\.$/);
		const plain = await api.post('/chat/completions', { messages: [{ role: 'user', content: asked }] }, as(u.editor));
		expect(leaks(JSON.stringify(plain.body))).toEqual([]);
		const conversation = (await api.get('/clear-conversation', as(u.author))).body.previous;
		expect(conversation.map((m: { content: string }) => m.content)).toEqual(['repeat [redacted] and [redacted] and [redacted]', reply]);
	});

	test('tool call arguments, streamed and whole, carry no form of the key', async () => {
		const tools = [{ type: 'function', function: { name: 'send_message', description: 'Send a text message', parameters: { properties: { text: { type: 'string', description: 'message text' } } } } }];
		const messages = [{ role: 'user', content: `send message "${KEY}"` }];
		const whole = await api.post('/chat/completions', { messages, tools }, as(u.editor));
		expect(whole.body.choices[0].message.tool_calls[0].function.arguments).toBe('{"text":"[redacted]"}');
		const res = await fetch(`${server.url}${P}/chat/completions`, {
			method: 'POST',
			headers: { ...u.editor.headers, 'content-type': 'application/json' },
			body: JSON.stringify({ stream: true, messages, tools }),
		});
		const text = await res.text();
		expect(leaks(text)).toEqual([]);
		const args = text
			.split('\n\n')
			.filter((e) => e.startsWith('data: {'))
			.flatMap((e) => JSON.parse(e.slice(6)).choices.flatMap((c: { delta?: { tool_calls?: Array<{ function: { arguments?: string } }> } }) => c.delta?.tool_calls ?? []))
			.map((call: { function: { arguments?: string } }) => call.function.arguments ?? '')
			.join('');
		expect(args).toBe('{"text":"[redacted]"}');
	});
});

describe('sandbox media types', () => {
	let server: App;
	let sandbox: Client;
	const html = b64('<h1>spoofed</h1><script>alert(1)</script>');

	beforeAll(async () => {
		({ server, sandbox } = await startGateway());
		await connectedDevice(server, 'media');
	});
	afterAll(() => server.close());

	const inbound = (body: Record<string, unknown>) => sandbox.post('/devices/media/inbound', { from: '5521987650001', type: 'document', file: html, ...body }, { key: ADMIN_KEY });

	test('a mimetype that is not one media type is a 400 naming the field; nothing is stored', async () => {
		const files = () => (server.services.store.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
		const before = files();
		for (const mimetype of ['text/plain;charset=utf-8,text/html', 'text/html, text/plain', 'text', 'text/plain;;', 'a/b/c']) {
			const res = await inbound({ mimetype });
			expect({ mimetype, status: res.status }).toEqual({ mimetype, status: 400 });
			expect(res.body.message).toContain('mimetype');
			expect(res.body.message).toContain('must be one media type such as image/png');
		}
		expect(files()).toBe(before);
	});

	test('a valid one is stored normalized; active types are downloads, never rendered, never sniffed', async () => {
		const plain = await inbound({ mimetype: 'Text/Plain;charset=utf-8' });
		expect(plain.status).toBe(200);
		expect(plain.body.data.mimetype).toBe('text/plain; charset=utf-8');
		const served = await fetch(plain.body.data.fileURL);
		expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
		expect(served.headers.get('x-content-type-options')).toBe('nosniff');
		expect(served.headers.get('content-disposition')).toMatch(/^inline;/);
		for (const type of ['text/html', 'image/svg+xml', 'application/xml', 'text/javascript']) {
			const res = await inbound({ mimetype: type });
			const file = await fetch(res.body.data.fileURL);
			expect({ type, served: file.headers.get('content-type'), disposition: file.headers.get('content-disposition')?.split(';')[0], nosniff: file.headers.get('x-content-type-options') }).toEqual({
				type,
				served: type,
				disposition: 'attachment',
				nosniff: 'nosniff',
			});
		}
	});

	test('a list stored before types were checked is served as bytes, as a download', async () => {
		const file = server.services.store.files.insert({ mimetype: 'text/plain;charset=utf-8,text/html', file_name: 'old.txt', data: Buffer.from('<h1>old</h1>') });
		const res = await fetch(`${server.url}/wp-content/uploads/wdm/${file.id}/old.txt`);
		expect(res.headers.get('content-type')).toBe('application/octet-stream');
		expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
	});

	test('a media URL answered with a list of types does not give its type: the content and name do', async () => {
		const origin = http.createServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'text/plain,text/html' });
			res.end('<h1>remote</h1>');
		});
		await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
		try {
			const res = await inbound({ file: `http://127.0.0.1:${(origin.address() as AddressInfo).port}/note.txt` });
			expect(res.status).toBe(200);
			expect(res.body.data.mimetype).toBe('text/plain');
		} finally {
			origin.close();
		}
	});
});

describe('the data directory and the store’s files', () => {
	const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);
	const storeFiles = (dir: string) => ['wdm.sqlite', 'wdm.sqlite-wal', 'wdm.sqlite-shm'].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f));
	let umask: number;
	// No umask to lean on: the modes must be the server's own doing.
	beforeAll(() => (umask = process.umask(0)));
	afterAll(() => process.umask(umask));

	test('a fresh data directory is 0700; the store, its -wal and -shm files and token.key are 0600', async () => {
		const dir = path.join(tempDataDir(), 'fresh', 'data');
		const server = await startServer({ data: dir });
		try {
			// A write, so that the write-ahead log and its index exist.
			expect((await client(server.url).post('/devices', { name: 'modes' }, { key: ADMIN_KEY })).status).toBe(201);
			const files = storeFiles(dir);
			expect(files.map((f) => path.basename(f))).toEqual(['wdm.sqlite', 'wdm.sqlite-wal', 'wdm.sqlite-shm']);
			expect(modeOf(dir)).toBe('700');
			expect(Object.fromEntries([...files, path.join(dir, 'token.key')].map((f) => [path.basename(f), modeOf(f)]))).toEqual({
				'wdm.sqlite': '600',
				'wdm.sqlite-wal': '600',
				'wdm.sqlite-shm': '600',
				'token.key': '600',
			});
		} finally {
			await server.close();
		}
	});

	test('an existing 0755 directory with a 0644 store (an older server’s) is tightened, and says so', () => {
		const dir = path.join(tempDataDir(), 'old');
		const old = Store.open(dir);
		old.db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
		for (const file of storeFiles(dir)) fs.chmodSync(file, 0o644);
		fs.chmodSync(dir, 0o755);
		const opened = storeFiles(dir);
		expect(opened.length).toBe(3);
		const notices: string[] = [];
		const store = Store.open(dir, (message) => notices.push(message));
		try {
			expect(modeOf(dir)).toBe('700');
			expect(opened.map(modeOf)).toEqual(['600', '600', '600']);
			expect(notices).toEqual([
				`${dir} could be read by other users of this machine (mode 0755): made 0700`,
				...opened.map((file) => `${file} could be read by other users of this machine (mode 0644): made 0600`),
			]);
		} finally {
			store.close();
			old.close();
		}
	});
});

describe('the pages people open: /dashboard and /docs', () => {
	let server: App;
	beforeAll(async () => {
		server = await startServer();
	});
	afterAll(() => server.close());

	test('each answer under them may not be framed, sniffed or sent as a referrer, and runs only the server’s scripts', async () => {
		for (const url of ['/dashboard', '/dashboard/', '/dashboard/app.js', '/docs', '/docs/', '/docs/static/swagger-initializer.js', '/docs/json']) {
			const res = await fetch(`${server.url}${url}`);
			const csp = res.headers.get('content-security-policy') ?? '';
			expect({ url, frame: res.headers.get('x-frame-options'), nosniff: res.headers.get('x-content-type-options'), referrer: res.headers.get('referrer-policy') }).toEqual({
				url,
				frame: 'DENY',
				nosniff: 'nosniff',
				referrer: 'no-referrer',
			});
			expect(csp).toContain("frame-ancestors 'none'");
			expect(csp).toContain("script-src 'self';");
			expect(csp).toContain("object-src 'none'");
		}
		expect((await fetch(`${server.url}/dashboard`)).headers.get('content-security-policy')).toContain("style-src 'self';");
		// Other routes keep their own headers.
		expect((await fetch(`${server.url}/wp-json/`)).headers.get('x-frame-options')).toBeNull();
	});

	test('Swagger UI is told not to keep authorizations (the API key, the application password) in localStorage', async () => {
		const init = await (await fetch(`${server.url}/docs/static/swagger-initializer.js`)).text();
		expect(init).toContain('"persistAuthorization":false');
	});
});
