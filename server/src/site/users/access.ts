import { ApiError, badRequest } from '../../http/errors';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { denied } from '../content/capabilities';
import { can } from '../roles';

/**
 * WordPress's user meta capabilities over the roles (`map_meta_cap`): everyone may edit their own
 * profile (and application passwords); another's needs `edit_users`; deleting needs `delete_users`,
 * even for oneself; changing roles `promote_users`.
 */
export const canEditUser = (caller: UserRow | null, target: UserRow) => !!caller && (caller.id === target.id || can(caller, 'edit_users'));

/** The user an id names; WordPress's 404 `rest_user_invalid_id` otherwise. */
export function userById(services: Services, id: number): UserRow {
	const user = id > 0 ? services.store.users.byId(id) : undefined;
	if (!user) throw new ApiError(404, 'Invalid user ID.', 'rest_user_invalid_id');
	return user;
}

/** Whether the user wrote a published post or page (or item of a type the engine adds): an author the public may see. */
export function hasPublishedPosts(services: Services, userId: number): boolean {
	return !!services.store.db
		.prepare("SELECT 1 FROM content WHERE author = ? AND status = 'publish' AND type NOT IN ('revision', 'attachment') LIMIT 1")
		.get(userId);
}

/** The signed-in caller, for `me` routes that need one. */
export function signedIn(caller: UserRow | null): UserRow {
	if (!caller) throw new ApiError(401, 'You are not currently logged in.', 'rest_not_logged_in');
	return caller;
}

/** 400 `rest_invalid_param` for one parameter, with WordPress's `data.params`. */
export const invalidParam = (param: string, message: string) => badRequest(`Invalid parameter(s): ${param}`, 'rest_invalid_param', { params: { [param]: message } });

export { denied };
