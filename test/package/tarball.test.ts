// The tarball `npm pack` makes (what npm publishes and n8n installs) holds what n8n loads and nothing
// else: package.json, README, LICENSE, and under dist/ the compiled nodes and credentials, their icons
// and the nodes' codex files. No type declarations, source maps or build info: n8n loads none of them.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { ICredentialType, INodeType } from 'n8n-workflow';
import manifest from '../../package.json';
import { CREDENTIAL_TYPES, NODE_TYPES } from '../helpers/nodes';

const ROOT = path.join(__dirname, '..', '..');

let files: string[];

beforeAll(() => {
	// The prepack script builds the package first; its output comes before the JSON.
	const output = execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5 * 60_000 });
	const [packed] = JSON.parse(output.slice(output.lastIndexOf('\n[') + 1)) as Array<{ files: Array<{ path: string }> }>;
	files = packed.files.map((file) => file.path).sort();
}, 5 * 60_000);

/** What n8n loads from an installed package. */
const LOADED = [
	/^(package\.json|README\.md|LICENSE)$/,
	/^dist\/(nodes|credentials)\/.+\.js$/, // compiled nodes, credentials and the modules they require
	/^dist\/(nodes|credentials)\/.+\.(svg|png)$/, // icons
	/^dist\/nodes\/\w+\/\w+\.node\.json$/, // codex files
];

test('every file of the tarball is one n8n loads', () => {
	expect(files.filter((file) => !LOADED.some((pattern) => pattern.test(file)))).toEqual([]);
	expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
});

test('every node and credential package.json lists is in it, each node with its codex file', () => {
	for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) expect(files).toContain(file);
	for (const file of manifest.n8n.nodes) expect(files).toContain(file.replace(/\.js$/, '.json'));
});

test("every icon a node or credential names is in it, beside the node's or credential's file", () => {
	const iconFiles = (icon: INodeType['description']['icon'] | ICredentialType['icon']) =>
		(typeof icon === 'object' ? Object.values(icon) : [icon]).map((name) => String(name).replace(/^file:/, ''));
	const nodes = Object.values(NODE_TYPES);
	expect(nodes).toHaveLength(manifest.n8n.nodes.length);
	manifest.n8n.nodes.forEach((file) => {
		const node = nodes.find((type) => file.endsWith(`/${type.constructor.name}.node.js`))!;
		for (const icon of iconFiles(node.description.icon)) expect(files).toContain(path.posix.join(path.posix.dirname(file), icon));
	});
	manifest.n8n.credentials.forEach((file, i) => {
		for (const icon of iconFiles(CREDENTIAL_TYPES[i].icon)) expect(files).toContain(path.posix.join(path.posix.dirname(file), icon));
	});
});
