import type { Route } from '../http/route';

/** Contact cards, locations and location-request buttons. */
export const sendCardRoutes: Route[] = [];
