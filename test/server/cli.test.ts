import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Store } from '../../server/src/store';
import { configSchema, envName, kebab } from '../../server/src/config';
import { client, eventually, tempDataDir as newDataDir } from '../helpers/server';

/**
 * The command line (`server/src/main.ts`), run as a real process from a fresh build. The build goes to
 * a directory of its own so that it neither races with nor is disturbed by other builds of `server/dist`.
 */

// Real processes start and stop here: on a machine busy with the other suites (the e2e test's n8n above
// all) that takes longer than the default timeout.
jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
let build: string;
let MAIN: string;

beforeAll(async () => {
	build = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-cli-'));
	// Modules resolve from the build's location: give it the repository's node_modules.
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(build, 'node_modules'), 'dir');
	MAIN = path.join(build, 'dist', 'main.js');
	const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
	const result = await promisify(execFile)(process.execPath, [tsc, '-p', path.join(ROOT, 'server', 'tsconfig.json'), '--outDir', path.dirname(MAIN)], {
		cwd: ROOT,
	}).catch((error: { stdout: string }) => error);
	if (!fs.existsSync(MAIN)) throw new Error(`build failed:\n${result.stdout}`);
}, 120_000);

/** Every server started here (one a failed test left running is killed at the end) and every data directory. */
const children: ChildProcessWithoutNullStreams[] = [];
const dataDirs: string[] = [];
const tempDataDir = () => {
	dataDirs.push(newDataDir());
	return dataDirs[dataDirs.length - 1];
};

afterAll(async () => {
	const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
	await Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL'))));
	for (const dir of [build, ...dataDirs]) fs.rmSync(dir, { recursive: true, force: true });
});

/** The environment of a child: no WDM_* setting leaks in from the one running the tests. */
function env(extra: Record<string, string> = {}) {
	const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WDM_')));
	return { ...clean, ...extra };
}

interface Running {
	proc: ChildProcessWithoutNullStreams;
	url: string;
	output: () => string;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `wdm-server` and waits for its "listening" banner. */
async function start(args: string[], extraEnv: Record<string, string> = {}): Promise<Running> {
	const proc = spawn(process.execPath, [MAIN, '--port', '0', '--log-level', 'warn', ...args], { env: env(extraEnv), cwd: build });
	children.push(proc);
	let out = '';
	proc.stdout.on('data', (chunk) => (out += chunk));
	proc.stderr.on('data', (chunk) => (out += chunk));
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		proc.on('exit', (code, signal) => resolve({ code, signal })),
	);
	const url = await eventually(() => {
		if (proc.exitCode !== null) throw new Error(`exited early (${proc.exitCode}):\n${out}`);
		// The banner is one write; wait for its last fixed line.
		return out.includes('site URL:') ? /listening on (http:\/\/\S+)/.exec(out)?.[1] : undefined;
	}, 10_000);
	return { proc, url, output: () => out, exited };
}

/** Runs `wdm-server` to completion. */
async function run(args: string[], extraEnv: Record<string, string> = {}) {
	return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
		execFile(process.execPath, [MAIN, ...args], { env: env(extraEnv), cwd: build, timeout: 15_000 }, (error, stdout, stderr) =>
			resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
		);
	});
}

/** SIGTERM, then the exit; a server that has not exited after 30 s is killed and the test fails with its output. */
async function stop(server: Running) {
	if (server.proc.exitCode === null) server.proc.kill('SIGTERM');
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			server.proc.kill('SIGKILL');
			reject(new Error(`the server did not exit within 30 s of SIGTERM; its output:\n${server.output()}`));
		}, 30_000);
	});
	try {
		return await Promise.race([server.exited, late]);
	} finally {
		clearTimeout(timer);
	}
}

const KEY_LINE = /API key \(gateway, Bearer\): +(\S+)/;
const APP_PASSWORD_LINE = /application password \(site, Basic\): (\S+) \/ ([A-Za-z0-9 ]+)\n/;

/** Signs in to the site with an application password: what the site says about the current user's rights. */
const site = async (url: string, user: string, password: string) => {
	const res = await fetch(`${url}/wp-json/`, { headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } });
	await res.arrayBuffer(); // read to the end: an answer left unread holds its connection open
	return res;
};

