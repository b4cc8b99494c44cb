import type { UserRow } from '../../store/types';
import { requireCap } from '../builder-one/access';

/** Setting the key and model is the administrator's (`manage_options`). */
export function canConfigure(user: UserRow | null): asserts user is UserRow {
	requireCap(user, 'manage_options', 'proxyext_cannot_configure', 'Sorry, you are not allowed to configure the AI proxy.');
}

/** Using the AI service is for whoever writes content (`edit_posts`). */
export function canUse(user: UserRow | null): asserts user is UserRow {
	requireCap(user, 'edit_posts', 'proxyext_cannot_use', 'Sorry, you are not allowed to use the AI proxy.');
}
