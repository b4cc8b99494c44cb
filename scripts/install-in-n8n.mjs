// `npm run install:n8n`: installs this checkout into an n8n the way n8n's community-package installer
// does (n8n 2.x, CommunityPackagesService): `npm pack` (prepack builds the package), the tarball
// unpacked into `<n8n user folder>/.n8n/nodes/node_modules/n8n-nodes-wdm`, its dev, peer and optional
// dependencies dropped, then `npm install` in it without scripts. The peer, n8n-workflow, is n8n's own:
// installing it (what a plain `npm install <tarball>` in ~/.n8n/nodes does) would add a second copy of
// n8n-workflow, and on Node 20 fail to compile its isolated-vm. Restart n8n afterwards to load the nodes.
//
//   npm run install:n8n                                  into ~/.n8n (or $N8N_USER_FOLDER/.n8n)
//   npm run install:n8n -- --user-folder /srv/n8n        into /srv/n8n/.n8n
//   node scripts/install-in-n8n.mjs --tarball t.tgz --dest DIR    a packed tarball, into any folder (the e2e)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `npm pack` of this checkout into `dir`; the tarball's path. */
function pack(dir) {
	// `--json` prints the result last, after the build's output.
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
	const [{ filename }] = JSON.parse(out.slice(out.lastIndexOf('\n[') + 1));
	return path.join(dir, filename);
}

/** Unpacks `tarball` into `dest` (replacing what was there) and installs it as n8n's installer does. */
function install(tarball, dest) {
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', dest, '--strip-components=1']);
	const manifestFile = path.join(dest, 'package.json');
	const { devDependencies: _dev, peerDependencies: _peer, peerDependenciesMeta: _meta, optionalDependencies: _optional, ...manifest } = JSON.parse(
		fs.readFileSync(manifestFile, 'utf8'),
	);
	fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	const flags = ['--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'];
	execFileSync('npm', ['install', ...flags], { cwd: dest, stdio: ['ignore', 'ignore', 'inherit'] });
	// What n8n loads from the installed package: every file the manifest lists must be there.
	const missing = [...manifest.n8n.nodes, ...manifest.n8n.credentials].filter((file) => !fs.existsSync(path.join(dest, file)));
	if (missing.length) throw new Error(`package.json lists ${missing.join(', ')}, which the tarball does not have`);
	return manifest;
}

const { values } = parseArgs({
	options: { 'user-folder': { type: 'string' }, tarball: { type: 'string' }, dest: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
	console.log('usage: npm run install:n8n [-- --user-folder DIR] | node scripts/install-in-n8n.mjs [--tarball FILE] [--dest DIR]');
	process.exit(0);
}
const userFolder = values['user-folder'] ?? process.env.N8N_USER_FOLDER ?? os.homedir();
const dest = path.resolve(values.dest ?? path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-wdm'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-install-'));
try {
	const manifest = install(values.tarball ? path.resolve(values.tarball) : pack(work), dest);
	console.log(`Installed ${manifest.name} ${manifest.version} into ${dest}.\nRestart n8n to load it; its nodes are under "WDM" in the nodes panel.`);
} catch (error) {
	console.error(`install-in-n8n: ${error.message}`);
	process.exitCode = 1;
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
