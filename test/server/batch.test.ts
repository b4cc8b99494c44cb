import { z } from 'zod';
import type { App } from '../../server/src/app';
import { routes } from '../../server/src/routes';
import { route } from '../../server/src/http/route';
import { forbidden, notFound, unauthorized } from '../../server/src/http/errors';
import { can } from '../../server/src/site/roles';
import { MAX_BATCH_REQUESTS } from '../../server/src/site/batch';
import { matchRoute } from '../../server/src/http/in-process';
import { siteUser } from '../helpers/content';
import { ADMIN_APP_PASSWORD, basicAuth, startServer, type Reply } from '../helpers/server';

/**
 * `POST /batch/v1`. The mechanism is tested on a small batch-capable route of this file (notes kept in
 * memory, with the checks a content route makes), the real thing on posts and pages below.
 */

const notes = new Map<number, { id: number; text: string; author: number }>();
let nextNote = 1;
const testRoutes = [
	route({
		method: 'POST',
		path: '/notes/v1/notes',
		auth: 'site',
		batch: true,
		summary: 'test: create a note',
		query: z.object({ shout: z.enum(['yes', 'no']).default('no') }),
		body: z.object({ text: z.string().min(1) }),
		handler: ({ body, query, siteUser, reply, request }) => {
			if (!siteUser) throw unauthorized('Sorry, you are not allowed to create notes.', 'rest_cannot_create');
			if (!can(siteUser, 'edit_posts')) throw forbidden('Sorry, you are not allowed to create notes.', 'rest_cannot_create');
			const note = { id: nextNote++, text: query.shout === 'yes' ? body.text.toUpperCase() : body.text, author: siteUser.id, via: request.headers['x-via'] ?? null };
			notes.set(note.id, note);
			reply.code(201).header('Location', `/notes/v1/notes/${note.id}`);
			return note;
		},
	}),
	route({
		method: 'DELETE',
		path: '/notes/v1/notes/{id}',
		auth: 'site',
		batch: true,
		summary: 'test: delete a note',
		params: z.object({ id: z.coerce.number().int() }),
		handler: ({ params, siteUser }) => {
			if (!can(siteUser, 'edit_posts')) throw unauthorized('Sorry, you are not allowed to delete notes.', 'rest_cannot_delete');
			const note = notes.get(params.id);
			if (!note) throw notFound('Invalid note ID.', 'rest_note_invalid_id');
			notes.delete(params.id);
			return { deleted: true, previous: note };
		},
	}),
	route({
		method: 'DELETE',
		path: '/notes/v1/notes/all',
		auth: 'site',
		summary: 'test: not batch-capable, and a static segment that wins over {id}',
		handler: () => ({ cleared: true }),
	}),
];

let server: App;
let subscriberAuth: string;

beforeAll(async () => {
	routes.push(...testRoutes);
	server = await startServer();
	subscriberAuth = siteUser(server, 'reader', 'subscriber').headers.authorization;
});
afterAll(async () => {
	await server.close();
	routes.splice(routes.length - testRoutes.length, testRoutes.length);
});

const admin = basicAuth('admin', ADMIN_APP_PASSWORD);

