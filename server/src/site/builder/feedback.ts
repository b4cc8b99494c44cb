import { z } from 'zod';
import { type Route, route } from '../../http/route';
import { BUILDER, formatGmt, invalidParam, requireCap } from './editor-common';

/**
 * `builder/v1/feedback/submit`: feedback about the editor. The spec lists no parameters: whatever
 * members the form sends are kept, with who sent it; an empty submission is refused.
 */

export interface Feedback {
	id: number;
	user_id: number;
	data: Record<string, unknown>;
	created_at: number;
}

export const FEEDBACK = 'feedback';

export const feedbackRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/builder/v1/feedback/submit',
		auth: 'site',
		summary: 'Submit feedback about the editor (any members the form has; 201)',
		body: z.looseObject({}),
		answer: z.object({ success: z.literal(true), id: z.int(), date: z.string() }),
		status: 201,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'edit_posts');
			if (!Object.keys(body).length) throw invalidParam('body', 'the feedback must have at least one member (e.g. "message")');
			const saved = services.store.tx(() => {
				const id = services.store.objects.nextId(BUILDER, FEEDBACK);
				return services.store.objects.put<Feedback>(BUILDER, FEEDBACK, String(id), { id, user_id: siteUser.id, data: body, created_at: Date.now() }).data;
			});
			return { success: true as const, id: saved.id, date: formatGmt(saved.created_at) };
		},
	}),
];
