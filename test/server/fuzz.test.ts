import fc from 'fast-check';
import type { ZodType } from 'zod';
import type { App } from '../../server/src/app';
import type { Route } from '../../server/src/http/route';
import { routes } from '../../server/src/routes';
import { speaksOpenAi } from '../../server/src/http/dispatch';
import { ADMIN_APP_PASSWORD, ADMIN_KEY, basicAuth, connectedDevice, readReply, startGateway, type Client, type Device, storedDevice } from '../helpers/server';

/**
 * Every route of the table, fed requests generated from its own schemas: valid-ish values and hostile
 * ones (missing, wrong types, out of range, huge, odd objects, deep nesting, `__proto__` keys, lone
 * surrogates), with no, a wrong and the right credential. No answer may be a crash (5xx other than
 * the simulated network's refusals), every error is JSON in its namespace's shape, and the store
 * stays intact. A fixed seed keeps CI reproducible: FUZZ_SEED and FUZZ_RUNS run other or more cases.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20240611);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

let server: App;
let api: Client;
/** Its token signs the instance routes; its name is never generated, so nothing deletes it. */
let device: Device;
/** The device the generated `{name}` parameters point at: deleted or logged out, it is made again. */
const VICTIM = 'fuzz-victim';

beforeAll(async () => {
	({ server, api } = await startGateway());
	device = await connectedDevice(server, 'fuzz-main');
});
afterAll(() => server.close());

async function ensureVictim() {
	const victim = storedDevice(server.services.store, VICTIM);
	if (victim?.status === 'connected') return;
	if (victim) await api.delete(`/devices/${VICTIM}`, { key: ADMIN_KEY });
	await connectedDevice(server, VICTIM);
}

/**
 * The users routes may delete or demote the user they sign in as (`/users/me`) and any user the path
 * names: they sign in as an administrator of their own (made again when the fuzz deleted it, its
 * password issued again when deleted), and their `{id}` is never the admin's, whose key and device
 * the other routes need.
 */
const SITE_ADMIN = { name: 'fuzz-admin', password: 'fuzz admin pass word 0000' };
const isUsersRoute = (route: Route) => /^\/cms\/v2\/users(\/|$)/.test(route.path) || /^\/wp\/v2\/users(\/|$)/.test(route.path);

function ensureSiteAdmin(): number {
	const users = server.services.store.users;
	const user = users.byName(SITE_ADMIN.name) ?? users.create(SITE_ADMIN.name, undefined, 'administrator').user;
	if (user.role !== 'administrator') users.update(user.id, { role: 'administrator' });
	if (!users.byAppPassword(SITE_ADMIN.name, SITE_ADMIN.password).user) users.addAppPassword(user.id, 'fuzz', SITE_ADMIN.password);
	return user.id;
}

/** Text a client plausibly sends: names, numbers, ids, statuses, dates, local URLs (nothing leaves the machine). */
const SAMPLES = [
	VICTIM,
	'fuzz-main',
	'5511999990001',
	'5511999990002@s.whatsapp.net',
	'120363000000000001@g.us',
	'hello',
	'1',
	'2',
	'publish',
	'draft',
	'2024-01-01T00:00:00',
	'image/png',
	'http://127.0.0.1:9/file.png',
];

/** Values no schema expects. */
function hostileValues(): unknown[] {
	let deep: unknown = 1;
	for (let i = 0; i < 70; i++) deep = { a: deep };
	return [
		null,
		true,
		0,
		-1,
		1.5,
		1e308,
		2 ** 53,
		'',
		' ',
		'x'.repeat(20000),
		'\ud800',
		'a\ud800b',
		'nul\u0000byte',
		'%',
		'../../etc/passwd',
		"' OR 1=1 --",
		'😀',
		[],
		[1, 'a', null],
		[[[[]]]],
		{},
		{ length: { toString: 1 } },
		{ length: [{ toString: 1 }] },
		{ toString: 1 },
		{ toString: 1, valueOf: 1 },
		{ length: 1e9, size: -1 },
		JSON.parse('{"__proto__":{"admin":true}}'),
		JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
		{ '\ud800': 1 },
		deep,
		Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' '),
	];
}
const hostile = fc.constantFrom(...hostileValues());

