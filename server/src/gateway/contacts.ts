import type { Route } from '../http/route';

/** Contacts and number checks. */
export const contactRoutes: Route[] = [];