const get = (url: string, key: string) => fetch(`${url}/wp-json/wdm/v1/devices`, { headers: { authorization: `Bearer ${key}` } });

describe('first start and restart', () => {
	const data = tempDataDir();
	let adminKey: string;

	test('the first start on an empty data directory prints the admin API key once, with the real port', async () => {
		const server = await start(['--data', data]);
		try {
			const lines = server.output().split('\n');
			expect(lines[0]).toMatch(/^WDM reference server listening on http:\/\/127\.0\.0\.1:\d+$/);
			const port = Number(new URL(server.url).port);
			expect(port).toBeGreaterThan(0);
			expect(server.output()).toContain(`gateway base URL: ${server.url}/wp-json/wdm/v1  (or ${server.url}/index.php?rest_route=/wdm/v1)`);
			// Where to go next, where the data is, and what the server may reach.
			expect(server.output()).toContain(`API docs:         ${server.url}/docs\n`);
			expect(server.output()).toContain(`dashboard:        ${server.url}/dashboard\n`);
			expect(server.output()).toContain(`metrics:          ${server.url}/metrics  (health: /healthz, /readyz)\n`);
			expect(server.output()).toContain(`data:             ${data}\n`);
			expect(server.output()).toContain('private targets:  allowed: the server listens on loopback only (127.0.0.1), so only this machine can call it\n');
			expect(server.output()).toContain('First start: created user "admin".');
			adminKey = KEY_LINE.exec(server.output())![1];
			expect(adminKey).toMatch(/^wdm_\S{20,}$/);
			const [, user, password] = APP_PASSWORD_LINE.exec(server.output())!;
			expect(user).toBe('admin');
			expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
			expect((await site(server.url, 'admin', password)).status).toBe(200);
			expect((await site(server.url, 'admin', 'wrong password 0000')).status).toBe(401);

			// The key works, and what is done with it is kept in the data directory.
			expect((await get(server.url, adminKey)).status).toBe(200);
			const created = await fetch(`${server.url}/wp-json/wdm/v1/devices`, {
				method: 'POST',
				headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'kept' }),
			});
			expect(created.status).toBe(201);
		} finally {
			expect(await stop(server)).toEqual({ code: 0, signal: null });
		}
		expect(fs.existsSync(path.join(data, 'wdm.sqlite'))).toBe(true);
	});

	test('the second start prints no key; the first key and the data are still there', async () => {
		const server = await start(['--data', data]);
		try {
			expect(server.output()).not.toContain('API key');
			expect(server.output()).not.toContain('First start');
			const res = await get(server.url, adminKey);
			expect(res.status).toBe(200);
			expect(((await res.json()) as { data: { name: string }[] }).data.map((d) => d.name)).toEqual(['kept']);
		} finally {
			expect(await stop(server)).toEqual({ code: 0, signal: null });
		}
	});

	test('settings come from the environment as well (WDM_DATA)', async () => {
		const server = await start([], { WDM_DATA: data });
		try {
			expect(server.output()).not.toContain('API key');
			expect((await get(server.url, adminKey)).status).toBe(200);
		} finally {
			await stop(server);
		}
	});
});

describe('token key', () => {
	test('a store copied without its key file does not start: the message says why and what to do', async () => {
		const data = tempDataDir();
		const key = 'tok_admin_key_0123456789';
		const server = await start(['--data', data], { WDM_ADMIN_KEY: key });
		const created = await fetch(`${server.url}/wp-json/wdm/v1/devices`, {
			method: 'POST',
			headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'phone' }),
		});
		expect(created.status).toBe(201);
		await stop(server);
		expect(fs.statSync(path.join(data, 'token.key')).mode & 0o777).toBe(0o600);

		const copy = tempDataDir();
		fs.copyFileSync(path.join(data, 'wdm.sqlite'), path.join(copy, 'wdm.sqlite'));
		const res = await run(['--data', copy, '--port', '0']);
		expect(res.code).toBe(1);
		expect(res.stderr).toMatch(new RegExp(`^wdm-server: ${path.join(copy, 'token.key')} is missing, and the instance tokens of this store's devices come from it\\. Restore it`));
	});
});

