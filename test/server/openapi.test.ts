import SwaggerParser from '@apidevtools/swagger-parser';
import type { Browser } from 'playwright-core';
import { routes } from '../../server/src/routes';
import type { App } from '../../server/src/app';
import { launchBrowser } from '../helpers/browser';
import { startServer } from '../helpers/server';

let server: App;
let doc: any;
beforeAll(async () => {
	server = await startServer();
	const res = await fetch(`${server.url}/openapi.json`);
	expect(res.status).toBe(200);
	expect(res.headers.get('content-type')).toMatch(/^application\/json/);
	doc = await res.json();
});
afterAll(() => server.close());

test('the document is valid OpenAPI 3.1, every $ref resolving', async () => {
	expect(doc.openapi).toBe('3.1.0');
	// Validates against the OpenAPI 3.1 schema and resolves every $ref (it works on a copy: `doc` stays as served).
	await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
});

test('every route of the table is one operation, with the security its auth asks for', () => {
	const expected = { none: [], user: [{ apiKey: [] }], instance: [{ instanceToken: [] }], site: [{ applicationPassword: [] }, {}] };
	const operations = Object.values(doc.paths).flatMap((item: any) => Object.values(item));
	expect(operations).toHaveLength(routes.length);
	for (const r of routes) {
		const operation = doc.paths[r.path]?.[r.method.toLowerCase()];
		expect({ route: `${r.method} ${r.path}`, summary: operation?.summary, security: operation?.security }).toEqual({
			route: `${r.method} ${r.path}`,
			summary: r.summary,
			security: expected[r.auth],
		});
	}
	const ids = operations.map((o: any) => o.operationId);
	expect(new Set(ids).size).toBe(ids.length);
	expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'applicationPassword', 'instanceToken']);
	expect(doc.components.securitySchemes.instanceToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'token' });
});

test('paths are the routes under the server URL /wp-json', () => {
	expect(doc.servers).toEqual([expect.objectContaining({ url: '/wp-json' })]);
	expect(Object.keys(doc.paths)).toContain('/');
	expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
});

test('answers: the success status and body each route declares, and every error status it answers', () => {
	const create = doc.paths['/wdm/v1/devices'].post;
	expect(Object.keys(create.responses)).toEqual(['201', '400', '401', '409', '413', '415', 'default']);
	const data = create.responses['201'].content['application/json'].schema.properties.data;
	expect(data).toMatchObject({ type: 'object', additionalProperties: false });
	expect(data.required).toEqual(expect.arrayContaining(['name', 'status', 'phone']));
	expect(data.required).not.toContain('token');
	expect(data.properties.status).toEqual({ type: 'string', enum: ['disconnected', 'connecting', 'connected'] });
	expect(create.responses['409'].content['application/json'].schema.$ref).toBe('#/components/schemas/GatewayError');
});

test('parameters and bodies come from the route schemas', () => {
	const sendText = doc.paths['/wdm/v1/send/text'].post;
	const body = sendText.requestBody.content['application/json'].schema;
	expect(body.properties).toHaveProperty('number');
	expect(body.properties).toHaveProperty('text');
	expect(body.required).toEqual(expect.arrayContaining(['number', 'text']));

	const qr = doc.paths['/wdm/v1/devices/{name}/qr'].get;
	expect(qr.parameters).toContainEqual(expect.objectContaining({ name: 'name', in: 'path', required: true }));

	const posts = doc.paths['/cms/v2/posts'].get;
	const perPage = posts.parameters.find((p: any) => p.name === 'per_page');
	expect(perPage).toMatchObject({ in: 'query', required: false });
	expect(posts.responses.default.content['application/json'].schema.$ref).toBe('#/components/schemas/SiteError');

	const upload = doc.paths['/cms/v2/media'].post;
	expect(Object.keys(upload.requestBody.content)).toEqual(['*/*']);
});

test('the document orders its groups gateway, sandbox, site core, extensions, each described', () => {
	const tags = doc.tags as { name: string; description: string }[];
	expect(tags.slice(0, 6).map((t) => t.name)).toEqual(['wdm/v1', 'sandbox/v1', 'index', 'oembed/1.0', 'cms/v2', 'cms-site-health/v1']);
	expect(tags.map((t) => t.name)).toEqual(expect.arrayContaining(['wp/v2', 'engine/v2', 'builder/v1', 'proxyext/v1']));
	expect(tags.indexOf(tags.find((t) => t.name === 'wp/v2')!)).toBeLessThan(tags.indexOf(tags.find((t) => t.name === 'engine/v1')!));
	expect(tags.filter((t) => !t.description)).toEqual([]);
});

describe('/docs in a browser', () => {
	let browser: Browser;
	beforeAll(async () => {
		browser = await launchBrowser();
	});
	afterAll(() => browser?.close());

	test('renders the operations, with nothing fetched from another origin', async () => {
		const page = await browser.newPage();
		const elsewhere: string[] = [];
		await page.route('**/*', (route) => {
			const url = route.request().url();
			if (url.startsWith(server.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
			elsewhere.push(url);
			return route.abort();
		});
		// Under its Content-Security-Policy, nothing the page needs is refused.
		const refused: string[] = [];
		page.on('console', (message) => {
			if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
		});
		const res = await page.goto(`${server.url}/docs`);
		expect(res?.status()).toBe(200);
		expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
		// An operation of the table, by its summary, in the rendered page.
		await page.getByText('Send a text message, with an optional link preview').first().waitFor({ timeout: 30000 });
		expect(await page.title()).toContain('WDM reference server');
		expect(elsewhere).toEqual([]);
		// It opens on the gateway: the first group, the only one open; the others open on a click; a filter box.
		const groups = await page.locator('.opblock-tag').evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag')));
		expect(groups.slice(0, 3)).toEqual(['wdm/v1', 'sandbox/v1', 'index']);
		expect(await page.getByText('Create a post (201, Location); a draft unless a status is given').count()).toBe(0);
		await page.locator('.opblock-tag[data-tag="cms/v2"]').click();
		await page.getByText('Create a post (201, Location); a draft unless a status is given').first().waitFor({ timeout: 30000 });
		await page.locator('input.operation-filter-input').fill('themecore');
		await page.locator('.opblock-tag[data-tag="themecore/v2"]').waitFor({ timeout: 30000 });
		expect(await page.locator('.opblock-tag[data-tag="wdm/v1"]').count()).toBe(0);
		expect(refused).toEqual([]);
	}, 60000);

	test('credentials given to Authorize are not kept in localStorage', async () => {
		const page = await browser.newPage();
		await page.goto(`${server.url}/docs`);
		await page.locator('button.authorize').first().click();
		await page.locator('#auth-bearer-value').fill('wdm_secret_typed_in');
		await page.locator('.auth-container').first().getByRole('button', { name: 'Apply credentials' }).click();
		await page.getByRole('button', { name: 'Remove authorization' }).or(page.getByRole('button', { name: 'Logout' })).first().waitFor({ timeout: 30000 });
		const stored = await page.evaluate('JSON.stringify({ ...localStorage })');
		expect(stored).not.toContain('wdm_secret_typed_in');
		expect(stored).toBe('{}');
	}, 60000);
});
