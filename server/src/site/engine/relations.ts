import { z } from 'zod';
import { ApiError } from '../../http/errors';
import type { Route } from '../../http/route';
import type { Store } from '../../store';
import { invalidParam } from '../content/write';
import { sitePostTypes } from '../registry';
import { addedAnswer, engineRoute, findDoc, KEY, nextId, okAnswer, storedId } from './common';
import { answerOf } from './query-common';
import { type Connection, engineDocs, ENGINE, KINDS, type RelationDoc, RELATION_TYPES } from './documents';

/**
 * `engine/v2` relations between two post types (one-to-one, one-to-many, many-to-many) and the
 * items they connect. The spec has no route for the connections, so the relation carries them:
 * add and edit take `connections` (the whole list), `connect` and `disconnect` (pairs added or
 * removed); get shows them.
 */

const id = z.number().int().positive().or(z.string().regex(/^\d{1,15}$/).transform(Number));
const pair = z.object({ parent_id: id, child_id: id });
const pairs = z.array(pair).max(1000);
const slug = z.string().min(1).max(64);
const connectionChanges = { connections: pairs.optional(), connect: pairs.optional(), disconnect: pairs.optional() };

const addBody = z.looseObject({
	name: z.string().trim().min(1).max(100),
	parent_object: slug,
	child_object: slug,
	type: z.enum(RELATION_TYPES).default('one_to_many'),
	...connectionChanges,
});
const editBody = z.looseObject({
	name: addBody.shape.name.optional(),
	parent_object: slug.optional(),
	child_object: slug.optional(),
	type: z.enum(RELATION_TYPES).optional(),
	...connectionChanges,
});
type Changes = Pick<z.output<typeof editBody>, 'connections' | 'connect' | 'disconnect'>;

const idParams = z.object({ id: z.string() });
const WHAT = 'Relation';
const CODE = 'relation';

const find = (store: Store, key: string) => findDoc<RelationDoc>(store, KINDS.relation, storedId(key, WHAT, CODE), WHAT, CODE);

/** Whether a stored item of the given post type is there (deleted items leave their relations). */
const itemOf = (store: Store, id: number, type: string) => store.content.get(id)?.type === type;

/** The relation as shown: connections whose items still exist. */
/** A relation as the engine answers it (settings the client added beyond the known ones kept as given). */
export const relationAnswer = z.looseObject({
	id: z.number().int(),
	name: z.string(),
	parent_object: z.string(),
	child_object: z.string(),
	type: z.enum(RELATION_TYPES),
	connections: z.array(z.object({ parent_id: z.number().int(), child_id: z.number().int() })).meta({ description: 'The connected items whose both sides still exist' }),
});

const view = (store: Store, key: string, doc: RelationDoc): z.output<typeof relationAnswer> => ({
	id: Number(key),
	...doc,
	connections: doc.connections.filter((c) => itemOf(store, c.parent_id, doc.parent_object) && itemOf(store, c.child_id, doc.child_object)),
});

const samePair = (a: Connection, b: Connection) => a.parent_id === b.parent_id && a.child_id === b.child_id;

/** Both sides are post types of the registry. */
function checkObjects(store: Store, doc: RelationDoc) {
	const types = sitePostTypes(store).map((t) => t.slug);
	for (const side of ['parent_object', 'child_object'] as const) {
		if (!types.includes(doc[side])) throw invalidParam(side, `${side} names no post type of the site: ${doc[side]}`);
	}
}

/** Pairs a request gives: items of the right types, never an item with itself (400 on the parameter). */
function checkGiven(store: Store, doc: RelationDoc, param: string, given: Connection[]) {
	given.forEach((c, i) => {
		if (!itemOf(store, c.parent_id, doc.parent_object)) throw invalidParam(param, `${param}[${i}].parent_id must be the id of a ${doc.parent_object} item (${c.parent_id} is none)`);
		if (!itemOf(store, c.child_id, doc.child_object)) throw invalidParam(param, `${param}[${i}].child_id must be the id of a ${doc.child_object} item (${c.child_id} is none)`);
		if (c.parent_id === c.child_id) throw invalidParam(param, `${param}[${i}] connects item ${c.parent_id} with itself`);
	});
}

const limitBroken = (message: string) => new ApiError(409, message, 'rest_engine_relation_limit', { params: { connections: message } });

/** The relation type's limits over the whole list (409: the list conflicts with the type). */
function checkLimits(doc: RelationDoc) {
	if (doc.type === 'many_to_many') return;
	const parentOf = new Map<number, number>();
	const childOf = new Map<number, number>();
	for (const c of doc.connections) {
		const parent = parentOf.get(c.child_id);
		if (parent !== undefined) throw limitBroken(`A ${doc.type} relation gives each child one parent: child ${c.child_id} would have ${parent} and ${c.parent_id}.`);
		parentOf.set(c.child_id, c.parent_id);
		const child = childOf.get(c.parent_id);
		if (doc.type === 'one_to_one' && child !== undefined) {
			throw limitBroken(`A one_to_one relation gives each parent one child: parent ${c.parent_id} would have ${child} and ${c.child_id}.`);
		}
		childOf.set(c.parent_id, c.child_id);
	}
}

