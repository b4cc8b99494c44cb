import net from 'node:net';
import type { ZodType } from 'zod';
import { ADMIN_APP_PASSWORD, ADMIN_KEY, basicAuth, connectedDevice, expectWpError, readReply, startGateway, startServer, type Client, type Device, type Reply, storedDevice } from '../helpers/server';
import type { App } from '../../server/src/app';
import { routes } from '../../server/src/routes';
import { namespaceOf } from '../../server/src/http/route';
import { ownMeta, wpPattern } from '../../server/src/site/index';

/** The HTTP layer shared by every route: addressing, auth, envelope, errors, validation, the site index. */

let server: App;
let api: Client;
let sandbox: Client;
let device: Device;
let bobKey: string;

beforeAll(async () => {
	({ server, api, sandbox } = await startGateway());
	device = await connectedDevice(server, 'http-dev');
	bobKey = server.services.store.users.create('bob').apiKey;
});
afterAll(() => server.close());

/** Any request, with the URL as written (no prefix), answered as text and JSON when it parses. */
async function raw(method: string, url: string, init: { headers?: Record<string, string>; body?: string | Uint8Array } = {}): Promise<Reply> {
	return readReply(await fetch(`${server.url}${url}`, { method, headers: init.headers, body: init.body }));
}

const pathOf = (path: string) => path.replace('{name}', device.name);
const wpJson = (path: string) => `/wp-json${path}`;
const plain = (path: string) => `/index.php?rest_route=${path}`;

describe('authentication', () => {
	const userRoutes = routes.filter((r) => r.auth === 'user');
	const instanceRoutes = routes.filter((r) => r.auth === 'instance');

	test('the table has user and instance routes to check', () => {
		expect(userRoutes.length).toBeGreaterThanOrEqual(14);
		expect(instanceRoutes.length).toBeGreaterThanOrEqual(5);
	});

	/** The gateway's envelope, or OpenAI's error body on the sandbox's OpenAI-compatible service (its SDK reads that). */
	const unauthorizedBody = (path: string, message: string) =>
		path.startsWith('/sandbox/v1/openai/')
			? { error: { message, type: 'authentication_error', param: null, code: 'invalid_api_key' } }
			: { success: false, message };

	test.each(userRoutes.map((r) => [r.method, r.path]))('%s %s without a Bearer key is 401', async (method, path) => {
		const res = await raw(method, wpJson(pathOf(path)));
		expect(res.status).toBe(401);
		expect(res.body).toEqual(unauthorizedBody(path, 'missing API key: send the header "Authorization: Bearer <API key>"'));
	});

	test.each(userRoutes.map((r) => [r.method, r.path]))('%s %s with an unknown Bearer key is 401', async (method, path) => {
		const res = await raw(method, wpJson(pathOf(path)), { headers: { authorization: 'Bearer wdm_not_a_key' } });
		expect(res.status).toBe(401);
		expect(res.body).toEqual(unauthorizedBody(path, 'invalid API key'));
	});

	test.each(instanceRoutes.map((r) => [r.method, r.path]))('%s %s without a token header is 401', async (method, path) => {
		const res = await raw(method, wpJson(path));
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ success: false, message: 'missing instance token: send the header "token: <instance token>"' });
	});

	test.each(instanceRoutes.map((r) => [r.method, r.path]))('%s %s with an unknown token is 401', async (method, path) => {
		const res = await raw(method, wpJson(path), { headers: { token: 'not-a-token' } });
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ success: false, message: 'invalid instance token' });
	});

	test.each([
		['Basic YWRtaW46cGFzcw==', 'missing API key: send the header "Authorization: Bearer <API key>"'],
		['Bearer', 'missing API key: send the header "Authorization: Bearer <API key>"'],
		['Bearer    ', 'missing API key: send the header "Authorization: Bearer <API key>"'],
		[`Bearer ${ADMIN_KEY} extra`, 'missing API key: send the header "Authorization: Bearer <API key>"'],
		[`Bearer ${ADMIN_KEY}x`, 'invalid API key'],
		[`Bearer ${ADMIN_KEY.slice(0, -1)}`, 'invalid API key'],
	])('Authorization %j is 401: %s', async (authorization, message) => {
		const res = await raw('GET', '/wp-json/wdm/v1/devices', { headers: { authorization } });
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ success: false, message });
	});

	test('the scheme name is case-insensitive and the key works', async () => {
		const res = await raw('GET', '/wp-json/wdm/v1/devices', { headers: { authorization: `bearer ${ADMIN_KEY}` } });
		expect(res.status).toBe(200);
		expect(res.body.data.map((d: { name: string }) => d.name)).toEqual(['http-dev']);
	});

	test('a user key is not an instance token, nor the other way round', async () => {
		expect((await api.post('/message/find', {}, { token: ADMIN_KEY })).status).toBe(401);
		expect((await api.get('/devices', { key: device.token })).status).toBe(401);
		expect((await api.post('/message/find', {}, { key: ADMIN_KEY })).body).toEqual({
			success: false,
			message: 'missing instance token: send the header "token: <instance token>"',
		});
	});

	test('the instance token works on instance routes', async () => {
		const res = await api.post('/message/find', {}, { token: device.token });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ messages: [], total: 0 });
	});

	test.each([
		['GET', '/devices/http-dev/status', undefined],
		['GET', '/devices/http-dev/qr', undefined],
		['POST', '/devices/http-dev/logout', undefined],
		['DELETE', '/devices/http-dev', undefined],
		['GET', '/devices/http-dev/webhook', undefined],
		['POST', '/devices/http-dev/webhook', { url: 'http://127.0.0.1:9/x' }],
	])("%s %s on another user's device is 404 (names are per user)", async (method, route, body) => {
		const res = await api.call(method, route, body, { key: bobKey });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ success: false, message: "device 'http-dev' not found" });
	});

	test.each([
		['POST', '/devices/http-dev/pair', {}],
		['POST', '/devices/http-dev/inbound', { from: '5511999990009', text: 'hi' }],
		['POST', '/devices/http-dev/read', { id: 'x' }],
		['POST', '/devices/http-dev/react', { id: 'x', text: '👍' }],
		['POST', '/devices/http-dev/presence', { from: '5511999990009', presence: 'composing' }],
		['GET', '/devices/http-dev/presence', undefined],
	])("sandbox %s %s on another user's device is 404 (names are per user)", async (method, route, body) => {
		const res = await sandbox.call(method, route, body, { key: bobKey });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ success: false, message: "device 'http-dev' not found" });
	});

	test("nothing bob tried changed the device or its data", async () => {
		const status = await api.get('/devices/http-dev/status', { key: ADMIN_KEY });
		expect(status.body.data).toMatchObject({ status: 'connected', phone: device.phone });
		expect((await api.get('/devices/http-dev/webhook', { key: ADMIN_KEY })).body.data).toEqual([]);
		expect((await api.post('/message/find', {}, { token: device.token })).body.data.total).toBe(0);
		// Bob sees only his own (no) devices.
		expect((await api.get('/devices', { key: bobKey })).body.data).toEqual([]);
	});
});

