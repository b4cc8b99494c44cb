import type { IAuthenticate, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';
import { gatewayBaseUrl, noGatewayRule } from './gatewayBaseUrl';

/** The user's API key, sent as a Bearer token: it manages devices (instances) and their webhooks. */
export class WdmUserApi implements ICredentialType {
	name = 'wdmUserApi';

	displayName = 'WDM User API';

	icon: Icon = { light: 'file:wdm.svg', dark: 'file:wdm.dark.svg' };

	documentationUrl = 'https://github.com/wdm/n8n-nodes-wdm/blob/main/docs/usage.md#wdm-user-api';

	properties: INodeProperties[] = [
		gatewayBaseUrl,
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Your user API key (the reference server prints the admin key on its first start)',
			required: true,
		},
	];

	// A function, not an expression (`=Bearer {{$credentials.apiKey}}`): n8n 2.x evaluates an expression in
	// its expression isolate on every request (issue 42).
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${credentials.apiKey}` },
	});

	// A wrong key: the gateway's reason ("invalid API key") rather than n8n's "Unauthorized".
	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl}}', url: '/devices', method: 'GET' },
		rules: [{ type: 'responseCode', properties: { value: 401, message: 'Invalid API key: the gateway knows no user with this key' } }, noGatewayRule],
	};
}
