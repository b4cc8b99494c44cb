import type { Route } from '../../http/route';
import { autosaveRoutes } from './autosaves';
import { commentsRoutes } from './comments';
import { engineTypeRoutes } from './engine-types';
import { registryRoutes } from './registry-routes';
import { revisionRoutes } from './revisions';
import { postTypeRoutes } from './routes';
import { searchRoutes } from './search';
import { settingsRoutes } from './settings';
import { categoryRoutes, tagRoutes } from './terms';
import { PAGE, POST, type PostType } from './types';

/** Every route of one post type: collection and items, revisions, autosaves. */
const routesOf = (def: PostType): Route[] => [...postTypeRoutes(def), ...revisionRoutes(def), ...autosaveRoutes(def)];

/**
 * The `cms/v2` content routes of posts and pages, the categories and tags their term ids name, comments, and the
 * collections of the post types and taxonomies the engine adds.
 */
export const contentRoutes: Route[] = [...routesOf(POST), ...routesOf(PAGE), ...categoryRoutes, ...tagRoutes, ...commentsRoutes, ...engineTypeRoutes];

/** The site's settings, search, and its post types, taxonomies and statuses (WordPress's small core controllers). */
export const siteCoreRoutes: Route[] = [...settingsRoutes, ...searchRoutes, ...registryRoutes];
