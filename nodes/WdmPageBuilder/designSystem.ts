import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';

/** The generated design-system stylesheet and the builder's CSS cache. */

const operations: Operation[] = [
	{
		name: 'Get Stylesheet',
		value: 'getDesignStylesheet',
		action: 'Get the design system stylesheet',
		description: 'Get the CSS of the globals, variables and classes, generated if the cache has none',
		routing: siteRouting('POST', '/builder/v1/design-system-sync/stylesheet'),
	},
	{
		name: 'Clear Cache',
		value: 'clearBuilderCache',
		action: 'Clear the generated CSS',
		description: 'Clear the generated CSS; the next stylesheet request generates it again',
		routing: siteRouting('DELETE', '/builder/v1/cache'),
	},
];

export const designSystem: Resource = { name: 'Design System', value: 'designSystem', description: 'The generated stylesheet and its cache', operations };
