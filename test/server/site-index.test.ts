import type { App } from '../../server/src/app';
import { routes } from '../../server/src/routes';
import { namespaceOf } from '../../server/src/http/route';
import { SITE_NAMESPACES } from '../../server/src/site/namespaces';
import { wpPattern } from '../../server/src/site/index';
import { SETTING_KEY, gmtOffsetHours } from '../../server/src/site/settings';
import { ADMIN_APP_PASSWORD, ADMIN_KEY, basicAuth, client, expectWpError, startServer, type Reply } from '../helpers/server';

/**
 * The routes the index lists: the table's, but the parametric collections of engine-added post types
 * (`/cms/v2/{base}`), which the index shows per added type (none on this store).
 */
const indexed = routes.filter((r) => !r.path.includes('{base}'));

/** The site index (`GET /`) and the namespace indexes (`GET /<namespace>`). */

let server: App;

beforeAll(async () => {
	server = await startServer();
});
afterAll(() => server.close());

async function get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
	const res = await fetch(`${server.url}${url}`, { headers });
	return { status: res.status, body: await res.json(), headers: res.headers };
}

const admin = () => ({ authorization: basicAuth('admin', ADMIN_APP_PASSWORD) });

// The spec's list (site-routes.md), in its order, then the gateway, its sandbox and `wp/v2`: stated here on
// purpose, as the contract the server's own list (SITE_NAMESPACES) is checked against.
const EXPECTED_NAMESPACES = [
	'oembed/1.0', 'engine/v1', 'builder-one/v1', 'engine/v2', 'proxyext/v1', 'themecore/v2', 'builder/v1/documents', 'builder/v1',
	'builder-ai/v1', 'builder/v1/feedback', 'cms/v2', 'cms-site-health/v1', 'cms-block-editor/v1', 'cms-abilities/v1',
	'wdm/v1', 'sandbox/v1', 'wp/v2',
];

