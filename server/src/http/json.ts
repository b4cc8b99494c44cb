import { fieldName } from './errors';

/**
 * How deep a JSON body may nest. PHP's json_decode stops at 512; nothing the routes take needs more
 * than a few levels, and values this deep would overflow the stack when they are stored or answered.
 */
export const MAX_JSON_DEPTH = 64;

/** A UTF-16 surrogate without its pair (`"\ud800"`): SQLite and UTF-8 cannot keep it. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Why a parsed JSON body is refused, or undefined: nested deeper than `MAX_JSON_DEPTH`, or a string
 * (value or field name) with an unpaired surrogate, which PHP's json_decode refuses too. The walk
 * stops at the limit, so it never recurses deeper than that.
 */
export function checkJsonBody(value: unknown, path: PropertyKey[] = [], depth = 0): string | undefined {
	if (typeof value === 'string') return LONE_SURROGATE.test(value) ? `${fieldName(path, 'body')} contains an unpaired surrogate` : undefined;
	if (!value || typeof value !== 'object') return undefined;
	if (depth >= MAX_JSON_DEPTH) return `${fieldName(path.slice(0, 1), 'body')} is nested deeper than ${MAX_JSON_DEPTH} levels`;
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) {
			const refused = checkJsonBody(value[i], [...path, i], depth + 1);
			if (refused) return refused;
		}
		return undefined;
	}
	for (const [key, item] of Object.entries(value)) {
		if (LONE_SURROGATE.test(key)) return `${fieldName(path, 'body')} has a field name with an unpaired surrogate`;
		const refused = checkJsonBody(item, [...path, key], depth + 1);
		if (refused) return refused;
	}
	return undefined;
}
