import type { ZodError, ZodType } from 'zod';

/** An error a route wants the client to see, with its HTTP status. */
export class ApiError extends Error {
	public readonly data: Record<string, unknown>;
	/** Earlier data of a WordPress error that had several (`WP_Error::add_data`): its `additional_data`. */
	public additionalData?: unknown[];
	/** Seconds after which the request may succeed (a limit's 429, a 503): sent as `Retry-After`. */
	public retryAfter?: number;

	constructor(
		public readonly status: number,
		message: string,
		/** WordPress-style error code, used by the site routes (`rest_invalid_param`, ...). */
		public readonly code = 'wdm_error',
		data: Record<string, unknown> = {},
	) {
		super(message);
		this.data = code === 'rest_invalid_param' ? withDetails(data) : data;
	}
}

/** One parameter's error as WordPress 6.x details it in `data.details`: its own code, message and data. */
export interface ParamDetail {
	code: string;
	message: string;
	data: Record<string, unknown> | null;
}

/**
 * `rest_invalid_param` carries, beside `data.params` (one sentence per parameter), `data.details`: each
 * parameter's error as an error object, as `WP_REST_Request::has_valid_params` gives them since 5.7.
 * Where the thrower gave no details, each sentence is a `rest_invalid_param` of its own.
 */
function withDetails(data: Record<string, unknown>): Record<string, unknown> {
	const params = data.params;
	if (data.details !== undefined || !params || typeof params !== 'object' || Array.isArray(params)) return data;
	const details: Record<string, ParamDetail> = {};
	for (const [name, message] of Object.entries(params)) details[name] = { code: 'rest_invalid_param', message: String(message), data: null };
	return { ...data, details };
}

export const badRequest = (message: string, code = 'rest_invalid_param', data = {}) =>
	new ApiError(400, message, code, data);
export const notFound = (message: string, code = 'rest_not_found') => new ApiError(404, message, code);
export const forbidden = (message: string, code = 'rest_forbidden') => new ApiError(403, message, code);
export const unauthorized = (message: string, code = 'rest_not_logged_in') =>
	new ApiError(401, message, code);
export const conflict = (message: string, code = 'rest_conflict') => new ApiError(409, message, code);

/** A refusal to retry later (a limit's 429, a 503): `Retry-After` says when, in whole seconds (at least 1). */
export function retryLater(status: number, message: string, code: string, retryAfterMs: number): ApiError {
	const error = new ApiError(status, message, code);
	error.retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
	return error;
}

/** A failure reported by the (simulated) messaging network: the spec's 500. */
export const networkFailure = (message: string) => new ApiError(500, message, 'wdm_network_error');

/**
 * Per-parse error map for `safeParse`: zod's built-in checks get this marker instead of its own
 * sentence, so that `validationMessage` can tell them from the `error` text a schema gives (kept as is).
 */
const BUILT_IN = '\0built-in';
export const builtInIssues = { error: () => BUILT_IN };

/** What `safeParse` found: the schema's result, and the input its issues' paths point into. */
type Parsed = { success: true; data: unknown } | { success: false; error: ZodError; input: unknown } | { success: false; field: PropertyKey[] };

/**
 * Parses without throwing. zod runs its length checks on any value that has a `length` (after the type
 * check failed) and compares it, and coercions read objects as text: an object whose own `toString`
 * is not a function (`{"length":{"toString":1}}`, `page[toString]=1`) then throws. Such a value is
 * parsed again without those keys, which gives the type error the value deserves.
 */
export function safeParse(schema: ZodType, value: unknown): Parsed {
	try {
		// Without the error map first: zod's compiled fast path for objects takes only a plain context, and a
		// value that passes needs no messages (this halves a send's validation). A failure is parsed again for them.
		const passed = schema.safeParse(value);
		if (passed.success) return passed;
		const result = schema.safeParse(value, builtInIssues);
		return result.success ? result : { success: false, error: result.error, input: value };
	} catch (error) {
		if (error instanceof ApiError) throw error;
		const odd: PropertyKey[][] = [];
		const plain = defuse(value, [], odd);
		try {
			const again = schema.safeParse(plain, builtInIssues);
			if (!again.success) return { success: false, error: again.error, input: plain };
		} catch {
			/* named below */
		}
		return { success: false, field: odd[0] ?? [] };
	}
}

/** Keys that shadow how JavaScript turns an object into text or a number. */
const CONVERSIONS = new Set(['toString', 'valueOf']);

/** A copy of `value` without the conversion keys that are not functions; `odd` gets their objects' paths. */
function defuse(value: unknown, path: PropertyKey[], odd: PropertyKey[][]): unknown {
	if (Array.isArray(value)) return value.map((item, i) => defuse(item, [...path, i], odd));
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	const out: Record<string, unknown> = {};
	for (const [key, item] of Object.entries(value)) {
		if (CONVERSIONS.has(key) && typeof item !== 'function') odd.push(path);
		else out[key] = defuse(item, [...path, key], odd);
	}
	return out;
}

function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'number' && !Number.isFinite(value)) return `number ${value}`; // 1e400 parses as Infinity
	return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/** The sentence of a built-in check (a schema's own `error` text never gets here). */
