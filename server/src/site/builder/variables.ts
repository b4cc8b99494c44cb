import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import { wpInt } from '../content/params';
import { BUILDER, CAN_READ, CAN_STYLE, clearDesignCss, cssText, requireCap } from './design-common';

/**
 * `builder/v1/variables/*`: the design system's variables (colours, fonts, sizes), each `{type,
 * label, value, order}` keyed by id. Deleting is soft (`deleted: true`, restorable). Every write
 * raises the collection's `watermark`; `/variables/batch` applies a list of operations only when
 * its `watermark` is the current one (optimistic concurrency), all of them or none.
 * One stored document (kind `variables`, key `state`).
 */

export const VARIABLE_TYPES = ['global-color-variable', 'global-font-variable', 'global-size-variable'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** Variables that are not deleted, at most (as the builder limits them). */
export const MAX_VARIABLES = 100;

const storedVariable = z.object({
	type: z.enum(VARIABLE_TYPES),
	label: z.string(),
	value: z.string(),
	order: z.int(),
	deleted: z.boolean().optional().meta({ description: 'Deleted (soft): it can be restored' }),
	deleted_at: z.string().optional(),
});
export type BuilderVariable = z.output<typeof storedVariable>;
/** A variable as the routes answer one: with its id. */
const variableAnswer = storedVariable.extend({ id: z.string() });
/** A single change's answer: the variable and the collection's new watermark. */
const changeAnswer = z.object({ variable: variableAnswer, watermark: z.int() });
/** What each operation of a batch did, in the order given. */
const batchResult = z.discriminatedUnion('type', [
	z.object({ type: z.literal('create'), id: z.string(), temp_id: z.string().nullable().meta({ description: "The client's temporary id of the variable" }), variable: variableAnswer }),
	z.object({ type: z.literal('update'), id: z.string(), variable: variableAnswer }),
	z.object({ type: z.literal('delete'), id: z.string(), deleted: z.literal(true) }),
	z.object({ type: z.literal('restore'), id: z.string(), variable: variableAnswer }),
]);

export interface VariablesState {
	watermark: number;
	data: Record<string, BuilderVariable>;
}

const KIND = 'variables';
const KEY = 'state';

/** Every variable (the deleted ones too, flagged) and the watermark: what the stylesheet and components read. */
export function builderVariables(store: Store): VariablesState {
	return store.objects.get<VariablesState>(BUILDER, KIND, KEY)?.data ?? { watermark: 0, data: {} };
}

/** Saves a changed collection with the next watermark; the stylesheet follows. */
function save(store: Store, state: VariablesState): number {
	const watermark = state.watermark + 1;
	store.objects.put(BUILDER, KIND, KEY, { ...state, watermark });
	clearDesignCss(store);
	return watermark;
}

// ---- fields ----

const variableId = z.string().trim().min(1).max(64);
/** Labels name CSS custom properties (`--label`). */
const label = z
	.string()
	.trim()
	.min(1)
	.max(50)
	.regex(/^[A-Za-z0-9_-]+$/, { error: 'must contain only letters, digits, hyphens and underscores' });
const value = cssText(512);
const type = z.enum(VARIABLE_TYPES);
const order = wpInt(0);

// ---- the operations, on a collection being changed (single routes and the batch share them) ----

const notFound = (id: string) => new ApiError(404, `There is no variable with the id "${id}".`, 'rest_variable_invalid_id');

function find(state: VariablesState, id: string): BuilderVariable {
	const variable = Object.hasOwn(state.data, id) ? state.data[id] : undefined;
	if (!variable) throw notFound(id);
	return variable;
}

const live = (state: VariablesState) => Object.entries(state.data).filter(([, v]) => !v.deleted);

function checkLabel(state: VariablesState, wanted: string, except?: string) {
	const taken = live(state).find(([id, v]) => id !== except && v.label.toLowerCase() === wanted.toLowerCase());
	if (taken) {
		throw new ApiError(400, `A variable labelled "${taken[1].label}" already exists.`, 'rest_variable_duplicate_label', {
			params: { label: `label "${wanted}" is already used by variable ${taken[0]}` },
		});
	}
}

function checkLimit(state: VariablesState) {
	if (live(state).length >= MAX_VARIABLES) {
		throw new ApiError(400, `Reached the maximum number of variables (${MAX_VARIABLES}).`, 'rest_variables_limit_reached');
	}
}

const view = (id: string, variable: BuilderVariable): z.output<typeof variableAnswer> => ({ id, ...variable });

interface Changes {
	label?: string;
	value?: string;
	type?: VariableType;
	order?: number;
}

function applyChanges(state: VariablesState, id: string, variable: BuilderVariable, changes: Changes) {
	if (changes.label !== undefined) checkLabel(state, changes.label, id);
	for (const key of ['label', 'value', 'type', 'order'] as const) {
		if (changes[key] !== undefined) (variable as unknown as Record<string, unknown>)[key] = changes[key];
	}
}

function createVariable(store: Store, state: VariablesState, input: { type: VariableType; label: string; value: string }) {
	checkLimit(state);
	checkLabel(state, input.label);
	const id = `gv-${store.objects.nextId(BUILDER, KIND)}`;
	const orders = Object.values(state.data).map((v) => v.order);
	const variable: BuilderVariable = { type: input.type, label: input.label, value: input.value, order: orders.length ? Math.max(...orders) + 1 : 1 };
	state.data[id] = variable;
	return { id, variable };
}

function updateVariable(state: VariablesState, id: string, changes: Changes) {
	const variable = find(state, id);
	if (variable.deleted) throw new ApiError(400, `Variable "${id}" is deleted: restore it first.`, 'rest_variable_deleted');
	applyChanges(state, id, variable, changes);
	return variable;
}

function deleteVariable(state: VariablesState, id: string) {
	const variable = find(state, id);
	if (variable.deleted) throw new ApiError(400, `Variable "${id}" is already deleted.`, 'rest_variable_deleted');
	variable.deleted = true;
	variable.deleted_at = new Date().toISOString();
	return variable;
}

function restoreVariable(state: VariablesState, id: string, changes: Changes) {
	const variable = find(state, id);
	if (!variable.deleted) throw new ApiError(400, `Variable "${id}" is not deleted.`, 'rest_variable_not_deleted');
	checkLimit(state);
	// Its label may have been taken meanwhile: the restore then needs a new one.
	checkLabel(state, changes.label ?? variable.label, id);
	applyChanges(state, id, variable, changes);
	delete variable.deleted;
	delete variable.deleted_at;
	return variable;
}

/** A copy to change: a failed operation leaves the stored collection as it was. */
const draft = (store: Store): VariablesState => structuredClone(builderVariables(store));

// ---- the batch ----

const batchOperation = z.discriminatedUnion(
	'type',
	[
		z.object({ type: z.literal('create'), variable: z.object({ id: z.string().max(64).optional(), type, label, value }) }),
		z.object({ type: z.literal('update'), id: variableId, variable: z.object({ label: label.optional(), value: value.optional(), type: type.optional(), order: order.optional() }) }),
		z.object({ type: z.literal('delete'), id: variableId }),
		z.object({ type: z.literal('restore'), id: variableId, label: label.optional(), value: value.optional() }),
	],
	{ error: (issue) => (issue.code === 'invalid_union' ? 'must be one of: "create", "update", "delete", "restore"' : undefined) },
);
type BatchOperation = z.output<typeof batchOperation>;

function runOperation(store: Store, state: VariablesState, op: BatchOperation): z.output<typeof batchResult> {
	switch (op.type) {
		case 'create': {
			const { id, variable } = createVariable(store, state, op.variable);
			return { type: op.type, id, temp_id: op.variable.id ?? null, variable: view(id, variable) };
		}
		case 'update':
			return { type: op.type, id: op.id, variable: view(op.id, updateVariable(state, op.id, op.variable)) };
		case 'delete':
			deleteVariable(state, op.id);
			return { type: op.type, id: op.id, deleted: true as const };
		case 'restore':
			return { type: op.type, id: op.id, variable: view(op.id, restoreVariable(state, op.id, { label: op.label, value: op.value })) };
	}
}

/** Where a batch error is reported: the client's temporary id of a create, the id, or the operation's index. */
const operationKey = (op: BatchOperation, index: number) =>
	op.type === 'create' ? (op.variable.id ?? `operation_${index}`) : op.id;

// ---- routes ----

const PATH = '/builder/v1/variables';

/** One variable operation as a route: the change in a transaction, the new watermark in the answer. */
function writeRoute<B extends z.ZodType>(method: 'POST' | 'PUT' | 'PATCH', name: string, summary: string, body: B, apply: (store: Store, state: VariablesState, body: z.output<B>) => { id: string; variable: BuilderVariable }, status: 200 | 201 = 200) {
	return route({
		method,
		path: `${PATH}/${name}`,
		auth: 'site',
		summary,
		body,
		answer: changeAnswer,
		status,
		// A create is not refused by id; the other changes name a variable (404 when there is none).
		errors: name === 'create' ? [403] : [403, 404],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, CAN_STYLE);
			const store = services.store;
			const result = store.tx(() => {
				const state = draft(store);
				const { id, variable } = apply(store, state, body as z.output<B>);
				return { variable: view(id, variable), watermark: save(store, state) };
			});
			return result;
		},
	});
}

