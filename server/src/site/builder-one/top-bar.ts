import { z } from 'zod';
import { phpQuery } from '../../http/query';
import { route, type Route } from '../../http/route';
import type { UserRow } from '../../store/types';
import { olderVersion } from '../plugins';
import { requireCap } from './access';
import { notificationAnswer, notifications } from './notifications';
import { builderOneSettings } from './settings';

/**
 * The admin top bar: the notifications of an app (newest first; none while the top bar is off in the
 * settings), and feedback, stored for the builder team. Both for whoever edits posts.
 */

const required = z.string().trim().min(1);

function canUse(user: UserRow | null): asserts user is UserRow {
	requireCap(user, 'edit_posts', 'rest_forbidden', 'Sorry, you are not allowed to use the top bar.');
}

/** Feedback as stored and answered. */
export const feedbackAnswer = z.object({
	id: z.number().int(),
	product: z.string(),
	subject: z.string(),
	title: z.string(),
	description: z.string(),
	country_code: z.string().nullable(),
	author: z.number().int(),
	date: z.string(),
});
export type Feedback = z.output<typeof feedbackAnswer>;

export const topBarRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder-one/v1/top-bar/notifications',
		auth: 'site',
		summary: 'The notifications of an app, newest first: those about app_version or an earlier version',
		query: phpQuery({ app_name: required.max(100), app_version: z.string().regex(/^\d+(\.\d+){0,3}$/, { error: 'must be a version such as 3.31.2' }) }),
		answer: z.array(notificationAnswer),
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			canUse(siteUser);
			if (!builderOneSettings(services.store).top_bar_enabled) return [];
			return notifications(services.store).filter((n) => n.app_name === query.app_name && !olderVersion(query.app_version, n.app_version));
		},
	}),

	route({
		method: 'POST',
		path: '/builder-one/v1/top-bar/feedback',
		auth: 'site',
		summary: 'Send feedback about a product (201); it is stored',
		body: z.object({
			product: required.max(100),
			subject: required.max(200),
			title: required.max(200),
			description: required.max(10000),
			countryCode: z.string().regex(/^[A-Za-z]{2}$/, { error: 'must be a two-letter country code such as BR' }).optional(),
		}),
		answer: z.object({ success: z.literal(true), feedback: feedbackAnswer }),
		status: 201,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			canUse(siteUser);
			const store = services.store;
			const feedback = store.tx(() => {
				const id = store.objects.nextId('builder-one', 'feedback');
				const item: Feedback = {
					id,
					product: body.product,
					subject: body.subject,
					title: body.title,
					description: body.description,
					country_code: body.countryCode?.toUpperCase() ?? null,
					author: siteUser.id,
					date: new Date().toISOString(),
				};
				return store.objects.put('builder-one', 'feedback', String(id), item).data;
			});
			return { success: true as const, feedback };
		},
	}),
];
