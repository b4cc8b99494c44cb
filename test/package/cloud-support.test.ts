// n8n's own verdict on the package's eligibility for n8n Cloud verification: strict mode on, and
// n8n's ESLint config unchanged (`npm run lint` then checks the code under it; `npm run scan` too).
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

test('n8n-node cloud-support: enabled, eligible', () => {
	const output = execFileSync(path.join(ROOT, 'node_modules', '.bin', 'n8n-node'), ['cloud-support'], {
		cwd: ROOT,
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
		timeout: 60_000,
	});
	expect(output).toContain('Cloud support is ENABLED');
	expect(output).toMatch(/Strict mode: enabled/);
	expect(output).toMatch(/ESLint config: using default config/);
	expect(output).toMatch(/Status: eligible for n8n Cloud verification/);
});
