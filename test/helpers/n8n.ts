// Minimal harness running declarative n8n nodes with n8n's own engine (n8n-core WorkflowExecute /
// RoutingNode / HookContext / WebhookContext), modelled on n8n's packages/core/nodes-testing.
import { STATUS_CODES } from 'node:http';
import { ExecuteContext, ExecutionLifecycleHooks, HookContext, LoadOptionsContext, RoutingNode, WebhookContext, WorkflowExecute } from 'n8n-core';
import {
	createDeferredPromise, createEmptyRunExecutionData, createRunExecutionData, ICredentialsHelper, NodeHelpers, Workflow, deepCopy, isExpression,
	type IExecuteData, type IRunExecutionData,
	type ICredentialDataDecryptedObject, type ICredentialType, type ICredentialsDecrypted,
	type IConnections, type IHttpRequestOptions, type INode, type INodeCredentialTestResult,
	type INodeType, type INodeTypes, type IRun, type ITriggerFunctions,
	type IVersionedNodeType, type IWebhookData, type IWebhookResponseData, type IWorkflowBase,
	type IWorkflowExecuteAdditionalData, type INodeExecutionData, type IDataObject, type WorkflowExecuteMode,
	type INodeListSearchItems, type INodeListSearchResult, type INodeParameterResourceLocator, type INodeParameters, type INodeProperties, type INodePropertyOptions,
} from 'n8n-workflow';

// The floor test (test/floor) runs this harness on the oldest n8n-workflow the package supports (1.83.0),
// which has not these three helpers yet: the same values built as n8n 1.x's engine built them.
const runExecutionData = (nodeExecutionStack: IExecuteData[] = []): IRunExecutionData =>
	typeof createRunExecutionData === 'function'
		? createRunExecutionData({ executionData: { nodeExecutionStack } })
		: ({ startData: {}, resultData: { runData: {} }, executionData: { contextData: {}, nodeExecutionStack, metadata: {}, waitingExecution: {}, waitingExecutionSource: {} } } as IRunExecutionData);
const emptyRunExecutionData = () => (typeof createEmptyRunExecutionData === 'function' ? createEmptyRunExecutionData() : runExecutionData());
const expression = (value: unknown) => (typeof isExpression === 'function' ? isExpression(value) : typeof value === 'string' && value.startsWith('='));

/** Stand-in for n8n-nodes-base.manualTrigger (same trigger() contract), so we need not install nodes-base. */
export class ManualTrigger implements INodeType {
	description = {
		displayName: 'Manual Trigger', name: 'n8n-nodes-base.manualTrigger', group: ['trigger'], version: 1,
		description: '', defaults: { name: 'Manual Trigger' }, inputs: [], outputs: ['main'], properties: [],
	} as INodeType['description'];
	async trigger(this: ITriggerFunctions) {
		return { manualTriggerFunction: async () => this.emit([this.helpers.returnJsonArray([{}])]) };
	}
}

type NodeTypeMap = Record<string, INodeType | IVersionedNodeType>;

/** Same semantics as n8n's cli NodeTypes: declarative nodes get an `execute` that runs RoutingNode. */
export class TestNodeTypes implements INodeTypes {
	constructor(private readonly types: NodeTypeMap) {}
	getByName(type: string) {
		const t = this.types[type];
		if (!t) throw new Error(`Unknown node type ${type}`);
		return t;
	}
	getByNameAndVersion(type: string, version?: number): INodeType {
		const nodeType = NodeHelpers.getVersionedNodeType(this.getByName(type), version);
		const isDeclarative = nodeType.description.requestDefaults !== undefined;
		if (!nodeType.execute && !nodeType.poll && !nodeType.trigger && (!nodeType.webhook || isDeclarative) && (!nodeType.methods || isDeclarative)) {
			nodeType.execute = async function (this: ExecuteContext) {
				return (await new RoutingNode(this, nodeType).runNode()) ?? [];
			};
		}
		return nodeType;
	}
	getKnownTypes() { return {}; }
}

