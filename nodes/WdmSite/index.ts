import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';
import { contextField } from '../shared/content/fields';
import { without, type Operation } from '../shared/operations';
import { siteResponse, siteRouting, toSiteNamespace } from '../shared/site';

/** Keeps the site fields and namespaces of the index; the routes map is large and rarely wanted in a workflow. */
async function withoutRoutes(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	if (!this.getNodeParameter('simplify', true)) return items;
	return items.map((item) => ({ ...item, json: without(item.json, 'routes') }));
}

export const getIndex: Operation = {
	name: 'Get Index',
	value: 'getIndex',
	action: 'Get the site index',
	description: 'Get the site name, time zone, front page settings, namespaces and authentication schemes',
	routing: { ...siteRouting('GET', '/'), output: { postReceive: [siteResponse, withoutRoutes] } },
	fields: [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to leave out the map of every route with its arguments',
		},
		contextField,
	],
};

/** `cms/v2` or `/builder/v1/documents/` -> `/cms/v2`, `/builder/v1/documents`: slashes stay path separators. */
const namespaceUrl = '=/{{$parameter.namespace.replace(/^\\/+|\\/+$/g, "").split("/").map(encodeURIComponent).join("/")}}';

export const getNamespaceIndex: Operation = {
	name: 'Get Namespace Index',
	value: 'getNamespaceIndex',
	action: 'Get the index of a namespace',
	description: 'Get the routes of one namespace with their methods and arguments',
	// `cms/v2` names the core content: with a `wp/v2` credential, its index is `wp/v2`'s.
	routing: { request: { method: 'GET', url: namespaceUrl }, send: { preSend: [toSiteNamespace] }, output: { postReceive: [siteResponse] } },
	fields: [
		{
			displayName: 'Namespace',
			name: 'namespace',
			type: 'string',
			required: true,
			default: 'cms/v2',
			placeholder: 'e.g. cms/v2',
			description: 'One of the namespaces Get Index lists, e.g. cms/v2, oembed/1.0 or builder/v1/documents',
		},
		contextField,
	],
};
