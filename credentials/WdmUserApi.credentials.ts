import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/** The user's API key, sent as a Bearer token: it manages devices (instances) and their webhooks. */
export class WdmUserApi implements ICredentialType {
	name = 'wdmUserApi';

	displayName = 'WDM User API';

	icon: Icon = { light: 'file:wdm.svg', dark: 'file:wdm.dark.svg' };

	documentationUrl = 'https://github.com/wdm/n8n-nodes-wdm#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://127.0.0.1:8080/wp-json/wdm/v1',
			placeholder: 'e.g. https://example.com/wp-json/wdm/v1',
			description:
				'Gateway address, ending in wdm/v1: https://SITE/wp-json/wdm/v1 or https://SITE/index.php?rest_route=/wdm/v1',
			required: true,
		},
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
