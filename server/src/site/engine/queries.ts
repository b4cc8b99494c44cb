import { z } from 'zod';
import { badRequest } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import { list, searchParam, wpInt } from '../content/params';
import { sitePostTypes } from '../registry';
import { addedAnswer } from './common';
import { answer, answerOf, allow, ref } from './query-common';
import {
	argsInput,
	definition,
	deleteQuery,
	findQuery,
	listQueries,
	MAX_OFFSET,
	QUERY_ID_PATTERN,
	QUERY_TYPES,
	queryFields,
	type QueryDefinition,
	saveQuery,
	storedQueryAnswer,
} from './query-defs';
import { checkFields, DEFAULT_FIELDS, queryRowAnswer, querySql, ROW_FIELDS, type Row, runQuery } from './query-run';
import { searchRoutes } from './search';

const E = '/engine/v2';
const idParams = z.object({ id: z.string() });
const patterns = { id: QUERY_ID_PATTERN };

/**
 * An unsaved definition (`query_type` with `args`), or a stored query (`query_id`) whose `args` the
 * body may replace: what the preview and the conversion run.
 */
const definitionSource = {
	query_id: ref.optional(),
	query_type: z.enum(QUERY_TYPES).optional(),
	args: argsInput.optional(),
};

function sourceDefinition(services: Services, body: { query_id?: string; query_type?: (typeof QUERY_TYPES)[number]; args?: Record<string, unknown> }): QueryDefinition {
	const stored = body.query_id !== undefined ? findQuery(services.store, body.query_id) : undefined;
	const type = body.query_type ?? stored?.query_type;
	if (!type) throw badRequest('Missing parameter(s): query_type', 'rest_missing_callback_param', { params: ['query_type'] });
	if (stored && body.args === undefined && type === stored.query_type) return stored;
	return definition(services.store, type, body.args);
}

/** Posts of any type but media whose title contains the text, as the caller may read them (the preview's context). */
function previewPosts(services: Services, user: Parameters<typeof runQuery>[1], text: string) {
	const types = sitePostTypes(services.store).filter((type) => type.slug !== 'attachment').map((type) => type.slug);
	const needle = text.trim().toLowerCase();
	const args = { post_type: types, post_status: ['any'], orderby: 'title', order: 'ASC', per_page: 100, ...(needle ? { search: needle } : {}) };
	const { rows } = runQuery(services, user, definition(services.store, 'posts', args));
	// The search also looks in excerpts and contents; the preview's context is found by its title.
	return rows.flatMap((row) => ('post_title' in row && row.post_title.toLowerCase().includes(needle) ? [{ id: row.ID, text: row.post_title }] : []));
}

/** `{value, label}` options (a field's choices). */
export const optionAnswer = z.object({ value: z.unknown().meta({ description: "The row's value_field" }), label: z.unknown().meta({ description: "The row's label_field, else its value_field" }) });

/** A row with only the named fields. */
const pick = (row: Row, fields: readonly string[]) => Object.fromEntries(fields.map((field) => [field, row[field]]));

/** A row's field named by the caller (checked by `checkFields`). */
const fieldOf = (row: Row, field: string) => row[field];

