// n8n as a server, for the e2e of what only a running n8n does: active workflows (webhook triggers),
// waiting executions resumed by a webhook or a timer, and surviving a restart. The instance is the one
// of `n8nCli` (same user folder, so the same SQLite database, credentials and workflows): import and
// publish with its CLI while the server is stopped, then `start()`; `stop()` and `start()` again is a
// restart on the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { N8N_BIN, N8N_VERSION, NODE24, buildPackage, failure, freePort, n8nCli, n8nEnv } from './n8n';

/** An execution as n8n's database holds it. */
export interface Execution {
	id: string;
	workflowId: string;
	status: string;
	finished: boolean;
	waitTill: string | null;
}

/** The owner account `setupOwner()` makes (n8n asks for a name and a password of 8+ characters with a digit and a capital). */
export const OWNER = { email: 'owner@example.com', firstName: 'Ada', lastName: 'Owner', password: 'Owner-Passw0rd' };

/** Printed once n8n has started its server and activated the published workflows. */
const READY = /Editor is now accessible via/;

/**
 * An n8n in `dir` with the package as users install it: where n8n's community-package installer puts it
 * (`user/.n8n/nodes`, node types `n8n-nodes-wdm.*`), and no custom-nodes folder. `checkout`: another
 * checkout's package (a worktree of an older revision).
 */
export async function n8nWithPackage(dir: string, options: { checkout?: string; nodeOptions?: string; env?: Record<string, string> } = {}) {
	const userFolder = path.join(dir, 'user');
	await buildPackage(path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-wdm'), options.checkout);
	const noCustomNodes = path.join(dir, 'no-custom-nodes');
	fs.mkdirSync(noCustomNodes);
	return n8nServer(userFolder, noCustomNodes, options);
}

/**
 * `nodeOptions`: Node flags of n8n's process, e.g. `--cpu-prof --cpu-prof-dir=DIR` (written as n8n stops);
 * `env`: n8n settings of its own, e.g. `{ N8N_EXPRESSION_ENGINE_POOL_SIZE: '2' }`.
 */
export async function n8nServer(dir: string, extensions: string, options: { nodeOptions?: string; env?: Record<string, string> } = {}) {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const cli = await n8nCli(dir, extensions);
	let child: ChildProcess | undefined;
	let log = '';

	const server = {
		url,
		/** Where a Webhook trigger node with `path` listens once its workflow is active. */
		webhookUrl: (webhookPath: string) => `${url}/webhook/${webhookPath}`,
		importCredentials: cli.importCredentials,
		importWorkflow: cli.importWorkflow,
		importWorkflowFile: cli.importWorkflowFile,
		/**
		 * Makes the workflow's current version the active one (n8n 2.x); it runs from the next start. An n8n
		 * 1.x (the compatibility run) has no publishing: its CLI activates the workflow instead.
		 */
		async publish(workflowId: string) {
			const args = N8N_VERSION.startsWith('1.') ? ['update:workflow', `--id=${workflowId}`, '--active=true'] : ['publish:workflow', `--id=${workflowId}`];
			const exit = await cli.cli(args);
			if (exit.code !== 0) throw failure(`n8n ${args[0]}`, exit);
		},

		/** Starts `n8n start` and resolves once it serves and its published workflows are active. */
		async start(timeoutMs = 3 * 60_000) {
			if (child) throw new Error('n8n is running already');
			const env = await n8nEnv(dir, extensions, options);
			Object.assign(env, {
				N8N_PORT: String(port),
				N8N_LISTEN_ADDRESS: '127.0.0.1',
				N8N_WEBHOOK_URL: `${url}/`, // the base of resume URLs ($execution.resumeUrl) and webhook URLs
				WEBHOOK_URL: `${url}/`, // the same, by its n8n 1.x name
				N8N_LOG_LEVEL: process.env.WDM_N8N_LOG_LEVEL ?? 'info', // debug: every webhook call in n8n.log()
				// Activate the published workflows before the ready line, not later from the publication outbox.
				N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false',
				...options.env,
			});
			log = '';
			// Its own process group, so stop() ends n8n and its task runner together.
			const started = spawn(NODE24, [N8N_BIN, 'start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
			child = started;
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`n8n did not start in ${timeoutMs / 1000} s:\n${log.slice(-4000)}`)), timeoutMs);
				const onData = (chunk: Buffer) => {
					log += chunk.toString();
					if (READY.test(log)) {
						clearTimeout(timer);
						resolve();
					}
				};
				started.stdout!.on('data', onData);
				started.stderr!.on('data', onData);
				started.once('exit', (code) => {
					clearTimeout(timer);
					reject(new Error(`n8n exited (code ${code}) before it was ready:\n${log.slice(-4000)}`));
				});
			});
		},

		/**
		 * Stops n8n as a shutdown would (SIGTERM: waiting executions stay in the database; SIGKILL after 45 s),
		 * or with `SIGKILL` at once (kill -9: the machine lost), then waits for it and its task runner to exit.
		 */
		async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') {
			const running = child;
			if (!running) return;
			child = undefined;
			const exited = new Promise((resolve) => running.once('exit', resolve));
			if (running.exitCode === null) {
				process.kill(-running.pid!, signal);
				const kill = setTimeout(() => process.kill(-running.pid!, 'SIGKILL'), 45_000);
				await exited;
				clearTimeout(kill);
			}
		},

		/**
		 * Sets up the owner account of a new instance through n8n's REST API, as its setup page does; returns
		 * a caller of that API signed in as the owner: `rest('POST', '/rest/credentials', {...})` gives the
		 * answer's `data`, and throws on an error status.
		 */
		async setupOwner() {
			const setup = await fetch(`${url}/rest/owner/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OWNER) });
			if (!setup.ok) throw new Error(`n8n owner setup: ${setup.status} ${await setup.text()}`);
			const cookie = /n8n-auth=[^;]+/.exec(setup.headers.get('set-cookie') ?? '')?.[0] ?? '';
			return async (method: string, route: string, body?: unknown) => {
				const res = await fetch(`${url}${route}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
				const text = await res.text();
				if (!res.ok) throw new Error(`n8n ${method} ${route}: ${res.status} ${text}`);
				return JSON.parse(text).data;
			};
		},

		/** What n8n printed since the last start (for failure messages). */
		log: () => log,

		/** The process id of the running n8n (its main process). */
		pid: () => child?.pid,

		/** The workflow's executions, oldest first, read from n8n's database. */
		executions(workflowId: string): Execution[] {
			const file = path.join(dir, '.n8n', 'database.sqlite');
			if (!fs.existsSync(file)) return [];
			const db = new Database(file, { readonly: true, fileMustExist: true });
			try {
				const rows = db
					.prepare('SELECT id, workflowId, status, finished, waitTill FROM execution_entity WHERE workflowId = ? ORDER BY id')
					.all(workflowId) as Array<Omit<Execution, 'id' | 'finished'> & { id: number | string; finished: number }>;
				return rows.map((row) => ({ ...row, id: String(row.id), finished: Boolean(row.finished) }));
			} finally {
				db.close();
			}
		},
	};
	return server;
}

export type N8nServer = Awaited<ReturnType<typeof n8nServer>>;
