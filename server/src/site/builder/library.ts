import { z } from 'zod';
import { type Route, route } from '../../http/route';
import { hashSecret } from '../../security';
import { BUILDER, formatGmt, requireCap } from './editor-common';

/**
 * `builder/v1/library/connect`: connects the caller to the builder's template library with a connect
 * token (each user has their own connection, as the builder's connect apps keep it in user data).
 * The token is stored as a digest, never shown again; DELETE disconnects.
 */

interface Connection {
	token_hash: string;
	connected_at: number;
}

const KIND = 'library-connection';

export const libraryRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/builder/v1/library/connect',
		auth: 'site',
		summary: 'Connect the caller to the template library with a connect token (a new token replaces the old one)',
		body: z.object({ token: z.string().trim().min(1).max(512) }),
		answer: z.object({ success: z.literal(true), connected: z.literal(true), reconnected: z.boolean(), connected_at: z.string() }),
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'edit_posts');
			const before = services.store.objects.get<Connection>(BUILDER, KIND, String(siteUser.id));
			const saved = services.store.objects.put<Connection>(BUILDER, KIND, String(siteUser.id), { token_hash: hashSecret(body.token), connected_at: Date.now() }).data;
			return { success: true as const, connected: true as const, reconnected: !!before, connected_at: formatGmt(saved.connected_at) };
		},
	}),

	route({
		method: 'DELETE',
		path: '/builder/v1/library/connect',
		auth: 'site',
		summary: "Disconnect the caller from the template library; says whether there was a connection",
		answer: z.object({ success: z.literal(true), connected: z.literal(false), was_connected: z.boolean() }),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			const was = services.store.objects.delete(BUILDER, KIND, String(siteUser.id));
			return { success: true as const, connected: false as const, was_connected: was };
		},
	}),
];