describe('addressing: /wp-json/<route> and /index.php?rest_route=<route>', () => {
	test.each(routes.map((r) => [r.method, r.path, r.auth]))('%s %s answers the same at both addresses', async (method, path, auth) => {
		const pretty = await raw(method, wpJson(pathOf(path)));
		const query = await raw(method, plain(pathOf(path)));
		// Gateway routes need their key or token; site routes decide what an anonymous caller (without a body) gets.
		if (auth === 'user' || auth === 'instance') expect(pretty.status).toBe(401);
		else expect(pretty.status).toBeLessThan(500);
		expect(query.status).toBe(pretty.status);
		expect(query.body).toEqual(pretty.body);
	});

	test.each([
		['with extra parameters after it', `/index.php?rest_route=/wdm/v1/devices/http-dev/status&foo=1&bar=`],
		['with parameters before it', `/index.php?foo=1&rest_route=/wdm/v1/devices/http-dev/status`],
		['URL-encoded', `/index.php?rest_route=%2Fwdm%2Fv1%2Fdevices%2Fhttp-dev%2Fstatus`],
		['URL-encoded with parameters', `/index.php?rest_route=%2Fwdm%2Fv1%2Fdevices%2Fhttp-dev%2Fstatus&x=%2F`],
		['on the site root', `/?rest_route=/wdm/v1/devices/http-dev/status`],
		['without the leading slash', `/index.php?rest_route=wdm/v1/devices/http-dev/status`],
		['with a trailing slash', `/index.php?rest_route=/wdm/v1/devices/http-dev/status/`],
		['pretty, with a trailing slash', `/wp-json/wdm/v1/devices/http-dev/status/`],
	])('rest_route %s reaches the route', async (_, url) => {
		const res = await raw('GET', url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ name: 'http-dev', status: 'connected', phone: device.phone });
	});

	test('query parameters after rest_route reach the route', async () => {
		const bad = await raw('GET', '/index.php?rest_route=/wp/v2/posts&context=nope');
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { context: 'context must be one of: "view", "embed", "edit"' } } });
		expect((await raw('GET', '/index.php?rest_route=/wp/v2/posts&context=embed')).status).toBe(200);
		// The indexes take any context, as WordPress declares theirs with a default only.
		expect((await raw('GET', '/index.php?rest_route=/wdm/v1&context=nope')).status).toBe(200);
	});

	test('a POST with a body works through rest_route', async () => {
		const res = await raw('POST', '/index.php?rest_route=/wdm/v1/devices', {
			headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'via-rest-route' }),
		});
		expect(res.status).toBe(201);
		expect(res.body.data.name).toBe('via-rest-route');
		expect((await api.get('/devices/via-rest-route/status', { key: ADMIN_KEY })).body.data.status).toBe('disconnected');
	});

	test('a path parameter keeps characters that are special in a URL', async () => {
		// Decoded, rest_route holds `100%`, `a?b` and `a#b`: each stays one path segment, not a query or fragment.
		for (const name of ['100%', 'a?b', 'a#b', 'a b']) {
			const res = await raw('GET', `/index.php?rest_route=${encodeURIComponent(`/wdm/v1/devices/${name}/status`)}`, {
				headers: { authorization: `Bearer ${ADMIN_KEY}` },
			});
			expect(res.status).toBe(404);
			expect(res.body).toEqual({ success: false, message: `device '${name}' not found` });
		}
	});
});