type Def = Record<string, any>;
const defOf = (schema: ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Values for a schema: mostly what it expects, sometimes something hostile in its place. */
function valueOf(schema: ZodType, key = '', depth = 0): fc.Arbitrary<unknown> {
	if (depth > 8) return fc.constant(null);
	return fc.oneof({ weight: 6, arbitrary: expected(schema, key, depth) }, { weight: 1, arbitrary: hostile });
}

function expected(schema: ZodType, key: string, depth: number): fc.Arbitrary<unknown> {
	const def = defOf(schema);
	const s = schema as any;
	switch (def.type) {
		case 'string': {
			if (def.format === 'url') return fc.constantFrom('http://127.0.0.1:9/file.png', 'https://127.0.0.1:9/x', 'ftp://127.0.0.1/x', 'not a url');
			if (def.format === 'email') return fc.constantFrom('a@example.com', 'not an email');
			const edges = [s.minLength, s.maxLength]
				.filter((n): n is number => typeof n === 'number' && n < 100000)
				.flatMap((n) => ['x'.repeat(Math.max(0, n - 1)), 'x'.repeat(n + 1)]);
			return fc.oneof(fc.constantFrom(...SAMPLES, ...edges), fc.string({ maxLength: 20 }));
		}
		case 'number': {
			// A sync send waits out its `delay`: keep it short.
			if (key === 'delay') return fc.integer({ min: 0, max: 20 });
			const edges = [s.minValue, s.maxValue].filter((n) => Number.isFinite(n)).flatMap((n: number) => [n - 1, n, n + 1]);
			return fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constantFrom(0.5, ...edges));
		}
		case 'boolean':
			return fc.boolean();
		case 'enum':
			return fc.constantFrom(...(s.options as unknown[]));
		case 'literal':
			return fc.constantFrom(...(def.values as unknown[]));
		case 'object': {
			const fields = Object.entries(def.shape as Record<string, ZodType>).map(([name, field]) =>
				fc.option(valueOf(field, name, depth + 1), { nil: undefined, freq: 3 }).map((value) => [name, value] as const),
			);
			return fc.tuple(...fields).map((entries) => Object.fromEntries(entries.filter(([, value]) => value !== undefined)));
		}
		case 'array':
			return fc.array(valueOf(def.element, key, depth + 1), { maxLength: 3 });
		case 'record':
			return fc.dictionary(fc.oneof(fc.constantFrom(...SAMPLES), fc.string({ maxLength: 8 })), valueOf(def.valueType, key, depth + 1), { maxKeys: 3 });
		case 'union':
			return fc.oneof(...(def.options as ZodType[]).map((option) => expected(option, key, depth + 1)));
		case 'optional':
		case 'nullable':
		case 'default':
		case 'prefault':
			return expected(def.innerType, key, depth + 1);
		case 'pipe':
			// `preprocess` and `transform` are pipes: generate for the side that is a schema.
			return expected(defOf(def.in).type === 'transform' ? def.out : def.in, key, depth + 1);
		default:
			return fc.jsonValue({ maxDepth: 2 });
	}
}

/** Encodes text for a URL; a lone surrogate (which encodeURIComponent refuses) as the bytes of one. */
function encode(text: string): string {
	try {
		return encodeURIComponent(text);
	} catch {
		return '%ED%A0%80';
	}
}

/** A value as PHP-style query pairs: `a[]=1`, `a[b]=2`. */
function queryPairs(name: string, value: unknown, out: string[] = []): string[] {
	if (value === undefined) return out;
	if (Array.isArray(value)) value.forEach((item) => queryPairs(`${name}[]`, item, out));
	else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) queryPairs(`${name}[${k}]`, v, out);
	else out.push(`${encode(name)}=${encode(value === null ? '' : String(value))}`);
	return out;
}

function queryString(query: unknown): string {
	if (!query || typeof query !== 'object' || Array.isArray(query)) return '';
	return Object.entries(query).flatMap(([k, v]) => queryPairs(k, v)).join('&');
}

type Credential = 'none' | 'wrong' | 'right';

