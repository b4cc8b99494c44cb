import type { App } from '../../server/src/app';
import type { ConfigInput } from '../../server/src/config';
import type { SiteRole } from '../../server/src/store/types';
import { ADMIN_APP_PASSWORD, basicAuth, client, startServer, type Client } from './server';

export interface SiteUser {
	id: number;
	name: string;
	password: string;
	/** `Authorization: Basic …`, or none for the anonymous caller. */
	headers: Record<string, string>;
}

export type SiteUsers = Record<'admin' | 'editor' | 'author' | 'author2' | 'contributor' | 'subscriber' | 'anonymous', SiteUser>;

/** A new site user with a role and an application password, with the headers that sign it in. */
export function siteUser(server: App, name: string, role: SiteRole): SiteUser {
	const { user } = server.services.store.users.create(name, undefined, role);
	const password = `${name} pass word 1234`;
	server.services.store.users.addAppPassword(user.id, 'tests', password);
	return { id: user.id, name, password, headers: { authorization: basicAuth(name, password) } };
}

/** A site user of each role (plus a second author), each with the headers that sign it in. */
export function siteUsers(server: App): SiteUsers {
	const make = (name: string, role: SiteRole) => siteUser(server, name, role);
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

/** The `cms/v2` routes (or those of another namespace) over real HTTP, as a given user: `cms.get('/posts', user, {query})`. */
export function cmsClient(baseUrl: string, namespace = 'cms/v2') {
	const api = client(baseUrl, `/wp-json/${namespace}`);
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
	const post = (path: string, user: SiteUser, body?: unknown, query?: Record<string, unknown> | string) =>
		api.post(`${path}${qs(query)}`, body ?? {}, { headers: user.headers });
	return {
		get: (path: string, user: SiteUser, query?: Record<string, unknown> | string) => api.get(`${path}${qs(query)}`, { headers: user.headers }),
		post,
		/** POSTs to a collection and returns the new item; anything but 201 throws with the answer. */
		create: async (path: string, user: SiteUser, body: Record<string, unknown>) => {
			const res = await post(path, user, body);
			if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
			return res.body;
		},
		put: (path: string, user: SiteUser, body?: unknown) => api.call('PUT', path, body ?? {}, { headers: user.headers }),
		patch: (path: string, user: SiteUser, body?: unknown) => api.call('PATCH', path, body ?? {}, { headers: user.headers }),
		delete: (path: string, user: SiteUser, query?: Record<string, unknown> | string) => api.delete(`${path}${qs(query)}`, { headers: user.headers }),
	};
}

export type CmsClient = ReturnType<typeof cmsClient>;

/** A server for the site suites, with its `cms/v2` client and a user of each role (`u`). */
export async function startSite(overrides: Partial<ConfigInput> = {}) {
	const server = await startServer(overrides);
	return { server, cms: cmsClient(server.url), u: siteUsers(server) };
}

export type Site = Awaited<ReturnType<typeof startSite>>;

/**
 * The set-up of a suite of one site namespace: a site started before the suite's tests and closed after
 * them, with a client of `namespace` (`api`: `/wp-json/engine/v2`...); `keep` takes what the suite keeps
 * (its `let`s) once the site has started.
 */
export function siteSuite(namespace: string, keep: (site: Site & { api: Client }) => void) {
	let server: App | undefined;
	beforeAll(async () => {
		const site = await startSite();
		server = site.server;
		keep({ ...site, api: client(site.server.url, `/wp-json/${namespace}`) });
	});
	afterAll(() => server?.close());
}
