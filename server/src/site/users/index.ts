import type { Route } from '../../http/route';
import { appPasswordRoutes } from './app-passwords';
import { userRoutes } from './users';

/** The site's users and their application passwords (`cms/v2`, twinned in `wp/v2`). */
export const siteUserRoutes: Route[] = [...userRoutes(), ...appPasswordRoutes()];