describe('GET /', () => {
	test('shows the site fields, the namespaces in the spec\'s order and the application-password scheme', async () => {
		const index = await get('/wp-json/');
		expect(index.status).toBe(200);
		expect(index.body).toMatchObject({
			name: 'WDM reference site',
			description: 'Reference server for the WDM gateway',
			url: server.url,
			home: server.url,
			gmt_offset: 0,
			timezone_string: 'UTC',
			page_for_posts: 0,
			page_on_front: 0,
			show_on_front: 'posts',
		});
		expect(index.body.namespaces.slice(0, EXPECTED_NAMESPACES.length)).toEqual(EXPECTED_NAMESPACES);
		expect(index.body.authentication).toEqual({
			'application-passwords': { endpoints: { authorization: `${server.url}/wp-admin/authorize-application.php` } },
		});
	});

	test('as WordPress: the site logo and icon, a help link, and any context taken', async () => {
		const index = (await get('/wp-json/?context=help')).body;
		expect(index).toMatchObject({ site_logo: 0, site_icon: 0, site_icon_url: '', _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] } });
		expect(index.routes['/'].endpoints[0].args.context).toEqual({ default: 'view', required: false });
		expect((await get('/wp-json/wp/v2')).body._links).toEqual({ up: [{ href: `${server.url}/wp-json/` }] });
	});

	test('arguments as WordPress writes them: its descriptions and formats, no keywords it never gives', async () => {
		const args = (await get('/wp-json/')).body.routes['/wp/v2/posts'].endpoints[0].args;
		expect(args.per_page).toEqual({ description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100, required: false });
		expect(args.after).toMatchObject({ type: 'string', format: 'date-time' });
		expect(args.sticky).toMatchObject({ type: 'boolean' });
		expect(args.sticky).not.toHaveProperty('anyOf');
		expect(args.search).not.toHaveProperty('maxLength');
		expect(args.offset).not.toHaveProperty('minimum');
		expect(args.author.items).toEqual({ type: 'integer' });
	});

	test('answers the same at every address and to a signed-in user, an administrator with the `wp` curie too', async () => {
		const index = await get('/wp-json/');
		expect((await get('/index.php?rest_route=/')).body).toEqual(index.body);
		expect((await get('/?rest_route=/')).body).toEqual(index.body);
		expect(index.body._links).not.toHaveProperty('curies');
		// WordPress's `wp:active-theme` link (for who may switch themes) brings the curie; the theme routes are beyond the site.
		const { _links, ...asAdmin } = (await get('/wp-json/', admin())).body;
		const { _links: anonymousLinks, ...anonymous } = index.body;
		expect(asAdmin).toEqual(anonymous);
		expect(_links).toEqual({ ...anonymousLinks, curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }] });
	});

	test('a wrong application password or user is a 401 even here', async () => {
		const wrong = await get('/wp-json/', { authorization: basicAuth('admin', 'nope nope nope') });
		expect(wrong.status).toBe(401);
		expect(wrong.body).toMatchObject({ code: 'incorrect_password', data: { status: 401 } });
		const unknown = await get('/index.php?rest_route=/', { authorization: basicAuth('nobody', ADMIN_APP_PASSWORD) });
		expect(unknown.status).toBe(401);
		expect(unknown.body).toMatchObject({ code: 'invalid_username', data: { status: 401 } });
	});

	test('the site fields come from the stored settings', async () => {
		const { meta } = server.services.store;
		const keys = ['name', 'description', 'timezone', 'show_on_front', 'page_on_front', 'page_for_posts'] as const;
		try {
			meta.set(SETTING_KEY('name'), 'Corner Shop');
			meta.set(SETTING_KEY('description'), 'Fresh every day');
			meta.set(SETTING_KEY('timezone'), 'Asia/Kolkata');
			meta.set(SETTING_KEY('show_on_front'), 'page');
			meta.set(SETTING_KEY('page_on_front'), '12');
			meta.set(SETTING_KEY('page_for_posts'), '13');
			const index = await get('/wp-json/');
			expect(index.body).toMatchObject({
				name: 'Corner Shop',
				description: 'Fresh every day',
				timezone_string: 'Asia/Kolkata',
				gmt_offset: 5,
				show_on_front: 'page',
				page_on_front: 12,
				page_for_posts: 13,
			});
			// A zone the runtime does not know falls back to UTC rather than failing the index.
			meta.set(SETTING_KEY('timezone'), 'Mars/Olympus_Mons');
			expect((await get('/wp-json/')).body).toMatchObject({ timezone_string: 'UTC', gmt_offset: 0 });
		} finally {
			for (const key of keys) server.services.store.db.prepare('DELETE FROM meta WHERE key = ?').run(SETTING_KEY(key));
		}
	});

	test('gmt_offset is whole hours towards zero, following daylight saving time', () => {
		expect(gmtOffsetHours('America/St_Johns', new Date('2025-01-15T12:00:00Z'))).toBe(-3); // -03:30
		expect(gmtOffsetHours('America/Sao_Paulo', new Date('2025-01-15T12:00:00Z'))).toBe(-3);
		expect(gmtOffsetHours('Europe/Berlin', new Date('2025-01-15T12:00:00Z'))).toBe(1);
		expect(gmtOffsetHours('Europe/Berlin', new Date('2025-07-15T12:00:00Z'))).toBe(2);
		expect(gmtOffsetHours('UTC')).toBe(0);
	});

	test('routes: every route of the table, the server\'s own in no namespace, links on routes without parameters', async () => {
		const index = await get('/wp-json/');
		expect(index.body.routes['/']).toMatchObject({ namespace: '', methods: ['GET'] });
		expect(index.body.routes['/']._links.self).toEqual([{ href: `${server.url}/wp-json/` }]);
		const batch = index.body.routes['/batch/v1'];
		expect(batch).toMatchObject({ namespace: '', methods: ['POST'] });
		expect(batch.endpoints[0].args.validation).toMatchObject({ enum: ['require-all-validate', 'normal'], default: 'normal', required: false });
		expect(batch.endpoints[0].args.requests).toMatchObject({ type: 'array', maxItems: 25, required: true });
		expect(batch.endpoints[0].args.requests.items.properties.method).toMatchObject({ enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' });
		for (const ns of EXPECTED_NAMESPACES) expect(index.body.routes[`/${ns}`]).toMatchObject({ namespace: ns, methods: ['GET'] });
		expect(index.body.routes['/builder/v1/documents'].endpoints[0].args).toMatchObject({
			namespace: { default: 'builder/v1/documents', required: false },
			context: { default: 'view', required: false },
		});
		expect(index.body.routes['/wdm/v1/devices/(?P<name>[^/]+)']._links).toBeUndefined();
		expect(Object.keys(index.body.routes).length).toBe(new Set(indexed.map((r) => wpPattern(r.path, r.patterns))).size);
	});
});