function authHeaders(route: Route, credential: Credential): Record<string, string> {
	if (credential === 'none') return {};
	const right = credential === 'right';
	switch (route.auth) {
		case 'user':
			return { authorization: `Bearer ${right ? ADMIN_KEY : 'wdm_not_a_key'}` };
		case 'instance':
			return { token: right ? device.token : 'not-a-token' };
		default:
			if (isUsersRoute(route)) return { authorization: basicAuth(SITE_ADMIN.name, right ? SITE_ADMIN.password : 'wrong pass word 0000 1111') };
			return { authorization: basicAuth('admin', right ? ADMIN_APP_PASSWORD : 'wrong pass word 0000 1111') };
	}
}

interface Case {
	credential: Credential;
	plain: boolean;
	params: Record<string, unknown>;
	query: unknown;
	body: unknown;
	/** How a body is sent: JSON, or a form (the site's routes read forms as WordPress reads `$_POST`). */
	encoding: 'json' | 'urlencoded' | 'multipart';
	/** The REST server's own parameters, added to the query. */
	extras: string[];
	/** A POST sent with `X-HTTP-Method-Override`, which runs another route of the path (or none). */
	override: string | undefined;
}

/** What the REST server reads on every route: `_fields`, `_embed`, `_envelope`, `_method`. */
const EXTRAS = ['_fields=id,title.rendered,_links', '_fields[]=data', '_embed', '_embed=wp:term,up', '_envelope', '_method=DELETE', '_fields=a.b.c.d'];

function cases(route: Route): fc.Arbitrary<Case> {
	const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
	const paramShape = route.params ? (defOf(route.params).shape as Record<string, ZodType>) : {};
	const admin = server.services.store.users.byName('admin')!.id;
	const ids = isUsersRoute(route) ? ['me', '2', '3', '4'].filter((id) => id !== String(admin)) : ['1', '2', '3'];
	// (The samples of a string include '1': the users routes get hostile values only besides their ids.)
	const param = (name: string) =>
		fc.oneof(
			{ weight: 4, arbitrary: fc.constantFrom(VICTIM, ...ids) },
			{ weight: 2, arbitrary: paramShape[name] && !isUsersRoute(route) ? valueOf(paramShape[name], name) : hostile },
		);
	return fc.record({
		credential: fc.constantFrom<Credential>('none', 'wrong', 'right'),
		plain: fc.boolean(),
		params: fc.record(Object.fromEntries(names.map((name) => [name, param(name)]))),
		query: route.query ? valueOf(route.query) : fc.constant(undefined),
		body: route.rawBody ? fc.uint8Array({ maxLength: 64 }) : route.body ? valueOf(route.body) : fc.option(hostile, { nil: undefined }),
		encoding: fc.constantFrom<Case['encoding']>('json', 'json', 'urlencoded', 'multipart'),
		extras: fc.subarray(EXTRAS, { maxLength: 2 }),
		override: route.method === 'POST' ? fc.option(fc.constantFrom('DELETE', 'PUT', 'GET', 'OPTIONS', 'BOGUS'), { nil: undefined, freq: 4 }) : fc.constant(undefined),
	});
}

/** The request a case makes, as method, URL and init for fetch. */
function request(route: Route, c: Case): { url: string; init: RequestInit } {
	const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = c.params[name];
		return encode(value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value));
	});
	const query = [queryString(c.query), ...c.extras].filter(Boolean).join('&');
	const url = c.plain ? `/index.php?rest_route=${encode(path)}${query ? `&${query}` : ''}` : `/wp-json${path}${query ? `?${query}` : ''}`;
	const headers: Record<string, string> = authHeaders(route, c.credential);
	if (c.override) headers['x-http-method-override'] = c.override;
	let body: string | Uint8Array | FormData | undefined;
	if (c.body instanceof Uint8Array) {
		body = c.body;
		headers['content-type'] = 'image/png';
		headers['content-disposition'] = 'attachment; filename="fuzz.png"';
	} else if (c.body !== undefined && route.method !== 'GET' && c.encoding === 'urlencoded') {
		body = queryString(c.body);
		headers['content-type'] = 'application/x-www-form-urlencoded';
	} else if (c.body !== undefined && route.method !== 'GET' && c.encoding === 'multipart') {
		const form = new FormData();
		for (const [name, value] of new URLSearchParams(queryString(c.body))) form.append(name, value);
		body = form;
	} else if (c.body !== undefined && route.method !== 'GET') {
		body = JSON.stringify(c.body);
		headers['content-type'] = 'application/json';
	}
	return { url, init: { method: route.method, headers, body, signal: AbortSignal.timeout(10000) } };
}

