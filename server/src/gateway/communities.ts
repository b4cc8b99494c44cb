import type { Route } from '../http/route';

/** Communities. */
export const communityRoutes: Route[] = [];
