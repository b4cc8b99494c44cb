import type { UserRow } from '../../store/types';
import { denied } from '../content/capabilities';
import { type Capability, can } from '../roles';

/** Refuses a caller without `capability`: 401 anonymous, 403 signed in (WordPress's `rest_authorization_required_code`). */
export function requireCap(user: UserRow | null, capability: Capability, code: string, message: string): asserts user is UserRow {
	if (!can(user, capability)) throw denied(user, code, message);
}