describe('WDM_ADMIN_KEY', () => {
	test('sets the key of the bootstrap admin, which the banner does not print', async () => {
		const key = 'my_fixed_admin_key_0123456789';
		const server = await start(['--data', tempDataDir()], { WDM_ADMIN_KEY: key });
		try {
			expect(server.output()).not.toContain(key);
			expect(server.output()).toContain('API key (gateway, Bearer):       as given by --admin-key, WDM_ADMIN_KEY or the config file; not shown\n');
			// The application password the server generated is printed.
			const [, , password] = APP_PASSWORD_LINE.exec(server.output())!;
			expect((await site(server.url, 'admin', password)).status).toBe(200);
			expect((await get(server.url, key)).status).toBe(200);
			expect((await get(server.url, 'wdm_other_key_0123456789')).status).toBe(401);
		} finally {
			await stop(server);
		}
	});

	test('an application password given (WDM_ADMIN_APP_PASSWORD) is not printed either', async () => {
		const password = 'given AAAA BBBB CCCC DDDD';
		const server = await start(['--data', tempDataDir()], { WDM_ADMIN_APP_PASSWORD: password });
		try {
			expect(server.output()).not.toContain(password);
			expect(server.output()).toContain(
				'application password (site, Basic): admin / as given by --admin-app-password, WDM_ADMIN_APP_PASSWORD or the config file; not shown\n',
			);
			expect((await site(server.url, 'admin', password)).status).toBe(200);
			// The API key the server generated is printed, and works.
			expect((await get(server.url, KEY_LINE.exec(server.output())![1])).status).toBe(200);
		} finally {
			await stop(server);
		}
	});

	test('the flag wins over the environment', async () => {
		const server = await start(['--data', tempDataDir(), '--admin-key', 'flag_admin_key_0123456789'], { WDM_ADMIN_KEY: 'env_admin_key_0123456789' });
		try {
			expect((await get(server.url, 'flag_admin_key_0123456789')).status).toBe(200);
			expect((await get(server.url, 'env_admin_key_0123456789')).status).toBe(401);
		} finally {
			await stop(server);
		}
	});

	test('has no effect on a store that already has users', async () => {
		const data = tempDataDir();
		const first = await start(['--data', data], { WDM_ADMIN_KEY: 'first_admin_key_0123456789' });
		await stop(first);
		const second = await start(['--data', data], { WDM_ADMIN_KEY: 'second_admin_key_0123456789' });
		try {
			expect(second.output()).not.toContain('API key');
			expect((await get(second.url, 'first_admin_key_0123456789')).status).toBe(200);
			expect((await get(second.url, 'second_admin_key_0123456789')).status).toBe(401);
		} finally {
			await stop(second);
		}
	});
});

