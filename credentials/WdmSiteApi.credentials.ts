import type { IAuthenticate, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';
import { SITE_BASE_URL } from '../nodes/shared/site';

/** A site user and one of its application passwords, sent as Basic auth, as WordPress signs them in. */
export class WdmSiteApi implements ICredentialType {
	name = 'wdmSiteApi';

	displayName = 'WDM Site API';

	icon: Icon = { light: 'file:wdm.svg', dark: 'file:wdm.dark.svg' };

	documentationUrl = 'https://github.com/wdm/n8n-nodes-wdm/blob/main/docs/usage.md#wdm-site-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Site URL',
			name: 'url',
			type: 'string',
			default: 'http://127.0.0.1:8080',
			placeholder: 'e.g. https://example.com',
			description: 'Address of the site, without the REST part (no /wp-json)',
			required: true,
		},
		{
			displayName: 'Addressing Style',
			name: 'addressing',
			type: 'options',
			options: [
				{
					name: 'index.php?rest_route=',
					value: 'restRoute',
					description: 'Works on every site, also without pretty permalinks',
				},
				{
					name: '/wp-json',
					value: 'wpJson',
					description: 'Pretty permalinks',
				},
			],
			default: 'restRoute',
			description: 'How REST routes are addressed on the site',
		},
		{
			displayName: 'Content Namespace',
			name: 'namespace',
			type: 'options',
			options: [
				{ name: 'cms/v2 (WDM Site)', value: 'cms/v2', description: 'The WDM site and its reference server' },
				{ name: 'wp/v2 (Stock WordPress)', value: 'wp/v2', description: "WordPress's own REST API; the reference server answers it too" },
			],
			default: 'cms/v2',
			description: 'Namespace of the posts, pages, media, categories and tags routes that WDM Post, Page, Media and Site use',
		},
		{
			displayName: 'User Name',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Application Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'e.g. abcd EFGH ijkl MNOP qrst UVWX',
			description: 'An application password of the user (spaces are optional)',
			required: true,
		},
	];

	// A function, not expressions: n8n 2.x evaluates an expression in its expression isolate on every request (issue 42).
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		auth: { username: String(credentials.username), password: String(credentials.password) },
	});

	// The site index is public, yet refuses (401) a wrong user or application password: shown with
	// WordPress's reasons rather than n8n's "Unauthorized" (one message: n8n picks it by status alone).
	test: ICredentialTestRequest = {
		request: { baseURL: SITE_BASE_URL, url: '/', method: 'GET' },
		rules: [
			{ type: 'responseCode', properties: { value: 401, message: 'Unknown username or invalid application password: the site refused them' } },
			{ type: 'responseCode', properties: { value: 404, message: 'No REST API at this Site URL with this Addressing Style: check both' } },
		],
	};
}