describe('unknown routes', () => {
	test.each([
		['GET', '/wp-json/wdm/v1/nope', 'no route matches GET /wdm/v1/nope'],
		['POST', '/wp-json/wdm/v1/send/nope', 'no route matches POST /wdm/v1/send/nope'],
		['PUT', '/wp-json/wdm/v1/devices', 'no route matches PUT /wdm/v1/devices'],
		['GET', '/wp-json/wdm/v1/send/text', 'no route matches GET /wdm/v1/send/text'],
		['GET', '/wp-json/sandbox/v1/nope', 'no route matches GET /sandbox/v1/nope'],
		['GET', '/index.php?rest_route=/wdm/v1/nope&x=1', 'no route matches GET /wdm/v1/nope'],
		['GET', '/index.php?rest_route=/sandbox/v1/devices', 'no route matches GET /sandbox/v1/devices'],
	])('%s %s is 404 in the gateway envelope', async (method, url, message) => {
		const res = await raw(method, url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ success: false, message });
	});

	test.each([
		['GET', '/wp-json/cms/v2/nothing', 'no route matches GET /cms/v2/nothing'],
		['GET', '/wp-json/wdm/v2/devices', 'no route matches GET /wdm/v2/devices'],
		['GET', '/wp-json/wdm', 'no route matches GET /wdm'],
		['POST', '/wp-json/', 'no route matches POST /'],
		['GET', '/index.php?rest_route=/oembed/1.0/nothing', 'no route matches GET /oembed/1.0/nothing'],
		['GET', '/nope', 'no route matches GET /nope'],
	])('%s %s is 404 WordPress-style', async (method, url, message) => {
		const res = await raw(method, url);
		expectWpError(res, 404, 'rest_no_route', message);
	});
});

describe('request bodies', () => {
	const post = (route: string, body: string | undefined, headers: Record<string, string> = {}) =>
		raw('POST', `/wp-json/wdm/v1${route}`, { headers: { token: device.token, ...headers }, body });

	test.each(['{', '{"number": }', "{'number':'1'}", '{"a":1}}', 'nul', '[1,]'])('malformed JSON %j is 400', async (body) => {
		const res = await post('/message/find', body, { 'content-type': 'application/json' });
		expect(res.status).toBe(400);
		expect(res.body.success).toBe(false);
		expect(res.body.message).toMatch(/^body is not valid JSON/);
	});

	test('malformed JSON without credentials is 401: credentials are checked before the body is read', async () => {
		const res = await raw('POST', '/wp-json/wdm/v1/send/text', { headers: { 'content-type': 'application/json' }, body: '{' });
		expect(res.status).toBe(401);
		expect(res.body.message).toBe('missing instance token: send the header "token: <instance token>"');
	});

	test.each([
		['[]', 'body must be an object (got an array)'],
		['"text"', 'body must be an object (got string "text")'],
		['42', 'body must be an object (got number 42)'],
		['null', 'number is required; text is required'],
	])('a JSON body that is not an object (%s) is 400', async (body, message) => {
		const res = await post('/send/text', body, { 'content-type': 'application/json' });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ success: false, message });
	});

	test.each([
		['text/plain', '{"number":"5511999990001","text":"hi"}'],
		['application/x-www-form-urlencoded', 'number=5511999990001&text=hi'],
		['multipart/form-data; boundary=xyz', '--xyz--'],
		['application/xml', '<a/>'],
		['application/vnd.api+json', '{}'],
		['nonsense', 'x'],
	])('Content-Type %s is 415', async (type, body) => {
		const res = await post('/send/text', body, { 'content-type': type });
		expect(res.status).toBe(415);
		expect(res.body).toEqual({ success: false, message: `Content-Type ${type} is not supported; send application/json` });
		expect((await api.post('/message/find', {}, { token: device.token })).body.data.total).toBe(0);
	});

	test('application/json with a charset is accepted', async () => {
		const res = await post('/message/find', '{"limit":5}', { 'content-type': 'application/json; charset=utf-8' });
		expect(res.status).toBe(200);
		expect(res.body.data.limit).toBe(5);
	});

	test.each([
		['no body and no Content-Type', undefined, {}],
		['an empty JSON body', '', { 'content-type': 'application/json' }],
		['a blank JSON body', ' \n ', { 'content-type': 'application/json' }],
		['an empty object', '{}', { 'content-type': 'application/json' }],
	])('%s gives the field-level messages', async (_, body, headers) => {
		const res = await post('/send/text', body, headers);
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ success: false, message: 'number is required; text is required' });
	});

	test('an empty body on a route with a required enum names both fields', async () => {
		const res = await post('/message/presence', undefined);
		expect(res.body).toEqual({ success: false, message: 'number is required; presence is required' });
	});

	test('a body over the limit is 413', async () => {
		const small = await startServer({ bodyLimit: 1024 });
		try {
			const body = JSON.stringify({ name: 'big', profileName: 'x'.repeat(2000) });
			const res = await fetch(`${small.url}/wp-json/wdm/v1/devices`, {
				method: 'POST',
				headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
				body,
			});
			expect(res.status).toBe(413);
			expect(await res.json()).toEqual({ success: false, message: "body is larger than the limit of 1024 bytes; the server's --body-limit (WDM_BODY_LIMIT) raises it" });
			// Just under the limit is fine, and nothing was created by the refused one.
			const ok = await fetch(`${small.url}/index.php?rest_route=/wdm/v1/devices`, {
				method: 'POST',
				headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'small', profileName: 'x'.repeat(100) }),
			});
			expect(ok.status).toBe(201);
			expect(storedDevice(small.services.store, 'big')).toBeUndefined();
		} finally {
			await small.close();
		}
	});
});

