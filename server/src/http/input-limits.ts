import type { FastifyInstance } from 'fastify';
import { envName, kebab, type Config } from '../config';
import { badRequest } from './errors';

/**
 * How many fields a query string or a form body may have, how deep a field name may nest (`a[b][c]`) and
 * how many files a form may carry: PHP's `max_input_vars`, `max_input_nesting_level` and
 * `max_file_uploads`, with their defaults. PHP drops what passes them with a warning; the server
 * answers a 400 naming the limit instead, so that nothing is lost silently. Every reader of such input
 * refuses it before it builds anything of it, so that no request costs more than its size allows.
 */
export type InputLimits = Pick<Config, 'maxInputVars' | 'maxInputNestingLevel' | 'maxFileUploads'>;
type Limit = keyof InputLimits;

const PHP_NAMES: Record<Limit, string> = { maxInputVars: 'max_input_vars', maxInputNestingLevel: 'max_input_nesting_level', maxFileUploads: 'max_file_uploads' };

function overLimit(limits: InputLimits, limit: Limit, what: string, code: string) {
	return badRequest(
		`${what} (the limit is ${limits[limit]}, as PHP's ${PHP_NAMES[limit]}; the server's --${kebab(limit)} (${envName(limit)}) raises it)`,
		code,
		{ limit: limits[limit], setting: kebab(limit) },
	);
}

/** Counts the fields of `where` one at a time: the first past the limit throws. */
export function fieldCounter(limits: InputLimits, where: string) {
	let fields = 0;
	return () => {
		if (++fields > limits.maxInputVars) throw overLimit(limits, 'maxInputVars', `The ${where} has more than ${limits.maxInputVars} fields`, 'rest_too_many_input_vars');
	};
}

/** Refuses a field name nested deeper than the limit (`a[b][c]` is nested twice). */
export function checkNesting(limits: InputLimits, name: string, where: string) {
	// Counted without a pattern: a name is read once, whatever its length.
	let depth = 0;
	for (let at = name.indexOf('['); at >= 0; at = name.indexOf('[', at + 1)) depth++;
	if (depth > limits.maxInputNestingLevel) {
		throw overLimit(limits, 'maxInputNestingLevel', `The ${where} field "${name.length > 40 ? `${name.slice(0, 40)}…` : name}" is nested more than ${limits.maxInputNestingLevel} levels deep`, 'rest_input_nesting_too_deep');
	}
}

/** Refuses the file past the limit. */
export function checkFileCount(limits: InputLimits, files: number) {
	if (files > limits.maxFileUploads) throw overLimit(limits, 'maxFileUploads', `The form has more than ${limits.maxFileUploads} files`, 'rest_too_many_files');
}

/**
 * Every request's query string within the limits, before any route reads it. Fastify has parsed it
 * already (linearly, and the request line is at most 16 kB): what is checked here is what the routes'
 * readers (`bracketQuery`) would build of it.
 */
export function limitQueryStrings(app: FastifyInstance, limits: InputLimits) {
	app.addHook('onRequest', async (request) => {
		const query = request.query as Record<string, unknown> | undefined;
		if (!query || typeof query !== 'object') return;
		const count = fieldCounter(limits, 'query string');
		for (const name in query) {
			checkNesting(limits, name, 'query string');
			const value = query[name];
			for (let i = Array.isArray(value) ? value.length : 1; i > 0; i--) count();
		}
	});
}
