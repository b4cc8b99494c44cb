import { z } from 'zod';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import type { UserRow } from '../../store/types';
import { siteRoleSchema } from '../roles';
import { BUILDER, CAN_READ, requireCap } from './design-common';

/**
 * `builder/v1/user-data/current-user`: what the builder keeps per user, the messages (tips,
 * notices) the user chose not to see again. One stored object per user (kind `user-data`).
 */

const KIND = 'user-data';

interface UserData {
	suppressedMessages: string[];
}

export function builderUserData(store: Store, userId: number): UserData {
	return store.objects.get<UserData>(BUILDER, KIND, String(userId))?.data ?? { suppressedMessages: [] };
}

/** The caller's builder data, with who they are. */
const userDataAnswer = z.object({ id: z.int(), name: z.string(), role: siteRoleSchema, suppressedMessages: z.array(z.string()) });

const view = (store: Store, user: UserRow): z.output<typeof userDataAnswer> => ({ id: user.id, name: user.name, role: user.role, ...builderUserData(store, user.id) });

export const userDataRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/user-data/current-user',
		auth: 'site',
		summary: "The caller's builder data: the messages they suppressed",
		answer: userDataAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, CAN_READ);
			return view(services.store, siteUser);
		},
	}),
	route({
		method: 'PATCH',
		path: '/builder/v1/user-data/current-user',
		auth: 'site',
		summary: "Replace the caller's suppressed messages (each once, in the order given)",
		body: z.object({ suppressedMessages: z.array(z.string().trim().regex(/^[\w-]{1,100}$/, { error: 'must be a message key: letters, digits, hyphens, underscores (at most 100)' })).max(200) }),
		answer: userDataAnswer,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, CAN_READ);
			services.store.objects.put(BUILDER, KIND, String(siteUser.id), { suppressedMessages: [...new Set(body.suppressedMessages)] });
			return view(services.store, siteUser);
		},
	}),
];
