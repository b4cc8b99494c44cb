import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../server/src/app';
import { SITE_NAMESPACES } from '../../server/src/site/namespaces';
import { ADMIN_APP_PASSWORD, basicAuth, client } from '../helpers/server';
import { startSite, type CmsClient, type SiteUsers } from '../helpers/content';
import { NodeConnectionTypes, type INodeType, type IHttpRequestOptions, type INodeTypeDescription } from 'n8n-workflow';
import { CREDENTIAL_TYPES, NODE_TYPES, harnessFor, runNode, siteCredential, siteHarness } from '../helpers/nodes';
import { N8nTestHarness } from '../helpers/n8n';
import { siteListRouting, siteRequestDefaults, siteReturnAllFields, siteRouting, siteSend, toSiteNamespace } from '../../nodes/shared/site';

/** WDM Site (index, namespace index, batch, oEmbed) and the WDM Site API credential, in both addressing styles. */

/** What the credential dialog shows for a wrong user or application password: the site's reason, not n8n's "Unauthorized". */
const UNAUTHORIZED = 'Unknown username or invalid application password: the site refused them';

let server: App;
/** The `cms/v2` routes, to set up content and read back what a node did. */
let cms: CmsClient;
let users: SiteUsers;

beforeAll(async () => {
	({ server, cms, u: users } = await startSite());
});
afterAll(() => server.close());

const credentialFor = (addressing: string, name = 'admin', password = ADMIN_APP_PASSWORD) => siteCredential(server.url, addressing, { name, password });

