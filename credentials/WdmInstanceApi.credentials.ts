import type { IAuthenticate, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';
import { gatewayBaseUrl, noGatewayRule } from './gatewayBaseUrl';

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

	// A function, not an expression (`={{$credentials.token}}`): n8n 2.x evaluates an expression in its
	// expression isolate on every request, every send of a bulk (issue 42).
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, token: String(credentials.token) },
	});

	// A one-message search: cheap, and refused with 401 when the token is wrong (shown with the gateway's
	// reason, "invalid instance token", rather than n8n's "Unauthorized").
	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl}}', url: '/message/find', method: 'POST', body: { limit: 1 } },
		rules: [{ type: 'responseCode', properties: { value: 401, message: 'Invalid instance token: the gateway knows no device with this token' } }, noGatewayRule],
	};
}