/** Credentials helper: stored data from a map; `authenticate` applies the type's `authenticate` (function or generic). */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentialTypes: Record<string, ICredentialType>, private credentials: Record<string, ICredentialDataDecryptedObject> = {}) { super(); }
	setCredentials(credentials: Record<string, ICredentialDataDecryptedObject>) { this.credentials = credentials; }
	getCredentialType(name: string) {
		const t = this.credentialTypes[name];
		if (!t) throw new Error(`Unknown credential type ${name}`);
		return t;
	}
	async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, requestOptions: IHttpRequestOptions, workflow?: Workflow, node?: INode): Promise<IHttpRequestOptions> {
		const { authenticate } = this.getCredentialType(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type === 'generic') {
			if (!workflow || !node) throw new Error('workflow and node are required for generic authentication');
			const resolve = (value: string) => !expression(value) ? value
				: String(workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '') ?? '');
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				const bag = ((requestOptions as unknown as IDataObject)[target] ??= {}) as IDataObject;
				for (const [key, value] of Object.entries(entries as IDataObject)) bag[resolve(key)] = resolve(value as string);
			}
		}
		return requestOptions;
	}
	async preAuthentication() { return undefined; }
	getParentTypes(name: string): string[] {
		const ext = this.credentialTypes[name]?.extends ?? [];
		return ext.flatMap((p) => [p, ...this.getParentTypes(p)]);
	}
	async getDecrypted(_a: IWorkflowExecuteAdditionalData, _c: unknown, type: string) {
		// apply property defaults like n8n does
		const defaults = Object.fromEntries(this.getCredentialType(type).properties.map((p) => [p.name, p.default]));
		return { ...defaults, ...(this.credentials[type] ?? {}) } as ICredentialDataDecryptedObject;
	}
	async getCredentials(): Promise<never> { throw new Error('not supported in tests'); }
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
	getCredentialsProperties(type: string) { return this.getCredentialType(type).properties; }
}

export type RunOptions = { mode?: WorkflowExecuteMode; startNode?: string; startData?: INodeExecutionData[] };

export interface HarnessOptions {
	nodeTypes: NodeTypeMap;
	credentialTypes: ICredentialType[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	webhookBaseUrl?: string;
}

/**
 * A resource locator's value as n8n's editor stores it: `{__rl, mode, value}`, with the mode's
 * `extractValue` regex copied in as `__regex` (the editor does, so that `$parameter` reads the ID out
 * of a URL). `property` is the node's locator property.
 */
export function locatorValue(property: INodeProperties, mode: string, value: string): INodeParameterResourceLocator {
	const regex = property.modes?.find((m) => m.name === mode)?.extractValue?.regex;
	return { __rl: true, mode, value, ...(regex ? { __regex: typeof regex === 'string' ? regex : regex.source } : {}) };
}

/**
 * The value the editor stores when an entry of a From List is picked: with the entry's name (and
 * link), which the field then shows as long as the value stays (the editor never refreshes it).
 */
export function pickedEntry(entry: INodeListSearchItems): INodeParameterResourceLocator {
	return { __rl: true, mode: 'list', value: entry.value as string | number, cachedResultName: entry.name, ...(entry.url ? { cachedResultUrl: entry.url } : {}) };
}

/** What the editor sends to fill a list: the node's current parameters, its credential type and the parameter's path. */
export interface DynamicParameterRequest {
	parameters?: INodeParameters;
	/** The credential type the node uses (default: its first). */
	credential?: string;
	path?: string;
}

export class N8nTestHarness {
	readonly nodeTypes: TestNodeTypes;
	readonly credentialsHelper: TestCredentialsHelper;
	webhookBaseUrl: string;
	constructor(opts: HarnessOptions) {
		this.nodeTypes = new TestNodeTypes({ 'n8n-nodes-base.manualTrigger': new ManualTrigger(), ...opts.nodeTypes });
		this.credentialsHelper = new TestCredentialsHelper(Object.fromEntries(opts.credentialTypes.map((c) => [c.name, c])), opts.credentials);
		this.webhookBaseUrl = opts.webhookBaseUrl ?? 'http://localhost:5678/webhook';
	}

	createWorkflow(nodes: INode[], connections: IConnections, staticData?: IDataObject) {
		return new Workflow({ id: 'wf-test', name: 'test', nodes, connections, nodeTypes: this.nodeTypes, active: false, staticData, settings: {} });
	}

