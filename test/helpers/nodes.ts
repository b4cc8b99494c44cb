import type { ICredentialDataDecryptedObject, INode, INodeExecutionData, IRun } from 'n8n-workflow';
import { WdmInstanceApi } from '../../credentials/WdmInstanceApi.credentials';
import { WdmUserApi } from '../../credentials/WdmUserApi.credentials';
import { WdmDevice } from '../../nodes/WdmDevice/WdmDevice.node';
import { WdmMessage } from '../../nodes/WdmMessage/WdmMessage.node';
import { WdmTrigger } from '../../nodes/WdmTrigger/WdmTrigger.node';
import { N8nTestHarness } from './n8n';

/** Every node of the package, by the type name a workflow uses for it. */
export const NODE_TYPES = {
	'CUSTOM.wdmDevice': new WdmDevice(),
	'CUSTOM.wdmMessage': new WdmMessage(),
	'CUSTOM.wdmTrigger': new WdmTrigger(),
};

export const CREDENTIAL_TYPES = [new WdmUserApi(), new WdmInstanceApi()];

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
	type: keyof typeof NODE_TYPES,
	parameters: INode['parameters'],
	options: { input?: INodeExecutionData[]; credential?: string; onError?: INode['onError'] } = {},
): Promise<NodeRun> {
	const credential = options.credential ?? (type === 'CUSTOM.wdmMessage' ? 'wdmInstanceApi' : 'wdmUserApi');
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
