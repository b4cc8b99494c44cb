// Attacks on the server's resources (issue 26, findings 2 and 7): a large body from someone without
// credentials, half-sent requests (slowloris), and a flood of connections. Each is refused or cut in
// moments while the server keeps answering everyone else.
import fs from 'node:fs';
import net from 'node:net';
import type { App } from '../../server/src/app';
import { ADMIN_APP_PASSWORD, ADMIN_KEY, basicAuth, connectedDevice, eventually, readReply, startServer } from '../helpers/server';

const MiB = 1024 * 1024;

/** A raw connection to the server, once connected. */
function connect(server: App): Promise<net.Socket> {
	const { port } = new URL(server.url);
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
		socket.once('error', reject);
	});
}

const head = (method: string, path: string, headers: Record<string, string | number>) =>
	`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
		.map(([k, v]) => `${k}: ${v}\r\n`)
		.join('')}\r\n`;

/** The resident memory and open descriptors of this process (the server runs in it, beside its clients). */
const rss = () => process.memoryUsage().rss;
const descriptors = () => fs.readdirSync('/proc/self/fd').length;

/** A 57 MiB JSON body of small objects: what the review sent (parsed, it took 620 MB and 12 s). */
function bigBody(): Buffer {
	const item = '{"number":"5511999999999","text":"x"},';
	const body = Buffer.alloc(57 * MiB, 0x20);
	body[0] = 0x5b; // [
	const end = body.fill(item, 1).lastIndexOf('},') + 1;
	body.fill(0x20, end);
	body[end] = 0x5d; // ]
	return body;
}

interface Upload {
	/** Milliseconds from the end of the headers to the first byte of the answer. */
	answeredAfterMs: number;
	/** Body bytes written when the answer came. */
	sentWhenAnswered: number;
	status: number;
	text: string;
}

/**
 * Sends the body slowly (1 MiB every 20 ms, about 1.2 s for 57 MiB) and stops at the answer: how
 * soon the server answered, and how much of the body it had been sent by then.
 */
function slowUpload(server: App, path: string, headers: Record<string, string | number>, body: Buffer): Promise<Upload> {
	return connect(server).then(
		(socket) =>
			new Promise<Upload>((resolve, reject) => {
				let sent = 0;
				let answered: Upload | undefined;
				let data = '';
				const started = Date.now();
				socket.write(head('POST', path, headers));
				socket.on('data', (chunk) => {
					data += chunk.toString('latin1');
					answered ??= { answeredAfterMs: Date.now() - started, sentWhenAnswered: sent, status: 0, text: '' };
					const end = data.indexOf('\r\n\r\n');
					const length = Number(/content-length: (\d+)/i.exec(data)?.[1]);
					if (end >= 0 && data.length >= end + 4 + length) {
						socket.destroy();
						resolve({ ...answered, status: Number(data.slice(9, 12)), text: data.slice(end + 4, end + 4 + length) });
					}
				});
				socket.on('error', () => undefined);
				socket.on('close', () => (answered ? undefined : reject(new Error(`closed without an answer after ${sent} bytes`))));
				const next = () => {
					if (answered || socket.destroyed || sent >= body.length) return;
					const chunk = body.subarray(sent, sent + MiB);
					sent += chunk.length;
					socket.write(chunk, () => setTimeout(next, 20));
				};
				next();
			}),
	);
}

/** Sends the whole body at full speed and reads the answer (the connection may close after it). */
function fullUpload(server: App, path: string, headers: Record<string, string | number>, body: Buffer): Promise<number> {
	return connect(server).then(
		(socket) =>
			new Promise<number>((resolve) => {
				let data = '';
				socket.on('data', (chunk) => (data += chunk.toString('latin1')));
				socket.on('error', () => undefined);
				socket.on('close', () => resolve(Number(data.slice(9, 12)) || 0));
				socket.write(head('POST', path, { ...headers, connection: 'close' }));
				socket.write(body, () => socket.end());
			}),
	);
}

