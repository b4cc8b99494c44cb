import type { Route } from '../../http/route';
import { itemRoutes } from './items';
import { metaBoxRoutes } from './meta-boxes';
import { optionsPageRoutes } from './options-pages';
import { postTypeRoutes } from './post-types';
import { relationRoutes } from './relations';
import { taxonomyRoutes } from './taxonomies';

/** engine/v2 content model: post types, taxonomies, meta boxes, options pages, relations, generic items (decisions: docs/drafts/engine-model.md). */
export const modelRoutes: Route[] = [...postTypeRoutes, ...taxonomyRoutes, ...metaBoxRoutes, ...optionsPageRoutes, ...relationRoutes, ...itemRoutes];
