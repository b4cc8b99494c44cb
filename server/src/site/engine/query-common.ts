import { z } from 'zod';
import type { UserRow } from '../../store/types';
import { denied } from '../content/capabilities';
import { can, type Capability } from '../roles';

/** What the engine's `engine/v2` routes share: their answer, their permission check, their id parameters. */

/** The public plugin's answer: `{success: true, data}` (errors are WordPress's `{code, message, data}`). */
export function answer<T>(data: T): { success: true; data: T };
export function answer<T, E extends object>(data: T, extra: E): { success: true; data: T } & E;
export function answer(data: unknown, extra: object = {}) {
	return { success: true, ...extra, data };
}

/** The schema of that answer, around the schema of its `data` (and of the fields beside it). */
export const answerOf = <T extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(data: T, extra?: E) =>
	z.object({ success: z.literal(true), ...(extra ?? ({} as E)), data });

/**
 * The route's permission check, as WordPress answers a `permission_callback` that says no: 401 for
 * an anonymous caller, 403 for a signed-in one. Reading the engine's things needs `edit_posts`,
 * changing them `manage_options`.
 */
export function allow(user: UserRow | null, capability: Capability) {
	if (!can(user, capability)) throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

/** A stored thing named by its id (digits, also as a number) or its slug. */
export const ref = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string().trim().min(1).max(200));