describe('users create', () => {
	const data = tempDataDir();
	let server: Running;
	const adminKey = 'cli_admin_key_0123456789';
	const adminAppPassword = 'cli admin app password 0123';

	beforeAll(async () => {
		server = await start(['--data', data], { WDM_ADMIN_KEY: adminKey, WDM_ADMIN_APP_PASSWORD: adminAppPassword });
	});
	afterAll(() => stop(server));

	test('creates a user while a server runs on the same data directory; the key works on that server at once', async () => {
		const created = await run(['users', 'create', 'carol', '--data', data]);
		expect(created.code).toBe(0);
		expect(created.stderr).toBe('');
		expect(created.stdout).toMatch(/^Created user "carol" \(site role editor\)\. Its credentials are shown only now:\n/);
		const key = KEY_LINE.exec(created.stdout)![1];
		const [, user, password] = APP_PASSWORD_LINE.exec(created.stdout)!;
		expect(user).toBe('carol');
		expect((await site(server.url, 'carol', password)).status).toBe(200);
		// The spaces WordPress shows in an application password are optional.
		expect((await site(server.url, 'carol', password.replace(/ /g, ''))).status).toBe(200);

		const list = await get(server.url, key);
		expect(list.status).toBe(200);
		expect(await list.json()).toEqual({ success: true, data: [] });
		const device = await fetch(`${server.url}/wp-json/wdm/v1/devices`, {
			method: 'POST',
			headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'carols-phone' }),
		});
		expect(device.status).toBe(201);
		// The users are separate: the admin does not see carol's device.
		expect(((await (await get(server.url, adminKey)).json()) as { data: unknown[] }).data).toEqual([]);
	});

	test('several users can be created while the server is busy', async () => {
		const busy = Promise.all(Array.from({ length: 20 }, () => get(server.url, adminKey)));
		// Each reads (is the name taken?) then writes: with the server and each other writing meanwhile, a
		// transaction that took the write lock only at its first write could not get it ("database is locked").
		const names = ['dan', 'erin', 'frank', 'gus', 'hal', 'ida'];
		const made = await Promise.all(names.map((name) => run(['users', 'create', name, '--data', data])));
		expect(made.map((m) => m.stderr)).toEqual(names.map(() => ''));
		expect(made.map((m) => m.code)).toEqual(names.map(() => 0));
		expect((await busy).every((r) => r.status === 200)).toBe(true);
		for (const m of made) expect((await get(server.url, KEY_LINE.exec(m.stdout)![1])).status).toBe(200);
	});

	test('says which store it changed, and never makes one: a directory with no store is refused', async () => {
		const made = await run(['users', 'create', 'kip', '--data', data]);
		expect(made.stdout).toContain(`\n  (store: ${path.join(data, 'wdm.sqlite')})\n`);
		const empty = tempDataDir();
		const none = await run(['users', 'create', 'lou', '--data', empty]);
		expect(none).toEqual({
			code: 1,
			stdout: '',
			stderr: `wdm-server: no store in ${empty}: start the server first (it makes the store), or give its data directory with --data\n`,
		});
		expect(fs.readdirSync(empty)).toEqual([]);
		expect((await run(['users', 'password', 'admin', '--data', ':memory:'])).stderr).toBe(
			'wdm-server: users commands need the data directory of a server (--data), not :memory:\n',
		);
	});

	test('an existing name is refused with exit code 1', async () => {
		expect((await run(['users', 'create', 'gina', '--data', data])).code).toBe(0);
		const again = await run(['users', 'create', 'gina', '--data', data]);
		expect(again).toEqual({ code: 1, stdout: '', stderr: 'wdm-server: user "gina" already exists\n' });
		expect((await run(['users', 'create', 'admin', '--data', data])).stderr).toBe('wdm-server: user "admin" already exists\n');
	});

	test('--role sets the site role; an unknown role is refused with exit code 1', async () => {
		const made = await run(['users', 'create', 'hank', '--role', 'subscriber', '--data', data]);
		expect(made.stdout).toContain('Created user "hank" (site role subscriber)');
		const store = Store.open(data);
		try {
			expect(store.users.byName('hank')!.role).toBe('subscriber');
		} finally {
			store.close();
		}
		const bad = await run(['users', 'create', 'ivy', '--role', 'king', '--data', data]);
		expect(bad).toEqual({
			code: 1,
			stdout: '',
			stderr: 'wdm-server: users create --role: ROLE must be one of administrator, editor, author, contributor, subscriber\n',
		});
	});

	test('users password issues another application password; both work', async () => {
		const made = await run(['users', 'create', 'jill', '--data', data]);
		const first = APP_PASSWORD_LINE.exec(made.stdout)![2];
		const again = await run(['users', 'password', 'jill', '--data', data]);
		expect(again.code).toBe(0);
		expect(again.stdout).not.toContain('API key');
		const second = APP_PASSWORD_LINE.exec(again.stdout)![2];
		expect(second).not.toBe(first);
		for (const password of [first, second]) expect((await site(server.url, 'jill', password)).status).toBe(200);
		expect(await run(['users', 'password', 'nobody', '--data', data])).toEqual({
			code: 1,
			stdout: '',
			stderr: 'wdm-server: users password NAME: no user "nobody"\n',
		});
	});

	test('users key gives a user made on the site its first gateway API key; a new key replaces the old one', async () => {
		// A user created through the site's users route has no API key anyone knows.
		const made = await fetch(`${server.url}/wp-json/cms/v2/users`, {
			method: 'POST',
			headers: { authorization: `Basic ${Buffer.from(`admin:${adminAppPassword}`).toString('base64')}`, 'content-type': 'application/json' },
			body: JSON.stringify({ username: 'kim', email: 'kim@example.com', password: 'kim login' }),
		});
		expect(made.status).toBe(201);
		const issued = await run(['users', 'key', 'kim', '--data', data]);
		expect(issued.code).toBe(0);
		const key = KEY_LINE.exec(issued.stdout)![1];
		expect((await get(server.url, key)).status).toBe(200);
		const again = KEY_LINE.exec((await run(['users', 'key', 'kim', '--data', data])).stdout)![1];
		expect((await get(server.url, again)).status).toBe(200);
		expect((await get(server.url, key)).status).toBe(401);
		expect(await run(['users', 'key', 'nobody', '--data', data])).toEqual({ code: 1, stdout: '', stderr: 'wdm-server: users key NAME: no user "nobody"\n' });
	});

	test('a missing or invalid NAME is refused with exit code 1', async () => {
		const names = [[], ['bad name'], ['x'.repeat(65)], ['semi;colon']];
		const results = await Promise.all(names.map((name) => run(['users', 'create', ...name, '--data', data])));
		for (const res of results) {
			expect(res).toEqual({ code: 1, stdout: '', stderr: 'wdm-server: users create NAME: NAME must be 1 to 64 letters, digits, ".", "-" or "_"\n' });
		}
	});
});

