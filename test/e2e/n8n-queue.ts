// n8n in queue mode for the e2e: a main (`n8n start`), workers (`n8n worker`) and a webhook processor
// (`n8n webhook`), on one Redis and one PostgreSQL (queue-services.ts), each process with its own user
// folder holding the package, as docs/usage.md "Run in queue mode" says. The settings are the guide's.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { N8N_BIN, NODE24, failure, freePort, n8nEnv, run } from './n8n';

type Role = 'start' | 'worker' | 'webhook';

const READY: Record<Role, RegExp> = {
	start: /Editor is now accessible via/,
	worker: /n8n worker is now ready/,
	webhook: /Webhook listener waiting for requests/,
};

export interface N8nProcess {
	role: Role;
	name: string;
	url: string;
	child?: ChildProcess;
	log: string;
	/** Executions a worker has started and not finished (from its log). */
	running: Set<string>;
}

/**
 * `folders`: a user folder per process (the package installed in each), by name. `services`: the DB and
 * Redis settings. The webhook processor's URL is WEBHOOK_URL on every process (the workers build the
 * resume URLs of waiting executions, main registers the triggers' webhooks).
 */
export async function n8nQueue(root: string, services: Record<string, string>) {
	const extensions = path.join(root, 'no-custom-nodes');
	fs.mkdirSync(extensions, { recursive: true });
	const webhookPort = await freePort();
	const webhookUrl = `http://127.0.0.1:${webhookPort}`;
	const processes = new Map<string, N8nProcess>();

	async function env(folder: string, port: number) {
		return {
			...(await n8nEnv(folder, extensions)), // its own task-broker port
			...services,
			EXECUTIONS_MODE: 'queue',
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			WEBHOOK_URL: `${webhookUrl}/`,
			// n8n's default pool of 2 answers "503 Database is not ready!" under a burst.
			DB_POSTGRESDB_POOL_SIZE: '10',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false',
			N8N_LOG_LEVEL: 'info',
		};
	}

	const folderOf = (name: string) => path.join(root, name);

	return {
		webhookUrl,
		folderOf,
		processes,
		/** An n8n CLI command on the shared database (import, publish), run as main's user folder. */
		async cli(args: string[]) {
			const exit = await run(NODE24, [N8N_BIN, ...args], { env: await env(folderOf('main'), await freePort()), timeoutMs: 4 * 60_000 });
			if (exit.code !== 0) throw failure(`n8n ${args.join(' ')}`, exit);
		},
		async start(name: string, role: Role, timeoutMs = 4 * 60_000) {
			const port = role === 'webhook' ? webhookPort : await freePort();
			const proc: N8nProcess = { role, name, url: `http://127.0.0.1:${port}`, log: '', running: new Set() };
			let partial = '';
			processes.set(name, proc);
			const args = role === 'worker' ? ['worker', '--concurrency=10'] : [role];
			// Its own process group: a kill reaches its task runner too.
			const child = spawn(NODE24, [N8N_BIN, ...args], { env: await env(folderOf(name), port), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
			proc.child = child;
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`n8n ${role} (${name}) did not start in ${timeoutMs / 1000} s:\n${proc.log.slice(-4000)}`)), timeoutMs);
				const onData = (chunk: Buffer) => {
					proc.log = (proc.log + chunk.toString()).slice(-200_000);
					const lines = (partial + chunk.toString()).split('\n');
					partial = lines.pop()!;
					for (const line of lines) {
						const [, what, id] = /Worker (started|finished) execution (\d+)/.exec(line) ?? [];
						if (what === 'started') proc.running.add(id);
						else if (what === 'finished') proc.running.delete(id);
					}
					if (READY[role].test(proc.log)) {
						clearTimeout(timer);
						resolve();
					}
				};
				child.stdout!.on('data', onData);
				child.stderr!.on('data', onData);
				child.once('exit', (code) => {
					clearTimeout(timer);
					reject(new Error(`n8n ${role} (${name}) exited (code ${code}):\n${proc.log.slice(-4000)}`));
				});
			});
			child.removeAllListeners('exit');
			child.once('exit', () => proc.running.clear());
		},
		/** kill -9 of the process and its task runner (a worker's machine lost). */
		kill(name: string) {
			const child = processes.get(name)?.child;
			if (child?.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
		},
		async stopAll() {
			await Promise.all(
				[...processes.values()].map(async ({ child }) => {
					if (!child || child.exitCode !== null || child.signalCode) return;
					const exited = new Promise((resolve) => child.once('exit', resolve));
					process.kill(-child.pid!, 'SIGTERM');
					const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
					await exited;
					clearTimeout(kill);
				}),
			);
		},
	};
}
