// Redis and PostgreSQL for the queue-mode e2e: Debian's packages (redis-server, postgresql), started by
// the suite on loopback in temporary folders, on free ports, and stopped by it. No system service is used.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, run } from './n8n';
import { missingService } from '../helpers/services';

/** Debian's PostgreSQL binaries (the newest major installed). */
function postgresBin(): string {
	const root = '/usr/lib/postgresql';
	const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
	if (!majors.length) throw missingService('PostgreSQL', 'postgresql');
	return path.join(root, majors[0], 'bin');
}

/** Runs as the `postgres` user when this is root (PostgreSQL refuses to run as root). */
const asPostgres = (command: string, args: string[]): [string, string[]] =>
	process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];

export async function startPostgres() {
	const bin = postgresBin();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-pg-'));
	const data = path.join(dir, 'data');
	if (process.getuid?.() === 0) fs.chownSync(dir, Number((await run('id', ['-u', 'postgres'], { timeoutMs: 10_000 })).stdout.trim()), Number((await run('id', ['-g', 'postgres'], { timeoutMs: 10_000 })).stdout.trim()));
	fs.chmodSync(dir, 0o700);
	const init = await run(...asPostgres(path.join(bin, 'initdb'), ['-D', data, '-U', 'n8n', '--auth=trust', '-E', 'UTF8']), { timeoutMs: 120_000, cwd: dir });
	if (init.code !== 0) throw new Error(`initdb failed: ${init.stderr}`);
	const port = await freePort();
	// Enough connections for n8n's pools: main, workers and webhook processor, 10 each.
	const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c max_connections=200 -c fsync=off`;
	const started = await run(...asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']), { timeoutMs: 120_000, cwd: dir });
	if (started.code !== 0) throw new Error(`pg_ctl start failed: ${started.stderr}\n${fs.readFileSync(path.join(dir, 'log'), 'utf8')}`);
	const created = await run(...asPostgres(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n']), { timeoutMs: 60_000, cwd: dir });
	if (created.code !== 0) throw new Error(`createdb failed: ${created.stderr}`);
	return {
		port,
		env: { DB_TYPE: 'postgresdb', DB_POSTGRESDB_HOST: '127.0.0.1', DB_POSTGRESDB_PORT: String(port), DB_POSTGRESDB_DATABASE: 'n8n', DB_POSTGRESDB_USER: 'n8n', DB_POSTGRESDB_PASSWORD: '' },
		/** Runs SQL as n8n's user, returns its rows as tab-separated lines. */
		async query(sql: string): Promise<string[]> {
			const exit = await run(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', '-d', 'n8n', '-At', '-F', '\t', '-c', sql], { timeoutMs: 60_000 });
			if (exit.code !== 0) throw new Error(`psql failed: ${exit.stderr}`);
			return exit.stdout.split('\n').filter(Boolean);
		},
		async stop() {
			await run(...asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']), { timeoutMs: 60_000, cwd: dir });
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
