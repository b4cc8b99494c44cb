import { z } from 'zod';
import type { UserRow } from '../../store/types';
import { denied } from '../content/capabilities';
import { can, type Capability } from '../roles';

/** What the engine's `engine/v2` routes share: their answer, their permission check, their id parameters. */

/** The public plugin's answer: `{success: true, data}` (errors are WordPress's `{code, message, data}`). */
export const answer = (data: unknown, extra: Record<string, unknown> = {}) => ({ success: true, ...extra, data });

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
