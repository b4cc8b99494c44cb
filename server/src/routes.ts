import type { Route } from './http/route';
import { chatRoutes } from './gateway/chats';
import { communityRoutes } from './gateway/communities';
import { contactRoutes } from './gateway/contacts';
import { deviceRoutes } from './gateway/devices';
import { groupRoutes } from './gateway/groups';
import { labelRoutes } from './gateway/labels';
import { messageRoutes } from './gateway/messages';
import { proxyRoutes } from './gateway/proxy';
import { sendRoutes } from './gateway/send';
import { sendCardRoutes } from './gateway/send-cards';
import { menuRoutes } from './gateway/send-menus';
import { paymentRoutes } from './gateway/send-payments';
import { statusRoutes } from './gateway/send-status';
import { sandboxRoutes } from './network/sandbox';
import { dashboardRoutes } from './dashboard/routes';
import { aiProxyRoutes } from './site/ai-proxy';
import { batchRoutes } from './site/batch';
import { builderRoutes } from './site/builder';
import { builderOneRoutes } from './site/builder-one';
import { contentRoutes, siteCoreRoutes } from './site/content';
import { wpAliases } from './site/content/namespace';
import { mediaRoutes } from './site/content/media';
import { engineRoutes } from './site/engine';
import { indexRoutes } from './site/index';
import { oembedRoutes } from './site/oembed';
import { themecoreRoutes } from './site/themecore';
import { siteUserRoutes } from './site/users';
import { webhookRoutes } from './webhooks/routes';

/**
 * The route table: every route the server answers, declared once. The server registers it, the site
 * index and the docs describe it, and the node-coverage test checks the nodes against it.
 * Gateway routes come in the spec's order.
 */
const table: Route[] = [
	...deviceRoutes,
	...webhookRoutes,
	...sendRoutes,
	...sendCardRoutes,
	...statusRoutes,
	...paymentRoutes,
	...menuRoutes,
	...messageRoutes,
	...labelRoutes,
	...proxyRoutes,
	...chatRoutes,
	...contactRoutes,
	...groupRoutes,
	...communityRoutes,
	...sandboxRoutes,
	...dashboardRoutes,
	...oembedRoutes,
	...contentRoutes,
	...mediaRoutes,
	...siteCoreRoutes,
	...siteUserRoutes,
	// The MCP tools run routes of the whole table, known once it is built.
	...engineRoutes(() => routes),
	...themecoreRoutes,
	...builderRoutes,
	...builderOneRoutes,
	...aiProxyRoutes,
];

const served: Route[] = [
	...table,
	// Stock WordPress's namespace: every `cms/v2` route answers at `wp/v2` too (site/content/namespace.ts).
	...wpAliases(table),
	// Its requests are matched against the whole table, known once it is built.
	...batchRoutes(() => routes),
];

export const routes: Route[] = [...indexRoutes(served), ...served];
