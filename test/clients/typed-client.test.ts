import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import type { App } from '../../server/src/app';
import { ADMIN_APP_PASSWORD, ADMIN_KEY, basicAuth, client, startServer } from '../helpers/server';
import { writeClientTypes } from './typed/generate';

/**
 * The contract's use: a client generated from the OpenAPI document (`openapi-typescript` + `openapi-fetch`)
 * compiles for ordinary code and talks to the server. The types are generated from the document now, so
 * they cannot lag behind the route table; `typed/calls.ts` is the ordinary code.
 */

const TYPED = path.join(__dirname, 'typed');

/** The casts in a source file (`x as T` but `as const`, `<T>x`, `x!`), each with its text. */
function casts(file: string): string[] {
	const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		const isCast = (ts.isAsExpression(node) && node.type.getText(source) !== 'const') || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node);
		if (isCast) found.push(node.getText(source));
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}
let server: App;

/** `typed/calls.ts`, loaded by path: its types exist once the test has generated them, so the test project's tsc does not follow it. */
const typedCalls = () => import(path.join(TYPED, 'calls'));

beforeAll(async () => {
	fs.mkdirSync(path.join(TYPED, 'generated'), { recursive: true });
	writeClientTypes(path.join(TYPED, 'generated', 'wdm-api.d.ts'));
	// Paired through the sandbox only: with auto pairing (20 ms here) the phone could scan the QR code
	// before the test's own pair request, which then finds the device connected (seen under CI's load).
	server = await startServer({ pairing: 'manual' });
}, 60000);
afterAll(() => server?.close());

test('the calls type-check against the generated types, with no casts', async () => {
	const tsc = path.join(__dirname, '../../node_modules/.bin/tsc');
	await expect(promisify(execFile)(tsc, ['-p', path.join(TYPED, 'tsconfig.json')])).resolves.toBeDefined();
	expect(casts(path.join(TYPED, 'calls.ts'))).toEqual([]);
}, 120000);

test('gateway: a device is created (201) with its instance token, typed', async () => {
	const { createDevice, typedClient } = await typedCalls();
	const { status, device } = await createDevice(typedClient(server.url), ADMIN_KEY, 'typed-1');
	expect(status).toBe(201);
	expect(device).toMatchObject({ name: 'typed-1', status: 'disconnected', token: expect.any(String) });
});

test('site: a post created (201) and read back, then listed page by page with the paging headers', async () => {
	const { createAndReadPost, listPosts, typedClient } = await typedCalls();
	const api = typedClient(server.url);
	const authorization = basicAuth('admin', ADMIN_APP_PASSWORD);
	const made = [];
	for (const title of ['Typed one', 'Typed two', 'Typed three']) made.push(await createAndReadPost(api, authorization, title));
	expect(made.map(({ status, rendered }) => ({ status, rendered }))).toEqual([
		{ status: 201, rendered: 'Typed one' },
		{ status: 201, rendered: 'Typed two' },
		{ status: 201, rendered: 'Typed three' },
	]);
	const first = await listPosts(api, 1, 2);
	const second = await listPosts(api, 2, 2);
	expect(first).toMatchObject({ total: 3, pages: 2 });
	expect([...first.ids, ...second.ids]).toEqual(made.map((post) => post.id));
});

test('gateway: a device paired through the sandbox sends a text with its instance token, typed', async () => {
	const { createDevice, pairAndSendText, typedClient } = await typedCalls();
	const api = typedClient(server.url);
	const { device } = await createDevice(api, ADMIN_KEY, 'typed-send');
	const { status, message } = await pairAndSendText(api, ADMIN_KEY, 'typed-send', device.token, '5511955550001', 'Hello, typed');
	expect(status).toBe('connected');
	expect(message).toMatchObject({ id: expect.any(String), chatid: '5511955550001@s.whatsapp.net' });
	const stored = await client(server.url).post('/message/find', { id: message.id }, { token: device.token });
	expect(stored.body.data.messages[0]).toMatchObject({ id: message.id, text: 'Hello, typed' });
});

test('extension: a post type added through the engine is listed by it, typed', async () => {
	const { addPostType, typedClient } = await typedCalls();
	const { id, slugs } = await addPostType(typedClient(server.url), basicAuth('admin', ADMIN_APP_PASSWORD), 'Typed books', 'typed-book');
	expect(id).toEqual(expect.any(Number));
	expect(slugs).toContain('typed-book');
});
