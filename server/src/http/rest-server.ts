import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bracketQuery } from './query';

/**
 * What WordPress's REST server does for every request, whatever the route (`class-wp-rest-server.php`
 * `serve_request`, `rest-api.php`): the method override, `_fields`, `_embed`, `_envelope`, and the
 * API root's `Link` header. Routes know nothing of it; `dispatch.ts` calls it once per request.
 */

/** The relation of the API root in the `Link` header (and on the site's pages). */
export const API_ROOT_REL = 'https://api.w.org/';

/**
 * `?_method=DELETE` or `X-HTTP-Method-Override: DELETE` runs the named method's route, as WordPress's
 * `serve_request` does (the query parameter wins), whatever the request's own method: a GET that names
 * DELETE deletes. That is safe only while no browser holds Basic credentials for the site, which the
 * server sees to: it never asks a browser for them (`WWW-Authenticate` goes to MCP clients only, see
 * engine/mcp.ts), and CORS never lets another origin send credentials (cors.ts). A method no route has
 * (`BREW`) is then no route (404 `rest_no_route`). Set on the raw request before routing.
 */
export function overrideMethod(req: IncomingMessage, url: string) {
	const q = url.indexOf('?');
	const fromQuery = q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get('_method');
	const header = req.headers['x-http-method-override'];
	const wanted = (fromQuery ?? (Array.isArray(header) ? header[0] : header))?.trim().toUpperCase();
	if (wanted) req.method = wanted;
}

/** A query as PHP reads it (`_fields[]=a` is the list `_fields`), without touching the request's own. */
const phpParams = (query: unknown) => bracketQuery({ ...(query as object) }) as Record<string, unknown>;

/** WordPress's `wp_parse_list`: a comma (or space) separated string, or a list of them. */
function parseList(value: unknown): string[] {
	const items = Array.isArray(value) ? value : [value];
	return items.flatMap((item) => (typeof item === 'string' ? item.split(/[\s,]+/) : typeof item === 'number' ? [String(item)] : [])).filter(Boolean);
}

/** `rest_parse_embed_param`: all relations (`_embed`, `_embed=1`, `_embed=true`) or the listed ones. */
function parseEmbed(value: unknown): true | string[] {
	if (value === '' || value === '1' || value === 'true') return true;
	const rels = parseList(value);
	return rels.length ? rels : true;
}

type FieldTree = { [key: string]: true | FieldTree };
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** `a,b.c` -> `{a: true, b: {c: true}}`; a parent asked for whole wins over its sub-fields. */
function fieldTree(fields: string[]): FieldTree {
	const tree: FieldTree = Object.create(null);
	for (const field of fields) {
		const parts = field.split('.');
		let node = tree;
		let whole = false;
		for (const part of parts.slice(0, -1)) {
			const next = node[part];
			if (next === true) {
				whole = true;
				break;
			}
			node = next ?? (node[part] = Object.create(null) as FieldTree);
		}
		if (!whole) node[parts[parts.length - 1]] = true;
	}
	return tree;
}

/** `_rest_array_intersect_key_recursive`: the keys of `value` the tree names, sub-objects filtered alike. */
function pick(value: unknown, tree: FieldTree): unknown {
	if (!value || typeof value !== 'object') return value;
	const out: Json = {};
	for (const [key, item] of Object.entries(value)) {
		const wanted = tree[key];
		if (wanted === undefined) continue;
		out[key] = wanted === true || !item || typeof item !== 'object' ? item : pick(item, wanted);
	}
	return out;
}

/** `rest_is_field_included`: the field, one of its sub-fields, or a parent of it is asked for. */
const included = (field: string, fields: string[]) => fields.some((f) => f === field || f.startsWith(`${field}.`) || field.startsWith(`${f}.`));

/**
 * `_fields`: each item of a list (or the one object) keeps the fields asked for. `_links` is kept only
 * when `_links` or `_embedded` is asked for, as WordPress's controllers add links only then.
 */
function filterFields(data: unknown, fields: string[], linksAlways: boolean): unknown {
	const tree = fieldTree(fields);
	const links = linksAlways || included('_links', fields) || included('_embedded', fields);
	const one = (item: unknown) => {
		if (!isObject(item)) return item;
		const kept = pick(item, tree) as Json;
		delete kept._links;
		return links && item._links !== undefined ? { ...kept, _links: item._links } : phpMap(kept);
	};
	return Array.isArray(data) ? data.map(one) : one(data);
}

/** An embedded answer counts when it has something in it (`array_filter` in `embed_links`). */
const hasContent = (value: unknown) => (Array.isArray(value) ? value.length > 0 : isObject(value) ? Object.keys(value).length > 0 : !!value);

/**
 * `_embed`: every embeddable link of the item (or of each item of a list) is fetched by an internal
 * GET, as the caller, in the `embed` context, and put under `_embedded` by relation, one entry per
 * link (an error answer as its error object, a link that is not embeddable as `[]`). A relation none
 * of whose links gave anything is left out. Each URL is fetched once per answer.
 */
async function embedLinks(data: unknown, rels: true | string[], site: Site): Promise<unknown> {
	const cache = new Map<string, Promise<unknown>>();
	const fetchLink = (href: string) => {
		let answer = cache.get(href);
		if (!answer) {
			answer = embedded(href, site);
			cache.set(href, answer);
		}
		return answer;
	};
	const one = async (item: unknown) => {
		if (!isObject(item) || !isObject(item._links)) return item;
		const found: Json = {};
		for (const [rel, links] of Object.entries(item._links)) {
			if ((rels !== true && !rels.includes(rel)) || !Array.isArray(links)) continue;
			const embeds = [];
			for (const link of links) {
				embeds.push(isObject(link) && link.embeddable && typeof link.href === 'string' ? await fetchLink(link.href) : []);
			}
			if (embeds.some(hasContent)) found[rel] = embeds;
		}
		return Object.keys(found).length ? { ...item, _embedded: found } : item;
	};
	if (!Array.isArray(data)) return one(data);
	const out = [];
	for (const item of data) out.push(await one(item));
	return out;
}

