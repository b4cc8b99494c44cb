import createClient from 'openapi-fetch';
import type { paths } from './generated/wdm-api';

/**
 * A client of the server as an integrator generates it: `openapi-typescript` types from the OpenAPI
 * document, `openapi-fetch` calls. Everything here is typed by the document alone, with no casts
 * (the typed-client test compiles this file with `tsc` and refuses `as` and `!`).
 */
export const typedClient = (baseUrl: string) => createClient<paths>({ baseUrl: `${baseUrl}/wp-json` });

type Client = ReturnType<typeof typedClient>;

/** A device created on the user's API key: its name, status and instance token, as typed. */
export async function createDevice(api: Client, apiKey: string, name: string) {
	const { data, error, response } = await api.POST('/wdm/v1/devices', { body: { name }, headers: { authorization: `Bearer ${apiKey}` } });
	if (error) throw new Error(`create device: ${response.status} ${error.message}`);
	const device: { name: string; status: 'disconnected' | 'connecting' | 'connected'; token?: string } = data.data;
	return { status: response.status, device };
}

/** A published post created as a site user (Basic), then read back anonymously: its id and rendered title, typed. */
export async function createAndReadPost(api: Client, authorization: string, title: string) {
	const created = await api.POST('/cms/v2/posts', { body: { title, status: 'publish' }, headers: { authorization } });
	if (created.error) throw new Error(`create post: ${created.response.status} ${created.error.message}`);
	const id: number = created.data.id;
	const read = await api.GET('/cms/v2/posts/{id}', { params: { path: { id: String(id) } } });
	if (read.error) throw new Error(`read post: ${read.response.status} ${read.error.code}`);
	const rendered: string | undefined = read.data.title?.rendered;
	return { status: created.response.status, id, rendered };
}

/** One page of the published posts, with WordPress's paging headers. */
export async function listPosts(api: Client, page: number, perPage: number) {
	const { data, error, response } = await api.GET('/cms/v2/posts', { params: { query: { page, per_page: perPage, orderby: 'id', order: 'asc' } } });
	if (error) throw new Error(`list posts: ${response.status} ${error.code}`);
	const ids: number[] = data.map((post) => post.id);
	return { ids, total: Number(response.headers.get('X-WP-Total')), pages: Number(response.headers.get('X-WP-TotalPages')) };
}

/** The device paired through the sandbox (its phone scans the QR), then a text sent with its instance token: the stored message, typed. */
export async function pairAndSendText(api: Client, apiKey: string, name: string, token: string, number: string, text: string) {
	const user = { authorization: `Bearer ${apiKey}` };
	await api.GET('/wdm/v1/devices/{name}/qr', { params: { path: { name } }, headers: user });
	const paired = await api.POST('/sandbox/v1/devices/{name}/pair', { params: { path: { name } }, body: {}, headers: user });
	if (paired.error) throw new Error(`pair: ${paired.response.status} ${paired.error.message}`);
	const status: 'disconnected' | 'connecting' | 'connected' = paired.data.data.status;
	const sent = await api.POST('/wdm/v1/send/text', { body: { number, text }, headers: { token } });
	if (sent.error) throw new Error(`send: ${sent.response.status} ${sent.error.message}`);
	const message: { id: string; chatid: string; status: string } = sent.data.data;
	return { status, message };
}

/** An extension route: a post type added to the site by the engine, then listed by it. */
export async function addPostType(api: Client, authorization: string, name: string, slug: string) {
	const added = await api.POST('/engine/v2/add-post-type', { body: { general_settings: { name, slug } }, headers: { authorization } });
	if (added.error) throw new Error(`add post type: ${added.response.status} ${added.error.message}`);
	const listed = await api.GET('/engine/v2/get-post-types', { headers: { authorization } });
	if (listed.error) throw new Error(`list post types: ${listed.response.status} ${listed.error.message}`);
	const slugs: string[] = listed.data.data.map((type) => type.general_settings.slug);
	return { id: added.data.item_id, slugs };
}
