// Our site nodes against a real WordPress (issue 40): every operation of WDM Post, Page, Media, Comment,
// User and Site (site-nodes.ts) runs in a real n8n 2.40.7 against Debian's WordPress 6.1 with a `wp/v2`
// credential, by both addressing styles, and against the reference server with `wp/v2` and with
// `cms/v2`. One workflow holds a chain of nodes per site and credential, saved as n8n's editor saves
// parameters, and runs with one `n8n execute` (a process start per workflow is n8n's cost); each node
// continues on a failure, so that every node's output is then checked as a test of its own.
// `npm run test:wordpress`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { INodePropertyOptions, INodeType } from 'n8n-workflow';
import sharp from 'sharp';
import { WdmComment } from '../../nodes/WdmComment/WdmComment.node';
import { WdmMedia } from '../../nodes/WdmMedia/WdmMedia.node';
import { WdmPage } from '../../nodes/WdmPage/WdmPage.node';
import { WdmPost } from '../../nodes/WdmPost/WdmPost.node';
import { WdmSite } from '../../nodes/WdmSite/WdmSite.node';
import { WdmUser } from '../../nodes/WdmUser/WdmUser.node';
import type { App } from '../../server/src/app';
import { buildPackage, ensureN8n, n8nCli, type N8nRun } from '../e2e/n8n';
import { type CredentialRef, editorParameters, node } from '../e2e/workflows';
import { ADMIN_APP_PASSWORD, startServer } from '../helpers/server';
import { type Case, cases, type Chain, type Item, type NodeName } from './site-nodes';
import { startWordPress, type WordPress } from './wordpress';

const NODES: Record<NodeName, INodeType> = {
	wdmPost: new WdmPost(),
	wdmPage: new WdmPage(),
	wdmMedia: new WdmMedia(),
	wdmComment: new WdmComment(),
	wdmUser: new WdmUser(),
	wdmSite: new WdmSite(),
};

interface Target {
	/** In node names and in the chain's user names, titles and search words. */
	tag: string;
	label: string;
	wordpress: boolean;
	namespace: 'wp/v2' | 'cms/v2';
	addressing: 'restRoute' | 'wpJson';
}

const TARGETS: Target[] = [
	{ tag: 'wpa', label: 'WordPress 6.1, wp/v2, index.php?rest_route=', wordpress: true, namespace: 'wp/v2', addressing: 'restRoute' },
	{ tag: 'wpb', label: 'WordPress 6.1, wp/v2, /wp-json', wordpress: true, namespace: 'wp/v2', addressing: 'wpJson' },
	{ tag: 'rfa', label: 'reference server, wp/v2, /wp-json', wordpress: false, namespace: 'wp/v2', addressing: 'wpJson' },
	{ tag: 'rfb', label: 'reference server, cms/v2, index.php?rest_route=', wordpress: false, namespace: 'cms/v2', addressing: 'restRoute' },
];

/** The application passwords' names: WordPress's are the suite's, the reference server's admin has its start-up's. */
const APP_PASSWORD = 'n8n e2e';
const REFERENCE_ADMIN_APP_PASSWORD = 'wdm-server';
const spareName = (t: Target) => `spare-${t.tag}`;
const nodeName = (t: Target, name: string) => `${t.tag}: ${name}`;
const credential = (t: Target, who: 'admin' | 'spare'): CredentialRef => ({ id: `wdmSn${t.tag}${who}`.padEnd(16, '0'), name: `WDM Site ${t.label} (${who})` });

let dir: string | undefined;
let wordpress: WordPress | undefined;
let reference: App | undefined;
let run: N8nRun | undefined;

/** The items of a node's output (its first run, first output): a case's outcome. */
function itemsOf(t: Target, name: string): Item[] {
	if (!run) throw new Error('the workflow did not run (see beforeAll)');
	const task = run.data.resultData.runData[nodeName(t, name)]?.[0] as { data?: { main: Item[][] } } | undefined;
	if (!task) throw new Error(`node "${nodeName(t, name)}" did not run`);
	return task.data?.main[0] ?? [];
}

const chainOf = (t: Target): Chain => ({
	tag: t.tag,
	namespace: t.namespace,
	appPassword: t.wordpress ? APP_PASSWORD : REFERENCE_ADMIN_APP_PASSWORD,
	json: (name) => `$(${JSON.stringify(nodeName(t, name))}).first().json`,
	out: (name) => itemsOf(t, name)[0]?.json,
});

/** Connections of a workflow: `from`'s main output to each node linked. */
function linker() {
	const connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }> = {};
	const link = (from: string, to: string) => (connections[from] ??= { main: [[]] }).main[0].push({ node: to, type: 'main', index: 0 });
	return { connections, link };
}

/** Every chain from one Manual Trigger; each case a node that runs once, on the first item it gets, and continues on a failure. */
function workflow(image: string) {
	const nodes: object[] = [node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {})];
	const { connections, link } = linker();
	for (const t of TARGETS) {
		let previous = 'Manual Trigger';
		const append = (n: { name: string } & Record<string, unknown>) => {
			nodes.push(n);
			link(previous, n.name);
			previous = n.name;
		};
		for (const k of cases(chainOf(t))) {
			if (k.image) {
				// The image as a workflow makes a file: a base64 field (Edit Fields) turned into binary data (Convert to File).
				append({ ...node(nodeName(t, 'Image'), 'n8n-nodes-base.set', { assignments: { assignments: [{ id: 'png', name: 'png', value: image, type: 'string' }] }, options: {} }), typeVersion: 3.4 });
				append({
					...node(nodeName(t, 'Image File'), 'n8n-nodes-base.convertToFile', { operation: 'toBinary', sourceProperty: 'png', binaryPropertyName: 'data', options: { fileName: 'image.png', mimeType: 'image/png' } }),
					typeVersion: 1.1,
				});
			}
			const parameters = editorParameters(NODES[k.node].description, { operation: k.operation, ...k.parameters });
			append({
				...node(nodeName(t, k.name), `CUSTOM.${k.node}`, parameters, { wdmSiteApi: credential(t, k.spare ? 'spare' : 'admin') }),
				executeOnce: true,
				alwaysOutputData: true,
				onError: 'continueRegularOutput',
			});
		}
	}
	// v1: each chain to its end before the next (the legacy order interleaves them, and the two WordPress chains share a site).
	return { id: 'wdmSiteNodesWp01', name: 'WDM site nodes on WordPress and the reference server', active: false, settings: { executionOrder: 'v1' }, nodes, connections };
}

