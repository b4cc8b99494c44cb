import type { Route } from '../http/route';

/** The device's proxy configuration. */
export const proxyRoutes: Route[] = [];
