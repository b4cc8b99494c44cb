import type { ICredentialDataDecryptedObject, ICredentialType, INode, INodeExecutionData, INodeType, IRun } from 'n8n-workflow';
import path from 'node:path';
import { n8n as manifest } from '../../package.json';
import { N8nTestHarness } from './n8n';

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

const nodes = manifest.nodes.map((p) => load<INodeType>(p));

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