describe('validation messages name the field and the rule', () => {
	test.each([
		['/message/presence', { number: '5511999990001', presence: 'composing', delay: 300001 }, 'delay must be at most 300000'],
		['/message/presence', { number: '5511999990001', presence: 'typing' }, 'presence must be one of: "composing", "recording", "paused"'],
		['/message/presence', { number: 5511999990001, presence: 'paused' }, 'number must be a string (got number 5511999990001)'],
		['/message/find', { limit: 1001 }, 'limit must be at most 1000'],
		['/message/find', { limit: 0 }, 'limit must be at least 1'],
		['/message/find', { limit: 2.5 }, 'limit must be an integer (got number 2.5)'],
		['/message/find', { offset: -1 }, 'offset must be at least 0'],
		['/message/find', { limit: '10' }, 'limit must be a number (got string "10")'],
		['/send/text', { number: '5511999990001', text: 'hi', replyId: 'x' }, 'body has unknown field(s): replyId'],
		['/send/text', { number: '5511999990001', text: '' }, 'text must be at least 1 characters long'],
		['/send/text', { number: '5511999990001', text: 'hi', delay: -5 }, 'delay must be at least 0'],
		['/send/text', { number: '5511999990001', text: 'hi', async: 'yes' }, 'async must be a boolean (got string "yes")'],
		['/send/text', { number: '5511999990001', text: 'hi', linkPreviewImage: 'not a url' }, 'linkPreviewImage must be a valid url'],
		['/send/media', { number: '5511999990001', type: 'gif', file: 'x' }, 'type must be one of: "image", "video", "document", "audio", "myaudio", "ptt", "ptv", "sticker"'],
		['/send/media', { number: '5511999990001', type: 'image', file: 'x', mimetype: 'png' }, 'mimetype must be a MIME type such as image/png'],
	])('POST %s %j: %s', async (route, body, message) => {
		const res = await api.post(route, body, { token: device.token });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ success: false, message });
	});

	test('several problems are all named, in one message', async () => {
		const res = await api.post('/message/presence', { presence: 'typing', delay: 'soon' }, { token: device.token });
		expect(res.status).toBe(400);
		expect(res.body.message).toBe(
			'number is required; presence must be one of: "composing", "recording", "paused"; delay must be a number (got string "soon")',
		);
	});

	test('nested fields are named with their path', async () => {
		const res = await api.post('/devices/http-dev/webhook', { url: 'http://127.0.0.1:9/x', events: ['messages', 'nope'] }, { key: ADMIN_KEY });
		expect(res.status).toBe(400);
		expect(res.body.message).toBe(
			'events[1] must be one of: "connection", "messages", "messages_update", "presence", "chats", "contacts", "groups", "labels", "chat_labels"',
		);
	});

	test("a schema's own sentence is used for patterns and formats", async () => {
		const hook = await api.post('/devices/http-dev/webhook', { url: 'ftp://example.com/x' }, { key: ADMIN_KEY });
		expect(hook.body).toEqual({ success: false, message: 'url must be an http:// or https:// URL' });
		const name = await api.post('/devices', { name: 'a/b' }, { key: ADMIN_KEY });
		expect(name.body).toEqual({ success: false, message: 'name must be 1 to 64 letters, digits, "-" or "_"' });
		const refine = await sandbox.post('/devices/http-dev/inbound', { from: '5511999990009', type: 'image' }, { key: ADMIN_KEY });
		expect(refine.body).toEqual({ success: false, message: 'file is required for media messages' });
	});

	test('query parameters are validated and named too', async () => {
		const res = await raw('GET', '/wp-json/wp/v2/posts?context=everything');
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			code: 'rest_invalid_param',
			message: 'Invalid parameter(s): context',
			data: {
				status: 400,
				params: { context: 'context must be one of: "view", "embed", "edit"' },
				details: { context: { code: 'rest_not_in_enum', message: 'context must be one of: "view", "embed", "edit"', data: null } },
			},
		});
	});
});

