import type { ZodObject } from 'zod';
import type { App } from '../../server/src/app';
import { settingsItem } from '../../server/src/site/content/settings';
import { searchResultItem } from '../../server/src/site/content/search';
import { statusItem, taxonomyItem, typeItem } from '../../server/src/site/content/registry-routes';
import { termItem } from '../../server/src/site/content/terms';
import { CATEGORY, TAG } from '../../server/src/site/content/types';
import { phpMaps } from '../../server/src/http/rest-server';
import { wpItemSchema } from '../../server/src/site/item-schema';
import { appPasswordItem, userItem } from '../../server/src/site/users/views';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';

/**
 * The item schemas the site shows in OPTIONS and `?context=help` (WordPress's `schema`) are true to the
 * answers: every field an answer has (in the edit context, where all show) is one of the schema, of its
 * type; and OPTIONS shows the schema made from the same declaration.
 */

let server: App;
let cms: CmsClient;
let u: SiteUsers;

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	await cms.create('/categories', u.admin, { name: 'Schemas' });
	await cms.create('/tags', u.admin, { name: 'schema-tag' });
	await cms.create('/posts', u.admin, { title: 'Schema post', status: 'publish' });
	await cms.create('/users/me/application-passwords', u.admin, { name: 'schema app' });
});
afterAll(() => server.close());

/** The answer without its links: what the schema describes. */
const fields = ({ _links, _embedded, ...rest }: Record<string, unknown>) => rest;

/** Parses each answer with the item schema, refusing any field the schema does not declare. */
function expectValid(item: ZodObject, answers: Record<string, unknown>[]) {
	expect(answers.length).toBeGreaterThan(0);
	for (const answer of answers) {
		const result = item.strict().safeParse(fields(answer));
		if (!result.success) throw new Error(`${JSON.stringify(answer).slice(0, 200)}: ${result.error.message}`);
	}
}

async function options(path: string) {
	const res = await fetch(`${server.url}/wp-json/cms/v2${path}`, { method: 'OPTIONS', headers: u.admin.headers });
	expect(res.status).toBe(200);
	return ((await res.json()) as { schema: unknown }).schema;
}

test('settings', async () => {
	const res = await cms.get('/settings', u.admin);
	expectValid(settingsItem, [res.body]);
	expect(await options('/settings')).toEqual(phpMaps(wpItemSchema('settings', settingsItem)));
});

test('users, the signed-in user and application passwords', async () => {
	const users = await cms.get('/users', u.admin, { context: 'edit' });
	const me = await cms.get('/users/me', u.admin, { context: 'edit' });
	expectValid(userItem, [...users.body, me.body]);
	expect(await options('/users')).toEqual(phpMaps(wpItemSchema('user', userItem)));
	expect(await options(`/users/${me.body.id}`)).toEqual(phpMaps(wpItemSchema('user', userItem)));
	const passwords = await cms.get('/users/me/application-passwords', u.admin, { context: 'edit' });
	const created = await cms.create('/users/me/application-passwords', u.admin, { name: 'another' });
	expectValid(appPasswordItem, [...passwords.body, created]);
	expect(await options('/users/me/application-passwords')).toEqual(phpMaps(wpItemSchema('application-password', appPasswordItem)));
});

test('categories and tags', async () => {
	expectValid(termItem(CATEGORY), (await cms.get('/categories', u.admin, { context: 'edit' })).body);
	expectValid(termItem(TAG), (await cms.get('/tags', u.admin, { context: 'edit' })).body);
	expect(await options('/categories')).toEqual(phpMaps(wpItemSchema('category', termItem(CATEGORY))));
	expect(await options('/tags')).toEqual(phpMaps(wpItemSchema('tag', termItem(TAG))));
});

test('post types, taxonomies and statuses', async () => {
	const values = (body: Record<string, Record<string, unknown>>) => Object.values(body);
	expectValid(typeItem, values((await cms.get('/types', u.admin, { context: 'edit' })).body));
	expectValid(taxonomyItem, values((await cms.get('/taxonomies', u.admin, { context: 'edit' })).body));
	expectValid(statusItem, values((await cms.get('/statuses', u.admin, { context: 'edit' })).body));
	expect(await options('/types/post')).toEqual(phpMaps(wpItemSchema('type', typeItem)));
	expect(await options('/taxonomies')).toEqual(phpMaps(wpItemSchema('taxonomy', taxonomyItem)));
	expect(await options('/statuses/publish')).toEqual(phpMaps(wpItemSchema('status', statusItem)));
});

test('search results (posts; a term result has its taxonomy as type, as in WordPress, beyond its own schema)', async () => {
	const item = searchResultItem(server.services);
	expectValid(item, (await cms.get('/search', u.admin, { search: 'Schema' })).body);
	expect(await options('/search')).toEqual(phpMaps(wpItemSchema('search-result', item)));
});