async function batch(body: unknown, authorization?: string, url = '/wp-json/batch/v1'): Promise<Reply> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (authorization) headers.authorization = authorization;
	const res = await fetch(`${server.url}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
	return { status: res.status, body: await res.json(), headers: res.headers };
}

describe('running requests', () => {
	test('answers 207 with one envelope per request, in order, each run as the caller', async () => {
		const res = await batch(
			{
				requests: [
					{ path: '/notes/v1/notes', body: { text: 'first' } },
					{ method: 'POST', path: '/notes/v1/notes?shout=yes', body: { text: 'second' }, headers: { 'X-Via': 'batch' } },
				],
			},
			admin,
		);
		expect(res.status).toBe(207);
		expect(res.body.responses).toHaveLength(2);
		const [first, second] = res.body.responses;
		expect(first).toEqual({
			body: { id: expect.any(Number), text: 'first', author: 1, via: null },
			status: 201,
			// Header names as WordPress gives them; `Allow` as on every answer.
			headers: { Allow: 'POST', Location: `/notes/v1/notes/${first.body.id}` },
		});
		expect(second).toMatchObject({ status: 201, body: { text: 'SECOND', via: 'batch' } });
		expect(second.body.id).toBe(first.body.id + 1);
		expect(notes.get(first.body.id)?.text).toBe('first');
	});

	test('a later request sees what an earlier one wrote', async () => {
		const created = await batch({ requests: [{ path: '/notes/v1/notes', body: { text: 'short-lived' } }] }, admin);
		const id = created.body.responses[0].body.id;
		const res = await batch(
			{
				requests: [
					{ method: 'DELETE', path: `/notes/v1/notes/${id}` },
					{ method: 'DELETE', path: `/notes/v1/notes/${id}` },
				],
			},
			admin,
		);
		expect(res.body.responses.map((r: { status: number }) => r.status)).toEqual([200, 404]);
		expect(res.body.responses[1].body).toEqual({ code: 'rest_note_invalid_id', message: 'Invalid note ID.', data: { status: 404 } });
		expect(notes.has(id)).toBe(false);
	});

	test('each request has the rights of the caller: anonymous, a subscriber, an editor', async () => {
		const request = { requests: [{ path: '/notes/v1/notes', body: { text: 'who am I' } }] };
		expect((await batch(request)).body.responses[0]).toMatchObject({ status: 401, body: { code: 'rest_cannot_create' } });
		expect((await batch(request, subscriberAuth)).body.responses[0]).toMatchObject({ status: 403, body: { code: 'rest_cannot_create' } });
		expect((await batch(request, admin)).body.responses[0]).toMatchObject({ status: 201, body: { author: 1 } });
	});

	test('a request cannot change whom it runs as', async () => {
		const res = await batch({ requests: [{ path: '/notes/v1/notes', body: { text: 'sneaky' }, headers: { Authorization: admin } }] }, subscriberAuth);
		expect(res.body.responses[0]).toMatchObject({ status: 403 });
		const anonymous = await batch({ requests: [{ path: '/notes/v1/notes', body: { text: 'sneaky' }, headers: { authorization: [admin] } }] });
		expect(anonymous.body.responses[0]).toMatchObject({ status: 401 });
	});

	test('a wrong password fails the whole batch with 401', async () => {
		const res = await batch({ requests: [{ path: '/notes/v1/notes', body: { text: 'x' } }] }, basicAuth('admin', 'wrong'));
		expect(res.status).toBe(401);
		expect(res.body).toMatchObject({ code: 'incorrect_password' });
	});

	test('the same at the plain address', async () => {
		const res = await batch({ requests: [{ path: '/notes/v1/notes', body: { text: 'plain' } }] }, admin, '/index.php?rest_route=/batch/v1');
		expect(res.status).toBe(207);
		expect(res.body.responses[0]).toMatchObject({ status: 201, body: { text: 'plain' } });
	});
});

describe('what a batch may not run', () => {
	test('routes without batch support, unknown routes and bad parameters are answered per request; the others run', async () => {
		const before = notes.size;
		const res = await batch(
			{
				requests: [
					{ method: 'DELETE', path: '/notes/v1/notes/all' },
					{ method: 'POST', path: '/wdm/v1/devices', body: { name: 'nope' } },
					{ method: 'POST', path: '/batch/v1', body: { requests: [] } },
					{ method: 'POST', path: '/nothing/v1/here' },
					{ method: 'POST', path: '/notes/v1/notes', body: { text: '' } },
					{ method: 'POST', path: '/notes/v1/notes?shout=maybe', body: { text: 'x' } },
					{ method: 'DELETE', path: '/notes/v1/notes/abc' },
					{ method: 'POST', path: '/notes/v1/notes', body: { text: 'valid' } },
				],
			},
			admin,
		);
		expect(res.status).toBe(207);
		const [all, gateway, nested, unknown, empty, shout, badId, valid] = res.body.responses;
		// A request refused before it ran answers its route's `Allow`, as WordPress's `respond_to_request`; no route, no header (PHP's empty map, `[]`).
		const notAllowed = (allow: string) => ({
			status: 400,
			headers: { Allow: allow },
			body: { code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.', data: { status: 400 } },
		});
		expect(all).toEqual(notAllowed('DELETE'));
		expect(gateway).toEqual(notAllowed(expect.stringContaining('POST')));
		expect(nested).toEqual(notAllowed('POST'));
		expect(unknown).toEqual({ status: 404, headers: [], body: { code: 'rest_no_route', message: expect.any(String), data: { status: 404 } } });
		expect(empty.headers).toEqual({ Allow: expect.stringContaining('POST') });
		expect(empty).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', data: { params: { text: 'text must be at least 1 characters long' } } } });
		expect(shout).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', data: { params: { shout: expect.stringContaining('must be one of') } } } });
		expect(badId).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', data: { params: { id: expect.any(String) } } } });
		expect(valid).toMatchObject({ status: 201, body: { text: 'valid' } });
		expect(notes.size).toBe(before + 1);
	});

	test('paths and headers nobody could send are answered per request, not a crash', async () => {
		const res = await batch(
			{
				requests: [
					{ path: '/notes/v1/notes', body: { text: 'x' }, headers: { 'x-via': 'line\nbreak' } },
					{ path: 'http://example.com/notes/v1/notes', body: { text: 'x' } },
					{ path: '/notes/v1/notes/../../../etc/passwd' },
					{ path: '/notes/v1/notes', body: { text: 'still runs' } },
				],
			},
			admin,
		);
		expect(res.status).toBe(207);
		expect(res.body.responses.map((r: { status: number }) => r.status)).toEqual([400, 404, 404, 201]);
		expect(res.body.responses[0].body).toMatchObject({ code: 'parse_path_failed' });
	});

	test('require-all-validate runs nothing when one request is invalid, as WordPress answers it', async () => {
		const before = notes.size;
		const res = await batch(
			{
				validation: 'require-all-validate',
				requests: [
					{ path: '/notes/v1/notes', body: { text: 'would be fine' } },
					{ path: '/notes/v1/notes', body: {} },
					{ method: 'DELETE', path: '/notes/v1/notes/all' },
				],
			},
			admin,
		);
		expect(res.status).toBe(207);
		expect(res.body).toEqual({
			failed: 'validation',
			responses: [
				null,
				{ status: 400, headers: [], body: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): text', data: { status: 400, params: ['text'] } } },
				{ status: 400, headers: [], body: expect.objectContaining({ code: 'rest_batch_not_allowed' }) },
			],
		});
		expect(notes.size).toBe(before);
	});

	test('require-all-validate runs everything when all are valid', async () => {
		const res = await batch({ validation: 'require-all-validate', requests: [{ path: '/notes/v1/notes', body: { text: 'a' } }, { path: '/notes/v1/notes', body: { text: 'b' } }] }, admin);
		expect(res.body.failed).toBeUndefined();
		expect(res.body.responses.map((r: { status: number; body: { text: string } }) => [r.status, r.body.text])).toEqual([
			[201, 'a'],
			[201, 'b'],
		]);
	});
});

describe('the batch\'s own parameters', () => {
	test('an empty list runs nothing: 207 with no responses, as WordPress', async () => {
		const res = await batch({ requests: [] }, admin);
		expect({ status: res.status, body: res.body }).toEqual({ status: 207, body: { responses: [] } });
	});

	test.each([
		['no requests', {}, 'rest_missing_callback_param', { params: ['requests'] }],
		[
			'26 requests',
			{ requests: Array.from({ length: MAX_BATCH_REQUESTS + 1 }, () => ({ path: '/notes/v1/notes' })) },
			'rest_invalid_param',
			{ params: { requests: 'requests must have at most 25 items' } },
		],
		['a GET', { requests: [{ method: 'GET', path: '/notes/v1/notes' }] }, 'rest_invalid_param', { params: { requests: expect.stringContaining('requests[0].method must be one of') } }],
		['a request without path', { requests: [{ body: {} }] }, 'rest_invalid_param', { params: { requests: 'requests[0].path is required' } }],
		['a body that is no object', { requests: [{ path: '/x', body: [1] }] }, 'rest_invalid_param', { params: { requests: expect.stringContaining('requests[0].body must be') } }],
		['a header that is a number', { requests: [{ path: '/x', headers: { a: 1 } }] }, 'rest_invalid_param', { params: { requests: expect.stringContaining('requests[0].headers.a') } }],
		['an unknown validation', { validation: 'strict', requests: [{ path: '/x' }] }, 'rest_invalid_param', { params: { validation: expect.stringContaining('must be one of') } }],
	])('%s is refused', async (_, body, code, data) => {
		const res = await batch(body, admin);
		expect(res.status).toBe(400);
		// `rest_invalid_param` details each parameter too (rest-server.test.ts).
		const details = code === 'rest_invalid_param' ? { details: expect.any(Object) } : {};
		expect(res.body).toEqual({ code, message: expect.any(String), data: { status: 400, ...data, ...details } });
	});

	test('25 requests are fine', async () => {
		const res = await batch({ requests: Array.from({ length: MAX_BATCH_REQUESTS }, (_, i) => ({ path: '/notes/v1/notes', body: { text: `n${i}` } })) }, admin);
		expect(res.status).toBe(207);
		expect(res.body.responses).toHaveLength(25);
		expect(res.body.responses.every((r: { status: number }) => r.status === 201)).toBe(true);
	});
});

describe('posts and pages', () => {
	const get = async (path: string): Promise<any> => (await fetch(`${server.url}/wp-json${path}`, { headers: { authorization: admin } })).json();

	test('create, update and trash posts and pages in one batch; each answer as the route gives it', async () => {
		const res = await batch(
			{
				requests: [
					{ path: '/cms/v2/posts', body: { title: 'Batch one', status: 'publish' } },
					{ path: '/cms/v2/posts', body: { title: 'Batch two', status: 'draft' } },
					{ path: '/cms/v2/pages', body: { title: 'Batch page', status: 'publish' } },
				],
			},
			admin,
		);
		expect(res.status).toBe(207);
		const [one, two, page] = res.body.responses;
		expect(one).toMatchObject({ status: 201, body: { title: { raw: 'Batch one' }, status: 'publish', type: 'post' } });
		expect(one.headers.Location).toBe(`${server.url}/wp-json/cms/v2/posts/${one.body.id}`);
		expect(two).toMatchObject({ status: 201, body: { status: 'draft' } });
		expect(page).toMatchObject({ status: 201, body: { type: 'page', title: { raw: 'Batch page' } } });

		const next = await batch(
			{
				requests: [
					{ method: 'PATCH', path: `/cms/v2/posts/${one.body.id}`, body: { title: 'Batch one, renamed' } },
					{ method: 'PUT', path: `/cms/v2/pages/${page.body.id}`, body: { menu_order: 3 } },
					{ method: 'DELETE', path: `/cms/v2/posts/${two.body.id}` },
					{ method: 'DELETE', path: `/cms/v2/posts/${two.body.id}?force=true` },
				],
			},
			admin,
		);
		expect(next.body.responses.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 200]);
		expect(next.body.responses[2].body).toMatchObject({ id: two.body.id, status: 'trash' });
		expect(next.body.responses[3].body).toMatchObject({ deleted: true, previous: { id: two.body.id } });

		// Read back outside the batch.
		expect((await get(`/cms/v2/posts/${one.body.id}?context=edit`)).title.raw).toBe('Batch one, renamed');
		expect((await get(`/cms/v2/pages/${page.body.id}`)).menu_order).toBe(3);
		expect((await get(`/cms/v2/posts/${two.body.id}`)).code).toBe('rest_post_invalid_id');
	});

	test('each post request has the rights of the caller; the routes next to them are not batch-capable', async () => {
		const writer = siteUser(server, 'writer', 'contributor');
		const res = await batch(
			{
				requests: [
					{ path: '/cms/v2/posts', body: { title: 'For review', status: 'pending' } },
					{ path: '/cms/v2/posts', body: { title: 'Straight out', status: 'publish' } },
					{ path: '/cms/v2/pages', body: { title: 'A page', status: 'draft' } },
					{ path: '/cms/v2/posts/1/autosaves', body: { title: 'Autosave' } },
				],
			},
			writer.headers.authorization,
		);
		const [review, publish, page, autosave] = res.body.responses;
		expect(review).toMatchObject({ status: 201, body: { status: 'pending', author: writer.id } });
		expect(publish).toMatchObject({ status: 403, body: { code: 'rest_cannot_publish' } });
		expect(page).toMatchObject({ status: 403, body: { code: 'rest_cannot_create' } });
		expect(autosave).toMatchObject({ status: 400, body: { code: 'rest_batch_not_allowed' } });
	});

	test('require-all-validate checks the content routes\' own parameters', async () => {
		const res = await batch(
			{
				validation: 'require-all-validate',
				requests: [
					{ path: '/cms/v2/posts', body: { title: 'Never made', status: 'publish' } },
					{ path: '/cms/v2/posts', body: { status: 'published' } },
				],
			},
			admin,
		);
		expect(res.body.failed).toBe('validation');
		expect(res.body.responses[0]).toBeNull();
		expect(res.body.responses[1]).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', data: { params: { status: expect.any(String) } } } });
		const titles = (await get('/cms/v2/posts?search=Never%20made&status=any')) as { title: { rendered: string } }[];
		expect(titles).toEqual([]);
	});
});

test('matchRoute finds what the router would: static segments first, parameters decoded', () => {
	expect(matchRoute(routes, 'DELETE', '/notes/v1/notes/all')?.route.summary).toBe('test: not batch-capable, and a static segment that wins over {id}');
	expect(matchRoute(routes, 'DELETE', '/notes/v1/notes/a%20b')).toMatchObject({ params: { id: 'a b' } });
	expect(matchRoute(routes, 'DELETE', '/notes/v1/notes/%E0%A4%A')).toBeUndefined();
	expect(matchRoute(routes, 'GET', '/notes/v1/notes')).toBeUndefined();
	expect(matchRoute(routes, 'POST', '/notes/v1/notes/')).toBeUndefined();
});