function rule(issue: ZodError['issues'][number], input: unknown): string {
	// An absent field fails an enum or a union as "not one of the values": say what is really wrong.
	if (input === undefined && (issue.code === 'invalid_value' || issue.code === 'invalid_union')) return 'is required';
	switch (issue.code) {
		case 'invalid_type':
			return input === undefined ? 'is required' : `must be ${article(issue.expected)} (got ${describe(input)})`;
		case 'too_small':
			if (issue.origin === 'string') return `must be at least ${issue.minimum} characters long`;
			if (issue.origin === 'array') return `must have at least ${issue.minimum} items`;
			return `must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${issue.minimum}`;
		case 'too_big':
			if (issue.origin === 'string') return `must be at most ${issue.maximum} characters long`;
			if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
			return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}`;
		case 'invalid_value':
			return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
		case 'invalid_format':
			// Patterns usually come with the schema's own sentence, which wins (see validationMessage).
			return issue.format === 'regex' ? `must match the pattern ${issue.pattern}` : `must be a valid ${issue.format}`;
		case 'unrecognized_keys':
			return `has unknown field(s): ${issue.keys.join(', ')}`;
		default:
			return 'is invalid';
	}
}

/** `an image`, `a video`, `an integer` (zod calls it `int`). */
export function article(type: string): string {
	const name = type === 'int' ? 'integer' : type;
	return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
	let value = root;
	for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
	return value;
}

/** Formats a path the way a client writes it: `carousel[0].buttons[1].id`. */
export function fieldName(path: PropertyKey[], fallback: string): string {
	if (path.length === 0) return fallback;
	return path
		.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`))
		.join('');
}

/** The sentence for one problem: the field (as `label` writes it) and the rule it broke. */
function sentence(issue: ZodError['issues'][number], input: unknown, label: (path: PropertyKey[]) => string): string {
	// A schema's own `error` text (refinements, regexes, ...) wins; built-in checks get one from their rule.
	const text = issue.message !== BUILT_IN ? issue.message : rule(issue, valueAt(input, issue.path));
	return `${label(issue.path)} ${text}`;
}

/** One sentence per problem, each naming the field (as `label` writes it) and the rule it broke. */
export function validationMessage(
	error: ZodError,
	input: unknown,
	where: string,
	label: (path: PropertyKey[]) => string = (path) => fieldName(path, where),
): string {
	return problems(error)
		.map((issue) => sentence(issue, input, label))
		.join('; ');
}

/**
 * The issues worth a sentence: once a value has the wrong type, zod's further checks on it (a `length`
 * of an object against a string's maximum) say nothing more.
 */
function problems(error: ZodError): ZodError['issues'] {
	const key = (path: PropertyKey[]) => JSON.stringify(path.map(String));
	const mistyped = new Set(error.issues.filter((issue) => issue.code === 'invalid_type').map((issue) => key(issue.path)));
	return error.issues.filter((issue) => issue.code === 'invalid_type' || !mistyped.has(key(issue.path)));
}

/**
 * WordPress's answer to bad parameters: missing ones as `rest_missing_callback_param` with their names,
 * otherwise `rest_invalid_param` with one sentence per parameter in `data.params`.
 */
export function invalidParams(error: ZodError, input: unknown, where: string): ApiError {
	const param = (path: PropertyKey[]) => (path.length ? String(path[0]) : where);
	const issues = problems(error);
	const missing = [
		...new Set(
			issues
				// An absent enum or union fails as "not one of the values": it is missing all the same.
				.filter((issue) => ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code) && issue.path.length === 1 && valueAt(input, issue.path) === undefined)
				.map((issue) => param(issue.path)),
		),
	];
	if (missing.length) return badRequest(`Missing parameter(s): ${missing.join(', ')}`, 'rest_missing_callback_param', { params: missing });
	const params: Record<string, string> = {};
	const details: Record<string, ParamDetail> = {};
	for (const issue of issues) {
		const name = param(issue.path);
		if (params[name] !== undefined) continue;
		params[name] = sentence(issue, input, (path) => fieldName(path, where));
		// WordPress's type errors say which parameter (`{param}`); its other refusals carry no data.
		const typeError = issue.code === 'invalid_type' || issue.code === 'invalid_union';
		details[name] = { code: wpCode(issue, valueAt(input, issue.path)), message: params[name], data: typeError ? { param: fieldName(issue.path, where) } : null };
	}
	return badRequest(`Invalid parameter(s): ${Object.keys(params).join(', ')}`, 'rest_invalid_param', { params, details });
}

/** The code `rest_validate_value_from_schema` gives the same problem. */
function wpCode(issue: ZodError['issues'][number], value: unknown): string {
	switch (issue.code) {
		// A value that fits none of a type's forms (`yes` for a boolean, which takes `true`, `1`...) is one of the wrong type.
		case 'invalid_type':
		case 'invalid_union':
			return 'rest_invalid_type';
		case 'invalid_value':
			return 'rest_not_in_enum';
		case 'too_small':
			return issue.origin === 'string' ? 'rest_too_short' : issue.origin === 'array' ? 'rest_too_few_items' : 'rest_out_of_bounds';
		case 'too_big':
			return issue.origin === 'string' ? 'rest_too_long' : issue.origin === 'array' ? 'rest_too_many_items' : 'rest_out_of_bounds';
		case 'invalid_format':
			return issue.format === 'regex' ? 'rest_invalid_pattern' : typeof value === 'string' && /date|time/.test(issue.format) ? 'rest_invalid_date' : 'rest_invalid_param';
		case 'unrecognized_keys':
			return 'rest_additional_properties_forbidden';
		case 'custom':
			// A refinement names WordPress's code for what it checks (`params: {wpCode: 'rest_invalid_date'}`).
			return (issue.params as { wpCode?: string } | undefined)?.wpCode ?? 'rest_invalid_param';
		default:
			return 'rest_invalid_param';
	}
}

/** OpenAI's error body, `{error: {message, type, param, code}}`: the sandbox's OpenAI-compatible service answers in it. */
export const openAiError = (status: number, message: string, code: string, param: string | null = null) => ({
	error: { message, type: status === 401 ? 'authentication_error' : 'invalid_request_error', param, code },
});