describe('bad settings', () => {
	test('a bad flag value is a clear error naming the flag, exit code 1', async () => {
		const cases: [string[], string][] = [
			[['--port', 'abc'], '--port (WDM_PORT) must be a number (got string "abc")'],
			[['--port', '70000'], '--port (WDM_PORT) must be at most 65535'],
			[['--port=-1'], '--port (WDM_PORT) must be at least 0'],
			[['--pairing', 'maybe'], '--pairing (WDM_PAIRING) must be one of: "auto", "manual"'],
			[['--qr-ttl-ms', '10'], '--qr-ttl-ms (WDM_QR_TTL_MS) must be at least 1000'],
			[['--pair-delay-ms', '1.5'], '--pair-delay-ms (WDM_PAIR_DELAY_MS) must be an integer (got string "1.5")'],
			[['--admin-key', 'short'], '--admin-key (WDM_ADMIN_KEY) must be at least 16 characters long'],
			[['--public-url', 'not a url'], '--public-url (WDM_PUBLIC_URL) must be a valid url'],
			[['--log-level', 'loud'], '--log-level (WDM_LOG_LEVEL) must be one of: "fatal", "error", "warn", "info", "debug", "silent"'],
			[['--port', 'x', '--pairing', 'y'], '--port (WDM_PORT) must be a number (got string "x"); --pairing (WDM_PAIRING) must be one of: "auto", "manual"'],
		];
		// In parallel: each is a process start.
		const results = await Promise.all(cases.map(([args]) => run([...args, '--data', ':memory:'])));
		expect(results.map((r, i) => [cases[i][0], r])).toEqual(
			cases.map(([args, message]) => [args, { code: 1, stdout: '', stderr: `wdm-server: ${message}\n` }]),
		);
	});

	test('a switch (--allow-private-fetch) stands alone or takes true/false; webhooks to this machine follow it', async () => {
		const key = 'cli_switch_key_0123456789';
		const webhookTo = async (server: Running) => {
			const api = client(server.url);
			await api.post('/devices', { name: 'hooks' }, { key });
			return (await api.post('/devices/hooks/webhook', { url: 'http://127.0.0.1:9/hook', events: ['messages'] }, { key })).status;
		};
		for (const [args, status] of [[['--allow-private-fetch'], 200], [['--allow-private-fetch', '--data', ':memory:'], 200], [['--allow-private-fetch', 'false'], 400]] as const) {
			const server = await start(['--data', ':memory:', ...args], { WDM_ADMIN_KEY: key });
			expect([args, await webhookTo(server)]).toEqual([args, status]);
			await stop(server);
		}
		const bad = await run(['--allow-private-fetch', 'maybe', '--data', ':memory:']);
		expect(bad).toEqual({ code: 1, stdout: '', stderr: 'wdm-server: --allow-private-fetch (WDM_ALLOW_PRIVATE_FETCH) must be true or false\n' });
	});

	test('a bad value in the environment names the variable too', async () => {
		const res = await run(['--data', ':memory:'], { WDM_BODY_LIMIT: 'lots' });
		expect(res).toEqual({ code: 1, stdout: '', stderr: 'wdm-server: --body-limit (WDM_BODY_LIMIT) must be a number (got string "lots")\n' });
	});

	test('an unknown flag, a flag without its value and an unknown command are refused', async () => {
		const unknown = await run(['--prot', '8080']);
		expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'wdm-server: unknown option --prot (did you mean --port?); see --help for every option\n' });
		const far = await run(['--frobnicate']);
		expect(far.stderr).toBe('wdm-server: unknown option --frobnicate; see --help for every option\n');
		expect((await run(['--allow-privat-fetch'])).stderr).toBe('wdm-server: unknown option --allow-privat-fetch (did you mean --allow-private-fetch?); see --help for every option\n');
		const missing = await run(['--port']);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toBe("wdm-server: Option '--port <value>' argument missing (see --help)\n");
		const command = await run(['frobnicate', '--data', ':memory:']);
		expect(command.code).toBe(1);
		expect(command.stderr).toMatch(/^wdm-server: unknown command "frobnicate"\n\nwdm-server: reference server/);
		expect(command.stderr).toContain('Usage:');
	});

	test('a data directory that cannot be created is an error, exit code 1', async () => {
		const file = path.join(tempDataDir(), 'a-file');
		fs.writeFileSync(file, 'x');
		const res = await run(['--data', path.join(file, 'data'), '--port', '0']);
		expect(res.code).toBe(1);
		expect(res.stderr).toBe(`wdm-server: cannot use the data directory ${path.join(file, 'data')}: a file is in the way of the directory (choose another with --data)\n`);
	});

	test('a port in use is an error that says what to do, exit code 1; that start creates no admin, the next one prints it', async () => {
		const server = await start(['--data', ':memory:']);
		const data = tempDataDir();
		try {
			const port = new URL(server.url).port;
			const res = await run(['--data', data, '--port', port]);
			expect(res).toEqual({
				code: 1,
				stdout: '',
				stderr: `wdm-server: cannot listen on 127.0.0.1:${port}: the port is in use (another wdm-server? stop it, or choose another --port)\n`,
			});
		} finally {
			await stop(server);
		}
		const store = Store.open(data);
		expect(store.users.count()).toBe(0);
		store.close();
		const next = await start(['--data', data]);
		try {
			expect(next.output()).toContain('First start: created user "admin".');
			expect((await get(next.url, KEY_LINE.exec(next.output())![1])).status).toBe(200);
		} finally {
			await stop(next);
		}
	});

	test('--version prints the server package\'s version', async () => {
		const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'server', 'package.json'), 'utf8')) as { version: string }).version;
		expect(await run(['--version'])).toEqual({ code: 0, stdout: `wdm-server ${version}\n`, stderr: '' });
		expect((await run(['-v'])).stdout).toBe(`wdm-server ${version}\n`);
	});

	test('a data directory or store this user may not write is an error naming the path and the cause', async () => {
		// As root every file is writable: the commands then run as `nobody`.
		const asRoot = process.getuid?.() === 0;
		const runAs = (args: string[]) =>
			new Promise<{ code: number | null; stderr: string }>((resolve) => {
				execFile(process.execPath, [MAIN, ...args], { env: env(), cwd: os.tmpdir(), timeout: 15_000, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) }, (error, _stdout, stderr) =>
					resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
				);
			});
		if (asRoot) fs.chmodSync(build, 0o755);
		const parent = tempDataDir();
		// A store another user made, that this one may read but not write (opening it makes it 0700/0600: opened up by hand).
		const store = Store.open(parent);
		store.close();
		fs.chmodSync(parent, 0o755);
		fs.chmodSync(path.join(parent, 'wdm.sqlite'), 0o644);
		if (!asRoot) fs.chmodSync(parent, 0o555);
		const user = asRoot ? 'nobody' : os.userInfo().username;

		const inside = await runAs(['--data', path.join(parent, 'sub'), '--port', '0']);
		expect(inside.code).toBe(1);
		expect(inside.stderr).toMatch(new RegExp(`^wdm-server: cannot use the data directory ${path.join(parent, 'sub')}: permission denied for user ${user} \\(EACCES`));
		const store2 = await runAs(['users', 'create', 'x', '--data', parent]);
		expect(store2.code).toBe(1);
		expect(store2.stderr).toMatch(new RegExp(`^wdm-server: cannot use the data directory ${parent}: permission denied for user ${user} \\(EACCES`));
		fs.chmodSync(parent, 0o700);
	});

	test('--help prints every setting with its meaning, default and environment variable, and exits 0', async () => {
		const res = await run(['--help']);
		expect(res.code).toBe(0);
		expect(res.stdout).toContain('wdm-server users create NAME');
		const defaults = configSchema.parse({}) as Record<string, unknown>;
		for (const [key, schema] of Object.entries(configSchema.shape)) {
			expect(schema.description).toBeTruthy();
			const fallback = defaults[key] === undefined ? '' : `default ${String(defaults[key])}; `;
			expect(res.stdout).toContain(`  --${kebab(key)}\n      ${schema.description} (${fallback}${envName(key)})\n`);
		}
		expect(res.stdout).toContain('(default 8080; WDM_PORT)');
		expect(res.stdout).toMatch(/--admin-key\n.*at least 16 characters\) \(WDM_ADMIN_KEY\)/);
	});
});

