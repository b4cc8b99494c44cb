import type { Route } from '../http/route';

/** Interactive menus (buttons, lists, polls) and carousels. */
export const menuRoutes: Route[] = [];
