import type { App } from '../../server/src/app';
import type { SiteRole } from '../../server/src/store/types';
import { ADMIN_APP_PASSWORD, basicAuth, client } from './server';

export interface SiteUser {
	id: number;
	name: string;
	password: string;
	/** `Authorization: Basic …`, or none for the anonymous caller. */
	headers: Record<string, string>;
}

/** A site user of each role (plus a second author), each with the headers that sign it in. */
export function siteUsers(server: App): Record<'admin' | 'editor' | 'author' | 'author2' | 'contributor' | 'subscriber' | 'anonymous', SiteUser> {
	const make = (name: string, role: SiteRole): SiteUser => {
		const { user } = server.services.store.users.create(name, undefined, role);
		const password = `${name} pass word 1234`;
		server.services.store.users.addAppPassword(user.id, 'tests', password);
		return { id: user.id, name, password, headers: { authorization: basicAuth(name, password) } };
	};
	const admin = server.services.store.users.byName('admin')!;
	return {
		admin: { id: admin.id, name: 'admin', password: ADMIN_APP_PASSWORD, headers: { authorization: basicAuth('admin', ADMIN_APP_PASSWORD) } },
		editor: make('edna', 'editor'),
		author: make('arthur', 'author'),
		author2: make('ada', 'author'),
		contributor: make('connie', 'contributor'),
		subscriber: make('sam', 'subscriber'),
		anonymous: { id: 0, name: '', password: '', headers: {} },
	};
}

/** The `cms/v2` routes over real HTTP, as a given user: `cms.get('/posts', user, {query})`. */
export function cmsClient(baseUrl: string) {
	const api = client(baseUrl, '/wp-json/cms/v2');
	const qs = (query?: Record<string, unknown> | string) => {
		if (query === undefined) return '';
		if (typeof query === 'string') return `?${query}`;
		const params = new URLSearchParams();
		for (const [k, v] of Object.entries(query)) {
			if (Array.isArray(v)) v.forEach((item) => params.append(`${k}[]`, String(item)));
			else if (v !== undefined) params.append(k, String(v));
		}
		return `?${params.toString()}`;
	};
	return {
		get: (path: string, user: SiteUser, query?: Record<string, unknown> | string) => api.get(`${path}${qs(query)}`, { headers: user.headers }),
		post: (path: string, user: SiteUser, body?: unknown, query?: Record<string, unknown> | string) =>
			api.post(`${path}${qs(query)}`, body ?? {}, { headers: user.headers }),
		put: (path: string, user: SiteUser, body?: unknown) => api.call('PUT', path, body ?? {}, { headers: user.headers }),
		patch: (path: string, user: SiteUser, body?: unknown) => api.call('PATCH', path, body ?? {}, { headers: user.headers }),
		delete: (path: string, user: SiteUser, query?: Record<string, unknown> | string) => api.delete(`${path}${qs(query)}`, { headers: user.headers }),
	};
}
