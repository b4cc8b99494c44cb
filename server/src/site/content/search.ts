import { z } from 'zod';
import { phpQuery } from '../../http/query';
import { itemAnswer, wpItemSchema } from '../item-schema';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { Sql } from '../../store/content';
import type { UserRow } from '../../store/types';
import { sitePostTypes, siteTaxonomies } from '../registry';
import { taxonomyDef } from './engine-types';
import { idList, list, searchParam, wpInt } from './params';
import { checkPage, collectionOrder, inList, openSql, pagingHeaders, perTypeSql, queryType, searchSql } from './query';
import { termQuery } from './terms';
import { FORMATS } from './types';
import { contentBase } from './views';
import { invalidParam } from './write';

/**
 * `GET /cms/v2/search`, WordPress's search controller with its three handlers: published items of the
 * public post types (media aside), terms of the public taxonomies, and the post formats in use. The
 * types and taxonomies are the registry's, so the engine's are searched as soon as it adds them.
 */

type Result = Record<string, unknown>;
interface Found {
	items: Result[];
	total: number;
}
interface SearchParams {
	search?: string;
	subtype: string[];
	page: number;
	per_page: number;
	include: number[];
	exclude: number[];
}

const ANY = 'any';

/** The subtypes of each handler: public post types but media, public taxonomies, none for formats. */
function subtypesOf(services: Services) {
	return {
		post: sitePostTypes(services.store).filter((t) => t.public && t.slug !== 'attachment'),
		term: siteTaxonomies(services.store).filter((t) => t.public),
	};
}

const SEARCH_TYPES = ['post', 'term', 'post-format'] as const;

/**
 * A search result as WordPress's search controller answers it (its item schema, `search-result`), with the
 * site's subtypes. As in WordPress, a term's result has its taxonomy as `type` and no `subtype`.
 */
const subtypeNames = (services: Services) => {
	const { post, term } = subtypesOf(services);
	return [...post, ...term].map((t) => t.slug);
};

/** A search result (WordPress's search controller); without the site, `subtype` is any subtype's name (the contract's form). */
export function searchResultItem(services?: Services) {
	const subtypes = services ? subtypeNames(services) : [];
	const shown = { context: ['view', 'embed'], readonly: true };
	return z.object({
		id: z.union([z.int(), z.string()]).meta({ description: 'Unique identifier for the object.', ...shown }),
		title: z.string().meta({ description: 'The title for the object.', ...shown }),
		url: z.string().meta({ description: 'URL to the object.', format: 'uri', ...shown }),
		type: z.enum(SEARCH_TYPES).meta({ description: 'Object type.', ...shown }),
		subtype: (services ? z.enum(subtypes as [string, ...string[]]) : z.string()).meta({ description: 'Object subtype.', ...shown }),
	});
}

/** The handler's subtypes a request names (`any` is all of them). */
const chosen = <T extends { slug: string }>(all: T[], subtype: string[]) => (subtype.includes(ANY) ? all : all.filter((t) => subtype.includes(t.slug)));

const PERMALINK_KEY: Record<string, string> = { page: 'page_id' };

