import { z } from 'zod';
import { type Route, route } from '../../http/route';
import { BUILDER, formatGmt, matches, pageOf, pagingQuery, requireCap } from './editor-common';

/**
 * `builder/v1/send-event`: the editor's usage events. Each is stored with who sent it; GET pages
 * through the caller's own events, newest first, `search` matching the event's name.
 */

interface StoredEvent {
	id: number;
	user_id: number;
	event_data: Record<string, unknown>;
	created_at: number;
}

const KIND = 'event';

/** The name an event goes by: its `event` (or `name`) member. */
const eventName = (data: Record<string, unknown>) => (typeof data.event === 'string' ? data.event : typeof data.name === 'string' ? data.name : '');

/** An event as the routes answer it; its data is the editor's, as sent. */
const eventAnswer = z.object({ id: z.int(), event: z.string().meta({ description: "The event's name: its event (or name) member" }), event_data: z.record(z.string(), z.unknown()), date: z.string() });

const view = (event: StoredEvent): z.output<typeof eventAnswer> => ({ id: event.id, event: eventName(event.event_data), event_data: event.event_data, date: formatGmt(event.created_at) });

export const eventRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/send-event',
		auth: 'site',
		summary: "The caller's events, newest first (paged, X-WP-Total; search by event name)",
		query: pagingQuery,
		answer: z.array(eventAnswer),
		errors: [403],
		handler: ({ services, siteUser, query, request, reply }) => {
			requireCap(siteUser, 'edit_posts');
			const events = services.store.objects
				.list<StoredEvent>(BUILDER, KIND)
				.map((object) => object.data)
				.filter((event) => event.user_id === siteUser.id && matches(query.search, eventName(event.event_data)))
				.reverse();
			return pageOf(events.map(view), query, '/builder/v1/send-event', services, request, reply);
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/send-event',
		auth: 'site',
		summary: 'Record an event of the editor (201)',
		body: z.object({ event_data: z.looseObject({}) }),
		answer: eventAnswer.extend({ success: z.literal(true) }),
		status: 201,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'edit_posts');
			const event = services.store.tx(() => {
				const id = services.store.objects.nextId(BUILDER, KIND);
				return services.store.objects.put<StoredEvent>(BUILDER, KIND, String(id), { id, user_id: siteUser.id, event_data: body.event_data, created_at: Date.now() }).data;
			});
			return { success: true as const, ...view(event) };
		},
	}),
];
