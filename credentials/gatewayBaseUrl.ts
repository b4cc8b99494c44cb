import type { IAuthenticateRuleResponseCode, INodeProperties } from 'n8n-workflow';

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

/**
 * What the credential dialog shows when no gateway answers at the Base URL. n8n shows a rule's message
 * for its status instead of the status's reason phrase ("Not Found", "Unauthorized").
 */
export const noGatewayRule: IAuthenticateRuleResponseCode = {
	type: 'responseCode',
	properties: {
		value: 404,
		message: 'No WDM gateway at this Base URL: it ends in wdm/v1, as https://SITE/wp-json/wdm/v1 or https://SITE/index.php?rest_route=/wdm/v1',
	},
};