/** The accounts of each target: the admin's application password and the spare administrator's. */
async function accounts(wp: WordPress, ref: App) {
	const of = (name: string) => wp.accounts.find((a) => a.name === name)!.password;
	const store = ref.services.store.users;
	const spare = (name: string) => store.addAppPassword(store.create(name, undefined, 'administrator', { email: `${name}@example.com` }).user.id, APP_PASSWORD);
	return new Map(
		TARGETS.map((t) => [
			t,
			t.wordpress ? { url: wp.url, admin: of('admin'), spare: of(spareName(t)) } : { url: ref.url, admin: ADMIN_APP_PASSWORD, spare: spare(spareName(t)) },
		]),
	);
}

beforeAll(async () => {
	const started = Date.now();
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-site-nodes-'));
	const [user, custom, none] = ['user', 'custom', 'none'].map((name) => path.join(dir!, name));
	fs.mkdirSync(none);
	const image = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#2a6' } }).png().toBuffer();
	const flow = workflow(image.toString('base64'));
	// All at once; whatever started is stopped in afterAll even if another part failed. The workflow needs
	// no site: it is imported meanwhile (n8n keeps a credential id it does not know yet), without our nodes
	// (an import does not run them; the package is being built).
	const settled = await Promise.allSettled([
		startWordPress({
			title: 'WDM site nodes',
			description: 'WordPress for the site nodes e2e',
			users: [{ name: 'admin', role: 'administrator' as const }, ...TARGETS.filter((t) => t.wordpress).map((t) => ({ name: spareName(t), role: 'administrator' as const }))].map((u) => ({ ...u, appPassword: APP_PASSWORD })),
		}),
		startServer(),
		ensureN8n().then(() => Promise.all([buildPackage(path.join(custom, 'n8n-nodes-wdm')), n8nCli(user, none).then((cli) => cli.importWorkflow(flow))])),
	]);
	if (settled[0].status === 'fulfilled') wordpress = settled[0].value;
	if (settled[1].status === 'fulfilled') reference = settled[1].value;
	const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
	if (failed) throw failed.reason;
	const setupMs = Date.now() - started;

	const sites = await accounts(wordpress!, reference!);
	const n8n = await n8nCli(user, custom);
	await n8n.importCredentials(
		TARGETS.flatMap((t) => {
			const site = sites.get(t)!;
			const data = (username: string, password: string) => ({ url: site.url, addressing: t.addressing, namespace: t.namespace, username, password });
			return [
				{ ...credential(t, 'admin'), type: 'wdmSiteApi', data: data('admin', site.admin) },
				{ ...credential(t, 'spare'), type: 'wdmSiteApi', data: data(spareName(t), site.spare) },
			];
		}),
	);
	const importedMs = Date.now() - started;
	run = await n8n.execute(flow.id, 6 * 60_000);
	const total = Date.now() - started;
	process.stdout.write(
		`\nsite nodes e2e: ${flow.nodes.length} nodes; WordPress, reference server, package build and workflow import ${(setupMs / 1000).toFixed(1)} s, ` +
			`credentials import ${((importedMs - setupMs) / 1000).toFixed(1)} s, n8n execute ${((total - importedMs) / 1000).toFixed(1)} s\n`,
	);
}, 25 * 60_000);

afterAll(async () => {
	await Promise.all([wordpress?.stop(), reference?.close()]);
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

test('every operation of the site-core nodes has a case', () => {
	const covered = new Set(cases(chainOf(TARGETS[0])).map((k) => `${k.node} ${k.operation}`));
	const operations = Object.entries(NODES).flatMap(([name, type]) =>
		type.description.properties.filter((p) => p.name === 'operation').flatMap((p) => (p.options as INodePropertyOptions[]).map((o) => `${name} ${String(o.value)}`)),
	);
	expect(operations.length).toBeGreaterThan(70);
	expect(operations.filter((op) => !covered.has(op))).toEqual([]);
});

/** What a case asserts: WordPress's refusal, the node's error for a newer option on WordPress 6.1, or its check. */
function outcome(t: Target, k: Case, c: Chain) {
	const items = itemsOf(t, k.name);
	const failed = items.find((item) => item.error)?.error;
	const shown = failed && `${failed.message}${failed.description ? ` (${failed.description})` : ''}`;
	if (k.refused) return expect(shown ?? 'no error').toMatch(new RegExp(`\\(${k.refused}\\b`));
	if (k.newer && t.wordpress) return expect(failed?.message ?? 'no error').toBe(k.newer);
	if (shown) throw new Error(`the node failed: ${shown}`);
	k.check!(items, c);
}

describe.each(TARGETS)('$label', (t) => {
	const c = chainOf(t);
	test.each(cases(c).map((k) => [k.name, k] as const))('%s', (_, k) => outcome(t, k, c));
});