describe('GET /<namespace>', () => {
	test.each(EXPECTED_NAMESPACES)('%s has an index at both addresses, with the routes of that namespace only', async (ns) => {
		const pretty = await get(`/wp-json/${ns}`);
		expect(pretty.status).toBe(200);
		expect(pretty.body.namespace).toBe(ns);
		const expected = indexed.filter((r) => namespaceOf(r.path) === ns).map((r) => wpPattern(r.path, r.patterns));
		expect(Object.keys(pretty.body.routes).sort()).toEqual([...new Set(expected)].sort());
		expect(pretty.body.routes[`/${ns}`]).toBeDefined();
		expect((await get(`/index.php?rest_route=/${ns}`)).body).toEqual(pretty.body);
	});

	test('the gateway namespaces answer their index bare too, with WordPress errors', async () => {
		const wdm = await get('/wp-json/wdm/v1');
		expect(wdm.body).toMatchObject({ namespace: 'wdm/v1' });
		expect(wdm.body.success).toBeUndefined();
		expect(wdm.body.routes['/wdm/v1/devices']).toMatchObject({ namespace: 'wdm/v1' });
		const wrong = await get('/wp-json/wdm/v1', { authorization: basicAuth('admin', 'wrong') });
		expect(wrong.status).toBe(401);
		expect(wrong.body).toMatchObject({ code: 'incorrect_password' });
		// The routes after it keep the envelope.
		expect((await client(server.url).get('/devices', { key: ADMIN_KEY })).body.success).toBe(true);
	});

	test('a namespace with more segments is its own: builder/v1 does not list builder/v1/documents', async () => {
		const builder = await get('/wp-json/builder/v1');
		expect(Object.keys(builder.body.routes)).toContain('/builder/v1');
		expect(Object.keys(builder.body.routes)).not.toContain('/builder/v1/documents');
		expect(Object.keys(builder.body.routes)).not.toContain('/builder/v1/feedback');
		expect(namespaceOf('/builder/v1/documents/{id}/media/import')).toBe('builder/v1/documents');
		expect(namespaceOf('/builder/v1/feedback/submit')).toBe('builder/v1/feedback');
		expect(namespaceOf('/builder/v1/globals/colors')).toBe('builder/v1');
		expect(namespaceOf('/builder/v1')).toBe('builder/v1');
		expect(namespaceOf('/builder/v10/x')).toBe('builder/v10');
		expect(namespaceOf('/batch/v1')).toBe('');
		expect(namespaceOf('/')).toBe('');
		expect(SITE_NAMESPACES).toEqual(EXPECTED_NAMESPACES);
	});

	test('`namespace` names the namespace whose index is answered, as in WordPress', async () => {
		const other = await get('/wp-json/oembed/1.0?namespace=cms/v2');
		expect(other.status).toBe(200);
		expect(other.body.namespace).toBe('cms/v2');
		expect(other.body).toEqual((await get('/wp-json/cms/v2')).body);
		const unknown = await get('/wp-json/oembed/1.0?namespace=nothing/v1');
		expectWpError(unknown, 404, 'rest_invalid_namespace', 'The specified namespace could not be found.');
		const repeated = await get('/wp-json/cms/v2?namespace=a&namespace=b');
		expect(repeated.status).toBe(400);
		expect(repeated.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { namespace: expect.any(String) } } });
	});

	test('the batch route has no index: GET /batch/v1 is no route', async () => {
		const res = await get('/wp-json/batch/v1');
		expect(res.status).toBe(404);
		expect(res.body).toMatchObject({ code: 'rest_no_route' });
	});
});
