import type { Route } from '../../http/route';
import { connectionRoutes } from './connection';
import { pluginRoutes } from './plugins';
import { settingsRoutes } from './settings';
import { themeRoutes } from './themes';
import { topBarRoutes } from './top-bar';

/** builder-one/v1: the connection to the builder cloud, plugins, themes, top bar and settings. */
export const builderOneRoutes: Route[] = [...connectionRoutes, ...topBarRoutes, ...themeRoutes, ...pluginRoutes, ...settingsRoutes];
