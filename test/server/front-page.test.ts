import { startServer } from '../helpers/server';
import type { App } from '../../server/src/app';

/** `GET /` and `HEAD /`: the front page, as a WordPress site's home page announces its REST API. */
let server: App;
beforeAll(async () => {
	server = await startServer();
});
afterAll(() => server.close());

test('GET / is a page linking the API index, the docs and the dashboard, with the discovery Link header', async () => {
	const res = await fetch(`${server.url}/`);
	expect(res.status).toBe(200);
	expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
	expect(res.headers.get('link')).toBe(`<${server.url}/wp-json/>; rel="https://api.w.org/"`);
	const html = await res.text();
	expect(html).toContain('<title>WDM reference site</title>');
	for (const href of ['/wp-json/', '/docs', '/dashboard', '/wp-json/wdm/v1']) expect(html).toContain(`<a href="${href}">`);
	// Every link leads somewhere.
	for (const href of ['/wp-json/', '/docs', '/dashboard', '/wp-json/wdm/v1']) expect([href, (await fetch(`${server.url}${href}`)).status]).toEqual([href, 200]);
});

test('HEAD / gives the same Link header with no body; the discovered root is the REST index', async () => {
	const res = await fetch(`${server.url}/`, { method: 'HEAD' });
	expect(res.status).toBe(200);
	const root = /^<([^>]+)>; rel="https:\/\/api\.w\.org\/"$/.exec(res.headers.get('link')!)![1];
	expect(await res.text()).toBe('');
	const index = (await (await fetch(root)).json()) as { namespaces: string[] };
	expect(index.namespaces).toEqual(expect.arrayContaining(['wdm/v1', 'cms/v2', 'wp/v2']));
});

test('the site name is escaped into the page', async () => {
	server.services.store.meta.set('site.name', 'A <b>&</b> "site"');
	try {
		const html = await (await fetch(`${server.url}/`)).text();
		expect(html).toContain('<h1>A &lt;b&gt;&amp;&lt;/b&gt; &quot;site&quot;</h1>');
	} finally {
		server.services.store.meta.erase('site.name');
	}
});
