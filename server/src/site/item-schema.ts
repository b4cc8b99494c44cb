import { z, type ZodObject, type ZodType } from 'zod';
import { ARG_JSON, clean } from './arg-schema';
import type { Contexts, ContextTable } from './contexts';

/**
 * A resource's item schema in WordPress's form (`get_public_item_schema`: draft-04, the resource's
 * `title`, its fields under `properties`), made from the zod schema of what the resource answers. Each
 * field's WordPress keywords (`description`, `context`, `readonly`, `required`, `format`...) are the
 * field's zod meta; zod's own keywords (a nested object's `required` list and closed
 * `additionalProperties`, the safe-integer bounds) are left out, as WordPress never writes them.
 */
export type ItemSchema = {
	$schema: string;
	title: string;
	type: 'object';
	properties: Record<string, Record<string, unknown>>;
};

type Schema = Record<string, unknown>;

/** zod's object keywords out, recursively: WordPress lists fields, it does not close objects. */
export function wpForm(schema: Schema): Schema {
	const out = clean(schema);
	if (Array.isArray(out.required)) delete out.required;
	// Open maps (zod's records) are WordPress's plain objects; an explicit `true` (meta) stays.
	if (out.additionalProperties !== true) delete out.additionalProperties;
	// (`properties: []` is PHP's empty map as WordPress writes it: kept as it is.)
	if (out.properties && typeof out.properties === 'object' && !Array.isArray(out.properties)) {
		out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Schema>).map(([k, v]) => [k, wpForm(v)]));
	}
	if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = wpForm(out.items as Schema);
	return out;
}

const cache = new WeakMap<ZodObject, ItemSchema>();

export function wpItemSchema(title: string, object: ZodObject): ItemSchema {
	const cached = cache.get(object);
	if (cached?.title === title) return cached;
	const json = z.toJSONSchema(object, { io: 'output', unrepresentable: 'any' }) as { properties?: Record<string, Schema> };
	const schema: ItemSchema = {
		$schema: 'http://json-schema.org/draft-04/schema#',
		title,
		type: 'object',
		properties: Object.fromEntries(Object.entries(json.properties ?? {}).map(([name, prop]) => [name, wpForm(prop)])),
	};
	cache.set(object, schema);
	return schema;
}

/** Which contexts show each field, from the fields' `context` meta (what `inContext` filters by). */
export function contextTable(object: ZodObject): ContextTable {
	const table: ContextTable = {};
	for (const [name, field] of Object.entries(object.shape)) {
		const context = (z.globalRegistry.get(field) as { context?: Contexts } | undefined)?.context;
		if (context?.length) table[name] = context;
	}
	return table;
}

/**
 * An item schema's field as a create or update argument (`rest_get_endpoint_args_for_schema`): its
 * keywords without the field's own `context` and `readonly`, to give as the argument's meta.
 */
export function fieldArg(field: ZodType): Schema {
	const { $schema: _s, context: _c, readonly: _r, ...rest } = wpForm(z.toJSONSchema(field, ARG_JSON) as Schema);
	return rest;
}

/** PHP's `strval` of a scalar (`true` is "1", `false` ""); anything else is no text. */
const phpText = (value: unknown) =>
	typeof value === 'string' ? value : typeof value === 'number' ? String(value) : typeof value === 'boolean' ? (value ? '1' : '') : undefined;

/**
 * A text field WordPress's item schema declares as `{raw, rendered}` (a post's `title`, `content`, `excerpt`,
 * media's `caption` and `description`, a comment's `content`), as a create or update argument. Its
 * `arg_options` turn WordPress's validation and sanitizing off, and the controller reads a string or
 * the object's `raw` (`prepare_item_for_database`); any other value (a number, `null`, a list) is no
 * text and is left out, as if not sent. A scalar `raw` becomes text when saved; the comments controller
 * takes a string `raw` only (`stringRaw`).
 */
export const rawTextArg = (field: ZodType, { stringRaw = false } = {}) =>
	z
		.preprocess((value) => {
			if (typeof value === 'string') return value;
			if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
			const { raw } = value as { raw?: unknown };
			return stringRaw && typeof raw !== 'string' ? undefined : phpText(raw);
		}, z.string().optional())
		// Shown as the item schema's field, as WordPress derives the argument from it.
		.meta(fieldArg(field));

/**
 * An item schema as a route's answer (the contract): every field of a WordPress item is shown in some
 * contexts only (its `context` meta), so each may be absent from an answer, as the contract says.
 */
export const itemAnswer = <S extends z.ZodRawShape>(object: z.ZodObject<S>) => object.partial();

const linkMap = z.record(z.string(), z.unknown());

/** An item with the links the REST server keeps in it, where the contract does not add them itself: inside another answer. */
export const withLinks = (item: z.ZodObject) => item.extend({ _links: linkMap.optional(), _embedded: linkMap.optional() });

/** WordPress's answer to a delete for good: the item as it was (`previous`, with its links). */
export const deletedAnswer = (item: z.ZodObject) => z.object({ deleted: z.literal(true), previous: withLinks(item) });

/** A delete that may trash (the trashed item, linked) or delete for good. */
export const trashOrDeleteAnswer = (item: z.ZodObject) => z.union([withLinks(item), deletedAnswer(item)]);