	additionalData(hooks?: ExecutionLifecycleHooks, extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
		return {
			credentialsHelper: this.credentialsHelper,
			hooks,
			executionId: '1',
			restApiUrl: 'http://localhost:5678/rest',
			instanceBaseUrl: 'http://localhost:5678',
			formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
			webhookBaseUrl: this.webhookBaseUrl,
			webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
			currentNodeParameters: undefined,
			variables: {},
			executeWorkflow: async () => { throw new Error('sub-workflows not supported'); },
			getRunExecutionData: async () => undefined,
			logAiEvent: async () => {},
			startRunnerTask: async () => { throw new Error('code nodes not supported'); },
			...extra,
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	/** Runs a whole workflow like n8n's NodeTestHarness.executeWorkflow: start node on the execution stack. */
	async executeWorkflow(nodes: INode[], connections: IConnections, opts: RunOptions = {}) {
		return await this.runWorkflow(this.createWorkflow(nodes, connections), opts);
	}

	/** Runs an existing Workflow instance (keeps its staticData), e.g. from a trigger with webhook() output. */
	async runWorkflow(workflow: Workflow, opts: RunOptions = {}) {
		const workflowData = { id: workflow.id, name: workflow.name, nodes: Object.values(workflow.nodes), connections: workflow.connectionsBySourceNode, active: false, settings: {} } as unknown as IWorkflowBase;
		const mode = opts.mode ?? 'manual';
		const hooks = new ExecutionLifecycleHooks(mode, '1', workflowData);
		const nodeExecutionOrder: string[] = [];
		hooks.addHandler('nodeExecuteAfter', (nodeName) => { nodeExecutionOrder.push(nodeName); });
		const done = createDeferredPromise<IRun>();
		hooks.addHandler('workflowExecuteAfter', (run) => done.resolve(run));
		const startNode = opts.startNode ? workflow.getNode(opts.startNode)! : workflow.getStartNode()!;
		const executionData = runExecutionData([{ node: startNode, data: { main: [opts.startData ?? [{ json: {} }]] }, source: null }]);
		const run = await new WorkflowExecute(this.additionalData(hooks), mode, executionData).processRunExecutionData(workflow);
		await done.promise;
		return { run, nodeExecutionOrder, output: (name: string, runIndex = 0) => run.data.resultData.runData[name]?.[runIndex]?.data?.main?.[0] ?? [] };
	}

	/** Like n8n's CredentialsTester for `test.request` credentials: a temp node whose only property routes the test request. */
	async testCredentials(type: string, data: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
		const credType = this.credentialsHelper.getCredentialType(type);
		if (!credType.test) return { status: 'Error', message: 'No testing function found for this credential.' };
		const nodeType: INodeType = { description: { displayName: 'Temp', name: 'temp.credTest', group: [], version: 1, description: '', defaults: {}, inputs: [], outputs: [],
			credentials: [{ name: type, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: credType.test.request } }] } as INodeType['description'] };
		const node: INode = { id: 'temp', name: 'Temp-Node', type: 'temp.credTest', typeVersion: 1, position: [0, 0], parameters: {}, credentials: { [type]: { id: 'cred', name: 'cred' } } };
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: new TestNodeTypes({ 'temp.credTest': nodeType }) });
		const decrypted: ICredentialsDecrypted = { id: 'cred', name: 'cred', type, data: deepCopy(data) };
		const ctx = new ExecuteContext(workflow, node, this.additionalData(), 'internal', emptyRunExecutionData(), 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, []);
		try {
			await new RoutingNode(ctx, nodeType, decrypted).runNode();
		} catch (error) {
			// n8n's tester reads the response the error keeps (n8n 1.x and 2.40): the credential's rule for its
			// status, else the reason phrase. This harness's n8n-core 2.11 keeps only the status (`httpCode`),
			// whose phrase is then Node's, as the server sends it.
			const { cause, httpCode, message } = error as Error & { httpCode?: string; cause?: { response?: { status: number; statusText?: string } } };
			const status = cause?.response?.status ?? (httpCode ? Number(httpCode) : undefined);
			if (!status) return { status: 'Error', message };
			const rule = credType.test.rules?.find((r) => r.type === 'responseCode' && r.properties.value === status);
			if (rule) return { status: 'Error', message: rule.properties.message };
			return { status: 'Error', message: cause?.response?.statusText || STATUS_CODES[status] || `Received HTTP status code: ${status}` };
		}
		return { status: 'OK', message: 'Connection successful!' };
	}

	// ---- the editor's lists (mirrors cli DynamicNodeParametersService) ----

