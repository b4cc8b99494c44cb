import type { Route } from '../../http/route';
import { pageTemplateRoutes } from './page-templates';
import { settingsRoutes } from './settings';
import { siteDataRoutes } from './site-data';
import { templateRoutes } from './templates';

/** themecore/v2: templates, their conditions, page templates, the plugin's settings and syncs, and the reads of site state. */
export const themecoreRoutes: Route[] = [...settingsRoutes, ...templateRoutes, ...pageTemplateRoutes, ...siteDataRoutes];