/** Where the answer is from, and how a link of it is read (in process, as the caller). */
export interface Site {
	baseUrl: string;
	/** A REST URL of the site (`/wp-json/...`) as a GET answers it, or undefined when it is no REST URL. */
	get: (url: string) => Promise<unknown>;
}

/**
 * What a link embeds: the site's own REST URL, in the `embed` context unless the link names one (as
 * `embed_links`); a link elsewhere embeds nothing (`[]`).
 */
async function embedded(href: string, site: Site): Promise<unknown> {
	if (!href.startsWith(`${site.baseUrl}/`)) return [];
	const url = new URL(href.slice(site.baseUrl.length), 'http://site');
	if (!url.searchParams.has('context')) url.searchParams.set('context', 'embed');
	return (await site.get(url.pathname + url.search)) ?? [];
}

/** Headers the transport owns, never part of an answer's `_envelope`. */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'connection', 'transfer-encoding']);

/**
 * `_envelope`: the answer becomes a 200 whose body is `{body, status, headers}`, the headers being those
 * the answer set (as WordPress's `envelope_response`, they leave the HTTP answer for the envelope).
 */
/** PHP's `json_encode` of an empty associative array: `[]`, not `{}`. */
export const phpMap = <T extends object>(map: T): T | [] => (Object.keys(map).length ? map : []);

/** `phpMap` all the way down: what a PHP structure of nested arrays (a schema) encodes to. */
export function phpMaps(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(phpMaps);
	if (!isObject(value)) return value;
	return phpMap(Object.fromEntries(Object.entries(value).map(([key, v]) => [key, phpMaps(v)])));
}

export function envelope(body: unknown, status: number, reply: FastifyReply) {
	const headers: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(reply.getHeaders())) {
		if (TRANSPORT_HEADERS.has(name.toLowerCase())) continue;
		headers[headerCase(name)] = envelopeValue(name.toLowerCase(), value);
		reply.removeHeader(name);
	}
	reply.code(200);
	return { body, status, headers: phpMap(headers) };
}

/** Header names WordPress writes in a case of their own. */
const HEADER_NAMES: Record<string, string> = { 'x-wp-totalpages': 'X-WP-TotalPages' };

/** `x-wp-total` -> `X-WP-Total`: the names as WordPress writes them (every word capitalized, `WP` and `ID` in capitals). */
export const headerCase = (name: string) =>
	HEADER_NAMES[name.toLowerCase()] ??
	name.replace(/[^-]+/g, (word) => (/^(wp|id)$/i.test(word) ? word.toUpperCase() : word[0].toUpperCase() + word.slice(1).toLowerCase()));

/** A header's value as WordPress's response object holds it: the totals as integers, several links as one string. */
function envelopeValue(name: string, value: unknown): unknown {
	if (name === 'x-wp-total' || name === 'x-wp-totalpages') return Number(value);
	return Array.isArray(value) ? value.join(', ') : value;
}

/** Whether the query asks for an `_envelope` (present with any value, as WordPress's `isset`). */
export const wantsEnvelope = (query: unknown) => isObject(query) && query._envelope !== undefined;

/**
 * What the REST server does to a site route's answer after the route ran: `_fields`, then `_embed`, then
 * `_envelope` (as `serve_request`: the response filters, the envelope, then the embedding inside it).
 */
export async function shapeAnswer(data: unknown, request: FastifyRequest, reply: FastifyReply, site: Site, { linksAlways = false } = {}): Promise<unknown> {
	const query = phpParams(request.query);
	let out = withoutPreviousLinks(data);
	const fields = query._fields === undefined ? undefined : parseList(query._fields);
	if (fields?.length) out = filterFields(out, fields, linksAlways);
	if (query._embed !== undefined && (!fields?.length || included('_links', fields) || included('_embedded', fields))) {
		out = await embedLinks(out, parseEmbed(query._embed), site);
	}
	return query._envelope === undefined ? out : envelope(out, reply.statusCode, reply);
}

/**
 * A deletion's `previous` is the item's data without its links, as WordPress's controllers answer
 * `{deleted, previous: $previous->get_data()}` (`_links` are the response's, not its data's).
 */
export function withoutPreviousLinks(data: unknown): unknown {
	const body = data as { deleted?: unknown; previous?: unknown } | null;
	if (!body || typeof body !== 'object' || body.deleted !== true || !body.previous || typeof body.previous !== 'object') return data;
	const { _links, ...previous } = body.previous as Record<string, unknown>;
	return _links === undefined ? data : { ...body, previous };
}

/**
 * The `Link` header of a REST answer: where the API root is, for discovery. As in WordPress, whose
 * `serve_request` sends it first and then the answer's own `Link` replaces it (PHP's `header()`), an
 * answer with its own links (pagination `next`/`prev`, `alternate`) carries those instead.
 */
export function apiRootLink(reply: FastifyReply, baseUrl: string) {
	if (reply.getHeader('link') === undefined) reply.header('link', `<${baseUrl}/wp-json/>; rel="${API_ROOT_REL}"`);
}
