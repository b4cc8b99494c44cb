import type { Route } from './http/route';
import { deviceRoutes } from './gateway/devices';
import { messageRoutes } from './gateway/messages';
import { sendRoutes } from './gateway/send';
import { sandboxRoutes } from './network/sandbox';
import { indexRoutes } from './site/index';
import { webhookRoutes } from './webhooks/routes';

/**
 * The route table: every route the server answers, declared once. The server registers it, the site
 * index and the docs describe it, and the node-coverage test checks the nodes against it.
 */
const table: Route[] = [...deviceRoutes, ...webhookRoutes, ...sendRoutes, ...messageRoutes, ...sandboxRoutes];

export const routes: Route[] = [...indexRoutes(table), ...table];
