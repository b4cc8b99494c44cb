// The built reference server (`server/dist`) in a process of its own on a temporary store, as deployed:
// what the n8n benchmarks run against.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../test/e2e/n8n';

export const ADMIN_KEY = 'bench_admin_key_0123456789';
export const APP_PASSWORD = 'bnch AAAA BBBB CCCC DDDD EEEE';

export async function startServer(dataDir: string) {
	const port = await freePort();
	const main = path.join(__dirname, '..', 'server', 'dist', 'main.js');
	const child = spawn(process.execPath, [main, '--port', String(port), '--data', dataDir, '--pairing', 'manual', '--log-level', 'warn'], {
		env: { ...process.env, WDM_ADMIN_KEY: ADMIN_KEY, WDM_ADMIN_APP_PASSWORD: APP_PASSWORD },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
		child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
	});
	return { url: `http://127.0.0.1:${port}`, child };
}
