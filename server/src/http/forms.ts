import { badRequest } from './errors';
import { checkFileCount, checkNesting, fieldCounter, type InputLimits } from './input-limits';
import { bracketQuery } from './query';

/**
 * Form bodies as PHP, and so WordPress, reads them: `application/x-www-form-urlencoded` and the fields
 * of `multipart/form-data`, nested as PHP nests `a[b]=1&a[c][]=2` (the same reading as query strings).
 * Both are read from the buffered body, so the server's body limit holds for them as for JSON, and
 * within PHP's input limits (`input-limits.ts`), checked as each field is met: a body past them costs
 * no more than the fields up to the limit.
 */

/** `filename*=UTF-8''na%C3%AFve.txt` (RFC 5987) decoded; undefined when it is not that form. */
function extendedValue(value: string): string | undefined {
	const m = value.match(/^([\w!#$%&+^`{}~-]+)'[\w-]*'(.*)$/);
	if (!m || !/^utf-8$/i.test(m[1])) return undefined;
	try {
		return decodeURIComponent(m[2]);
	} catch {
		return undefined;
	}
}

/** A quoted-string's content with its `\"` escapes undone, or the token as written. */
const unquote = (value: string) => (value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value);

/**
 * The parameters of a `Content-Disposition` value (`form-data; name="file"; filename="a.png"`), keys
 * in lower case; `filename*` (RFC 5987) wins over `filename`. Semicolons inside quotes are kept.
 */
export function dispositionParams(value: string): Record<string, string> {
	const params: Record<string, string> = {};
	const parts = value.match(/(?:[^;"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
	for (const part of parts.slice(1)) {
		const eq = part.indexOf('=');
		if (eq < 0) continue;
		params[part.slice(0, eq).trim().toLowerCase()] = unquote(part.slice(eq + 1).trim());
	}
	const extended = params['filename*'] !== undefined ? extendedValue(params['filename*']) : undefined;
	if (extended) params.filename = extended;
	return params;
}

export interface FormPart {
	name: string;
	filename?: string;
	type?: string;
	data: Buffer;
}

/** The parts of a buffered `multipart/form-data` body; a body that is not one, or has too many parts, is a 400. */
export function multipartParts(body: Buffer, contentType: string, limits: InputLimits): FormPart[] {
	const boundary = contentType.match(/boundary=(?:"([^"]+)"|([^;\s]+))/i);
	const invalid = (why: string) => badRequest(`The multipart/form-data body is invalid: ${why}.`, 'rest_upload_invalid_multipart');
	if (!boundary) throw invalid('the Content-Type has no boundary');
	const dash = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const delimiter = Buffer.concat([Buffer.from('\r\n'), dash]);
	const parts: FormPart[] = [];
	const countField = fieldCounter(limits, 'form body');
	let files = 0;
	let at = body.indexOf(dash);
	if (at < 0) throw invalid('the boundary does not occur in the body');
	for (;;) {
		at += dash.length;
		// `--` after a delimiter ends the body.
		if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts;
		const headStart = body.indexOf('\r\n', at);
		const headEnd = body.indexOf('\r\n\r\n', at);
		if (headStart < 0 || headEnd < 0) throw invalid('a part has no end of headers');
		const next = body.indexOf(delimiter, headEnd + 4);
		if (next < 0) throw invalid('the closing boundary is missing');
		const headers: Record<string, string> = {};
		for (const line of body.subarray(headStart + 2, headEnd).toString('utf8').split('\r\n')) {
			const colon = line.indexOf(':');
			if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const disposition = dispositionParams(headers['content-disposition'] ?? '');
		if (disposition.name === undefined) throw invalid('a part has no Content-Disposition name');
		if (disposition.filename === undefined) countField();
		else checkFileCount(limits, ++files);
		checkNesting(limits, disposition.name, 'form body');
		parts.push({ name: disposition.name, filename: disposition.filename, type: headers['content-type'], data: body.subarray(headEnd + 4, next) });
		at = next + 2;
	}
}


type Fields = Record<string, string | string[]>;

/** Adds one field; a repeated name is a list, as a query string's (`bracketQuery` nests `a[]`, `a[b]`). */
function addField(fields: Fields, name: string, value: string) {
	const seen = fields[name];
	if (seen === undefined) fields[name] = value;
	else if (Array.isArray(seen)) seen.push(value);
	else fields[name] = [seen, value];
}

/** Refuses a body with more `&`-separated fields than the limit, before one of them is decoded. */
function countUrlencoded(body: string, limits: InputLimits) {
	const count = fieldCounter(limits, 'form body');
	for (let start = 0; start < body.length; ) {
		const end = body.indexOf('&', start);
		const stop = end < 0 ? body.length : end;
		if (stop > start) count();
		start = stop + 1;
	}
}

/** An `application/x-www-form-urlencoded` body as the nested fields PHP reads; an empty one is no fields. */
export function urlencodedFields(body: string, limits: InputLimits): unknown {
	if (body.trim() === '') return undefined;
	countUrlencoded(body, limits);
	// No prototype: a field named `__proto__` is just a name (and `bracketQuery` drops it).
	const fields: Fields = Object.create(null);
	for (const [name, value] of new URLSearchParams(body)) {
		checkNesting(limits, name, 'form body');
		addField(fields, name, value);
	}
	return bracketQuery(fields);
}

/**
 * A `multipart/form-data` body: its fields nested as PHP nests them, and its files (WordPress's
 * `$_FILES`) beside them, out of the fields. A body that is not multipart is a 400.
 */
export function multipartFields(body: Buffer, contentType: string, limits: InputLimits): { fields: unknown; files: FormPart[] } {
	const fields: Fields = Object.create(null);
	const files: FormPart[] = [];
	for (const part of multipartParts(body, contentType, limits)) {
		if (part.filename !== undefined) files.push(part);
		else addField(fields, part.name, part.data.toString('utf8'));
	}
	return { fields: bracketQuery(fields), files };
}