describe('site sign-in: Basic with an application password', () => {
	const index = (authorization?: string) => raw('GET', '/wp-json/', authorization ? { headers: { authorization } } : {});

	test('anonymous callers and the right password are both let in', async () => {
		expect((await index()).status).toBe(200);
		expect((await index(basicAuth('admin', ADMIN_APP_PASSWORD))).status).toBe(200);
		expect((await index(basicAuth('admin', ADMIN_APP_PASSWORD.replace(/ /g, '')))).status).toBe(200);
	});

	test.each([
		['a wrong password', basicAuth('admin', 'wrong pass word 0000 1111'), 'incorrect_password', 'The provided password is an invalid application password.'],
		['the API key instead of an application password', basicAuth('admin', ADMIN_KEY), 'incorrect_password', 'The provided password is an invalid application password.'],
		['an unknown user', basicAuth('nobody', ADMIN_APP_PASSWORD), 'invalid_username', 'Unknown username. Check again or try your email address.'],
		['no colon', `Basic ${Buffer.from('admin').toString('base64')}`, 'rest_invalid_authorization', 'the Basic credentials must be "user:application password"'],
		['another scheme', 'Digest abc', 'rest_invalid_authorization', 'the Authorization header must be "Basic <base64 of user:application password>"'],
	])('%s is a 401 even on a public route', async (_case, authorization, code, message) => {
		const res = await index(authorization);
		expectWpError(res, 401, code, message);
	});
});

