// The node panel's actions and the names n8n gives nodes (issue 39, points 1, 2 and 10). n8n's editor
// builds a node's actions from its Resource and Operation options (their `action` texts and the
// displayOptions that tie operations to a resource), and names a node from the action when it is added
// or its operation changes. The editor is not a dependency: `panelActions` below follows n8n 2.40's
// node creator (editor-ui, NodeCreator/composables/useActionsGeneration.ts, useActions.ts getActionData,
// NodeItem.vue); the names come from n8n-workflow's own `makeNodeName`.
import { NodeHelpers, type IDisplayOptions, type INodeParameters, type INodeProperties, type INodePropertyOptions, type INodeTypeDescription } from 'n8n-workflow';
import { NODE_TYPES } from '../helpers/nodes';

interface Action {
	displayName: string;
	values: INodeParameters;
	displayOptions?: IDisplayOptions;
}

const descriptions = Object.values(NODE_TYPES).map((type) => type.description);
const optionsOf = (property?: INodeProperties) => (property?.options ?? []) as INodePropertyOptions[];
const valuesFor = (property: INodeProperties, value: INodePropertyOptions['value']) => ({ [property.name]: property.type === 'multiOptions' ? [value] : value });

/** A trigger's actions: one per option of its Events (or Trigger On) field, else one placeholder. */
function triggerActions(node: INodeTypeDescription): Action[] {
	if (!node.displayName.toLowerCase().includes('trigger')) return [];
	const events = node.properties.find((property) => ['event', 'events', 'trigger on'].includes(property.displayName.toLowerCase()));
	if (!events?.options) return [{ displayName: `On new ${node.displayName.replace('Trigger', '').trimEnd()} event`, values: {} }];
	return optionsOf(events).map((option) => ({ displayName: option.action ?? `On ${option.name}`, values: valuesFor(events, option.value), displayOptions: events.displayOptions }));
}

/** A node without a Resource field: one action per option of its Operation field. */
function operationActions(node: INodeTypeDescription): Action[] {
	if (node.properties.some((property) => property.name === 'resource')) return [];
	const operation = node.properties.find((property) => property.name.toLowerCase() === 'operation');
	// n8n falls back to lodash's startCase of the name, which leaves our Title Case names as they are.
	return optionsOf(operation).map((option) => ({ displayName: option.action ?? option.name, values: valuesFor(operation!, option.value), displayOptions: operation!.displayOptions }));
}

/** A node with a Resource field: for each resource, the Operation field shown for it (any, when there is one resource). */
function resourceActions(node: INodeTypeDescription): Action[] {
	return node.properties
		.filter((property) => property.name === 'resource')
		.flatMap((resource) => {
			const resources = optionsOf(resource);
			return resources.flatMap((option) => {
				const single = resources.length === 1;
				const operation = node.properties.find((property) => property.name === 'operation' && (property.displayOptions?.show?.resource?.includes(option.value) ?? single));
				return optionsOf(operation).map((op) => ({
					displayName: op.action ?? `${option.name} ${op.name}`,
					values: valuesFor(operation!, op.value),
					displayOptions: single ? { show: { resource: [option.value] } } : operation!.displayOptions,
				}));
			});
		});
}

/** The actions the node panel lists for each node, by node name (triggers: none when only one). */
function panelActions(): Record<string, Action[]> {
	const actions: Record<string, Action[]> = {};
	for (const node of descriptions) {
		const all = [...triggerActions(node), ...operationActions(node), ...resourceActions(node)];
		const trigger = node.group.includes('trigger');
		// A trigger joins the regular node of its name without "Trigger": no WDM node is named so.
		expect(trigger && descriptions.some((other) => other.name === node.name.replace('Trigger', ''))).toBe(false);
		actions[node.name] = trigger && all.length <= 1 ? [] : all;
	}
	return actions;
}

/** The parameters of a node added from an action: its values and the first value of each of its display conditions. */
const addedWith = (action: Action): INodeParameters => ({
	...action.values,
	...Object.fromEntries(Object.entries(action.displayOptions?.show ?? {}).map(([key, values]) => [key, values?.[0]])),
});

const operationsOf = (node: INodeTypeDescription) => node.properties.filter((property) => property.name === 'operation').flatMap(optionsOf);

test('every operation of every node is an action in the node panel, under its `action` text', () => {
	const actions = panelActions();
	for (const node of descriptions) {
		const operations = operationsOf(node);
		for (const operation of operations) expect(operation.action).toMatch(/^[A-Z][a-z]* [a-z]/);
		const listed = actions[node.name].filter((action) => 'operation' in action.values).map((action) => [action.values.operation, action.displayName]);
		expect({ node: node.displayName, listed }).toEqual({ node: node.displayName, listed: operations.map((operation) => [operation.value, operation.action]) });
	}
});

test("a node added from an action is named by it, and renamed by the operation's action when that changes", () => {
	for (const [name, actions] of Object.entries(panelActions())) {
		const node = descriptions.find((description) => description.name === name)!;
		for (const action of actions.filter((a) => 'operation' in a.values)) expect(NodeHelpers.makeNodeName(addedWith(action), node)).toBe(action.displayName);
	}
	// A node added with "Add to workflow", then given an operation (and its resource, where there are
	// several): n8n fills the other parameters with their defaults.
	for (const node of descriptions) {
		const several = optionsOf(node.properties.find((property) => property.name === 'resource')).length > 1;
		for (const selector of node.properties.filter((property) => property.name === 'operation')) {
			for (const operation of optionsOf(selector)) {
				const given = { ...(several ? { resource: selector.displayOptions!.show!.resource![0] } : {}), operation: operation.value };
				const parameters = NodeHelpers.getNodeParameters(node.properties, given, true, false, null, node)!;
				expect(NodeHelpers.makeNodeName(parameters, node)).toBe(operation.action);
			}
		}
	}
});

test('no two operations of a node have one action: the names tell them apart', () => {
	for (const node of descriptions) {
		const actions = operationsOf(node).map((operation) => operation.action);
		expect({ node: node.displayName, repeated: actions.filter((action, i) => actions.indexOf(action) !== i) }).toEqual({ node: node.displayName, repeated: [] });
	}
});

test('the node panel lists every node under its own name (a trigger with actions loses "Trigger")', () => {
	const actions = panelActions();
	const listedAs = (node: INodeTypeDescription) => (actions[node.name].length > 1 ? node.displayName.trimEnd().replace('Trigger', '') : node.displayName);
	expect(descriptions.map(listedAs)).toEqual(descriptions.map((node) => node.displayName));
});