describe('signals', () => {
	test('SIGTERM shuts down cleanly with exit code 0 and frees the port', async () => {
		const server = await start(['--data', tempDataDir()]);
		const port = new URL(server.url).port;
		const index = await fetch(`${server.url}/wp-json/`);
		expect(index.status).toBe(200);
		await index.arrayBuffer();
		server.proc.kill('SIGTERM');
		expect(await server.exited).toEqual({ code: 0, signal: null });
		await expect(fetch(`http://127.0.0.1:${port}/wp-json/`)).rejects.toThrow();
	});

	test('a client that never finishes its request holds the shutdown for the grace period only', async () => {
		const server = await start(['--data', ':memory:', '--shutdown-grace-ms', '300']);
		const url = new URL(server.url);
		const socket = net.connect(Number(url.port), url.hostname);
		socket.on('error', () => {});
		await new Promise((resolve) => socket.once('connect', resolve));
		// Headers and the start of a body that never comes: the request stays in flight.
		socket.write('POST /wp-json/wdm/v1/devices HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na');
		await new Promise((r) => setTimeout(r, 100));
		const signalled = Date.now();
		server.proc.kill('SIGTERM');
		expect(await server.exited).toEqual({ code: 0, signal: null });
		expect(Date.now() - signalled).toBeGreaterThanOrEqual(300);
		socket.destroy();
	});

	test('SIGINT too', async () => {
		const server = await start(['--data', ':memory:']);
		server.proc.kill('SIGINT');
		expect(await server.exited).toEqual({ code: 0, signal: null });
	});

	test('a request in flight is answered before the process exits', async () => {
		const key = 'sig_admin_key_0123456789';
		const server = await start(['--data', tempDataDir(), '--pair-delay-ms', '0'], { WDM_ADMIN_KEY: key });
		const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
		const base = `${server.url}/wp-json/wdm/v1`;
		const device = (await (await fetch(`${base}/devices`, { method: 'POST', headers, body: '{"name":"busy"}' })).json()) as { data: { token: string } };
		await fetch(`${base}/devices/busy/qr`, { headers });
		await eventually(async () => ((await (await fetch(`${base}/devices/busy/status`, { headers })).json()) as { data: { status: string } }).data.status === 'connected');

		// A send with a delay holds its request open; the signal comes while it waits.
		const sending = fetch(`${base}/send/text`, {
			method: 'POST',
			headers: { token: device.data.token, 'content-type': 'application/json' },
			body: JSON.stringify({ number: '5511999990001', text: 'in flight', delay: 600 }),
		});
		await new Promise((r) => setTimeout(r, 150));
		server.proc.kill('SIGTERM');
		const res = await sending;
		expect(res.status).toBe(200);
		expect(((await res.json()) as { data: { text: string; status: string } }).data).toMatchObject({ text: 'in flight', status: 'sent' });
		expect(await server.exited).toEqual({ code: 0, signal: null });
	});
});
