import { z } from 'zod';
import type { Store } from '../../store';

/**
 * The top bar's notifications: what happened to the site's apps (a plugin installed or updated, the
 * cloud connected), stored as the changes happen, each for one app (`app_name`, a plugin slug, `theme`
 * or `builder-one`) and the app version it is about.
 */
export const notificationAnswer = z.object({
	id: z.number().int(),
	app_name: z.string(),
	app_version: z.string(),
	title: z.string(),
	description: z.string(),
	date: z.string(),
});
export type Notification = z.output<typeof notificationAnswer>;

const NAMESPACE = 'builder-one';
const KIND = 'notification';

/** Stores a notification (inside the caller's transaction: the change and its notice land together). */
export function notify(store: Store, notice: Omit<Notification, 'id' | 'date'>): Notification {
	const id = store.objects.nextId(NAMESPACE, KIND);
	return store.objects.put(NAMESPACE, KIND, String(id), { id, ...notice, date: new Date().toISOString() }).data;
}

/** Every notification, newest first. */
export const notifications = (store: Store): Notification[] =>
	store.objects
		.list<Notification>(NAMESPACE, KIND)
		.map((object) => object.data)
		.reverse();
