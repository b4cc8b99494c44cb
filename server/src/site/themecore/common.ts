import { z, type ZodType } from 'zod';
import { ApiError, badRequest } from '../../http/errors';
import type { Store } from '../../store';
import type { UserRow } from '../../store/types';
import { denied } from '../content/capabilities';
import { wpInt } from '../content/params';
import { can, type Capability } from '../roles';

/**
 * What the `themecore/v2` modules share: the namespace, where its state lives, who may call what,
 * and the plugin's answer shape (`{success, message, data}`).
 */

export const NS = '/themecore/v2';

/** Namespace of the theme core's objects in `services.store.objects` (conditions, page templates, settings). */
export const STORE_NS = 'themecore';

/** Every route of the namespace is POST, as the plugin registers them; the caller's role decides the rest. */
export type Access = 'read' | 'theme' | 'options';

/**
 * Reading site-design data needs `edit_posts`; templates and their conditions are theme things
 * (`edit_theme_options`); the plugin's own settings are site configuration (`manage_options`).
 */
const CAPABILITY: Record<Access, Capability> = { read: 'edit_posts', theme: 'edit_theme_options', options: 'manage_options' };

/** WordPress's answer when a route's permission callback says no: 401 anonymous, 403 signed in. */
export function checkAccess(user: UserRow | null, access: Access) {
	if (!can(user, CAPABILITY[access])) throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

/** The plugin's answer: `{success: true, message, data}`. */
export const ok = <T>(message: string, data: T) => ({ success: true as const, message, data });

/** The contract of an `ok` answer carrying `data`. */
export const okAnswer = <T extends ZodType>(data: T) =>
	z.object({ success: z.literal(true), message: z.string().meta({ description: 'What was done, in a sentence' }), data });

/** An id parameter: a positive integer, also written as text. */
export const idParam = wpInt(1);

/**
 * The spec lists every parameter as optional (the plugin's defaults are empty); a route that cannot
 * work without one answers as WordPress does for a missing required parameter.
 */
export function need<T>(value: T | undefined, name: string): T {
	if (value === undefined) throw badRequest(`Missing parameter(s): ${name}`, 'rest_missing_callback_param', { params: [name] });
	return value;
}

/** `rest_invalid_param` for one parameter, with the sentence that says what is wrong with it. */
export const invalidParam = (param: string, sentence: string) =>
	badRequest(`Invalid parameter(s): ${param}`, 'rest_invalid_param', { params: { [param]: sentence } });

/** A 404 for an id that names nothing, in WordPress's `rest_..._invalid_id` style. */
export const invalidId = (code: string, message: string) => new ApiError(404, message, code);

/** A stored object of the namespace, or `fallback` when there is none yet. */
export function readObject<T>(store: Store, kind: string, key: string, fallback: T): T {
	return store.objects.get<T>(STORE_NS, kind, key)?.data ?? fallback;
}
