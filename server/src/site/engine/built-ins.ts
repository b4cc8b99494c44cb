import { z } from 'zod';
import { notFound } from '../../http/errors';
import type { Route } from '../../http/route';
import type { Store } from '../../store';
import { advancedSettings, engineRoute, KEY, labelsSchema, merged } from './common';
import { answerOf } from './query-common';
import { type BuiltInDoc, engineDoc, ENGINE } from './documents';
import { fieldAnswer, fieldList } from './fields';

/**
 * WordPress's own post types and taxonomies as the engine edits them: get, relabel (labels, public,
 * fields; never the slug or REST base) and reset. Post types and taxonomies differ only in what this
 * takes, so both have the same three routes.
 */
export interface BuiltIns {
	/** `post type`, `taxonomy`: in messages. */
	noun: string;
	/** Route names: `get-built-in-post-type`, ... `get-built-in-tax`, ... */
	paths: { get: string; edit: string; reset: string };
	/** The path parameter: `post_type`, `tax`. */
	param: string;
	/** The stored overrides' kind. */
	kind: string;
	/** Whether WordPress has this built-in one. */
	exists: (slug: string) => boolean;
	/** The built-in one as the engine shows it, with its overrides. */
	view: (store: Store, slug: string, override: BuiltInDoc | undefined) => z.output<typeof builtInAnswer>;
}

/** A built-in post type or taxonomy as the engine shows it: WordPress's settings with the engine's overrides. */
export const builtInAnswer = z.object({
	general_settings: z.object({ name: z.string(), slug: z.string(), object_type: z.array(z.string()).optional().meta({ description: 'A taxonomy: the post types it is for' }) }),
	labels: z.record(z.string(), z.string()),
	advanced_settings: z.looseObject({ public: z.boolean(), hierarchical: z.boolean(), rest_base: z.string() }),
	meta_fields: z.array(fieldAnswer),
});
const answerSchema = answerOf(builtInAnswer);

const body = z.object({
	labels: labelsSchema.optional(),
	advanced_settings: z.object({ public: advancedSettings().shape.public }).optional(),
	meta_fields: fieldList.optional(),
});

export function builtInRoutes(def: BuiltIns): Route[] {
	const params = z.object({ [def.param]: z.string() });
	const patterns = { [def.param]: KEY };
	const slugOf = (p: Record<string, string>) => {
		const slug = p[def.param];
		if (!def.exists(slug)) throw notFound(`Built-in ${def.noun} not found.`, 'rest_engine_built_in_invalid');
		return slug;
	};
	const overrideOf = (store: Store, slug: string) => engineDoc<BuiltInDoc>(store, def.kind, slug)?.data;
	const answer = (store: Store, slug: string) => ({ success: true as const, data: def.view(store, slug, overrideOf(store, slug)) });
	return [
		engineRoute({
			method: 'GET',
			path: `${def.paths.get}/{${def.param}}`,
			summary: `Get a built-in ${def.noun} as the engine shows it`,
			params,
			patterns,
			answer: answerSchema,
			handler: ({ services: { store }, params }) => answer(store, slugOf(params)),
		}),
		engineRoute({
			method: 'POST',
			path: `${def.paths.edit}/{${def.param}}`,
			summary: `Relabel a built-in ${def.noun}, show or hide it, give it fields (its slug and REST base stay)`,
			params,
			patterns,
			body,
			answer: answerSchema,
			handler: ({ services: { store }, params, body }) =>
				store.tx(() => {
					const slug = slugOf(params);
					const before = overrideOf(store, slug) ?? { labels: {}, advanced_settings: {}, meta_fields: [] };
					store.objects.put(ENGINE, def.kind, slug, {
						labels: merged(before.labels, body.labels),
						advanced_settings: merged(before.advanced_settings, body.advanced_settings),
						meta_fields: body.meta_fields ?? before.meta_fields,
					} satisfies BuiltInDoc);
					return answer(store, slug);
				}),
		}),
		engineRoute({
			method: 'DELETE',
			path: `${def.paths.reset}/{${def.param}}`,
			summary: `Reset a built-in ${def.noun} to WordPress's own labels, without the engine's fields`,
			params,
			patterns,
			answer: answerSchema,
			handler: ({ services: { store }, params }) => {
				const slug = slugOf(params);
				store.objects.delete(ENGINE, def.kind, slug);
				return answer(store, slug);
			},
		}),
	];
}