describe('nothing a client sends crashes the server', () => {
	const key = { authorization: `Bearer ${ADMIN_KEY}` };
	const json = { 'content-type': 'application/json' };

	/** Sends bytes as they are, for what fetch refuses to send; answers the whole answer. */
	function rawAnswer(bytes: string): Promise<string> {
		const url = new URL(server.url);
		return new Promise((resolve, reject) => {
			const socket = net.connect(Number(url.port), url.hostname, () => socket.end(bytes));
			let answer = '';
			socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
			socket.on('close', () => resolve(answer));
			socket.on('error', reject);
		});
	}

	/** The status line of the answer to raw bytes. */
	const rawSocket = async (bytes: string) => (await rawAnswer(bytes)).split('\r\n')[0];

	type Junk = [method: string, url: string, status: number, init: { headers?: Record<string, string>; body?: string | Uint8Array }, envelope: 'gateway' | 'site' | 'none'];
	const junk: Junk[] = [
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, ...json }, body: '['.repeat(100000) }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, ...json }, body: `${'['.repeat(5000)}${']'.repeat(5000)}` }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, ...json }, body: `{"name":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}` }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, ...json }, body: '{"__proto__":{"admin":true},"name":"proto"}' }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, ...json }, body: '{"constructor":{"prototype":{"x":1}},"name":"ctor"}' }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, ...json }, body: '{"name":1e400}' }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, ...json }, body: new Uint8Array([0x7b, 0xff, 0xfe, 0x00, 0x7d]) }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, ...json }, body: '{"name":"nul\\u0000byte"}' }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 201, { headers: { ...key, ...json }, body: '\ufeff{"name":"bom"}' }, 'none'],
		['POST', '/wp-json/wdm/v1/devices', 400, { headers: { ...key, 'content-type': 'application/json; charset=utf-16' }, body: '{}' }, 'gateway'],
		['POST', '/wp-json/wdm/v1/devices', 415, { headers: { ...key, 'content-type': ';;;' }, body: '{}' }, 'gateway'],
		// The body is read before the route is looked up: malformed JSON is 400 even on an unknown route.
		['POST', '/wp-json/cms/v2/posts', 400, { headers: json, body: '{' }, 'site'],
		// Credentials come first: a Bearer key is no site credential, refused before the body is read.
		['POST', '/wp-json/cms/v2/posts', 401, { headers: { ...key, ...json }, body: '{' }, 'site'],
		['POST', '/wp-json/wdm/v1/send/text', 401, { headers: { token: 'x'.repeat(8000), ...json }, body: '{}' }, 'gateway'],
		['POST', '/wp-json/wdm/v1/send/text', 401, { headers: { token: '\u00ff\u00fe', ...json }, body: '{}' }, 'gateway'],
		['GET', '/wp-json/wdm/v1/devices', 401, { headers: { authorization: `Bearer ${'k'.repeat(8000)}` } }, 'gateway'],
		['GET', '/wp-json/wdm/v1/devices/%', 400, { headers: key }, 'gateway'],
		['GET', '/wp-json/wdm/v1/devices/%E0%A4%A/status', 400, { headers: key }, 'gateway'],
		['GET', '/wp-json/cms/v2/posts/%', 400, {}, 'site'],
		['GET', `/wp-json/wdm/v1/devices/${'x'.repeat(500)}/status`, 414, { headers: key }, 'gateway'],
		['GET', '/index.php?rest_route=%', 404, { headers: key }, 'site'],
		['GET', '/index.php?rest_route=/wdm/v1/devices/%25/status', 404, { headers: key }, 'gateway'],
		['GET', '/index.php?rest_route=/wdm/v1/devices/%ZZ/status', 404, { headers: key }, 'gateway'],
		['GET', '/index.php?rest_route[]=/wdm/v1/devices', 404, { headers: key }, 'site'],
		['GET', '/index.php?rest_route=/wdm/v1&rest_route=/sandbox/v1', 200, {}, 'none'],
		['GET', '/wp-json/wdm/v1/../../../../etc/passwd', 404, {}, 'site'],
		['GET', '/wp-json/wp/v2/posts?context=view&context=edit', 400, {}, 'site'],
		['GET', '/wp-json/wdm/v1?context[]=view', 200, {}, 'none'],
		['GET', '/wp-content/uploads/wdm/..%2F..%2Fwdm.sqlite/x', 404, {}, 'site'],
		['GET', '/wp-content/uploads/wdm/%00/x', 404, {}, 'site'],
		['DELETE', '/wp-json/', 404, {}, 'site'],
		['PROPFIND', '/wp-json/wdm/v1/devices', 404, { headers: key }, 'gateway'],
		// OPTIONS describes a route (rest-server.test.ts); on no route it is a 404 like any method.
		['OPTIONS', '/wp-json/wdm/v1/no-such-route', 404, {}, 'gateway'],
	];

	test.each(junk)('%s %s is %d', async (method, url, status, init, envelope) => {
		const res = await raw(method, url, init);
		expect(res.status).toBe(status);
		if (envelope === 'gateway') expect(res.body).toEqual({ success: false, message: expect.any(String) });
		if (envelope === 'site') expect(res.body).toEqual({ code: expect.any(String), message: expect.any(String), data: expect.objectContaining({ status }) });
	});

	test.each([
		['{"name":', 'body is not valid JSON: Unexpected end of JSON input'],
		['{"__proto__":{"admin":true},"name":"proto"}', 'body must not contain "__proto__" or "constructor.prototype" keys'],
		['{"name":1e400}', 'name must be a string (got number Infinity)'],
		['{"name":"nul\\u0000byte"}', 'name must be 1 to 64 letters, digits, "-" or "_"'],
	])('the message says what is wrong with %s', async (body, message) => {
		const res = await raw('POST', '/wp-json/wdm/v1/devices', { headers: { ...key, ...json }, body });
		expect(res.body).toEqual({ success: false, message });
	});

	test('junk objects in the named fields are refused with a message', async () => {
		for (const value of [null, {}, [], true, { toString: 'x' }, '\u0000', 'x'.repeat(100000)]) {
			const res = await api.post('/send/text', { number: value, text: value }, { token: device.token });
			expect(res.status).toBe(400);
			expect(res.body.success).toBe(false);
			expect(res.body.message).toMatch(/^number /);
		}
	});

	describe('odd objects, deep nesting and lone surrogates are 400s naming the field', () => {
		const site = { authorization: basicAuth('admin', ADMIN_APP_PASSWORD), ...json };
		const odd = { length: { toString: 1 } };
		const post = (route: string, body: string) => raw('POST', `/wp-json/wdm/v1${route}`, { headers: { token: device.token, ...json }, body });

		test('an object with an odd length where text belongs (it made validation throw)', async () => {
			const post = await raw('POST', '/wp-json/cms/v2/posts', { headers: site, body: JSON.stringify({ slug: odd }) });
			expect(post).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', data: { status: 400, params: { slug: 'slug must be a string (got an object)' } } } });
			const gateway = await api.post('/message/delete', { id: odd }, { token: device.token });
			expect(gateway).toMatchObject({ status: 400, body: { success: false, message: 'id must be a string (got an object)' } });
			const batch = await raw('POST', '/wp-json/batch/v1', { headers: site, body: JSON.stringify({ requests: [{ path: odd }] }) });
			expect(batch).toMatchObject({ status: 400, body: { data: { params: { requests: 'requests[0].path must be a string (got an object)' } } } });
			const query = await raw('GET', '/wp-json/cms/v2/posts?page[toString]=1');
			expect(query).toMatchObject({ status: 400, body: { data: { params: { page: 'page must be an integer' } } } });
		});

		test('a value of the wrong type gets one sentence, not also the checks of the right type', async () => {
			const res = await api.post('/send/text', { number: '5511999990001', text: { length: 5 } }, { token: device.token });
			expect(res.body).toEqual({ success: false, message: 'text must be a string (got an object)' });
		});

		test('a body nested deeper than 64 levels is refused before anything is stored', async () => {
			const nest = (levels: number) => {
				let value: unknown = 1;
				for (let i = 0; i < levels; i++) value = { a: value };
				return value;
			};
			// The body is a level: 63 more in `limit` are allowed (and refused by the schema), 64 are not.
			expect((await api.post('/message/find', { limit: nest(63) }, { token: device.token })).body).toEqual({ success: false, message: 'limit must be a number (got an object)' });
			expect((await api.post('/message/find', { limit: nest(64) }, { token: device.token })).body).toEqual({ success: false, message: 'limit is nested deeper than 64 levels' });
			const count = () => server.services.store.db.prepare('SELECT count(*) AS n FROM content').get();
			const before = count();
			const res = await raw('POST', '/wp-json/cms/v2/posts', { headers: site, body: `{"title":"deep","meta":{"deep":${'{"a":'.repeat(10000)}1${'}'.repeat(10001)}}` });
			expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { code: 'rest_invalid_json', message: 'meta is nested deeper than 64 levels', data: { status: 400 } } });
			expect(count()).toEqual(before);
		});

		test('a lone surrogate is refused (SQLite would store it mangled); pairs are kept', async () => {
			const text = await post('/send/text', '{"number":"5511999990001","text":"a\\ud800b"}');
			expect(text.body).toEqual({ success: false, message: 'text contains an unpaired surrogate' });
			const nested = await post('/send/text', '{"number":"5511999990001","text":"x","placeholders":{"k\\udc00":"v"}}');
			expect(nested.body).toEqual({ success: false, message: 'placeholders has a field name with an unpaired surrogate' });
			const title = await raw('POST', '/wp-json/cms/v2/posts', { headers: site, body: '{"title":"\\ud800"}' });
			expectWpError(title, 400, 'rest_invalid_json', 'title contains an unpaired surrogate');
			const pair = await raw('POST', '/wp-json/cms/v2/posts', { headers: site, body: '{"title":"\\ud83d\\ude00"}' });
			expect(pair.status).toBe(201);
			expect(pair.body.title.raw).toBe('\u{1f600}');
		});
	});

	test.each([
		['/wp-json/wdm/v1/devices?x=', 'gateway'],
		['/index.php?rest_route=/wdm/v1/devices&x=', 'gateway'],
		['/wp-json/cms/v2/posts?x=', 'site'],
		['/?x=', 'site'],
	])('a URL over 16 KB (%s...) is 431 in the namespace error format', async (url, envelope) => {
		const answer = await rawAnswer(`GET ${url}${'a'.repeat(20000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
		const [head, body] = answer.split('\r\n\r\n');
		expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
		expect(head).toMatch(/\r\ncontent-type: application\/json/i);
		const message = 'the request line and headers must be at most 16384 bytes';
		expect(JSON.parse(body)).toEqual(envelope === 'gateway' ? { success: false, message } : { code: 'rest_headers_too_large', message, data: { status: 431 } });
	});

	test('malformed HTTP is refused by the server, which keeps answering', async () => {
		expect(await rawSocket('GARBAGE\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request');
		expect(await rawSocket(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`)).toBe('HTTP/1.1 431 Request Header Fields Too Large');
		expect(await rawSocket('POST /wp-json/wdm/v1/devices HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello')).toBe(
			'HTTP/1.1 400 Bad Request',
		);
	});

	afterAll(async () => {
		// The server still answers and still works.
		const index = await raw('GET', '/wp-json/');
		expect(index.status).toBe(200);
		const created = await api.post('/devices', { name: 'after-junk' }, { key: ADMIN_KEY });
		expect(created.status).toBe(201);
		expect(storedDevice(server.services.store, 'proto')).toBeUndefined();
		expect(({} as Record<string, unknown>).admin).toBeUndefined();
	});
});

