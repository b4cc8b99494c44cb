import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_KEY, client, startServer, tempDataDir, storedDevice } from '../helpers/server';
import { Store } from '../../server/src/store';
import type { App } from '../../server/src/app';

/** The key instance tokens are derived under lives in `<data>/token.key`, not in the store. */

const running = new Set<App>();
afterEach(async () => {
	await Promise.all([...running].map((s) => s.close()));
	running.clear();
});

async function start(data: string) {
	const server = await startServer({ data, pairing: 'manual' });
	running.add(server);
	return server;
}

async function stop(server: App) {
	running.delete(server);
	await server.close();
}

/** Creates a device and answers its instance token. */
async function newDevice(server: App, name: string): Promise<string> {
	const created = await client(server.url).post('/devices', { name }, { key: ADMIN_KEY });
	expect(created.status).toBe(201);
	return created.body.data.token;
}

const authenticates = async (server: App, token: string) => (await client(server.url).get('/contacts', { token })).status === 200;
const keyFile = (data: string) => path.join(data, 'token.key');
const mode = (file: string) => fs.statSync(file).mode & 0o777;
/** What a token is, given a key and the device id (the derivation the server uses). */
const derive = (key: Buffer, deviceId: string) => crypto.createHmac('sha256', key).update(`instance:${deviceId}`).digest('base64url');

/** Reads the store of a data directory while no server runs on it. */
function withStore<T>(data: string, fn: (store: Store) => T): T {
	const store = Store.open(data);
	try {
		return fn(store);
	} finally {
		store.close();
	}
}

test('the key is a 0600 file beside the store; the store file alone gives no token back', async () => {
	const data = tempDataDir();
	const server = await start(data);
	const token = await newDevice(server, 'phone1');
	await stop(server);

	expect(mode(keyFile(data))).toBe(0o600);
	const key = Buffer.from(fs.readFileSync(keyFile(data), 'utf8').trim(), 'hex');
	const device = withStore(data, (store) => storedDevice(store, 'phone1')!);
	expect(derive(key, device.id)).toBe(token);

	// A copy of the store without the key file: no value in it derives the token, and the key is nowhere in its bytes.
	const copy = tempDataDir();
	fs.copyFileSync(path.join(data, 'wdm.sqlite'), path.join(copy, 'wdm.sqlite'));
	const bytes = fs.readFileSync(path.join(copy, 'wdm.sqlite'));
	expect(bytes.includes(key)).toBe(false);
	expect(bytes.includes(Buffer.from(key.toString('hex')))).toBe(false);
	const meta = withStore(copy, (store) => store.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]);
	expect(meta.map((m) => m.key)).not.toContain('token_key');
	for (const { value } of meta) {
		for (const candidate of [Buffer.from(value), Buffer.from(value, 'hex')]) expect(derive(candidate, device.id)).not.toBe(token);
	}

	// Nor does the server start on it: a new key would quietly replace the device's token.
	await expect(start(copy)).rejects.toThrow(/token\.key is missing.*Restore it from a backup/s);
	expect(fs.existsSync(keyFile(copy))).toBe(false);
});

test('the same key after a restart: tokens keep working', async () => {
	const data = tempDataDir();
	let server = await start(data);
	const token = await newDevice(server, 'phone1');
	await stop(server);
	server = await start(data);
	expect(await authenticates(server, token)).toBe(true);
	expect((await client(server.url).get('/devices', { key: ADMIN_KEY })).body.data[0].token).toBe(token);
});

test('a store that kept the key in meta.token_key: the key moves to the file, old tokens still authenticate', async () => {
	const data = tempDataDir();
	let server = await start(data);
	const token = await newDevice(server, 'phone1');
	await stop(server);
	// The store as earlier versions left it: the key in the store, no key file.
	const hex = fs.readFileSync(keyFile(data), 'utf8').trim();
	fs.rmSync(keyFile(data));
	withStore(data, (store) => store.meta.set('token_key', hex));

	server = await start(data);
	expect(await authenticates(server, token)).toBe(true);
	expect(fs.readFileSync(keyFile(data), 'utf8').trim()).toBe(hex);
	expect(mode(keyFile(data))).toBe(0o600);
	expect(server.services.store.meta.get('token_key')).toBeUndefined();
	await stop(server);
	// Gone from the file's bytes too, not only from the table.
	for (const file of fs.readdirSync(data).filter((f) => f.startsWith('wdm.sqlite'))) {
		expect(fs.readFileSync(path.join(data, file)).includes(Buffer.from(hex))).toBe(false);
	}

	// A move cut short (the file written, the store not yet cleared) ends on the next start.
	withStore(data, (store) => store.meta.set('token_key', hex));
	server = await start(data);
	expect(await authenticates(server, token)).toBe(true);
	expect(server.services.store.meta.get('token_key')).toBeUndefined();
	await stop(server);

	// A key file that is not the store's key is refused rather than guessed at.
	withStore(data, (store) => store.meta.set('token_key', crypto.randomBytes(32).toString('hex')));
	await expect(start(data)).rejects.toThrow(/holds another key than the one the store kept/);
});

test('a store without devices starts with a new key; a key file others can read is refused', async () => {
	const data = tempDataDir();
	let server = await start(data);
	await stop(server);
	fs.rmSync(keyFile(data));
	server = await start(data);
	expect(fs.existsSync(keyFile(data))).toBe(true);
	await stop(server);

	fs.chmodSync(keyFile(data), 0o644);
	await expect(start(data)).rejects.toThrow(/can be read by other users of this machine \(mode 644\): chmod 600/);
});

test('an in-memory store gets a random key of its own', async () => {
	const a = await startServer();
	const b = await startServer();
	running.add(a).add(b);
	expect(a.services.instanceToken('same-id')).not.toBe(b.services.instanceToken('same-id'));
});
