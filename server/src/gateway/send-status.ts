import type { Route } from '../http/route';

/** Status posts of the device. */
export const statusRoutes: Route[] = [];
