import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { routes } from '../../server/src/routes';
import { namespaceOf } from '../../server/src/http/route';
import { inSiteNamespace, toSiteNamespace } from '../../nodes/shared/site';
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

/** Every operation of a node (a node with resources has one `operation` selector per resource). */
function operationsOf(node: INodeType) {
	const selectors = node.description.properties.filter((p: INodeProperties) => p.name === 'operation');
	return selectors.flatMap((selector) =>
		(selector.options as INodePropertyOptions[]).map((option) => {
			const request = option.routing?.request as { method: string; url: string };
			return { node: node.description.name, operation: option.value, route: `${request.method} ${shape(request.url)}` };
		}),
	);
}

const operations = gatewayNodes.flatMap(operationsOf);
const gatewayRoutes = routes
	.filter((r) => r.path.startsWith(`${GATEWAY}/`))
	.map((r) => `${r.method} ${shape(r.path.slice(GATEWAY.length))}`);

test('every node declares each parameter once (n8n evaluates every declaration of a name, shown or not, for every item)', () => {
	// A node with resources has an `operation` selector per resource: a selector takes no expression.
	const duplicates = Object.values(NODE_TYPES).flatMap((node) => {
		const names = node.description.properties.map((p) => p.name).filter((name) => name !== 'operation');
		return names.filter((name, i) => names.indexOf(name) !== i).map((name) => `${node.description.name}.${name}`);
	});
	expect(duplicates).toEqual([]);
});

/**
 * Routes a node calls by itself, not operations a user picks: the WDM Trigger's claim of a delivered
 * event, so that an event delivered twice runs once (test/nodes/trigger.test.ts runs it through n8n).
 */
const NODE_INTERNAL_ROUTES = ['POST /devices/{}/webhook/claim'];

test('every gateway route of the server has a node operation', () => {
	const covered = new Set([...operations.map((o) => o.route), ...NODE_INTERNAL_ROUTES]);
	expect(gatewayRoutes.filter((r) => !covered.has(r))).toEqual([]);
	expect(gatewayRoutes.length).toBeGreaterThanOrEqual(13);
});

test('every node operation calls a route the server has', () => {
	const known = new Set(gatewayRoutes);
	expect(operations.filter((o) => !known.has(o.route))).toEqual([]);
});

/**
 * Routes whose modes are operations of their own, because their fields differ by mode and a field
 * that several operations share cannot depend on a parameter of one of them (docs/decisions/nodes.md,
 * "Nodes: one declaration per field").
 */
const SHARED_ROUTES: Record<string, string[]> = {
	'POST /send/status': ['sendTextStatus', 'sendMediaStatus'],
	'POST /chat/labels': ['setChatLabels', 'addChatLabel', 'removeChatLabel'],
};

test('no two operations call the same route, but the modes of a shared route', () => {
	const byRoute = new Map<string, string[]>();
	for (const o of operations) byRoute.set(o.route, [...(byRoute.get(o.route) ?? []), String(o.operation)]);
	expect(Object.fromEntries([...byRoute].filter(([, ops]) => ops.length > 1))).toEqual(SHARED_ROUTES);
});

describe('site', () => {
	/** The site nodes: every action node on the site credential. Their URLs are REST routes (`siteRoute`). */
	const siteNodes = Object.values(NODE_TYPES).filter(
		(node) => hasOperations(node) && node.description.credentials?.some((c) => c.name === 'wdmSiteApi'),
	);
	const siteOperations = siteNodes.flatMap(operationsOf);

	/** `/cms/v2` or `/builder/v1/documents`: a namespace's index, which one operation serves for all of them (`/{}`). */
	const isNamespaceIndex = (path: string) => path !== '/' && path === `/${namespaceOf(path)}`;
	const siteShape = (r: (typeof routes)[number]) => (isNamespaceIndex(r.path) ? 'GET /{}' : `${r.method} ${shape(r.path)}`);
	const GATEWAY_NAMESPACES = ['wdm/v1', 'sandbox/v1'];
	const siteRoutes = routes.filter((r) => isNamespaceIndex(r.path) || !GATEWAY_NAMESPACES.includes(namespaceOf(r.path)));

	/** The namespaces whose every route must be a node operation: every namespace of the site (the gateway's are checked above). */
	const COVERED = [
		'',
		'oembed/1.0',
		'cms/v2',
		'engine/v1',
		'engine/v2',
		'themecore/v2',
		'builder/v1',
		'builder/v1/documents',
		'builder/v1/feedback',
		'builder-ai/v1',
		'builder-one/v1',
		'proxyext/v1',
	];

	/**
	 * WordPress serves an update at POST, PUT and PATCH alike (its EDITABLE methods): one operation on any
	 * of them covers the others of the same route.
	 */
	const EDITABLE = ['POST', 'PUT', 'PATCH'];
	const editable = (shaped: string) => {
		const [method, path] = shaped.split(' ');
		const methods = siteRoutes.filter((r) => siteShape(r).endsWith(` ${path}`)).map((r) => r.method);
		return EDITABLE.includes(method) && methods.filter((m) => EDITABLE.includes(m)).length > 1 ? `EDITABLE ${path}` : shaped;
	};

	test('every route of the covered site namespaces, and every namespace index, has a node operation', () => {
		const covered = new Set(siteOperations.map((o) => editable(o.route)));
		const required = [...new Set(siteRoutes.filter((r) => isNamespaceIndex(r.path) || COVERED.includes(namespaceOf(r.path))).map(siteShape))];
		expect(required.filter((r) => !covered.has(editable(r)))).toEqual([]);
		expect(required).toEqual(expect.arrayContaining(['GET /', 'GET /{}', 'POST /batch/v1', 'GET /oembed/1.0/embed', 'GET /oembed/1.0/proxy']));
	});

	/**
	 * `wp/v2` (a stock WordPress) is not covered by operations of its own: the operations of `cms/v2`
	 * reach it when the credential's Content Namespace says so (`toSiteNamespace`, see nodes/shared/site.ts).
	 */
	test('every wp/v2 route is reached by the cms/v2 operation whose route moves with the credential namespace', () => {
		const wp = { namespace: 'wp/v2' };
		const moving = siteNodes.flatMap((node) =>
			node.description.properties
				.filter((p) => p.name === 'operation')
				.flatMap((selector) => selector.options as INodePropertyOptions[])
				.filter((option) => (option.routing?.send?.preSend ?? []).includes(toSiteNamespace))
				.map((option) => {
					const request = option.routing!.request as { method: string; url: string };
					return editable(`${request.method} ${inSiteNamespace(shape(request.url), wp)}`);
				}),
		);
		const required = siteRoutes.filter((r) => namespaceOf(r.path) === 'wp/v2' && !isNamespaceIndex(r.path)).map((r) => editable(siteShape(r)));
		expect(required.length).toBeGreaterThanOrEqual(20);
		expect(required.filter((r) => !moving.includes(r))).toEqual([]);
	});

	test('every site operation calls a route the server has', () => {
		const known = new Set(siteRoutes.map(siteShape));
		expect(siteOperations.filter((o) => !known.has(o.route))).toEqual([]);
	});

	test('no two site operations call the same route', () => {
		// A Download reads the item (the route Get calls too), then fetches its file into binary data.
		const seen = siteOperations.filter((o) => o.operation !== 'download').map((o) => o.route);
		expect(seen.filter((r, i) => seen.indexOf(r) !== i)).toEqual([]);
	});
});