describe('an anonymous 57 MiB body', () => {
	let server: App;
	let token: string;
	const body = bigBody();

	beforeAll(async () => {
		server = await startServer({ pairing: 'manual', logLevel: 'error' });
		token = (await connectedDevice(server, 'limits')).token;
	});
	afterAll(() => server.close());

	const json = { 'content-type': 'application/json', 'content-length': body.length };

	test('without the token a gateway route needs: 401 before the body is read, while it is still being sent', async () => {
		const res = await slowUpload(server, '/wp-json/wdm/v1/send/text', json, body);
		console.log(`limits: anonymous 57 MiB upload answered ${res.status} after ${res.answeredAfterMs} ms, ${(res.sentWhenAnswered / MiB).toFixed(0)} MiB sent`);
		expect(res.status).toBe(401);
		expect(JSON.parse(res.text)).toEqual({ success: false, message: 'missing instance token: send the header "token: <instance token>"' });
		expect(res.answeredAfterMs).toBeLessThan(1000);
		expect(res.sentWhenAnswered).toBeLessThan(body.length / 2);
	});

	test('with a wrong token or a wrong application password: 401 before the body is read', async () => {
		const wrongToken = await slowUpload(server, '/wp-json/wdm/v1/send/media', { ...json, token: 'nope' }, body);
		expect({ status: wrongToken.status, body: JSON.parse(wrongToken.text) }).toEqual({ status: 401, body: { success: false, message: 'invalid instance token' } });
		expect(wrongToken.answeredAfterMs).toBeLessThan(1000);
		const wrongPassword = await slowUpload(server, '/wp-json/wp/v2/posts', { ...json, authorization: basicAuth('admin', 'wrong wrong wrong') }, body);
		expect(wrongPassword.status).toBe(401);
		expect(JSON.parse(wrongPassword.text)).toMatchObject({ code: 'incorrect_password', data: { status: 401 } });
		expect(wrongPassword.answeredAfterMs).toBeLessThan(1000);
	});

	test("on the site's public routes (anonymous allowed): 413 at once, naming the limit and the setting", async () => {
		for (const path of ['/wp-json/wp/v2/posts', '/wp-json/cms/v2/pages', '/wp-json/wp/v2/media', '/wp-json/batch/v1']) {
			const res = await slowUpload(server, path, json, body);
			expect({ path, status: res.status }).toEqual({ path, status: 413 });
			expect(JSON.parse(res.text)).toEqual({
				code: 'rest_body_too_large',
				message:
					"body is larger than the limit of 1048576 bytes for a request without credentials (sign in to send more); the server's --anonymous-body-limit (WDM_ANONYMOUS_BODY_LIMIT) raises it",
				data: { status: 413 },
			});
			expect(res.answeredAfterMs).toBeLessThan(1000);
		}
	});

	test('sent chunked (no Content-Length): 413 past the first MiB, while the client still sends; the rest is dropped', async () => {
		const socket = await connect(server);
		let data = '';
		socket.on('data', (chunk) => (data += chunk.toString('latin1')));
		socket.on('error', () => undefined);
		socket.write(head('POST', '/wp-json/wp/v2/posts', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
		let sent = 0;
		const started = Date.now();
		const answered = () => /\r\n\r\n\{.*\}$/s.test(data);
		while (!socket.destroyed && !answered() && sent < 8 * MiB) {
			const chunk = body.subarray(sent, sent + 256 * 1024);
			sent += chunk.length;
			socket.write(`${chunk.length.toString(16)}\r\n`);
			socket.write(chunk);
			await new Promise((resolve) => socket.write('\r\n', resolve));
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		await eventually(answered, 3000);
		expect(data).toMatch(/^HTTP\/1\.1 413 /);
		expect(data).toContain('--anonymous-body-limit');
		expect(Date.now() - started).toBeLessThan(3000);
		expect(sent).toBeLessThan(4 * MiB);
		// The rest of the body is read and dropped: the same connection then takes the next request.
		data = '';
		socket.write('0\r\n\r\n');
		socket.write(head('GET', '/healthz', {}));
		await eventually(() => /^HTTP\/1\.1 200 /.test(data), 3000);
		socket.destroy();
	});

	test('four at once, sent in full: every one refused, the memory stays flat and /healthz keeps answering', async () => {
		global.gc?.();
		const before = rss();
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
		let done = false;
		const uploads = Promise.all([
			fullUpload(server, '/wp-json/wdm/v1/send/text', json, body),
			fullUpload(server, '/wp-json/wdm/v1/send/text', { ...json, token: 'nope' }, body),
			fullUpload(server, '/wp-json/wp/v2/posts', json, body),
			fullUpload(server, '/wp-json/cms/v2/pages', json, body),
		]).finally(() => (done = true));
		// /healthz asked again and again while the bodies arrive: its slowest answer is the server's stall.
		let stall = 0;
		while (!done) {
			const started = Date.now();
			expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
			stall = Math.max(stall, Date.now() - started);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		const statuses = await uploads;
		clearInterval(sampler);
		const grown = peak - before;
		console.log(`limits: four 57 MiB uploads: answers ${statuses}; /healthz slowest ${stall} ms; RSS peak +${(grown / MiB).toFixed(1)} MiB`);
		expect(statuses).toEqual([401, 401, 413, 413]);
		expect(stall).toBeLessThan(1000);
		expect(grown).toBeLessThan(64 * MiB);
	}, 20_000);

	test('a signed-in caller still sends what it sends today: a 2 MiB post, a 20 MiB Base64 media send', async () => {
		const post = await readReply(
			await fetch(`${server.url}/wp-json/cms/v2/posts`, {
				method: 'POST',
				headers: { authorization: basicAuth('admin', ADMIN_APP_PASSWORD), 'content-type': 'application/json' },
				body: JSON.stringify({ title: 'long', content: 'y'.repeat(2 * MiB), status: 'draft' }),
			}),
		);
		expect(post.status).toBe(201);
		const png = Buffer.alloc(15 * MiB, 0);
		Buffer.from('89504e470d0a1a0a', 'hex').copy(png);
		const media = await readReply(
			await fetch(`${server.url}/wp-json/wdm/v1/send/media`, {
				method: 'POST',
				headers: { token, 'content-type': 'application/json' },
				body: JSON.stringify({ number: '5511988887777', type: 'document', file: png.toString('base64'), docName: 'big.bin' }),
			}),
		);
		// The status and the server's message together, so that a failure says what the server said.
		expect({ status: media.status, success: media.body.success, message: media.body.message }).toEqual({ status: 200, success: true, message: undefined });
	}, 20_000);
});

describe('the limits by caller and route are settings', () => {
	let server: App;
	let token: string;
	beforeAll(async () => {
		server = await startServer({ pairing: 'manual', anonymousBodyLimit: 2048, jsonBodyLimit: 8192, bodyLimit: 64 * 1024 });
		token = (await connectedDevice(server, 'tiers')).token;
	});
	afterAll(() => server.close());

	const post = (path: string, size: number, headers: Record<string, string> = {}) =>
		fetch(`${server.url}${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify({ number: '5511988887777', text: 'x'.repeat(size) }),
		}).then(readReply);

	test('anonymous: --anonymous-body-limit; signed in: --json-body-limit; media routes: --body-limit', async () => {
		const anonymous = await post('/wp-json/wp/v2/posts', 4000);
		expect(anonymous.body.message).toMatch(/limit of 2048 bytes for a request without credentials .*--anonymous-body-limit/);
		const signedIn = await post('/wp-json/wdm/v1/send/text', 10_000, { token });
		expect({ status: signedIn.status, message: signedIn.body.message }).toEqual({
			status: 413,
			message: "body is larger than the limit of 8192 bytes; the server's --json-body-limit (WDM_JSON_BODY_LIMIT) raises it",
		});
		expect((await post('/wp-json/wdm/v1/send/text', 6000, { token })).status).toBe(200);
		// The media routes take up to --body-limit from a signed-in caller; past it, that setting is named.
		const media = await post('/wp-json/wdm/v1/send/media', 10_000, { token });
		expect(media.status).toBe(400);
		const tooBig = await post('/wp-json/wdm/v1/send/media', 70_000, { token });
		expect({ status: tooBig.status, message: tooBig.body.message }).toEqual({
			status: 413,
			message: "body is larger than the limit of 65536 bytes; the server's --body-limit (WDM_BODY_LIMIT) raises it",
		});
		const upload = await fetch(`${server.url}/wp-json/wp/v2/media`, {
			method: 'POST',
			headers: { authorization: basicAuth('admin', ADMIN_APP_PASSWORD), 'content-type': 'text/plain', 'content-disposition': 'attachment; filename=a.txt' },
			body: 'z'.repeat(20_000),
		});
		expect(upload.status).not.toBe(413);
		// Outside the route table (an unknown route, whose body is still read): the anonymous limit.
		const unknown = await post('/wp-json/nothing/here', 4000, { authorization: `Bearer ${ADMIN_KEY}` });
		expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 413, code: 'rest_body_too_large' });
		expect(unknown.body.message).toContain('--anonymous-body-limit');
		// The device route without media keeps the small limit even for the admin's key.
		const device = await fetch(`${server.url}/wp-json/wdm/v1/devices`, {
			method: 'POST',
			headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'x', profileName: 'p'.repeat(10_000) }),
		});
		expect(device.status).toBe(413);
	});
});

describe('connections', () => {
	/** Whether the socket is closed by the server within `ms`, and what it had been sent. */
	const closedWithin = (socket: net.Socket, ms: number) =>
		new Promise<boolean>((resolve) => {
			if (socket.destroyed) return resolve(true);
			const timer = setTimeout(() => resolve(false), ms);
			socket.once('close', () => {
				clearTimeout(timer);
				resolve(true);
			});
		});

	const openConnections = (server: App) => new Promise<number>((resolve) => server.app.server.getConnections((_, n) => resolve(n)));

	test('2,000 half-open requests (half a request line, never finished) are cut after the header timeout; /healthz answers meanwhile', async () => {
		const server = await startServer({ headersTimeoutMs: 2000 });
		const fdsBefore = descriptors();
		try {
			const sockets = await Promise.all(Array.from({ length: 2000 }, () => connect(server)));
			for (const socket of sockets) {
				socket.on('error', () => undefined);
				socket.resume(); // (a socket whose answer nobody reads never emits 'close')
				socket.write('POST /wp-json/wdm/v1/send/te');
			}
			const opened = Date.now();
			await eventually(async () => (await openConnections(server)) >= 2000, 5000);
			const fdsOpen = descriptors();
			const health = await fetch(`${server.url}/healthz`);
			expect(health.status).toBe(200);
			const closed = await Promise.all(sockets.map((s) => closedWithin(s, 5000)));
			const cutAfter = Date.now() - opened;
			console.log(
				`limits: 2,000 half-open connections cut within ${cutAfter} ms; open after: ${await openConnections(server)}; ` +
					`descriptors ${fdsBefore} -> ${fdsOpen} -> ${descriptors()} (client and server ends)`,
			);
			expect(closed.filter((c) => !c).length).toBe(0);
			expect(await openConnections(server)).toBeLessThan(5);
			expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
		} finally {
			await server.close();
		}
	}, 20_000);

	test('past the connection cap a new connection is closed at once; below it everything works', async () => {
		const server = await startServer({ maxConnections: 50 });
		try {
			const held: net.Socket[] = [];
			for (let i = 0; i < 50; i++) {
				const socket = await connect(server);
				socket.on('error', () => undefined);
				socket.resume();
				held.push(socket);
			}
			const extra = await connect(server);
			extra.on('error', () => undefined);
			extra.resume();
			// Not a health probe: those are answered past the cap (test/server/connections.test.ts).
			let answered = '';
			extra.on('data', (chunk: Buffer) => (answered += chunk.toString()));
			extra.write(head('GET', '/wp-json/', {}));
			expect(await closedWithin(extra, 2000)).toBe(true);
			expect(answered).toBe('');
			expect(held.every((s) => !s.destroyed)).toBe(true);
			// Below the cap again, a request is answered.
			held.shift()!.destroy();
			await new Promise((resolve) => setTimeout(resolve, 100));
			expect((await fetch(`${server.url}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
			held.forEach((s) => s.destroy());
		} finally {
			await server.close();
		}
	}, 20_000);
});
