import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** One operation of a node: its entry in the Operation list and the fields it shows. */
export interface Operation extends INodePropertyOptions {
	value: string;
	action: string;
	fields?: INodeProperties[];
}

/** The `operation` selector of a list of operations; its default is the first. */
export function operationSelector(operations: Operation[]): INodeProperties {
	const first = operations[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: operations.map((operation) => without(operation, 'fields')),
		default: first,
	} satisfies INodeProperties;
}

/**
 * The node's subtitle: the chosen operation as the Operation list names it (`Send Text`), not its
 * value (`sendText`), read from the same declarations.
 */
export function operationSubtitle(operations: Operation[]): string {
	return `={{ ${namesByValue(operations)}[$parameter["operation"]] }}`;
}

/** An expression's object literal from option values to their names (in parentheses: `{{ {` would not parse). */
export const namesByValue = (options: Array<{ name: string; value: string }>) =>
	`(${JSON.stringify(Object.fromEntries(options.map((option) => [option.value, option.name])))})`;

/**
 * The fields of the operations, each declared ONCE and shown for the operations that use it.
 *
 * Why once: for every item, n8n's declarative engine (RoutingNode) evaluates the value of EVERY
 * property of the description, displayed or not, twice (the request pass and the base-URL pass), so
 * a field that twelve operations each declared would have its expression evaluated about twenty-four
 * times per item instead of twice. Hence:
 * - a field that several operations declare alike is one property listing them all;
 * - same-named collections (Options, Filters, ...) become one collection; an entry that not all of
 *   them have is shown only for its own operations (`/operation`). n8n walks only the entries that
 *   are set, so two entries of one name for different operations cost nothing (e.g. Order By with
 *   the values of each list route);
 * - a name declared differently by two operations is an error: give the field one declaration that
 *   fits both, or, if the two mean different things, two names.
 */
export function fieldProperties(operations: Operation[]): INodeProperties[] {
	const byName = new Map<string, Array<{ field: INodeProperties; operations: string[] }>>();
	for (const operation of operations) {
		for (const field of operation.fields ?? []) {
			const variants = byName.get(field.name) ?? byName.set(field.name, []).get(field.name)!;
			const match = variants.find((variant) => same(variant.field, field));
			if (match) match.operations.push(operation.value);
			else variants.push({ field, operations: [operation.value] });
		}
	}
	return [...byName.values()].map(declareOnce);
}

/** The one property of a name: its variants' fields shown for their operations. */
function declareOnce(variants: Array<{ field: INodeProperties; operations: string[] }>): INodeProperties {
	const operations = variants.flatMap((variant) => variant.operations);
	const [{ field }] = variants;
	if (variants.length > 1 && !variants.every((variant) => variant.field.type === 'collection' && same(shell(variant.field), shell(field)))) {
		const [a, b] = variants.map((variant) => variant.operations[0]);
		throw new Error(`Field "${field.name}" is declared differently by operations ${a} and ${b}: declare it once, or give each its own name`);
	}
	const merged = variants.length > 1 ? { ...field, options: mergeOptions(variants, operations) } : field;
	return showFor(merged, 'operation', operations);
}

/** A collection without its entries: what must agree for two collections to be one. */
const shell = (field: INodeProperties) => without(field, 'options');

/** A copy of `object` without `key` (a rest destructuring would leave an unused name, which n8n's lint rejects). */
export function without<T extends object, K extends keyof T>(object: T, key: K): Omit<T, K> {
	const copy = { ...object };
	delete copy[key];
	return copy;
}

/** The entries of same-named collections: each once, with `/operation` when not all of them have it. */
function mergeOptions(variants: Array<{ field: INodeProperties; operations: string[] }>, all: string[]): INodeProperties[] {
	const entries: Array<{ entry: INodeProperties; operations: string[] }> = [];
	for (const variant of variants) {
		for (const entry of variant.field.options as INodeProperties[]) {
			const match = entries.find((known) => same(known.entry, entry));
			if (match) match.operations.push(...variant.operations);
			else {
				const clash = entries.find((known) => known.entry.name === entry.name && known.operations.some((op) => variant.operations.includes(op)));
				if (clash) {
					throw new Error(
						`Option "${entry.name}" of "${variant.field.name}" is declared differently by operations ${clash.operations[0]} and ${variant.operations[0]}: declare it once, or give each its own name`,
					);
				}
				entries.push({ entry, operations: [...variant.operations] });
			}
		}
	}
	return entries
		.map(({ entry, operations }) => (operations.length === all.length ? entry : showFor(entry, '/operation', operations)))
		.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** The field, shown only where `key` (a parameter path) has one of `values`, besides its own conditions. */
function showFor(field: INodeProperties, key: string, values: string[]): INodeProperties {
	return { ...field, displayOptions: { ...field.displayOptions, show: { ...field.displayOptions?.show, [key]: values } } };
}

/** Whether two declarations are the same: same values, the same functions (preSend, postReceive). */
function same(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
	const keys = Object.keys(a);
	return (
		keys.length === Object.keys(b).length &&
		keys.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
	);
}
