import { NodeHelpers, type ICredentialDataDecryptedObject, type ICredentialType, type IDataObject, type INode, type INodeExecutionData, type INodeType, type IRun } from 'n8n-workflow';
import path from 'node:path';
import { DirectoryLoader } from 'n8n-core';
import { n8n as manifest } from '../../package.json';
import type { App } from '../../server/src/app';
import type { SiteUser } from './content';
import { N8nTestHarness } from './n8n';
import { ADMIN_APP_PASSWORD, ADMIN_KEY, connectedDevice, startGateway } from './server';

/**
 * Loads the classes the package's `n8n` section lists (`dist/nodes/X/X.node.js` -> `nodes/X/X.node.ts`),
 * so a new node or credential is declared once, in package.json, and every test sees it.
 */
function load<T>(distPath: string): T {
	const source = path.join(__dirname, '../..', distPath.replace(/^dist\//, '').replace(/\.js$/, ''));
	const className = path.basename(source).split('.')[0];
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the list is data, not static imports
	const Class = require(source)[className] as new () => T;
	return new Class();
}

// As n8n's loader does, declarative nodes get Request Options (batching, timeout, proxy); n8n 1.x
// (the floor test, test/floor) had that function in n8n-workflow's NodeHelpers.
const nodes = manifest.nodes.map((p) => load<INodeType>(p));
const applyOptions: (node: INodeType) => void =
	DirectoryLoader.applyDeclarativeNodeOptionParameters ?? (NodeHelpers as unknown as { applyDeclarativeNodeOptionParameters: (node: INodeType) => void }).applyDeclarativeNodeOptionParameters;
for (const node of nodes) applyOptions(node);

/** Every node of the package, by the type name a workflow uses for it (`CUSTOM.wdmDevice`). */
export const NODE_TYPES: Record<string, INodeType> = Object.fromEntries(nodes.map((node) => [`CUSTOM.${node.description.name}`, node]));

export const CREDENTIAL_TYPES = manifest.credentials.map((p) => load<ICredentialType>(p));

export const harnessFor = (credentials: Record<string, ICredentialDataDecryptedObject>) =>
	new N8nTestHarness({ nodeTypes: NODE_TYPES, credentialTypes: CREDENTIAL_TYPES, credentials });

export interface NodeRun {
	run: IRun;
	/** The node's output items (first output). */
	items: INodeExecutionData[];
	/** The node's error, as the engine recorded it, when the execution failed. */
	error?: { message: string; description?: string; httpCode?: string; name?: string };
}

/**
 * Runs `Manual Trigger -> node` through n8n's engine (WorkflowExecute + RoutingNode) and returns the
 * node's output. `input` are the items the node receives (with binary data, if any).
 */
export async function runNode(
	harness: N8nTestHarness,
	type: string,
	parameters: INode['parameters'],
	options: { input?: INodeExecutionData[]; credential?: string; onError?: INode['onError'] } = {},
): Promise<NodeRun> {
	// By default the node's first credential type, as n8n's editor preselects it.
	const credential = options.credential ?? NODE_TYPES[type].description.credentials![0].name;
	const node: INode = {
		id: 'node',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [200, 0],
		parameters,
		credentials: { [credential]: { id: '1', name: credential } },
		...(options.onError ? { onError: options.onError } : {}),
	};
	const trigger: INode = { id: 't', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	// A manual trigger emits one empty item whatever it is given: input items go on the execution
	// stack for the node itself, as when n8n runs a node from pinned input data.
	const { run, output } = await harness.executeWorkflow(
		[trigger, node],
		{ Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
		options.input ? { startNode: 'Node', startData: options.input } : {},
	);
	const error = run.data.resultData.runData.Node?.[0]?.error as NodeRun['error'];
	return { run, items: output('Node'), error };
}

/** `runNode`'s parameters and options, for helpers that pass them on. */
export type NodeParameters = INode['parameters'];
export type RunOptions = Parameters<typeof runNode>[3];

/**
 * `runNode` for one node type: `const message = nodeRunner('CUSTOM.wdmMessage', () => harness)`. The
 * harness is read when the node runs (so a suite may set it in `beforeAll`); a call may pass another.
 */
export function nodeRunner(type: string, harness: () => N8nTestHarness) {
	return (parameters: NodeParameters, options?: RunOptions, withHarness = harness()) => runNode(withHarness, type, parameters, options);
}

/** The JSON of the first output item of a run that must have succeeded. */
export function firstJson(run: NodeRun) {
	expect(run.error).toBeUndefined();
	return run.items[0].json as Record<string, any>;
}

/** An input item carrying a file the way n8n keeps binary data without a binary data manager. */
export const fileItem = (data: Buffer, mimeType: string, fileName: string, property = 'data', json: IDataObject = {}): INodeExecutionData => ({
	json,
	binary: { [property]: { data: data.toString('base64'), mimeType, fileName } },
});

// ---- The gateway nodes (WDM User API and WDM Instance API credentials) ----

export const jidOf = (phone: string) => `${phone}@s.whatsapp.net`;

/** A harness whose WDM Instance API credential holds `token` (a device's, or a wrong one). */
export const instanceHarness = (server: App, token: string) => harnessFor({ wdmInstanceApi: { baseUrl: `${server.url}/wp-json/wdm/v1`, token } });

/** A harness whose WDM User API credential holds `apiKey` (the administrator's by default). */
export const userHarness = (server: App, apiKey = ADMIN_KEY) => harnessFor({ wdmUserApi: { baseUrl: `${server.url}/wp-json/wdm/v1`, apiKey } });

/**
 * What a gateway node suite starts from: a gateway (`startGateway`), the connected device `name`
 * (with `phone`, if given) as `shop`, and a harness with its instance token.
 */
export async function gatewayWithDevice(name: string, phone?: string) {
	const gateway = await startGateway();
	const shop = await connectedDevice(gateway.server, name, ADMIN_KEY, phone);
	return { ...gateway, shop, harness: instanceHarness(gateway.server, shop.token) };
}

// ---- The site nodes (WDM Site API credential) ----

const ADMIN: Pick<SiteUser, 'name' | 'password'> = { name: 'admin', password: ADMIN_APP_PASSWORD };

/** A WDM Site API credential: the site's URL, an addressing style and a user with an application password. */
export const siteCredential = (url: string, addressing = 'restRoute', user: Pick<SiteUser, 'name' | 'password'> = ADMIN) => ({
	url,
	addressing,
	username: user.name,
	password: user.password,
});

export const siteHarness = (...credential: Parameters<typeof siteCredential>) => harnessFor({ wdmSiteApi: siteCredential(...credential) });
