import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';
import { gatewayBaseUrl } from './gatewayBaseUrl';

/** One device's instance token, sent in the `token` header: it sends messages and acts on chats. */
export class WdmInstanceApi implements ICredentialType {
	name = 'wdmInstanceApi';

	displayName = 'WDM Instance API';

	icon: Icon = { light: 'file:wdm.svg', dark: 'file:wdm.dark.svg' };

	documentationUrl = 'https://github.com/wdm/n8n-nodes-wdm/blob/main/docs/usage.md#wdm-instance-api';

	properties: INodeProperties[] = [
		gatewayBaseUrl,
		{
			displayName: 'Instance Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'The token of the device, as answered by WDM Device: Create or Get Many',
			required: true,
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { token: '={{$credentials.token}}' } },
	};

	// A one-message search: cheap, and refused with 401 when the token is wrong.
	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl}}', url: '/message/find', method: 'POST', body: { limit: 1 } },
	};
}