describe('site index', () => {
	const table = routes.filter((r) => r.path !== '/' && !/^\/[^/]+\/v\d+$/.test(r.path));
	/** The routes the index lists: all but the parametric collections of engine-added post types (none here). */
	const indexed = routes.filter((r) => !r.path.includes('{base}'));

	/** The object schemas of a route, and for each field whether a request must carry it and which values it takes. */
	function fieldsOf(route: (typeof routes)[number]) {
		const out: Record<string, { required: boolean; enum?: unknown[]; itemsEnum?: unknown[] }> = {};
		for (const schema of [route.params, route.query, route.body] as (ZodType | undefined)[]) {
			if (!schema) continue;
			// A query read the PHP way (`phpQuery`) is a preprocessing pipe into its object.
			const object = (schema.def.type === 'pipe' ? (schema.def as unknown as { out: ZodType }).out : schema) as unknown as { shape: Record<string, ZodType> };
			const shape = object.shape;
			if (!shape) continue; // a body that is no object (a JSON-RPC message) has no named arguments
			for (const [name, field] of Object.entries(shape)) {
				// Read from the query and the body (DELETE's `force`): declared once, by the query.
				if (name in out) continue;
				// What the route's meta says WordPress declares wins: no argument at all, required or not, its values.
				const meta = ownMeta(field) ?? {};
				if (meta.argument === false) continue;
				let inner = field as unknown as { def: { type: string; innerType?: unknown; element?: unknown }; options?: unknown[] };
				while (inner.def.innerType) inner = inner.def.innerType as typeof inner;
				const element = inner.def.type === 'array' ? (inner.def.element as typeof inner) : undefined;
				const values = 'enum' in meta ? (meta.enum as unknown[] | undefined) : inner.def.type === 'enum' ? inner.options : undefined;
				out[name] = {
					required: typeof meta.required === 'boolean' ? meta.required : !field.safeParse(undefined).success,
					...(values ? { enum: values } : {}),
					...(element?.def.type === 'enum' && !('items' in meta) ? { itemsEnum: element.options } : {}),
				};
			}
		}
		return out;
	}

	let index: Reply;
	beforeAll(async () => {
		index = await raw('GET', '/wp-json/');
	});

	test('GET / describes the site and its namespaces', async () => {
		expect(index.status).toBe(200);
		expect(index.body).toMatchObject({
			name: 'WDM reference site',
			url: server.url,
			home: server.url,
			namespaces: expect.arrayContaining(['cms/v2', 'wdm/v1', 'sandbox/v1']),
			authentication: { 'application-passwords': expect.any(Object) },
		});
		// The plain-permalink forms give the same index.
		expect((await raw('GET', '/index.php?rest_route=/')).body).toEqual(index.body);
		expect((await raw('GET', '/?rest_route=/')).body).toEqual(index.body);
		expect((await raw('GET', '/wp-json')).body).toEqual(index.body);
	});

	test('the routes map has exactly the routes of the table', () => {
		expect(Object.keys(index.body.routes).sort()).toEqual([...new Set(indexed.map((r) => wpPattern(r.path, r.patterns)))].sort());
		expect(table.length).toBeGreaterThanOrEqual(19);
	});

	test.each(indexed.map((r) => [r.method, r.path, r]))('%s %s is in the map with its method and arguments', (method, path, route) => {
		const entry = index.body.routes[wpPattern(path as string, (route as (typeof routes)[number]).patterns)];
		expect(entry.namespace).toBe(namespaceOf(path as string));
		expect(entry.methods).toContain(method);
		const endpoint = entry.endpoints.find((e: { methods: string[] }) => e.methods.includes(method as string));
		expect(endpoint).toBeDefined();
		const fields = fieldsOf(route as (typeof routes)[number]);
		expect(Object.keys(endpoint.args).sort()).toEqual(Object.keys(fields).sort());
		for (const [name, field] of Object.entries(fields)) {
			expect([name, endpoint.args[name].required]).toEqual([name, field.required]);
			// A nullable enum is shown as anyOf [enum, null].
			const shown = endpoint.args[name].enum ?? endpoint.args[name].anyOf?.find((s: { enum?: unknown[] }) => s.enum)?.enum;
			// (The settings' arguments are the registered settings as WordPress declares them, not the write's checks.)
			if (field.enum && !(path as string).endsWith('/settings')) expect([name, shown]).toEqual([name, field.enum]);
			if (field.itemsEnum) expect([name, endpoint.args[name].items.enum]).toEqual([name, field.itemsEnum]);
		}
	});

	test('arguments carry their types, defaults and limits', () => {
		const presence = index.body.routes['/wdm/v1/message/presence'].endpoints[0].args;
		expect(presence.number).toMatchObject({ type: 'string', required: true });
		expect(presence.presence).toMatchObject({ type: 'string', enum: ['composing', 'recording', 'paused'], required: true });
		expect(presence.delay).toMatchObject({ type: 'integer', maximum: 300000, required: false });
		const devices = index.body.routes['/wdm/v1/devices'];
		expect(devices.methods).toEqual(['GET', 'POST']);
		expect(devices.endpoints[1].args.name).toMatchObject({ type: 'string', required: true });
		const hook = index.body.routes['/wdm/v1/devices/(?P<name>[^/]+)/webhook'].endpoints.find((e: { methods: string[] }) => e.methods[0] === 'POST');
		expect(hook.args.action).toMatchObject({ enum: ['add', 'update', 'delete'], default: 'add', required: false });
		expect(hook.args.name).toMatchObject({ type: 'string', required: true });
	});

	test.each(['wdm/v1', 'sandbox/v1'])('GET /%s lists the routes of its namespace only', async (ns) => {
		for (const url of [`/wp-json/${ns}`, `/index.php?rest_route=/${ns}`]) {
			const res = await raw('GET', url);
			expect(res.status).toBe(200);
			// The REST server's own route: bare, as WordPress answers it, not in the gateway envelope.
			expect(res.body.namespace).toBe(ns);
			const expected = [...new Set(indexed.filter((r) => namespaceOf(r.path) === ns).map((r) => wpPattern(r.path, r.patterns)))].sort();
			expect(Object.keys(res.body.routes).sort()).toEqual(expected);
			expect(res.body.routes).toEqual(Object.fromEntries(expected.map((p) => [p, index.body.routes[p]])));
		}
	});
});