export const queryRoutes: Route[] = [
	route({
		method: 'POST',
		path: `${E}/add-query`,
		auth: 'site',
		summary: 'Store a query (posts, terms or users, with filters, order and paging); the slug is made from the name unless given',
		body: z.object({
			name: queryFields.name,
			slug: queryFields.slug.optional(),
			description: queryFields.description.optional(),
			query_type: z.enum(QUERY_TYPES),
			args: argsInput.optional(),
		}),
		answer: addedAnswer(storedQueryAnswer),
		errors: [403, 409],
		handler: ({ services, siteUser, body }) => {
			allow(siteUser, 'manage_options');
			const def = definition(services.store, body.query_type, body.args);
			const query = services.store.tx(() => saveQuery(services.store, undefined, body, def));
			return answer(query, { item_id: query.id });
		},
	}),

	route({
		method: 'POST',
		path: `${E}/edit-query/{id}`,
		auth: 'site',
		summary: 'Change a stored query (by id or slug); `args` replaces its args, a new `query_type` needs args of that type',
		params: idParams,
		patterns,
		body: z.object({
			name: queryFields.name.optional(),
			slug: queryFields.slug.optional(),
			description: queryFields.description.optional(),
			query_type: z.enum(QUERY_TYPES).optional(),
			args: argsInput.optional(),
		}),
		answer: answerOf(storedQueryAnswer),
		errors: [403, 409],
		handler: ({ services, siteUser, params, body }) => {
			allow(siteUser, 'manage_options');
			const query = services.store.tx(() => {
				const previous = findQuery(services.store, params.id);
				const type = body.query_type ?? previous.query_type;
				// Args of another type would not fit: a new type starts from its defaults unless args are given.
				const def = body.args === undefined && type === previous.query_type ? previous : definition(services.store, type, body.args);
				return saveQuery(services.store, previous, body, def);
			});
			return answer(query);
		},
	}),

	route({
		method: 'GET',
		path: `${E}/get-query/{id}`,
		auth: 'site',
		summary: 'Get a stored query by id or slug',
		params: idParams,
		patterns,
		answer: answerOf(storedQueryAnswer),
		errors: [403],
		handler: ({ services, siteUser, params }) => {
			allow(siteUser, 'edit_posts');
			return answer(findQuery(services.store, params.id));
		},
	}),

	route({
		method: 'DELETE',
		path: `${E}/delete-query/{id}`,
		auth: 'site',
		summary: 'Delete a stored query by id or slug',
		params: idParams,
		patterns,
		answer: answerOf(z.object({ deleted: z.literal(true), previous: storedQueryAnswer })),
		errors: [403],
		handler: ({ services, siteUser, params }) => {
			allow(siteUser, 'manage_options');
			const previous = services.store.tx(() => {
				const query = findQuery(services.store, params.id);
				deleteQuery(services.store, query);
				return query;
			});
			return answer({ deleted: true as const, previous });
		},
	}),

	route({
		method: 'GET',
		path: `${E}/get-queries`,
		auth: 'site',
		summary: 'List the stored queries, oldest first',
		answer: answerOf(z.array(storedQueryAnswer)),
		errors: [403],
		handler: ({ services, siteUser }) => {
			allow(siteUser, 'edit_posts');
			return answer(listQueries(services.store));
		},
	}),

	route({
		method: 'GET',
		path: `${E}/search-query-preview`,
		auth: 'site',
		summary: 'Find the posts a query preview can run in the context of: titles containing `_s`, as `{id, text}`',
		query: phpQuery({ _s: searchParam.prefault('') }),
		answer: answerOf(z.array(z.object({ id: z.number().int(), text: z.string() }))),
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			allow(siteUser, 'edit_posts');
			return answer(previewPosts(services, siteUser, query._s));
		},
	}),

	route({
		method: 'POST',
		path: `${E}/update-query-preview`,
		auth: 'site',
		summary: 'Run a query (an unsaved definition, or a stored one by `query_id`) against the site and answer its first rows and its total',
		body: z.object({ ...definitionSource, limit: wpInt(1, 100).prefault(10) }),
		answer: answerOf(z.array(queryRowAnswer), { count: z.number().int().meta({ description: 'Every row the query matches' }) }),
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			allow(siteUser, 'edit_posts');
			const def = sourceDefinition(services, body);
			const { rows, total } = runQuery(services, siteUser, def, { limit: body.limit });
			return answer(rows, { count: total });
		},
	}),

	route({
		method: 'POST',
		path: `${E}/convert-query-advanced`,
		auth: 'site',
		summary: 'Convert a query to its advanced form: every argument with its default, and the SQL it runs for the caller',
		body: z.object(definitionSource),
		answer: answerOf(z.object({ query_type: z.enum(QUERY_TYPES), args: z.record(z.string(), z.unknown()), sql: z.string(), params: z.array(z.unknown()) })),
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			allow(siteUser, 'manage_options');
			const def = sourceDefinition(services, body);
			return answer({ query_type: def.query_type, args: def.args, ...querySql(services, siteUser, def) });
		},
	}),

	route({
		method: 'GET',
		path: `${E}/search-query-field-options`,
		auth: 'site',
		summary: 'Run a stored query and answer its rows as `{value, label}` options, searched by `q` or picked by `values`',
		query: phpQuery({
			q: searchParam.prefault(''),
			value_field: z.string().max(100).optional(),
			label_field: z.string().max(100).optional(),
			values: list(z.string()).prefault([]),
			query_id: ref,
		}),
		answer: z.array(optionAnswer),
		errors: [403, 404],
		handler: ({ services, siteUser, query }) => {
			allow(siteUser, 'edit_posts');
			const def = findQuery(services.store, query.query_id);
			// An empty field parameter means its default, as the public plugin reads it.
			const valueField = query.value_field || DEFAULT_FIELDS[def.query_type].value;
			const labelField = query.label_field || DEFAULT_FIELDS[def.query_type].label;
			checkFields(def, { value_field: valueField, label_field: labelField });
			const options = runQuery(services, siteUser, def)
				.rows.filter((row) => fieldOf(row, valueField) !== null && fieldOf(row, valueField) !== undefined)
				.map((row) => ({ value: fieldOf(row, valueField), label: fieldOf(row, labelField) ?? fieldOf(row, valueField) }));
			if (query.values.length) return options.filter((option) => query.values.includes(String(option.value)));
			const needle = query.q.trim().toLowerCase();
			return options.filter((option) => `${String(option.value)}\n${String(option.label)}`.toLowerCase().includes(needle));
		},
	}),

	route({
		method: 'POST',
		path: `${E}/table-fetch-data`,
		auth: 'site',
		summary: 'Run a stored query as a table: one page of its rows with the chosen columns, the total and the number of pages',
		body: z.object({
			query_id: ref,
			page: wpInt(1, MAX_OFFSET).prefault(1),
			per_page: wpInt(1, 100).optional(),
			columns: list(z.string().max(100)).optional(),
		}),
		answer: answerOf(z.object({ columns: z.array(z.string()), rows: z.array(z.record(z.string(), z.unknown())).meta({ description: 'Each row with the columns only' }), total: z.number().int(), total_pages: z.number().int(), page: z.number().int() })),
		errors: [403, 404],
		handler: ({ services, siteUser, body }) => {
			allow(siteUser, 'edit_posts');
			const def = findQuery(services.store, body.query_id);
			checkFields(def, { columns: body.columns });
			const perPage = body.per_page ?? def.args.per_page;
			const { rows, total } = runQuery(services, siteUser, def, { page: body.page, limit: perPage });
			const columns = body.columns?.length ? body.columns : [...ROW_FIELDS[def.query_type]];
			return answer({ columns, rows: rows.map((row) => pick(row, columns)), total, total_pages: Math.ceil(total / perPage), page: body.page });
		},
	}),

	...searchRoutes,
];