	/**
	 * What n8n builds to fill a list in the editor: a workflow of one `Temp-Node` with the node's
	 * current parameters and credential, and a LoadOptionsContext for the parameter at `path`.
	 */
	private loadOptionsContext(type: string, { parameters = {}, credential, path = '' }: DynamicParameterRequest) {
		const nodeType = this.nodeTypes.getByNameAndVersion(type, 1);
		const name = credential ?? nodeType.description.credentials?.[0]?.name;
		const node: INode = {
			id: 'uuid-1234', name: 'Temp-Node', type, typeVersion: 1, position: [0, 0], parameters,
			...(name ? { credentials: { [name]: { id: '1', name } } } : {}),
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: this.nodeTypes });
		const context = new LoadOptionsContext(workflow, node, this.additionalData(undefined, { currentNodeParameters: parameters }), path);
		return { nodeType, context };
	}

	/** A resource locator's From List: the node's `methods.listSearch[method]` with the typed filter and the token of the page before. */
	async listSearch(type: string, method: string, request: DynamicParameterRequest & { filter?: string; paginationToken?: unknown } = {}): Promise<INodeListSearchResult> {
		const { nodeType, context } = this.loadOptionsContext(type, request);
		const search = nodeType.methods?.listSearch?.[method];
		if (typeof search !== 'function') throw new Error(`Node type "${type}" has no listSearch method named "${method}"`);
		const result = await search.call(context, request.filter, request.paginationToken as string | undefined);
		// As n8n's service: a numeric token goes to the editor as a string.
		return typeof result.paginationToken === 'number' ? { ...result, paginationToken: String(result.paginationToken) } : result;
	}

	/** An options list: the node's `methods.loadOptions[method]`. */
	async loadOptions(type: string, method: string, request: DynamicParameterRequest = {}): Promise<INodePropertyOptions[]> {
		const { nodeType, context } = this.loadOptionsContext(type, request);
		const load = nodeType.methods?.loadOptions?.[method];
		if (typeof load !== 'function') throw new Error(`Node type "${type}" has no loadOptions method named "${method}"`);
		return await load.call(context);
	}

	// ---- webhook / trigger nodes (mirrors cli WebhookService) ----
	getNodeWebhooks(workflow: Workflow, node: INode, additionalData = this.additionalData()): IWebhookData[] {
		const nodeType = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		return (nodeType.description.webhooks ?? []).map((description) => {
			const rawPath = String(workflow.expression.getSimpleParameterValue(node, description.path, 'internal', {})).replace(/^\/|\/$/g, '');
			const httpMethod = workflow.expression.getSimpleParameterValue(node, description.httpMethod, 'internal', {}, undefined, 'GET') as IWebhookData['httpMethod'];
			return { httpMethod, node: node.name, path: NodeHelpers.getNodeWebhookPath(workflow.id, node, rawPath), webhookDescription: description, workflowId: workflow.id, workflowExecuteAdditionalData: additionalData };
		});
	}
	async runWebhookMethod(method: 'checkExists' | 'create' | 'delete', workflow: Workflow, webhookData: IWebhookData, mode: WorkflowExecuteMode = 'trigger') {
		const node = workflow.getNode(webhookData.node)!;
		const fn = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).webhookMethods?.[webhookData.webhookDescription.name]?.[method];
		if (!fn) return undefined;
		return (await fn.call(new HookContext(workflow, node, webhookData.workflowExecuteAdditionalData, mode, 'activate', webhookData))) as boolean;
	}
	/** = ActiveWorkflowManager activation: checkExists, then create if missing. */
	async activate(workflow: Workflow, node: INode) {
		const hooks = this.getNodeWebhooks(workflow, node);
		for (const w of hooks) if (!(await this.runWebhookMethod('checkExists', workflow, w))) await this.runWebhookMethod('create', workflow, w);
		return hooks;
	}
	async deactivate(workflow: Workflow, node: INode) {
		for (const w of this.getNodeWebhooks(workflow, node)) await this.runWebhookMethod('delete', workflow, w);
	}
	/** Calls the node's webhook() with a WebhookContext; `req`/`res` are what n8n passes from express. */
	async runWebhook(workflow: Workflow, webhookData: IWebhookData, req: { body?: unknown; headers: IDataObject; query?: IDataObject; params?: IDataObject; method?: string }, res: unknown): Promise<IWebhookResponseData> {
		const node = workflow.getNode(webhookData.node)!;
		const nodeType = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const additionalData = this.additionalData(undefined, { httpRequest: { query: {}, params: {}, ...req }, httpResponse: res } as never);
		const ctx = new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null);
		return await nodeType.webhook!.call(ctx);
	}
}