/** Published items; the search text does not look behind a password the caller may not open (`openSql`). */
function searchPosts(services: Services, params: SearchParams, user: UserRow | null): Found {
	const types = chosen(subtypesOf(services).post, params.subtype);
	if (!types.length) return { items: [], total: 0 };
	const parts: Sql[] = [inList('c.type', types.map((t) => t.slug)), { sql: "c.status = 'publish'", params: [] }];
	const text = params.search ?? '';
	const matched = text.trim() ? searchSql(text, [], false) : undefined;
	if (matched) parts.push(matched, perTypeSql(types.map((t) => queryType(t.slug)), (def) => openSql(user, def)));
	if (params.include.length) parts.push(inList('c.id', params.include));
	if (params.exclude.length) parts.push(inList('c.id', params.exclude, true));
	const where = { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
	const order = collectionOrder({ orderby: matched ? 'relevance' : 'date', order: 'desc', search: text, include: [] });
	const { rows, total } = services.store.content.find(where, order, params.per_page, (params.page - 1) * params.per_page);
	const rest = contentBase(services);
	const items = rows.map((row) => {
		const type = types.find((t) => t.slug === row.type)!;
		return {
			id: row.id,
			title: row.title,
			url: `${services.baseUrl}/?${PERMALINK_KEY[row.type] ?? 'p'}=${row.id}`,
			type: 'post',
			subtype: row.type,
			_links: {
				self: [{ embeddable: true, href: `${rest}/${type.rest_base}/${row.id}` }],
				about: [{ href: `${rest}/types/${row.type}` }],
			},
		};
	});
	return { items, total };
}

function searchTerms(services: Services, params: SearchParams): Found {
	const taxonomies = chosen(subtypesOf(services).term, params.subtype);
	if (!taxonomies.length) return { items: [], total: 0 };
	const parts: Sql[] = [inList('t.taxonomy', taxonomies.map((t) => t.slug))];
	const text = (params.search ?? '').trim();
	if (text) {
		// WP_Term_Query's search: the name or the slug contains the text.
		const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
		parts.push({ sql: "(t.name LIKE ? ESCAPE '\\' OR t.slug LIKE ? ESCAPE '\\')", params: [like, like] });
	}
	if (params.include.length) parts.push(inList('t.id', params.include));
	if (params.exclude.length) parts.push(inList('t.id', params.exclude, true));
	const where = { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
	const order = { sql: 't.name COLLATE NOCASE ASC, t.id ASC', params: [] };
	const { rows, total } = services.store.terms.find(where, order, params.per_page, (params.page - 1) * params.per_page);
	const rest = contentBase(services);
	const items = rows.map((term) => {
		const tax = taxonomies.find((t) => t.slug === term.taxonomy)!;
		// As WordPress's term handler: `type` is the taxonomy, and there is no `subtype`.
		return {
			id: term.id,
			title: term.name,
			url: `${services.baseUrl}/?${termQuery(taxonomyDef(tax), term)}`,
			type: term.taxonomy,
			_links: {
				self: [{ embeddable: true, href: `${rest}/${tax.rest_base}/${term.id}` }],
				about: [{ href: `${rest}/taxonomies/${term.taxonomy}` }],
			},
		};
	});
	return { items, total };
}

const FORMAT_NAMES: Record<string, string> = {
	standard: 'Standard',
	aside: 'Aside',
	chat: 'Chat',
	gallery: 'Gallery',
	link: 'Link',
	image: 'Image',
	quote: 'Quote',
	status: 'Status',
	video: 'Video',
	audio: 'Audio',
};

/**
 * The post formats with an archive: WordPress has a format's term (and so its link) once a post was
 * given the format; here, once a post has it.
 */
function searchFormats(services: Services, params: SearchParams): Found {
	const used = new Set(
		(services.store.db.prepare("SELECT DISTINCT format FROM content WHERE type = 'post' AND format <> 'standard'").all() as { format: string }[]).map((r) => r.format),
	);
	const text = (params.search ?? '').toLowerCase();
	const found = FORMATS.filter((f) => used.has(f) && (!text || f.includes(text) || FORMAT_NAMES[f].toLowerCase().includes(text)));
	const start = (params.page - 1) * params.per_page;
	const items = found.slice(start, start + params.per_page).map((f) => ({
		id: f,
		title: FORMAT_NAMES[f],
		url: `${services.baseUrl}/?post_format=${f}`,
		type: 'post-format',
		_links: {},
	}));
	return { items, total: found.length };
}

const HANDLERS = { post: searchPosts, term: searchTerms, 'post-format': searchFormats };

export const searchRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/cms/v2/search',
		auth: 'site',
		summary: 'Search published posts, pages and items of public post types (type=post), terms (type=term) or post formats (type=post-format); paged',
		schema: (services) => wpItemSchema('search-result', searchResultItem(services)),
		query: phpQuery({
			context: z.enum(['view', 'embed']).default('view'),
			page: wpInt(1).prefault(1),
			per_page: wpInt(1, 100).prefault(10),
			search: searchParam.optional(),
			type: z.enum(SEARCH_TYPES).default('post').meta({ description: 'Limit results to items of an object type.' }),
			subtype: list(z.string().max(200))
				.prefault(ANY)
				.meta({
					description: 'Limit results to items of one or more object subtypes.',
					// The site's subtypes (checked by the handler), as WordPress's enum lists them.
					items: (services: Services) => ({ enum: [...subtypeNames(services), ANY], type: 'string' }),
				}),
			include: idList().prefault([]),
			exclude: idList().prefault([]),
		}),
		// A term's result has its taxonomy as `type` (as WordPress answers, beyond its schema's enum).
		answer: z.array(itemAnswer(searchResultItem().extend({ type: z.string().meta({ description: 'Object type: post, post-format, or the taxonomy of a term.' }) }))),
		handler: ({ services, siteUser, query, request, reply }) => {
			// Each subtype must be a post type or taxonomy the search knows (or `any`), as WordPress's enum says.
			const known = subtypeNames(services);
			const unknown = query.subtype.filter((s) => s !== ANY && !known.includes(s));
			if (unknown.length) {
				throw invalidSubtype(unknown[0], [...new Set([...known, ANY])]);
			}
			const found = HANDLERS[query.type](services, query, siteUser);
			const totalPages = Math.ceil(found.total / query.per_page);
			checkPage(query.page, totalPages, found.total, 'rest_search_invalid_page_number');
			const collection = `${contentBase(services)}/search`;
			pagingHeaders(reply, request, collection, query.page, found.total, totalPages);
			return found.items.map((item): Result => ({ ...item, _links: { ...(item._links as object), collection: [{ href: collection }] } }));
		},
	}),
];

function invalidSubtype(value: string, allowed: string[]) {
	return invalidParam('subtype', `subtype has ${JSON.stringify(value)}, which is not one of: ${allowed.join(', ')}`, 'rest_not_in_enum');
}
