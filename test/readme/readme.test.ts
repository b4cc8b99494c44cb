import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv } from '../helpers/processes';
import { reuseNativeBuilds } from '../helpers/native-builds';

/**
 * The README is this test's script: its ```bash blocks, in order, run as one bash script in a copy of
 * the working tree, as a newcomer would run them on a fresh clone. The convention is stated in the
 * README's Development section. npm install takes better-sqlite3's binary from this checkout's install
 * (`reuseNativeBuilds`: .ci/run's own `npm ci` is the compile a fresh clone does) and the start builds the
 * server: minutes on a busy machine.
 */
jest.setTimeout(25 * 60_000);

const ROOT = path.resolve(__dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The fenced blocks of a Markdown text: their language tag and body. */
export function fencedBlocks(markdown: string): { lang: string; body: string }[] {
	return [...markdown.matchAll(/^```([\w-]*)[^\n]*\n([\s\S]*?)^```\s*$/gm)].map(([, lang, body]) => ({ lang, body }));
}

/** The files of a fresh clone with the uncommitted changes: tracked (unless deleted) and untracked, not ignored. */
function workingTreeFiles(): string[] {
	const list = (...args: string[]) => execFileSync('git', ['ls-files', '-z', ...args], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
	const deleted = new Set(list('--deleted'));
	return [...new Set([...list('--cached'), ...list('--others', '--exclude-standard')])].filter((f) => !deleted.has(f));
}

async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** Runs a bash script in its own process group; once bash exits, what it left running (the server) is stopped. */
function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
	return new Promise<{ code: number | null; output: string }>((resolve) => {
		const child = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		// A command that never ends (a wait loop on a server that did not start) is cut, keeping the output.
		const cut = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		// The output is complete when the last process holding the pipes has gone: before bash exits when
		// the script stopped the server itself, after the group is stopped below when it left it running.
		const closed = new Promise<void>((done) => child.stdout.on('close', done));
		child.on('exit', (code) => {
			clearTimeout(cut);
			const group = (signal: NodeJS.Signals) => {
				try {
					process.kill(-child.pid!, signal);
				} catch {
					/* nothing left */
				}
			};
			group('SIGTERM');
			const kill = setTimeout(() => group('SIGKILL'), 20_000);
			void closed.then(() => {
				clearTimeout(kill);
				resolve({ code, output });
			});
		});
	});
}

test('the README has bash blocks to run, and the convention is stated', () => {
	const blocks = fencedBlocks(README);
	expect(blocks.filter((b) => b.lang === 'bash').length).toBeGreaterThanOrEqual(3);
	expect(README).toContain('`test/readme/readme.test.ts`');
	// Every fence says what it is: an unmarked block would be neither run nor clearly not.
	expect(blocks.filter((b) => !['bash', 'sh', 'text', 'json', 'ts', 'js'].includes(b.lang))).toEqual([]);
});

describe('on a fresh copy of the working tree', () => {
	let dir: string;
	let port: number;
	let result: { code: number | null; output: string };

	beforeAll(async () => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-readme-'));
		for (const file of workingTreeFiles()) {
			fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
			fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
		}
		port = await freePort();
		const commands = fencedBlocks(README)
			.filter((b) => b.lang === 'bash')
			.map((b) => b.body.replace(/\b8080\b/g, String(port)))
			.join('\n');
		result = await runScript(`set -euo pipefail\n${commands}`, dir, cleanEnv({ WDM_PORT: String(port), npm_config_prefer_offline: 'true', ...reuseNativeBuilds() }), 20 * 60_000);
	}, 25 * 60_000);
	afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

	test('every command runs as written', () => {
		expect({ code: result.code, tail: result.code === 0 ? '' : result.output.slice(-6000) }).toEqual({ code: 0, tail: '' });
	});

	test('the gateway answered every request with success', () => {
		// curl prints an answer without a newline: the next output may follow on the same line.
		const answers = result.output
			.replace(/\}\{/g, '}\n{')
			.split('\n')
			.flatMap((line) => {
				try {
					return [JSON.parse(line)];
				} catch {
					return [];
				}
			})
			.filter((json) => json && typeof json === 'object' && 'success' in json);
		expect(answers.length).toBeGreaterThanOrEqual(3);
		expect(answers.filter((a) => a.success !== true)).toEqual([]);
		// The device created in the README was paired, and the message went out.
		expect(answers).toContainEqual(expect.objectContaining({ data: expect.objectContaining({ status: 'sent', text: 'hello' }) }));
	});

	test('npm start kept its data in ./data, where the users commands found it', () => {
		expect(result.output).toContain(`WDM reference server listening on http://127.0.0.1:${port}`);
		expect(result.output).toContain('First start: created user "admin"');
		expect(result.output).toContain('Created user "bob" (site role author)');
		expect(fs.existsSync(path.join(dir, 'data', 'wdm.sqlite'))).toBe(true);
		expect(fs.existsSync(path.join(dir, 'server', 'data'))).toBe(false);
		// `users` run from server/ found the root's store, and said so.
		expect(result.output).toContain(`(store: ${path.join(dir, 'data', 'wdm.sqlite')})`);
	});

	test('the banner says where the docs, the dashboard and the data are, and that local webhooks are allowed', () => {
		for (const line of [`API docs:         http://127.0.0.1:${port}/docs`, `dashboard:        http://127.0.0.1:${port}/dashboard`, `data:             ${path.join(dir, 'data')}`]) {
			expect(result.output).toContain(line);
		}
		expect(result.output).toContain('private targets:  allowed: the server listens on loopback only (127.0.0.1)');
	});

	test('kill %1 stops the server that npm start runs', () => {
		expect(result.output).toContain('the server has stopped');
	});
});
