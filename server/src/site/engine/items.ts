import { z } from 'zod';
import type { Route } from '../../http/route';
import type { Store } from '../../store';
import { addedAnswer, engineRoute, findDoc, KEY, nextId, okAnswer, storedId } from './common';
import { answerOf } from './query-common';
import { engineDocs, ENGINE, KINDS } from './documents';

/**
 * `engine/v2` generic items: the engine's glossaries, named option lists (`{value, label}`) that
 * fields and filters offer. Stored as `{id, name, fields}` under kind `item`, the shape
 * `search-glossary-fields` reads (`readGlossary` in search.ts).
 */

const option = z.object({
	value: z.union([z.string(), z.number().transform(String)]).pipe(z.string().min(1).max(200)),
	label: z.string().max(200).optional(),
	is_checked: z.boolean().optional(),
});
const options = z
	.array(option)
	.max(1000)
	.superRefine((list, ctx) => {
		const values = list.map((o) => o.value);
		const repeated = values.filter((v, i) => values.indexOf(v) !== i);
		if (repeated.length) ctx.addIssue({ code: 'custom', message: `must give each value once (repeated: ${[...new Set(repeated)].join(', ')})` });
	})
	// An option without a label shows its value.
	.transform((list) => list.map((o) => ({ ...o, label: o.label || o.value })));

const addBody = z.looseObject({ name: z.string().trim().min(1).max(100), fields: options.default([]) });
const editBody = z.looseObject({ name: addBody.shape.name.optional(), fields: options.optional() });

export interface ItemDoc {
	id: number;
	name: string;
	fields: { value: string; label: string; is_checked?: boolean }[];
	[setting: string]: unknown;
}

/** A generic item as the engine answers it (settings the client added beyond name and fields kept as given). */
export const itemAnswer = z.looseObject({
	id: z.number().int(),
	name: z.string(),
	fields: z.array(z.object({ value: z.string(), label: z.string(), is_checked: z.boolean().optional() })),
});

const idParams = z.object({ id: z.string() });
const WHAT = 'Item';
const CODE = 'item';

const find = (store: Store, key: string) => findDoc<ItemDoc>(store, KINDS.item, storedId(key, WHAT, CODE), WHAT, CODE);

export const itemRoutes: Route[] = [
	engineRoute({
		method: 'POST',
		path: 'add-item',
		summary: 'Add a generic item: a named list of options (value, label)',
		body: addBody,
		answer: addedAnswer(itemAnswer),
		handler: ({ services: { store }, body }) =>
			store.tx(() => {
				const key = nextId(store, KINDS.item);
				const doc: ItemDoc = { ...body, id: Number(key) };
				store.objects.put(ENGINE, KINDS.item, key, doc);
				return { success: true as const, item_id: doc.id, data: doc };
			}),
	}),
	engineRoute({
		method: 'POST',
		path: 'edit-item/{id}',
		summary: 'Edit a generic item: its name and settings given; fields, when given, replace its options',
		params: idParams,
		patterns: { id: KEY },
		body: editBody,
		answer: answerOf(itemAnswer),
		handler: ({ services: { store }, params, body }) =>
			store.tx(() => {
				const { key, data } = find(store, params.id);
				const doc: ItemDoc = { ...data, ...body, id: data.id };
				store.objects.put(ENGINE, KINDS.item, key, doc);
				return { success: true as const, data: doc };
			}),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-item/{id}',
		summary: 'Get a generic item with its options',
		params: idParams,
		patterns: { id: KEY },
		answer: answerOf(itemAnswer),
		handler: ({ services: { store }, params }) => ({ success: true as const, data: find(store, params.id).data }),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-items',
		summary: 'List the generic items',
		answer: answerOf(z.array(itemAnswer)),
		handler: ({ services: { store } }) => ({ success: true as const, data: engineDocs<ItemDoc>(store, KINDS.item).map((d) => d.data) }),
	}),
	engineRoute({
		method: 'DELETE',
		path: 'delete-item/{id}',
		summary: 'Delete a generic item',
		params: idParams,
		patterns: { id: KEY },
		answer: okAnswer,
		handler: ({ services: { store }, params }) => {
			const { key } = find(store, params.id);
			store.objects.delete(ENGINE, KINDS.item, key);
			return { success: true as const };
		},
	}),
];
