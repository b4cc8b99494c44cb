import { z } from 'zod';
import { route, type Route, type Method } from '../../http/route';
import type { Store } from '../../store';
import { siteConnection } from '../plugins';
import { requireCap } from './access';
import { connectionStatusSchema } from './connection';

/**
 * The builder connection's settings (`manage_options`): GET reads them with the connection's state,
 * POST/PUT/PATCH change the fields given (unknown fields are refused).
 */

const settingsSchema = z.object({
	/** Whether the top bar shows its notifications (off: the notifications route answers none). */
	top_bar_enabled: z.boolean(),
	/** Whether the site shares anonymous usage data with the builder cloud. */
	share_usage_data: z.boolean(),
	/** Whether managed plugins may be upgraded automatically. */
	auto_updates: z.boolean(),
	/** Whether the site gets beta releases. */
	beta_releases: z.boolean(),
});

export type BuilderOneSettings = z.output<typeof settingsSchema>;

const DEFAULTS: BuilderOneSettings = { top_bar_enabled: true, share_usage_data: false, auto_updates: false, beta_releases: false };

const NAMESPACE = 'builder-one';

export const builderOneSettings = (store: Store): BuilderOneSettings => ({
	...DEFAULTS,
	...store.objects.get<Partial<BuilderOneSettings>>(NAMESPACE, 'settings', 'settings')?.data,
});

/** What the settings routes answer: the settings, and the connection's state. */
const settingsAnswer = settingsSchema.extend({ connection_status: connectionStatusSchema });

const view = (store: Store): z.output<typeof settingsAnswer> => ({ ...builderOneSettings(store), connection_status: siteConnection(store).status });

const canManage = (user: Parameters<typeof requireCap>[0]) =>
	requireCap(user, 'manage_options', 'rest_forbidden', 'Sorry, you are not allowed to manage the builder connection settings.');

const update = (method: Method) =>
	route({
		method,
		path: '/builder-one/v1/settings',
		auth: 'site',
		summary: 'Change the settings given; answers them all',
		body: settingsSchema.partial().strict(),
		answer: settingsAnswer,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			canManage(siteUser);
			const store = services.store;
			return store.tx(() => {
				store.objects.put(NAMESPACE, 'settings', 'settings', { ...builderOneSettings(store), ...body });
				return view(store);
			});
		},
	});

export const settingsRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder-one/v1/settings',
		auth: 'site',
		summary: "The builder connection's settings and the connection's state",
		answer: settingsAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			canManage(siteUser);
			return view(services.store);
		},
	}),
	update('POST'),
	update('PUT'),
	update('PATCH'),
];