const isGateway = (route: Route) => /^\/(wdm|sandbox)\/v1\/./.test(route.path);

/**
 * What a route may answer: no crash, and errors in its namespace's shape (oEmbed's `format=xml`
 * answers its own errors in XML). Not crashes: the simulated network's refusals (a gateway 500 with
 * its reason; a crash says "internal server error") and 501s (WordPress's `rest_trash_not_supported`,
 * the gateway's routes that need a converter).
 */
function checkAnswer(route: Route, c: Case, res: { status: number; body: any }) {
	const gateway = isGateway(route);
	const refusal = gateway && res.status === 500 && typeof res.body?.message === 'string' && res.body.message !== 'internal server error';
	if (res.status >= 500 && res.status !== 501 && !refusal) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
	if (res.status < 400) return;
	const xml = route.path.startsWith('/oembed/') && (c.query as { format?: unknown } | undefined)?.format === 'xml';
	if (xml && typeof res.body === 'string') expect(res.body).toMatch(/^<\?xml version="1.0"\?>\n<oembed><code>[^<]+<\/code><message>/);
	// The routes that speak OpenAI's API answer in OpenAI's shape (a missing key is the sandbox's 401); so may the
	// AI proxy's other routes, whose path with another method (`_method=DELETE`) is its forwarding route.
	else if ((speaksOpenAi(route.path) || route.path.startsWith('/proxyext/v1/ai-api-proxy/')) && res.body?.error) {
		const { param, ...error } = res.body.error;
		expect(res.body).toEqual({ error: res.body.error });
		expect(error).toEqual({ message: expect.any(String), type: expect.any(String), code: expect.any(String) });
		expect(param === null || typeof param === 'string').toBe(true);
	} else if (gateway) expect(res.body).toEqual({ success: false, message: expect.any(String) });
	else {
		// WordPress's error shape; `additional_data` when the error had earlier data (`term_exists`).
		const { additional_data: more, ...error } = res.body;
		expect(error).toEqual({ code: expect.any(String), message: expect.any(String), data: expect.objectContaining({ status: res.status }) });
		if (more !== undefined) expect(Array.isArray(more)).toBe(true);
	}
}

describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
	test('answers every generated request without a crash, in its error shape', async () => {
		await ensureVictim();
		if (isUsersRoute(route)) ensureSiteAdmin();
		await fc.assert(
			fc.asyncProperty(cases(route), async (c) => {
				const { url, init } = request(route, c);
				const answer = await fetch(`${server.url}${url}`, init);
				// A server-sent-events stream (the dashboard's `/sandbox/v1/events`) never ends: its opening is the answer.
				if (answer.headers.get('content-type')?.startsWith('text/event-stream')) {
					expect(answer.status).toBe(200);
					return void (await answer.body?.cancel());
				}
				checkAnswer(route, c, await readReply(answer));
			}),
			{ seed: SEED, numRuns: RUNS, endOnFailure: true },
		);
	});
});

describe('afterwards', () => {
	test('the store is intact', () => {
		expect(server.services.store.db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
		expect(server.services.store.db.pragma('foreign_key_check')).toEqual([]);
		expect(({} as Record<string, unknown>).admin).toBeUndefined();
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	test('a normal send and read still work', async () => {
		const sender = await connectedDevice(server, 'fuzz-after');
		const sent = await api.post('/send/text', { number: device.phone, text: 'still here' }, { token: sender.token });
		expect(sent.status).toBe(200);
		const found = await api.post('/message/find', { chatid: device.jid }, { token: sender.token });
		expect(found.status).toBe(200);
		expect(found.body.data.messages.map((m: { text: string }) => m.text)).toContain('still here');
	});

	test('a post can still be written and read', async () => {
		const headers = { authorization: basicAuth('admin', ADMIN_APP_PASSWORD), 'content-type': 'application/json' };
		const created = await readReply(
			await fetch(`${server.url}/wp-json/cms/v2/posts`, { method: 'POST', headers, body: JSON.stringify({ title: 'after the fuzz', status: 'publish' }) }),
		);
		expect(created.status).toBe(201);
		const read = await readReply(await fetch(`${server.url}/wp-json/cms/v2/posts/${created.body.id}`));
		expect(read.body.title.rendered).toBe('after the fuzz');
	});
});