describe.each([
	['index.php?rest_route=', 'restRoute'],
	['/wp-json', 'wpJson'],
])('addressing %s', (_, addressing) => {
	const site = () => siteHarness(server.url, addressing);

	test('the credential test passes with the right application password and fails with a wrong one or user', async () => {
		const harness = harnessFor({});
		expect(await harness.testCredentials('wdmSiteApi', credentialFor(addressing))).toEqual({ status: 'OK', message: 'Connection successful!' });
		// With a trailing slash on the site URL too.
		expect((await harness.testCredentials('wdmSiteApi', { ...credentialFor(addressing), url: `${server.url}/` })).status).toBe('OK');
		// Spaces in the application password are optional.
		expect((await harness.testCredentials('wdmSiteApi', credentialFor(addressing, 'admin', ADMIN_APP_PASSWORD.replace(/ /g, '')))).status).toBe('OK');
		expect(await harness.testCredentials('wdmSiteApi', credentialFor(addressing, 'admin', 'wrong pass word 0000'))).toEqual({
			status: 'Error',
			message: UNAUTHORIZED,
		});
		expect(await harness.testCredentials('wdmSiteApi', credentialFor(addressing, 'nobody'))).toEqual({ status: 'Error', message: UNAUTHORIZED });
		expect(await harness.testCredentials('wdmSiteApi', { ...credentialFor(addressing), url: `${server.url}/nothing` })).toEqual({
			status: 'Error',
			message: 'No REST API at this Site URL with this Addressing Style: check both',
		});
	});

	test('Get Index: the site fields and namespaces; the routes map only when asked', async () => {
		const simple = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'getIndex' });
		expect(simple.error).toBeUndefined();
		expect(simple.items).toHaveLength(1);
		expect(simple.items[0].json).toMatchObject({
			name: 'WDM reference site',
			url: server.url,
			gmt_offset: 0,
			timezone_string: 'UTC',
			show_on_front: 'posts',
			namespaces: [...SITE_NAMESPACES],
			authentication: { 'application-passwords': { endpoints: { authorization: `${server.url}/wp-admin/authorize-application.php` } } },
		});
		expect(simple.items[0].json.routes).toBeUndefined();

		const full = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'getIndex', simplify: false, context: 'embed' });
		expect(full.error).toBeUndefined();
		expect(Object.keys(full.items[0].json.routes as object)).toEqual(expect.arrayContaining(['/', '/batch/v1', '/oembed/1.0/embed', '/cms/v2/posts']));
	});

	test('Get Namespace Index: namespaces of two and three segments, with the context sent along', async () => {
		const cms = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'getNamespaceIndex', namespace: 'cms/v2', context: 'edit' });
		expect(cms.error).toBeUndefined();
		expect(cms.items[0].json.namespace).toBe('cms/v2');
		expect(Object.keys(cms.items[0].json.routes as object)).toContain('/cms/v2/posts');

		const documents = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'getNamespaceIndex', namespace: '/builder/v1/documents/' });
		expect(documents.error).toBeUndefined();
		expect(documents.items[0].json.namespace).toBe('builder/v1/documents');

		// The indexes take any context, as WordPress declares theirs with a default only; a wrong namespace is an error.
		const anyContext = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'getNamespaceIndex', namespace: 'cms/v2', context: 'everything' });
		expect(anyContext.error).toBeUndefined();
		expect(anyContext.items[0].json.namespace).toBe('cms/v2');
		const bad = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'getNamespaceIndex', namespace: 'no-such/v9' });
		expect(bad.error).toMatchObject({ httpCode: '404' });
	});

	test('Get Namespace Index of a namespace the site does not have is the site\'s 404', async () => {
		const missing = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'getNamespaceIndex', namespace: 'nothing/v1' });
		expect(missing.error).toMatchObject({ httpCode: '404', message: 'no route matches GET /nothing/v1' });
		expect(missing.error?.description).toContain('rest_no_route');
	});

	test('Batch from the list: posts created and changed in one call, one item per answer', async () => {
		const run = await runNode(site(), 'CUSTOM.wdmSite', {
			operation: 'batch',
			requests: {
				request: [
					{ method: 'POST', path: '/cms/v2/posts', body: JSON.stringify({ title: `Hello ${addressing}`, status: 'publish' }) },
					{ method: 'POST', path: '/cms/v2/pages', body: '{"title": "A page", "status": "draft"}' },
					{ method: 'DELETE', path: '/cms/v2/posts/999999?force=true', body: '' },
				],
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => [i.json.request, i.json.status])).toEqual([
			[{ method: 'POST', path: '/cms/v2/posts' }, 201],
			[{ method: 'POST', path: '/cms/v2/pages' }, 201],
			[{ method: 'DELETE', path: '/cms/v2/posts/999999?force=true' }, 404],
		]);
		const post = run.items[0].json.body as { id: number };
		expect((run.items[0].json.headers as Record<string, string>).Location).toBe(`${server.url}/wp-json/cms/v2/posts/${post.id}`);
		expect((await cms.get(`/posts/${post.id}`, users.admin)).body.title.rendered).toBe(`Hello ${addressing}`);
		expect((run.items[2].json.body as { code: string }).code).toBe('rest_post_invalid_id');
	});

	test('Batch from JSON (an expression over the input), with require-all-validate', async () => {
		const input = [{ json: { requests: [{ path: '/cms/v2/posts', body: { title: 'From JSON', status: 'draft' } }] } }];
		const run = await runNode(
			site(),
			'CUSTOM.wdmSite',
			{ operation: 'batch', validation: 'require-all-validate', requestsSource: 'json', requestsJson: '={{ $json.requests }}' },
			{ input },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toMatchObject({ request: { method: 'POST', path: '/cms/v2/posts' }, status: 201, body: { status: 'draft' } });
		const id = (run.items[0].json.body as { id: number }).id;
		expect((await cms.get(`/posts/${id}?context=edit`, users.admin)).body.title.raw).toBe('From JSON');
	});

	test('Batch with require-all-validate and an invalid request: nothing runs, the node says which request', async () => {
		const requestsJson = JSON.stringify([
			{ path: '/cms/v2/posts', body: { title: 'Must not exist', status: 'publish' } },
			{ path: '/cms/v2/posts', body: { status: 'published' } },
		]);
		const run = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'batch', validation: 'require-all-validate', requestsSource: 'json', requestsJson });
		expect(run.error).toMatchObject({ httpCode: '207', message: 'The batch did not run: some requests are invalid' });
		expect(run.error?.description).toBe('request 2 (POST /cms/v2/posts): Invalid parameter(s): status');
		expect((await cms.get('/posts?search=Must%20not%20exist&status=any', users.admin)).body).toEqual([]);

		const kept = await runNode(
			site(),
			'CUSTOM.wdmSite',
			{ operation: 'batch', validation: 'require-all-validate', requestsSource: 'json', requestsJson },
			{ onError: 'continueRegularOutput' },
		);
		expect(kept.items[0].json.error).toBe('The batch did not run: some requests are invalid');
	});

	test('Batch: bad JSON in the node and a batch the site refuses are node errors', async () => {
		const badJson = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'batch', requestsSource: 'json', requestsJson: '[{"path": ' });
		expect(badJson.error?.message).toMatch(/^Requests \(JSON\) is not valid JSON/);
		const notArray = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'batch', requestsSource: 'json', requestsJson: '{"path": "/cms/v2/posts"}' });
		expect(notArray.error?.message).toBe('Requests (JSON) must be an array of {method, path, body, headers}');
		const badBody = await runNode(site(), 'CUSTOM.wdmSite', {
			operation: 'batch',
			requests: { request: [{ method: 'POST', path: '/cms/v2/posts', body: '{nope' }] },
		});
		expect(badBody.error?.message).toMatch(/^Body of request 1 is not valid JSON/);
		// No requests: the site runs nothing and answers no responses, as WordPress (207).
		const empty = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'batch', requests: {} });
		expect(empty.error).toBeUndefined();
		expect(empty.items).toEqual([]);
		const refused = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'batch', requestsSource: 'json', requestsJson: JSON.stringify(Array.from({ length: 26 }, () => ({ path: '/cms/v2/posts' }))) });
		expect(refused.error).toMatchObject({ httpCode: '400', message: 'Invalid parameter(s): requests' });
	});

	describe('oEmbed', () => {
		let link: string;
		beforeAll(async () => {
			link = (await cms.create('/posts', users.admin, { title: 'Embed me', status: 'publish' })).link;
		});

		test('Embed: JSON with the width asked for, and XML whole in `data`', async () => {
			const json = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'oembedEmbed', url: link, options: { maxwidth: 400 } });
			expect(json.error).toBeUndefined();
			expect(json.items[0].json).toMatchObject({ type: 'rich', title: 'Embed me', width: 400, height: 225, provider_url: server.url });
			const xml = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'oembedEmbed', url: link, options: { format: 'xml' } });
			expect(xml.error).toBeUndefined();
			expect(xml.items[0].json.data).toMatch(/^<\?xml version="1.0"\?>\n<oembed><version>1.0<\/version>.*<title>Embed me<\/title>/);
		});

		test('Embed of something that is no published post: the site\'s 404', async () => {
			const run = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'oembedEmbed', url: `${server.url}/?p=999999` });
			expect(run.error).toMatchObject({ httpCode: '404', message: expect.stringContaining('Not Found') });
			expect(run.error?.description).toBe('oembed_invalid_url');
		});

		test('Proxy: resolves the site\'s own post for an editor; a subscriber gets the site\'s 403', async () => {
			const run = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'oembedProxy', url: link, options: { maxwidth: 300, maxheight: 200, discover: false } });
			expect(run.error).toBeUndefined();
			expect(run.items[0].json).toMatchObject({ type: 'rich', title: 'Embed me', width: 300 });
			const reader = siteHarness(server.url, addressing, users.subscriber);
			const refused = await runNode(reader, 'CUSTOM.wdmSite', { operation: 'oembedProxy', url: link });
			expect(refused.error).toMatchObject({ httpCode: '403', message: 'Sorry, you are not allowed to make proxied oEmbed requests.' });
			const outside = await runNode(site(), 'CUSTOM.wdmSite', { operation: 'oembedProxy', url: 'https://example.com/video/1' }, { onError: 'continueRegularOutput' });
			expect(outside.items[0].json.error).toEqual(expect.stringContaining('Not Found'));
		});
	});
});

