import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';

const operations: Operation[] = [
	{
		name: 'Get Permissions',
		value: 'getAiPermissions',
		action: 'Get the AI permissions',
		description: "Get what the credential user may do with the builder's AI features",
		routing: siteRouting('GET', '/builder-ai/v1/permissions'),
	},
];

export const ai: Resource = { name: 'AI', value: 'ai', operations };
