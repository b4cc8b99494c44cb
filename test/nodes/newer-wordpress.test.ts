// Options that need a later WordPress (nodes/shared/newerWordPress.ts) on a site that shows, in its
// route's arguments (OPTIONS), whether it takes them: a site that does not gets the node's error naming
// the option and the version, not a request it would answer unfiltered; the arguments are read once a
// run, whatever the items. test/wordpress/site-nodes.wp.ts runs the same against WordPress 6.1 itself.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { harnessFor, type NodeParameters, runNode, siteCredential } from '../helpers/nodes';

/** A site whose GET routes declare `args` and answer an empty list; it records the requests. */
async function site(args: Record<string, object>) {
	const requests: string[] = [];
	const server = http.createServer((req, res) => {
		requests.push(`${req.method} ${decodeURIComponent(req.url ?? '')}`);
		const options = { endpoints: [{ methods: ['GET'], args }, { methods: ['POST'], args: {} }] };
		res.writeHead(200, { 'content-type': 'application/json', 'x-wp-total': '0', 'x-wp-totalpages': '1' }).end(JSON.stringify(req.method === 'OPTIONS' ? options : []));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { i } }));

async function run(args: Record<string, object>, type: string, parameters: NodeParameters, input = 3) {
	const fake = await site(args);
	try {
		const harness = harnessFor({ wdmSiteApi: { ...siteCredential(fake.url, 'wpJson'), namespace: 'wp/v2' } });
		const result = await runNode(harness, type, parameters, { input: items(input), onError: 'continueRegularOutput' });
		return { result, requests: fake.requests };
	} finally {
		await fake.close();
	}
}

// WordPress 6.1's posts route: no `format`; 6.7's takes a list of formats.
const WP61_POSTS = { context: { type: 'string' }, search: { type: 'string' } };
const WP67_POSTS = { ...WP61_POSTS, format: { type: 'array', items: { type: 'string' } } };

test('an older site: every item fails naming the option and the version; the route is read once', async () => {
	const { result, requests } = await run(WP61_POSTS, 'CUSTOM.wdmPost', { operation: 'getMany', returnAll: true, filters: { format: ['aside'] } });
	expect(result.items.map((item) => item.json.error)).toEqual(Array(3).fill('Formats needs WordPress 6.7 or newer'));
	expect(result.items[0].error?.description).toMatch(/route does not take "format".*update WordPress to 6\.7 or newer/);
	expect(requests).toEqual(['OPTIONS /wp-json/wp/v2/posts']);
});

test('a site that takes the option gets the request, the route read once for the items', async () => {
	const { result, requests } = await run(WP67_POSTS, 'CUSTOM.wdmPost', { operation: 'getMany', returnAll: true, filters: { format: ['aside', 'link'] } });
	expect(result.error).toBeUndefined();
	expect(requests.filter((r) => r.startsWith('OPTIONS'))).toEqual(['OPTIONS /wp-json/wp/v2/posts']);
	expect(requests.filter((r) => r.startsWith('GET'))).toEqual(Array(3).fill(expect.stringContaining('format=aside,link')));
});

test('what an older site does anyway asks nothing: one media type, Sticky Posts First off', async () => {
	const media = await run({ media_type: { type: 'string' } }, 'CUSTOM.wdmMedia', { operation: 'getMany', returnAll: true, filters: { media_type: ['image'] } }, 1);
	expect(media.requests).toEqual([expect.stringMatching(/^GET \/wp-json\/wp\/v2\/media\?.*media_type=image/)]);
	const posts = await run(WP61_POSTS, 'CUSTOM.wdmPost', { operation: 'getMany', returnAll: true, filters: { stickyFirst: false } }, 1);
	expect(posts.requests).toEqual([expect.stringMatching(/^GET .*ignore_sticky=true/)]);
});

test('two media types need a route that takes a list', async () => {
	const parameters = { operation: 'getMany', returnAll: true, filters: { media_type: ['image', 'video'] } };
	const older = await run({ media_type: { type: 'string' } }, 'CUSTOM.wdmMedia', parameters, 1);
	expect(older.result.items.map((item) => item.json.error)).toEqual(['Media Types needs WordPress 6.9 or newer']);
	const newer = await run({ media_type: { type: 'array', items: { type: 'string' } } }, 'CUSTOM.wdmMedia', parameters, 1);
	expect(newer.requests).toEqual(['OPTIONS /wp-json/wp/v2/media', expect.stringMatching(/^GET .*media_type=image,video/)]);
});
