import type { Store } from './store';

export interface AdminAccess {
	apiKey: string;
	appPassword: string;
}

/**
 * On an empty store, creates the `admin` user (site administrator) with an API key for the gateway and
 * an application password for the site; both are shown only this once.
 */
export function ensureAdmin(store: Store, given: Partial<AdminAccess> = {}): AdminAccess | undefined {
	if (store.users.count() > 0) return undefined;
	return store.tx(() => {
		const { user, apiKey } = store.users.create('admin', given.apiKey, 'administrator');
		return { apiKey, appPassword: store.users.addAppPassword(user.id, 'wdm-server', given.appPassword) };
	});
}
