// `npm run scan`: what n8n's verification (`npx @n8n/scan-community-package n8n-nodes-wdm`) checks,
// run on this checkout before anything is published. The published-package path of the scanner
// downloads the tarball and the provenance-attested source from npm and GitHub; here the same
// analysis functions get the local ones instead:
//   1. the source, with the file patterns the scanner uses for a source checkout;
//   2. the tarball `npm pack` makes (prepack builds it), unpacked: its compiled .js and package.json.
// Any finding fails the run (exit 1), as it fails n8n's verification.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-scan-'));
// The scanner makes a temporary folder when it loads (for downloads it does not do here): inside ours.
process.env.TMPDIR = work;
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import('@n8n/scan-community-package/scanner/scanner.mjs');

try {
	// `npm pack --json` prints the packed file's name last; prepack's build output comes before it.
	const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
	const [{ filename }] = JSON.parse(packed.slice(packed.lastIndexOf('\n[') + 1));
	const unpacked = path.join(work, 'package');
	execFileSync('tar', ['-xzf', path.join(work, filename), '-C', work]);

	const legs = [
		{ name: 'source', result: await analyzePackage(root, SOURCE_FILE_PATTERNS) },
		{ name: `tarball ${filename}`, result: await analyzePackage(unpacked, ['**/*.js', 'package.json']) },
	];
	for (const { name, result } of legs) {
		console.log(`${result.passed ? 'passed' : 'FAILED'}: ${name}${result.message ? ` (${result.message})` : ''}`);
		if (result.details) console.log(result.details);
	}
	process.exitCode = legs.every((leg) => leg.result.passed) ? 0 : 1;
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
