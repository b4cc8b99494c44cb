import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { toBody } from './editorFields';

const ROUTE = '/builder/v1/library/connect';

const operations: Operation[] = [
	{
		name: 'Connect',
		value: 'connectLibrary',
		action: 'Connect to the template library',
		description: 'Connect the credential user to the template library with a connect token',
		routing: siteRouting('POST', ROUTE),
		fields: [
			{
				displayName: 'Connect Token',
				name: 'connectToken',
				type: 'string',
				typeOptions: { password: true },
				required: true,
				default: '',
				description: 'The token the template library service issued',
				routing: toBody('token'),
			},
		],
	},
	{
		name: 'Disconnect',
		value: 'disconnectLibrary',
		action: 'Disconnect from the template library',
		description: 'Remove the credential user’s connection to the template library',
		routing: siteRouting('DELETE', ROUTE),
	},
];

export const library: Resource = { name: 'Library', value: 'library', operations };
