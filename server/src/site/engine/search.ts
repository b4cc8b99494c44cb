import { z } from 'zod';
import { ApiError, badRequest } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import { idList, list, searchParam, wpBool } from '../content/params';
import { sitePostTypes, siteTaxonomies } from '../registry';
import { allow, ref } from './query-common';
import { definition } from './query-defs';
import { runQuery } from './query-run';

const E = '/engine/v2';

/** How many posts a search answers, as the public plugin's (`numberposts` 10). */
export const SEARCH_POSTS_LIMIT = 10;

/** A glossary: a stored list of options. */
export interface Glossary {
	id: number | string;
	name: string;
	fields: { value: string; label: string }[];
}

/**
 * The engine's glossaries, as the content-model routes store them: its generic items
 * (`store.objects` namespace `engine`, kind `item`, data `{id, name, fields: [{value, label}]}`).
 * The one place that knows the shape; an item without a list of fields has no options.
 */
export function readGlossary(store: Store, id: string): Glossary {
	const item = store.objects.get<Partial<Glossary>>('engine', 'item', id)?.data;
	if (!item) throw new ApiError(404, `No glossary has the id "${id}".`, 'rest_glossary_invalid_id');
	const fields = Array.isArray(item.fields) ? item.fields : [];
	return {
		id: item.id ?? id,
		name: String(item.name ?? ''),
		fields: fields
			.filter((field) => field && typeof field === 'object' && 'value' in field)
			.map((field) => ({ value: String(field.value), label: String(field.label ?? field.value) })),
	};
}

/** The public plugin's options: `{value, label}`. */
export const searchOptionAnswer = z.object({ value: z.string(), label: z.string() });

/** `a` contains `b`, ignoring case (the public plugin's option search). */
const contains = (text: unknown, needle: string) => String(text).toLowerCase().includes(needle);

export const searchRoutes: Route[] = [
	route({
		method: 'GET',
		path: `${E}/search-posts`,
		auth: 'site',
		summary: 'Find published posts by title (or `ids`), or with `search_terms` terms of the taxonomy `tax` by name, as `{value, label}` options',
		query: phpQuery({
			query: searchParam.prefault(''),
			ids: idList().prefault([]),
			tax: z.string().max(100).prefault(''),
			post_type: list(z.string().min(1)).prefault(['any']),
			search_terms: wpBool.prefault(false),
			// Where the control that searches sits (a relation, a meta field); answers do not depend on it.
			query_context: z.string().max(100).nullable().prefault(null),
		}),
		answer: z.array(searchOptionAnswer),
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			allow(siteUser, 'edit_posts');
			const text = query.query.trim();
			if (query.search_terms) {
				if (!query.tax) throw badRequest('Invalid parameter(s): tax', 'rest_invalid_param', { params: { tax: 'tax is required when search_terms is true' } });
				if (!siteTaxonomies(services.store).some((tax) => tax.slug === query.tax)) {
					throw badRequest('Invalid parameter(s): tax', 'rest_invalid_param', { params: { tax: `tax names no taxonomy of the site: ${query.tax}` } });
				}
				const args = { taxonomy: [query.tax], include: query.ids, orderby: 'name', per_page: 100, ...(query.ids.length || !text ? {} : { search: text }) };
				const { rows } = runQuery(services, siteUser, definition(services.store, 'terms', args));
				return rows.flatMap((row) => ('term_id' in row ? [{ value: String(row.term_id), label: row.name }] : []));
			}
			const known = new Set(sitePostTypes(services.store).map((type) => type.slug));
			const unknown = query.post_type.filter((type) => type !== 'any' && !known.has(type));
			if (unknown.length) {
				throw badRequest('Invalid parameter(s): post_type', 'rest_invalid_param', { params: { post_type: `post_type names no post type of the site: ${unknown.join(', ')}` } });
			}
			const args = { post_type: query.post_type, post_status: ['publish'], include: query.ids, per_page: 100, ...(text ? { search: text } : {}) };
			const { rows } = runQuery(services, siteUser, definition(services.store, 'posts', args));
			// The search finds the words anywhere; the public plugin's control matches titles.
			const needle = text.toLowerCase();
			return rows
				.flatMap((row) => ('post_title' in row && contains(row.post_title, needle) ? [{ value: String(row.ID), label: row.post_title }] : []))
				.slice(0, SEARCH_POSTS_LIMIT);
		},
	}),

	route({
		method: 'GET',
		path: `${E}/search-glossary-fields`,
		auth: 'site',
		summary: "A glossary's options, searched by `query` in values and labels, or picked by `values`",
		query: phpQuery({
			query: searchParam.prefault(''),
			values: list(z.string()).prefault([]),
			glossary_id: ref,
		}),
		answer: z.array(searchOptionAnswer),
		errors: [403, 404],
		handler: ({ services, siteUser, query }) => {
			allow(siteUser, 'edit_posts');
			const { fields } = readGlossary(services.store, query.glossary_id);
			if (query.values.length) return fields.filter((field) => query.values.includes(field.value));
			const needle = query.query.trim().toLowerCase();
			return fields.filter((field) => contains(field.value, needle) || contains(field.label, needle));
		},
	}),
];
