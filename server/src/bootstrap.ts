import type { Store } from './store';

/** On an empty store, creates the `admin` user; returns its API key, which is shown only this once. */
export function ensureAdmin(store: Store, adminKey?: string): string | undefined {
	if (store.users.count() > 0) return undefined;
	return store.users.create('admin', adminKey).apiKey;
}
