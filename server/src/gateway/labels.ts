import type { Route } from '../http/route';

/** Labels and the labels of chats. */
export const labelRoutes: Route[] = [];
