import type { INodeProperties } from 'n8n-workflow';

/** The base URL field both gateway credentials share. */
export const gatewayBaseUrl: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: 'http://127.0.0.1:8080/wp-json/wdm/v1',
	placeholder: 'e.g. https://example.com/wp-json/wdm/v1',
	description: 'Gateway address, ending in wdm/v1: https://SITE/wp-json/wdm/v1 or https://SITE/index.php?rest_route=/wdm/v1',
	required: true,
};
