import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * npm's settings for a suite that installs the server's packages again (the README's `npm install` in a
 * fresh copy, the packed server into an empty folder): better-sqlite3 takes the binary this checkout's
 * own install compiled, as a local prebuild (prebuild-install's `npm_config_<package>_local_prebuilds`),
 * instead of compiling it once more (80 s of CPU each). The compile itself is what `.ci/run`'s `npm ci`
 * on a clean checkout does, as a newcomer's first `npm install`; these suites test what follows it.
 */
export function reuseNativeBuilds(): Record<string, string> {
	const pkg = path.join(ROOT, 'node_modules', 'better-sqlite3');
	const binary = path.join(pkg, 'build', 'Release', 'better_sqlite3.node');
	if (!fs.existsSync(binary)) return {};
	const { version } = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string };
	// prebuild-install's name for it: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz
	const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}`;
	const dir = path.join(os.tmpdir(), `wdm-prebuilds-${name}`);
	fs.mkdirSync(dir, { recursive: true });
	// Written whole each time (the checkout's binary may have been rebuilt), then renamed: never half a file.
	execFileSync('tar', ['-czf', path.join(dir, `${name}.tar.gz.part`), '-C', pkg, 'build/Release/better_sqlite3.node']);
	fs.renameSync(path.join(dir, `${name}.tar.gz.part`), path.join(dir, `${name}.tar.gz`));
	return { npm_config_better_sqlite3_local_prebuilds: dir };
}
