import type { Route } from '../../http/route';
import { designSystemRoutes } from './design-system';
import { favoritesRoutes } from './favorites';
import { globalClassesRoutes } from './global-classes';
import { globalsRoutes } from './globals';
import { kitDefaultsRoutes } from './kit-defaults';
import { settingsRoutes } from './settings';
import { userDataRoutes } from './user-data';
import { variablesRoutes } from './variables';

/** builder/v1 design system: globals, settings, kit element defaults, favorites, user data, global classes, variables, the design-system stylesheet and its cache. */
export const designRoutes: Route[] = [
	...globalsRoutes,
	...settingsRoutes,
	...kitDefaultsRoutes,
	...favoritesRoutes,
	...userDataRoutes,
	...globalClassesRoutes,
	...variablesRoutes,
	...designSystemRoutes,
];