/**
 * The connections after a request: the given list (or the stored one, less pairs whose items were
 * deleted), less `disconnect`, plus `connect`; repeats dropped. Stored pairs that no longer fit a
 * changed definition are a 409: the client empties or replaces them in the same request.
 */
function nextConnections(store: Store, doc: RelationDoc, before: Connection[], changes: Changes): Connection[] {
	for (const param of ['connections', 'connect', 'disconnect'] as const) {
		if (param !== 'disconnect' && changes[param]) checkGiven(store, doc, param, changes[param]);
	}
	let list: Connection[] = changes.connections ?? before.filter((c) => store.content.get(c.parent_id) && store.content.get(c.child_id));
	if (!changes.connections) {
		const misfit = list.find((c) => !itemOf(store, c.parent_id, doc.parent_object) || !itemOf(store, c.child_id, doc.child_object));
		if (misfit) {
			const message = `The stored connection ${misfit.parent_id} -> ${misfit.child_id} does not join a ${doc.parent_object} item to a ${doc.child_object} item: give connections anew.`;
			throw new ApiError(409, message, 'rest_engine_conflict', { params: { connections: message } });
		}
	}
	list = list.filter((c) => !changes.disconnect?.some((d) => samePair(c, d)));
	const out: Connection[] = [];
	for (const c of [...list, ...(changes.connect ?? [])]) if (!out.some((o) => samePair(o, c))) out.push({ parent_id: c.parent_id, child_id: c.child_id });
	return out;
}

/** A stored relation after a body: its definition, its connections checked against both. */
function build(store: Store, body: z.output<typeof editBody>, before?: RelationDoc): RelationDoc {
	// `id` is the route's, never a setting.
	const { connections, connect, disconnect, id: _id, ...settings } = body;
	const doc = { ...before, ...settings, connections: [] } as RelationDoc;
	checkObjects(store, doc);
	doc.connections = nextConnections(store, doc, before?.connections ?? [], { connections, connect, disconnect });
	checkLimits(doc);
	return doc;
}

export const relationRoutes: Route[] = [
	engineRoute({
		method: 'POST',
		path: 'add-relation',
		summary: 'Add a relation between two post types (one_to_one, one_to_many, many_to_many), with its first connections',
		body: addBody,
		answer: addedAnswer(relationAnswer),
		errors: [409],
		handler: ({ services: { store }, body }) =>
			store.tx(() => {
				const doc = build(store, body);
				const key = nextId(store, KINDS.relation);
				store.objects.put(ENGINE, KINDS.relation, key, doc);
				return { success: true as const, item_id: Number(key), data: view(store, key, doc) };
			}),
	}),
	engineRoute({
		method: 'POST',
		path: 'edit-relation/{id}',
		summary: 'Edit a relation: the settings given, and its connections (connections replaces them; connect and disconnect add and remove pairs)',
		params: idParams,
		patterns: { id: KEY },
		body: editBody,
		answer: answerOf(relationAnswer),
		errors: [409],
		handler: ({ services: { store }, params, body }) =>
			store.tx(() => {
				const { key, data } = find(store, params.id);
				const doc = build(store, body, data);
				store.objects.put(ENGINE, KINDS.relation, key, doc);
				return { success: true as const, data: view(store, key, doc) };
			}),
	}),
	engineRoute({
		method: 'GET',
		path: 'get-relation/{id}',
		summary: 'Get a relation with its connected items',
		params: idParams,
		patterns: { id: KEY },
		answer: answerOf(relationAnswer),
		handler: ({ services: { store }, params }) => {
			const { key, data } = find(store, params.id);
			return { success: true as const, data: view(store, key, data) };
		},
	}),
	engineRoute({
		method: 'GET',
		path: 'get-relations',
		summary: 'List the relations with their connected items',
		answer: answerOf(z.array(relationAnswer)),
		handler: ({ services: { store } }) => ({ success: true as const, data: engineDocs<RelationDoc>(store, KINDS.relation).map((d) => view(store, d.key, d.data)) }),
	}),
	engineRoute({
		method: 'DELETE',
		path: 'delete-relation/{id}',
		summary: 'Delete a relation and its connections (the items stay)',
		params: idParams,
		patterns: { id: KEY },
		answer: okAnswer,
		handler: ({ services: { store }, params }) => {
			const { key } = find(store, params.id);
			store.objects.delete(ENGINE, KINDS.relation, key);
			return { success: true as const };
		},
	}),
];
