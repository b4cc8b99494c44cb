import { z, type ZodRawShape } from 'zod';

type Tree = { [key: string]: unknown };

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);
/** PHP's default `max_input_nesting_level`: requests are refused past the server's setting (`input-limits.ts`) first. */
const MAX_DEPTH = 64;

/** `a[b][]` -> `['a', 'b', '']`; undefined when the key has no (well-formed) brackets. */
function splitKey(key: string): string[] | undefined {
	const match = key.match(/^([^[\]]+)((?:\[[^[\]]*\])+)$/);
	if (!match) return undefined;
	const segments = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
	return [match[1], ...segments.slice(0, MAX_DEPTH)];
}

/**
 * The key `a[]` appends under in `node`: as PHP, one past the largest integer key so far. Kept per node,
 * so that each append costs the same however long the list is.
 */
function appender() {
	const next = new Map<Tree, number>();
	return {
		key(node: Tree, segment: string): string {
			if (segment !== '') {
				if (/^\d{1,9}$/.test(segment)) next.set(node, Math.max(next.get(node) ?? 0, Number(segment) + 1));
				return segment;
			}
			const index = next.get(node) ?? 0;
			next.set(node, index + 1);
			return String(index);
		},
	};
}

/** Objects whose keys are all indexes (`a[0]`, `a[1]`) become arrays, in index order. */
function arrays(value: unknown): unknown {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return Array.isArray(value) ? value.map(arrays) : value;
	const entries = Object.entries(value as Tree);
	if (entries.length && entries.every(([k]) => /^\d{1,6}$/.test(k))) {
		return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => arrays(v));
	}
	return Object.fromEntries(entries.map(([k, v]) => [k, arrays(v)]));
}

/**
 * A query string as PHP, and so WordPress, reads it: `a[]=1&a[]=2` and `a[0]=1&a[1]=2` are the array
 * `a`, `a[terms][]=1&a[operator]=AND` the object `a`. Fastify's parser keeps such keys as written
 * (`'a[]': [...]`); a repeated plain key (`a=1&a=2`) stays the array Fastify makes of it.
 * The query object is rewritten in place, so that validation messages find the values where the
 * schema's paths point (`categories.operator`).
 */
export function bracketQuery(query: unknown): unknown {
	if (!query || typeof query !== 'object' || Array.isArray(query)) return query;
	const out: Tree = {};
	const keys = appender();
	for (const [key, value] of Object.entries(query as Tree)) {
		const path = splitKey(key);
		if (!path) {
			if (!UNSAFE.has(key)) out[key] = value;
			continue;
		}
		if (path.some((segment) => UNSAFE.has(segment))) continue;
		let node = out;
		for (let i = 0; i < path.length - 1; i++) {
			const segment = keys.key(node, path[i]);
			const next = node[segment];
			node = (next && typeof next === 'object' && !Array.isArray(next) ? next : (node[segment] = {})) as Tree;
		}
		const last = path[path.length - 1];
		for (const item of Array.isArray(value) ? value : [value]) {
			node[keys.key(node, last)] = item;
		}
	}
	const folded = arrays(out) as Tree;
	const target = query as Tree;
	for (const key of Object.keys(target)) delete target[key];
	return Object.assign(target, folded);
}

/** A query schema for routes that take WordPress-style (PHP) query strings; unknown parameters are ignored. */
export const phpQuery = <T extends ZodRawShape>(shape: T) => z.preprocess(bracketQuery, z.object(shape));