test('each addressing style puts the route where the site expects it, with the query after it', async () => {
	const seen: string[] = [];
	const recorder = http.createServer((req, res) => {
		seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
		res.setHeader('content-type', 'application/json');
		res.end('{"namespace": "builder/v1/documents", "routes": {}}');
	});
	await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
	try {
		const url = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/site/`;
		const parameters = { operation: 'getNamespaceIndex', namespace: 'builder/v1/documents', context: 'edit' };
		for (const addressing of ['restRoute', 'wpJson']) {
			const run = await runNode(siteHarness(url, addressing, { name: 'ann', password: 'pw' }), 'CUSTOM.wdmSite', parameters);
			expect(run.error).toBeUndefined();
		}
		const basic = basicAuth('ann', 'pw');
		expect(seen).toEqual([
			`GET /site/index.php?rest_route=/builder/v1/documents&context=edit ${basic}`,
			`GET /site/wp-json/builder/v1/documents?context=edit ${basic}`,
		]);
	} finally {
		await new Promise((resolve) => recorder.close(resolve));
	}
});

describe('shared helper: siteListRouting (Return All / Limit over page and per_page)', () => {
	/** A node of this test only: the posts collection as a site node lists it. */
	class SiteList implements INodeType {
		description: INodeTypeDescription = {
			displayName: 'Site List',
			name: 'siteList',
			group: ['transform'],
			version: 1,
			description: 'test node',
			defaults: { name: 'Site List' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'wdmSiteApi', required: true }],
			requestDefaults: siteRequestDefaults,
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					noDataExpression: true,
					options: [
						{ name: 'List', value: 'list', action: 'List posts', routing: siteListRouting('/cms/v2/posts') },
						{ name: 'Get', value: 'get', action: 'Get a post', routing: siteRouting('GET', '/cms/v2/posts/{id}', { id: 'postId' }) },
					],
					default: 'list',
				},
				{ displayName: 'Post ID', name: 'postId', type: 'string', default: '', displayOptions: { show: { operation: ['get'] } } },
				...siteReturnAllFields.map((field) => ({ ...field, displayOptions: { show: { ...field.displayOptions?.show, operation: ['list'] } } })),
			],
		};
	}
	const list = (parameters: Record<string, unknown>, addressing = 'restRoute', password = ADMIN_APP_PASSWORD) =>
		runNode(
			new N8nTestHarness({
				nodeTypes: { ...NODE_TYPES, 'CUSTOM.siteList': new SiteList() },
				credentialTypes: CREDENTIAL_TYPES,
				credentials: { wdmSiteApi: credentialFor(addressing, 'admin', password) },
			}),
			'CUSTOM.siteList',
			{ operation: 'list', ...parameters },
			{ credential: 'wdmSiteApi' },
		);

	let ids: number[] = [];
	beforeAll(async () => {
		// More than one page of 100: made in batches of 25.
		for (let i = 0; i < 5; i++) {
			const requests = Array.from({ length: i < 4 ? 25 : 5 }, (_, j) => ({ path: '/cms/v2/posts', body: { title: `Listed ${i * 25 + j}`, status: 'publish' } }));
			expect((await client(server.url, '/wp-json/batch/v1').post('', { requests }, { headers: users.admin.headers })).status).toBe(207);
		}
		const pages = [await cms.get('/posts?per_page=100&page=1', users.admin), await cms.get('/posts?per_page=100&page=2', users.admin)];
		ids = pages.flatMap((page) => (page.body as { id: number }[]).map((post) => post.id));
		expect(ids.length).toBeGreaterThanOrEqual(105);
	});

	test.each(['restRoute', 'wpJson'])('Return All fetches every page (%s)', async (addressing) => {
		const run = await list({ returnAll: true }, addressing);
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.json.id)).toEqual(ids);
	});

	test.each([
		[3, 'one short page'],
		[100, 'exactly one page'],
		[102, 'a second page of the same size, cut'],
	])('Limit %d: %s', async (limit) => {
		const run = await list({ returnAll: false, limit });
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.json.id)).toEqual(ids.slice(0, limit));
	});

	test.each(['restRoute', 'wpJson'])('siteRouting with a mapped path segment reads one post, and raises the site\'s 404 (%s)', async (addressing) => {
		const found = await list({ operation: 'get', postId: String(ids[0]) }, addressing);
		expect(found.error).toBeUndefined();
		expect(found.items.map((i) => i.json.id)).toEqual([ids[0]]);
		const missing = await list({ operation: 'get', postId: '99999999' }, addressing);
		expect(missing.error).toMatchObject({ httpCode: '404', description: 'rest_post_invalid_id' });
	});

	test('a page the site refuses is the node error with its message', async () => {
		const run = await list({ returnAll: true }, 'wpJson', 'wrong pass word 0000');
		expect(run.error).toMatchObject({ httpCode: '401', message: 'The provided password is an invalid application password.' });
	});
});

test('siteSend: segments filled per item first, then the core-content namespace move, then the operation\'s own', () => {
	expect(siteSend('/engine/v2/items').preSend).toEqual([]);
	expect(siteSend('/cms/v2/posts').preSend).toEqual([toSiteNamespace]);
	const own = async (options: IHttpRequestOptions) => options;
	const { preSend } = siteSend('/cms/v2/posts/{id}', { id: 'postId' }, own);
	expect(preSend).toHaveLength(3);
	expect(preSend.slice(1)).toEqual([toSiteNamespace, own]);
});