const updateBody = z.object({ id: variableId, label, value, order: order.optional(), type: type.optional() });
const deleteBody = z.object({ id: variableId });
const restoreBody = z.object({ id: variableId, label: label.optional(), value: value.optional(), type: type.optional() });
const EDITABLE = ['POST', 'PUT', 'PATCH'] as const;

export const variablesRoutes: Route[] = [
	route({
		method: 'GET',
		path: `${PATH}/list`,
		auth: 'site',
		summary: 'Every variable keyed by id (deleted ones flagged), their count and the watermark',
		answer: z.object({ variables: z.record(z.string(), storedVariable), total: z.int(), watermark: z.int() }),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, CAN_READ);
			const state = builderVariables(services.store);
			return { variables: state.data, total: Object.keys(state.data).length, watermark: state.watermark };
		},
	}),
	writeRoute('POST', 'create', 'Create a variable (201)', z.object({ type, label, value }), (store, state, body) => createVariable(store, state, body), 201),
	...EDITABLE.map((method) =>
		writeRoute(method, 'update', 'Change the label, value, order or type of a variable', updateBody, (_store, state, body) => ({
			id: body.id,
			variable: updateVariable(state, body.id, body),
		})),
	),
	...EDITABLE.map((method) =>
		writeRoute(method, 'delete', 'Delete a variable (soft: it can be restored)', deleteBody, (_store, state, body) => ({
			id: body.id,
			variable: deleteVariable(state, body.id),
		})),
	),
	...EDITABLE.map((method) =>
		writeRoute(method, 'restore', 'Restore a deleted variable, optionally with a new label, value or type', restoreBody, (_store, state, body) => ({
			id: body.id,
			variable: restoreVariable(state, body.id, body),
		})),
	),
	route({
		method: 'POST',
		path: `${PATH}/batch`,
		auth: 'site',
		summary: 'Apply create, update, delete and restore operations at once, if `watermark` is current (409 otherwise): all or none',
		body: z.object({ watermark: wpInt(0), operations: z.array(batchOperation).min(1).max(MAX_VARIABLES) }),
		answer: z.object({ results: z.array(batchResult), watermark: z.int() }),
		errors: [403, 409],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, CAN_STYLE);
			const store = services.store;
			return store.tx(() => {
				const state = draft(store);
				if (body.watermark !== state.watermark) {
					throw new ApiError(409, `The variables changed since watermark ${body.watermark} (now ${state.watermark}): reload them and try again.`, 'rest_variables_watermark_mismatch', {
						current_watermark: state.watermark,
					});
				}
				const results: z.output<typeof batchResult>[] = [];
				const errors: Record<string, { status: number; code: string; message: string }> = {};
				body.operations.forEach((op, index) => {
					try {
						results.push(runOperation(store, state, op));
					} catch (error) {
						if (!(error instanceof ApiError)) throw error;
						errors[operationKey(op, index)] = { status: error.status, code: error.code, message: error.message };
					}
				});
				const failed = Object.keys(errors).length;
				if (failed) {
					throw new ApiError(400, `${failed} operation(s) of the batch failed; nothing was applied.`, 'rest_variables_batch_failed', { errors });
				}
				return { results, watermark: save(store, state) };
			});
		},
	}),
];
