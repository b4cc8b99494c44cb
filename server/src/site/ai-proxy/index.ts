import type { Route } from '../../http/route';
import { proxyRoutes } from './proxy';
import { settingsRoutes } from './settings';

/** proxyext/v1: the AI key and model, and the forwarding proxy to the AI upstream. */
export const aiProxyRoutes: Route[] = [...settingsRoutes, ...proxyRoutes];
