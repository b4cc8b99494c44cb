// Real processes for the install and README tests: a server started as a user would start it (a shell
// command, npx), stopped with its whole process group (npx and npm run start children of their own).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './server';

export interface Started {
	/** The base URL of the server's "listening on" banner. */
	url: string;
	output: () => string;
	/** SIGTERM to the process group; resolves with the exit of the command (killed after `graceMs`). */
	stop: (graceMs?: number) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment of a child: no WDM_* setting leaks in from the one running the tests. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WDM_')));
	return { ...clean, ...extra };
}

/** Runs a shell command (bash) in its own process group, and waits for the server banner it prints. */
export async function startServerCommand(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<Started> {
	const child: ChildProcess = spawn('bash', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	child.stdout!.on('data', (chunk) => (out += chunk));
	child.stderr!.on('data', (chunk) => (out += chunk));
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
	const stop = async (graceMs = 30_000) => {
		if (child.exitCode === null && child.signalCode === null) {
			try {
				process.kill(-child.pid!, 'SIGTERM');
			} catch {
				/* already gone */
			}
		}
		const timer = setTimeout(() => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				/* already gone */
			}
		}, graceMs);
		try {
			return await exited;
		} finally {
			clearTimeout(timer);
		}
	};
	try {
		const url = await eventually(
			() => {
				if (child.exitCode !== null) throw new Error(`\`${command}\` exited early (${child.exitCode}):\n${out}`);
				// The banner is one write; wait for its last fixed line.
				return out.includes('site URL:') ? /listening on (http:\/\/\S+)/.exec(out)?.[1] : undefined;
			},
			timeoutMs,
			100,
		);
		return { url, output: () => out, stop };
	} catch (error) {
		await stop(1000);
		throw error;
	}
}

/** Runs a shell command (bash -e) to completion: its exit code and output. */
export function runCommand(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 600_000) {
	return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
		execFile('bash', ['-ec', command], { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
			resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
		);
	});
}
