import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { routes } from '../../server/src/routes';
import { NODE_TYPES } from '../helpers/nodes';

const GATEWAY_CREDENTIALS = ['wdmUserApi', 'wdmInstanceApi'];
const hasOperations = (node: INodeType) => node.description.properties.some((p) => p.name === 'operation');

/** The gateway nodes (every action node on a gateway credential): every `wdm/v1` route must be an operation of one of them. */
const gatewayNodes = Object.values(NODE_TYPES).filter(
	(node) => hasOperations(node) && node.description.credentials?.some((c) => GATEWAY_CREDENTIALS.includes(c.name)),
);

const GATEWAY = '/wdm/v1';

/** `=/devices/{{encodeURIComponent($parameter.device)}}/qr` and `/devices/{name}/qr` both become `/devices/{}/qr`. */
const shape = (url: string) => url.replace(/^=/, '').replace(/\{\{.*?\}\}|\{\w+\}/g, '{}');

function operationsOf(node: INodeType) {
	const selector = node.description.properties.find((p: INodeProperties) => p.name === 'operation')!;
	return (selector.options as INodePropertyOptions[]).map((option) => {
		const request = option.routing?.request as { method: string; url: string };
		return { node: node.description.name, operation: option.value, route: `${request.method} ${shape(request.url)}` };
	});
}

const operations = gatewayNodes.flatMap(operationsOf);
const gatewayRoutes = routes
	.filter((r) => r.path.startsWith(`${GATEWAY}/`))
	.map((r) => `${r.method} ${shape(r.path.slice(GATEWAY.length))}`);

test('every gateway route of the server has a node operation', () => {
	const covered = new Set(operations.map((o) => o.route));
	expect(gatewayRoutes.filter((r) => !covered.has(r))).toEqual([]);
	expect(gatewayRoutes.length).toBeGreaterThanOrEqual(13);
});

test('every node operation calls a route the server has', () => {
	const known = new Set(gatewayRoutes);
	expect(operations.filter((o) => !known.has(o.route))).toEqual([]);
});

test('no two operations call the same route', () => {
	const seen = operations.map((o) => o.route);
	expect(seen.filter((r, i) => seen.indexOf(r) !== i)).toEqual([]);
});
