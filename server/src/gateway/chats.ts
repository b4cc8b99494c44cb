import type { Route } from '../http/route';

/** Chats: archive, read, mute, pin, delete, find. */
export const chatRoutes: Route[] = [];
