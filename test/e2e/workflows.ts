// Workflows the real-n8n e2e and the bulk-send benchmark import: node and connection builders, the
// bulk send (Code node producing N subscribers -> one send node with per-item expressions), and
// parameters in the form n8n's editor saves them.
import { isResourceLocatorValue, type INodeProperties, type INodeTypeDescription } from 'n8n-workflow';

/** A node of an imported workflow (version 1 unless `typeVersion` is spread over it). */
export const node = (name: string, type: string, parameters: object, credentials?: object) => ({
	id: name.replace(/\W/g, ''),
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...(credentials ? { credentials } : {}),
});

/** `connections` entry: this node's main output goes to `to`. */
export const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });

/** An n8n credential reference, as a workflow node names it and `import:credentials` creates it. */
export interface CredentialRef {
	id: string;
	name: string;
}

/** Subscriber `i` of a bulk send: what the Code node produces and what the send must carry. */
export const subscriber = (i: number) => ({ phone: String(5511900000000 + i), name: `Subscriber ${i}`, id: `sub-${i}` });
export const bulkText = (i: number) => `Hello ${subscriber(i).name}, your code is ${subscriber(i).id}`;

/** The three per-item expressions of a bulk send, in n8n's syntax (they yield `subscriber(i)`'s values and `bulkText(i)`). */
const NUMBER = '={{ $json.phone }}';
const TEXT = '=Hello {{ $json.name }}, your code is {{ $json.id }}';
const TRACK_ID = '={{ $json.id }}';

/** A Code node that produces `count` subscribers (`subscriber(i)`), each with `extra` fields too. */
export function subscribersNode(count: number, extra: object = {}) {
	const jsCode = `const extra = ${JSON.stringify(extra)};
return Array.from({ length: ${count} }, (_, i) => ({ json: { phone: String(5511900000000 + i), name: \`Subscriber \${i}\`, id: \`sub-\${i}\`, ...extra } }));`;
	return { ...node('Subscribers', 'n8n-nodes-base.code', { jsCode }), typeVersion: 2 };
}

/** Manual Trigger -> Subscribers -> `send`: the shape of every bulk workflow. */
export function bulkWorkflow(id: string, count: number, send: ReturnType<typeof node>, extra?: object) {
	return {
		id,
		name: `Bulk ${send.name}`,
		active: false,
		settings: {},
		nodes: [node('Manual Trigger', 'n8n-nodes-base.manualTrigger', {}), subscribersNode(count, extra), send],
		connections: { 'Manual Trigger': link('Subscribers'), Subscribers: link(send.name) },
	};
}

/** WDM Message Send Text to each subscriber: number, text and track id are per-item expressions. */
export function wdmSendText(credential: CredentialRef, options: { async?: boolean } = {}) {
	return node(
		'Send',
		'CUSTOM.wdmMessage',
		{ operation: 'sendText', number: NUMBER, text: TEXT, options: { track_id: TRACK_ID, ...options } },
		{ wdmInstanceApi: credential },
	);
}

/**
 * n8n's HTTP Request node making the same call as `wdmSendText` (the baseline): same route, the
 * device token from a Header Auth credential, the same three expressions as JSON body fields.
 */
export function httpRequest(url: string, credential: CredentialRef, body: Record<string, string>, auth: 'httpHeaderAuth' | 'httpBasicAuth') {
	return {
		...node(
			'Send',
			'n8n-nodes-base.httpRequest',
			{
				method: 'POST',
				url,
				authentication: 'genericCredentialType',
				genericAuthType: auth,
				sendBody: true,
				bodyParameters: { parameters: Object.entries(body).map(([name, value]) => ({ name, value })) },
				options: {},
			},
			{ [auth]: credential },
		),
		typeVersion: 4.2,
	};
}

/** The HTTP Request baseline of `wdmSendText`. */
export const httpSendText = (gatewayBaseUrl: string, credential: CredentialRef) =>
	httpRequest(`${gatewayBaseUrl}/send/text`, credential, { number: NUMBER, text: TEXT, track_id: TRACK_ID }, 'httpHeaderAuth');

/**
 * Parameters as n8n's editor saves them for `description`'s node: a plain value of a resource locator
 * (a top-level field or an entry of a collection) becomes `{__rl: true, mode: 'id', value}`; values
 * already in that form (By URL, From List) stay as they are.
 */
export function editorParameters(description: INodeTypeDescription, parameters: Record<string, unknown>): Record<string, unknown> {
	const locator = (value: unknown) => (isResourceLocatorValue(value) ? value : { __rl: true, mode: 'id', value: String(value) });
	const save = (properties: INodeProperties[], values: Record<string, unknown>): Record<string, unknown> =>
		Object.fromEntries(
			Object.entries(values).map(([name, value]) => {
				// A name is declared once per node, but for the operation selectors and the entries of merged collections (same type).
				const property = properties.find((p) => p.name === name);
				if (property?.type === 'resourceLocator') return [name, locator(value)];
				if (property?.type === 'collection' && value && typeof value === 'object') return [name, save(property.options as INodeProperties[], value as Record<string, unknown>)];
				return [name, value];
			}),
		);
	return save(description.properties, parameters);
}
