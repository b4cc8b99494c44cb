import { z } from 'zod';
import type { Store } from '../../store';
import { qBool } from '../../http/schema';

/**
 * The engine's meta fields: declared by post types, taxonomies, meta boxes and options pages (each a
 * list of `Field`), and the values items and options pages carry for them, validated by field type.
 */

export const FIELD_TYPES = [
	'text',
	'textarea',
	'wysiwyg',
	'number',
	'date',
	'time',
	'datetime-local',
	'select',
	'radio',
	'checkbox',
	'switcher',
	'colorpicker',
	'media',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose values are one of the field's `options` keys (or, for checkboxes and multiple selects, several). */
const CHOICE_TYPES: readonly FieldType[] = ['select', 'radio', 'checkbox'];

/** A meta key: lowercase letters, digits, hyphen, underscore; not one of the site's own meta keys. */
export const FIELD_NAME = /^[a-z0-9_-]{1,64}$/;
const RESERVED_KEYS = new Set(['footnotes', '_builder_edit_mode', '_builder_template_type', '_builder_data', '_builder_page_settings']);

const fieldShape = z.object({
	name: z.string().regex(FIELD_NAME, { error: 'must be 1 to 64 lowercase letters, digits, hyphens or underscores' }),
	title: z.string().max(200).default(''),
	type: z.enum(FIELD_TYPES),
	description: z.string().max(1000).default(''),
	is_required: qBool.prefault(false),
	/** number: bounds and step. */
	min_value: z.number().optional(),
	max_value: z.number().optional(),
	step_value: z.number().positive().optional(),
	/** select, radio, checkbox: the choices, `key` stored, `value` shown. */
	options: z.array(z.object({ key: z.string().min(1).max(200), value: z.string().max(200).default('') })).default([]),
	/** select: several keys. */
	is_multiple: qBool.prefault(false),
	default_val: z.unknown().optional(),
});
export type Field = z.output<typeof fieldShape>;

/** A field definition as the engine answers it: as stored, every setting given or defaulted. */
export const fieldAnswer = z.object({
	name: z.string(),
	title: z.string(),
	type: z.enum(FIELD_TYPES),
	description: z.string(),
	is_required: z.boolean(),
	min_value: z.number().optional(),
	max_value: z.number().optional(),
	step_value: z.number().optional(),
	options: z.array(z.object({ key: z.string(), value: z.string() })),
	is_multiple: z.boolean(),
	/** A value of the field's type. */
	default_val: z.unknown().optional(),
});

/** One field definition, checked as a whole: choices for choice types, bounds in order, a default that fits. */
export const fieldSchema = fieldShape.superRefine((field, ctx) => {
	if (RESERVED_KEYS.has(field.name)) ctx.addIssue({ code: 'custom', path: ['name'], message: 'is a meta key of the site itself' });
	if (CHOICE_TYPES.includes(field.type) && field.options.length === 0) {
		ctx.addIssue({ code: 'custom', path: ['options'], message: `must list at least one choice for a ${field.type} field` });
	}
	const keys = field.options.map((o) => o.key);
	if (keys.some((key, i) => keys.indexOf(key) !== i)) ctx.addIssue({ code: 'custom', path: ['options'], message: 'must have distinct keys' });
	if (field.min_value !== undefined && field.max_value !== undefined && field.min_value > field.max_value) {
		ctx.addIssue({ code: 'custom', path: ['min_value'], message: 'must not be greater than max_value' });
	}
	if (field.default_val !== undefined && field.default_val !== null) {
		const checked = checkValue(field, field.default_val);
		if ('error' in checked) ctx.addIssue({ code: 'custom', path: ['default_val'], message: checked.error });
	}
});

/** A list of fields with distinct names. */
export const fieldList = z.array(fieldSchema).superRefine((fields, ctx) => {
	const names = fields.map((f) => f.name);
	const repeated = names.filter((name, i) => names.indexOf(name) !== i);
	if (repeated.length) ctx.addIssue({ code: 'custom', message: `must name each field once (repeated: ${[...new Set(repeated)].join(', ')})` });
});

/** What a field shows when it has no value: its default, else the empty value of its type. */
export function emptyValue(field: Field): unknown {
	if (field.default_val !== undefined && field.default_val !== null) return field.default_val;
	if (field.type === 'checkbox' || (field.type === 'select' && field.is_multiple)) return [];
	if (field.type === 'switcher') return false;
	if (field.type === 'number' || field.type === 'media') return null;
	return '';
}

const isEmpty = (value: unknown) => value === '' || (Array.isArray(value) && value.length === 0);

const PATTERNS: Partial<Record<FieldType, { re: RegExp; rule: string }>> = {
	date: { re: /^\d{4}-\d{2}-\d{2}$/, rule: 'must be a date such as 2024-05-01' },
	time: { re: /^([01]\d|2[0-3]):[0-5]\d$/, rule: 'must be a time such as 09:30' },
	'datetime-local': { re: /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/, rule: 'must be a date and time such as 2024-05-01T09:30' },
	colorpicker: { re: /^#([0-9a-f]{3}|[0-9a-f]{6})$/i, rule: 'must be a color such as #1e90ff' },
};

/** Whether a `YYYY-MM-DD` (at the start of the text) is a day of the calendar. */
function realDate(text: string): boolean {
	const [y, m, d] = text.slice(0, 10).split('-').map(Number);
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * A value for a field: the value to store, or the rule it broke (a sentence without the field's name).
 * `store` checks that a media field names an attachment.
 */
export function checkValue(field: Field, value: unknown, store?: Store): { value: unknown } | { error: string } {
	const keys = field.options.map((o) => o.key);
	const oneOf = () => `must be one of: ${keys.map((k) => JSON.stringify(k)).join(', ')}`;
	switch (field.type) {
		case 'number': {
			const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			if (typeof n !== 'number' || !Number.isFinite(n)) return { error: 'must be a number' };
			if (field.min_value !== undefined && n < field.min_value) return { error: `must be at least ${field.min_value}` };
			if (field.max_value !== undefined && n > field.max_value) return { error: `must be at most ${field.max_value}` };
			return { value: n };
		}
		case 'switcher': {
			const parsed = qBool.safeParse(value);
			return parsed.success ? { value: parsed.data } : { error: 'must be a boolean' };
		}
		case 'checkbox':
		case 'select':
		case 'radio': {
			const many = field.type === 'checkbox' || field.is_multiple;
			if (!many) return typeof value === 'string' && keys.includes(value) ? { value } : { error: oneOf() };
			if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return { error: 'must be an array of option keys' };
			const unknown = value.filter((v) => !keys.includes(v));
			if (unknown.length) return { error: `has unknown option(s) ${unknown.join(', ')}; each ${oneOf()}` };
			return { value: [...new Set(value)] };
		}
		case 'media': {
			const id = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
			if (!Number.isInteger(id) || (id as number) < 1) return { error: 'must be the id of a media item' };
			const row = store?.content.get(id as number);
			if (store && row?.type !== 'attachment') return { error: `must be the id of a media item (${id} is none)` };
			return { value: id };
		}
		default: {
			if (typeof value !== 'string') return { error: 'must be a string' };
			const pattern = PATTERNS[field.type];
			if (value !== '' && pattern && !(pattern.re.test(value) && (field.type === 'time' || field.type === 'colorpicker' || realDate(value)))) {
				return { error: pattern.rule };
			}
			return { value };
		}
	}
}

/**
 * The values a write sets for `fields`: each given one checked (`null` removes it, back to its default);
 * keys that are no field are left out, as WordPress ignores unregistered meta. With `creating`, a
 * required field without a default must be given. Returns the changes, or the first problem as
 * `{name, sentence}` (the caller reports it for its parameter).
 */
export function checkValues(
	fields: Field[],
	given: Record<string, unknown>,
	options: { creating: boolean; store?: Store; prefix?: string },
): { changes: Record<string, unknown> } | { name: string; sentence: string } {
	const changes: Record<string, unknown> = {};
	const label = (name: string) => `${options.prefix ?? ''}${name}`;
	for (const field of fields) {
		const value = given[field.name];
		if (value === undefined) {
			if (options.creating && field.is_required && (field.default_val === undefined || field.default_val === null)) {
				return { name: field.name, sentence: `${label(field.name)} is required` };
			}
			continue;
		}
		if (value === null || isEmpty(value)) {
			if (field.is_required) return { name: field.name, sentence: `${label(field.name)} is required and must not be empty` };
			changes[field.name] = null;
			continue;
		}
		const checked = checkValue(field, value, options.store);
		if ('error' in checked) return { name: field.name, sentence: `${label(field.name)} ${checked.error}` };
		changes[field.name] = checked.value;
	}
	return { changes };
}

/** Stored values after `changes` (`null` removes a value). */
export function applyChanges(stored: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
	const out = { ...stored };
	for (const [key, value] of Object.entries(changes)) {
		if (value === null) delete out[key];
		else out[key] = value;
	}
	return out;
}

/** The values of `fields` as shown: stored ones, the others empty (or their default). */
export function shownValues(fields: Field[], stored: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(fields.map((field) => [field.name, stored[field.name] ?? emptyValue(field)]));
}
