import { NodeHelpers, Workflow, type INode, type INodeProperties, type INodePropertyOptions, type INodeType } from 'n8n-workflow';
import { harnessFor, NODE_TYPES } from '../helpers/nodes';

/**
 * What the editor shows of the nodes besides their lists: the subtitle under a node on the canvas,
 * and the descriptions an AI Agent reads when it uses a node as a tool.
 */

const nodeTypes = harnessFor({}).nodeTypes;

/** The subtitle as the editor evaluates it: n8n's expression engine, over the node's parameters with their defaults. */
function subtitleOf(type: string, parameters: INode['parameters']) {
	const { description } = NODE_TYPES[type];
	const node: INode = { id: 'n', name: 'Node', type, typeVersion: 1, position: [0, 0], parameters: {} };
	node.parameters = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description)!;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle!, 'internal', {});
}

/** Every operation of a node: `[resource, operation option]` (resource undefined for a node without a Resource selector). */
function operationsOf(node: INodeType) {
	const resources = node.description.properties.find((p) => p.name === 'resource' && p.type === 'options');
	return node.description.properties
		.filter((p) => p.name === 'operation')
		.flatMap((selector) => {
			const resource = selector.displayOptions?.show?.resource?.[0] as string | undefined;
			const resourceName = (resources?.options as INodePropertyOptions[] | undefined)?.find((r) => r.value === resource)?.name;
			return (selector.options as INodePropertyOptions[]).map((operation) => ({ resource, resourceName, operation }));
		});
}

const actionNodes = Object.entries(NODE_TYPES).filter(([, node]) => node.description.properties.some((p) => p.name === 'operation'));

describe('subtitles show the operation by name, as n8n\'s own nodes do', () => {
	test('WDM Message: Send Text; WDM Dynamic Content: Create: Post Type', () => {
		expect(subtitleOf('CUSTOM.wdmMessage', { operation: 'sendText' })).toBe('Send Text');
		expect(subtitleOf('CUSTOM.wdmPost', { operation: 'getMany' })).toBe('Get Many');
		const [{ operation, resource }] = operationsOf(NODE_TYPES['CUSTOM.wdmDynamicContent']);
		expect(subtitleOf('CUSTOM.wdmDynamicContent', { resource, operation: operation.value })).toBe(`${operation.name}: Post Type`);
	});

	test.each(actionNodes)('%s: every operation', (type, node) => {
		for (const { resource, resourceName, operation } of operationsOf(node)) {
			const expected = resourceName ? `${operation.name}: ${resourceName}` : operation.name;
			expect({ operation: operation.value, subtitle: subtitleOf(type, { ...(resource ? { resource } : {}), operation: operation.value }) }).toEqual({
				operation: operation.value,
				subtitle: expected,
			});
		}
	});
});

/** Every field a node shows, nested ones included (collection entries, fixed collection values). */
function fieldsOf(properties: INodeProperties[], path = ''): Array<{ path: string; field: INodeProperties }> {
	return properties.flatMap((field) => {
		const here = `${path}${field.displayName}`;
		const nested = ((field.options ?? []) as Array<INodeProperties | { displayName: string; values?: INodeProperties[] }>).flatMap((option) =>
			'type' in option && option.type ? fieldsOf([option as INodeProperties], `${here} > `) : fieldsOf((option as { values?: INodeProperties[] }).values ?? [], `${here} > `),
		);
		return [{ path: here, field }, ...nested];
	});
}

describe('tool descriptions: what an AI Agent reads of a node used as a tool', () => {
	const tools = Object.entries(NODE_TYPES).filter(([, node]) => node.description.usableAsTool);

	test('every required field of every tool node says what to give it', () => {
		const missing = tools.flatMap(([type, node]) =>
			fieldsOf(node.description.properties)
				.filter(({ field }) => field.required && field.type !== 'hidden' && !(field.description ?? '').trim())
				.map(({ path }) => `${type}: ${path}`),
		);
		expect(missing).toEqual([]);
		expect(tools.length).toBeGreaterThanOrEqual(10);
	});

	test('WDM Message: every field of Send Text has a description; the chat says which formats it takes', () => {
		// The fields shown for Send Text (not n8n's own Request Options), with the entries of their collections shown for it.
		const shown = (field: INodeProperties) => {
			const operations = field.displayOptions?.show?.operation ?? field.displayOptions?.show?.['/operation'];
			return !operations || operations.includes('sendText');
		};
		const top = NODE_TYPES['CUSTOM.wdmMessage'].description.properties.filter(
			(field) => field.type !== 'hidden' && !['operation', 'requestOptions'].includes(field.name) && field.displayOptions?.show?.operation?.includes('sendText'),
		);
		const sendText = fieldsOf(top).filter(({ field }) => shown(field));
		expect(sendText.length).toBeGreaterThan(10);
		expect(sendText.filter(({ field }) => field.type !== 'collection' && !(field.description ?? '').trim()).map(({ path }) => path)).toEqual([]);
		const chat = sendText.find(({ field }) => field.name === 'number')!.field;
		expect(chat.description).toMatch(/international format.*country code.*@s\.whatsapp\.net.*@g\.us/s);
	});
});
