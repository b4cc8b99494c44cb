import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, runCommand, startServerCommand } from '../helpers/processes';
import { reuseNativeBuilds } from '../helpers/native-builds';

/**
 * The server as a user gets it from the registry: `npm pack` of the workspace (its `prepack` builds it),
 * the tarball installed into an empty folder, then `npx wdm-reference-server`. The install takes its
 * packages from npm's cache when it has them, and better-sqlite3's binary from this checkout's install
 * (`reuseNativeBuilds`).
 */
jest.setTimeout(15 * 60_000);

const ROOT = path.resolve(__dirname, '../..');
let dir: string;
let app: string;
const env = cleanEnv(reuseNativeBuilds());

beforeAll(async () => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-install-'));
	app = path.join(dir, 'app');
	fs.mkdirSync(app);
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let tarball: string;

test('npm pack gives a publishable package: the bin, the build, no sources', async () => {
	const packed = await runCommand(`npm pack -w server --pack-destination ${JSON.stringify(dir)} --json`, ROOT, env);
	expect({ code: packed.code, stderr: packed.code ? packed.stderr : '' }).toEqual({ code: 0, stderr: '' });
	const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
	tarball = path.join(dir, info.filename);
	const files = info.files.map((f) => f.path);
	expect(files).toEqual(expect.arrayContaining(['package.json', 'bin/wdm-server.js', 'dist/main.js', 'dist/app.js']));
	expect(files.filter((f) => f.startsWith('src/') || f.endsWith('.ts') || f.endsWith('.map'))).toEqual(
		files.filter((f) => f.endsWith('.d.ts')),
	);
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'server', 'package.json'), 'utf8'));
	expect(manifest.private).toBeUndefined();
	expect(manifest.bin).toEqual({ 'wdm-server': 'bin/wdm-server.js', 'wdm-reference-server': 'bin/wdm-server.js' });
});

test('installed from the tarball into an empty folder, npx wdm-reference-server runs it', async () => {
	fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'try-wdm', version: '1.0.0', private: true }));
	const installed = await runCommand(`npm install ${JSON.stringify(tarball)} --prefer-offline --no-audit --no-fund`, app, env);
	expect({ code: installed.code, stderr: installed.code ? installed.stderr : '' }).toEqual({ code: 0, stderr: '' });

	const help = await runCommand('npx wdm-reference-server --help', app, env, 60_000);
	expect(help.code).toBe(0);
	expect(help.stdout).toContain('--config FILE');
	expect(help.stdout).toMatch(/--pair-delay-ms\n\s+.+\(default 1000; WDM_PAIR_DELAY_MS\)/);

	// Settings from a config file, keyed by the flags' names; relative paths are the working directory's.
	const key = 'install_test_admin_key_0123';
	fs.writeFileSync(path.join(app, 'wdm.json'), JSON.stringify({ port: 0, 'log-level': 'warn', data: './wdm-data', 'admin-key': key }));
	const server = await startServerCommand('npx wdm-reference-server --config wdm.json', app, env);
	try {
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
		const devices = await fetch(`${server.url}/wp-json/wdm/v1/devices`, { headers: { authorization: `Bearer ${key}` } });
		expect({ status: devices.status, body: await devices.json() }).toEqual({ status: 200, body: { success: true, data: [] } });
		const docs = await fetch(`${server.url}/openapi.json`);
		expect(((await docs.json()) as { info: { version: string } }).info.version).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'server', 'package.json'), 'utf8')).version);
		expect(fs.existsSync(path.join(app, 'wdm-data', 'wdm.sqlite'))).toBe(true);
	} finally {
		// npx and the server both get the SIGTERM (a process group); the server finishes and lets go of its port.
		await server.stop();
	}
	await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

	// A key that is no setting is refused, naming it and the file.
	fs.writeFileSync(path.join(app, 'bad.json'), JSON.stringify({ prot: 8081 }));
	const bad = await runCommand('npx wdm-reference-server --config bad.json', app, env, 60_000);
	expect(bad.code).toBe(1);
	// npm may print warnings of its own before it: the server's line is the last one.
	expect(bad.stderr.trim().split('\n').pop()).toBe(`wdm-server: --config bad.json: unknown setting "prot" (the keys are the flags' names, see --help)`);
	// A bad value names the key and the file.
	fs.writeFileSync(path.join(app, 'bad.json'), JSON.stringify({ port: 'eighty' }));
	const badValue = await runCommand('npx wdm-reference-server --config bad.json', app, env, 60_000);
	expect(badValue.code).toBe(1);
	expect(badValue.stderr).toContain('"port" in bad.json');
});
