import type { INodeProperties } from 'n8n-workflow';
import { fieldProperties, namesByValue, type Operation, operationSelector, operationSubtitle } from './operations';

/** One resource of a node with a Resource selector: its entry in the list and its operations. */
export interface Resource {
	name: string;
	value: string;
	description?: string;
	operations: Operation[];
}

/**
 * The subtitle of a node with resources, as n8n's own nodes show it: `Get Many: Post Type`; the
 * operation alone where the node has one resource (its selector is hidden, see `resourceProperties`).
 */
export function resourceSubtitle(resources: Resource[]): string {
	const operations = resources.flatMap((resource) => resource.operations);
	if (resources.length === 1) return operationSubtitle(operations);
	return `={{ ${namesByValue(operations)}[$parameter["operation"]] + ": " + ${namesByValue(resources)}[$parameter["resource"]] }}`;
}

/**
 * The properties of a node: the Resource selector, one `operation` selector per resource, and every
 * operation's fields, each name declared once for the whole node (see `fieldProperties`). Fields are
 * shown by operation alone, so operation values must be unique across the node's resources
 * (`createPostType`, not `create`): a node that repeats one throws when it loads.
 *
 * Each operation selector is shown for its resource, also where the node has one resource (whose
 * selector is then hidden): n8n's node panel lists a node's actions, and the editor names a node
 * after its operation's `action`, only from a resource's options and the operation selector shown for
 * it (editor-ui's useActionsGeneration, n8n-workflow's makeNodeName).
 */
export function resourceProperties(resources: Resource[]): INodeProperties[] {
	const operations = resources.flatMap((resource) => resource.operations);
	const repeated = operations.map((o) => o.value).filter((value, i, all) => all.indexOf(value) !== i);
	if (repeated.length) throw new Error(`Operation values must be unique across resources: ${[...new Set(repeated)].join(', ')}`);
	const first = resources[0].value;
	const selector = {
		displayName: 'Resource',
		name: 'resource',
		type: resources.length > 1 ? 'options' : 'hidden',
		noDataExpression: true,
		options: resources.map(({ name, value, description }) => ({ name, value, ...(description ? { description } : {}) })),
		default: first,
	} satisfies INodeProperties;
	const selectors = resources.map((resource) => ({ ...operationSelector(resource.operations), displayOptions: { show: { resource: [resource.value] } } }));
	return [selector, ...selectors, ...fieldProperties(operations)];
}
