import type { Route } from '../http/route';

/** Groups. */
export const groupRoutes: Route[] = [];
