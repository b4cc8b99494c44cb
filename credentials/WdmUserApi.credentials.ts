import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';
import { gatewayBaseUrl } from './gatewayBaseUrl';

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

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl}}', url: '/devices', method: 'GET' },
	};
}
