import type { Readable } from 'node:stream';
import { Dicer } from '@fastify/busboy';
import { errorCodes } from 'fastify';
import { badRequest } from './errors';
import { checkFileCount, checkNesting, fieldCounter, type InputLimits } from './input-limits';
import { bracketQuery } from './query';

/**
 * Form bodies as PHP, and so WordPress, reads them: `application/x-www-form-urlencoded` and the fields
 * of `multipart/form-data`, nested as PHP nests `a[b]=1&a[c][]=2` (the same reading as query strings),
 * within the server's body limit as JSON is, and within PHP's input limits (`input-limits.ts`), checked
 * as each field is met: a body past them costs no more than the fields up to the limit. A urlencoded
 * body is read from the buffered body; a multipart one as it arrives (`multipartFields`).
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

/** A `multipart/form-data` body: its fields nested as PHP nests them, its files (WordPress's `$_FILES`) beside them. */
export interface MultipartForm {
	fields: unknown;
	files: FormPart[];
}

const invalid = (why: string) => badRequest(`The multipart/form-data body is invalid: ${why}.`, 'rest_upload_invalid_multipart');

/**
 * Resolves once `body` has ended, counting its bytes as they flow to its readers: past `maxBytes` it
 * fails as Fastify's own body limit does (Fastify counts only the bodies it buffers itself) and stops
 * reading, so that the connection closes after the answer.
 */
function bodyEnd(body: Readable, maxBytes: number): Promise<void> {
	return new Promise((resolve, reject) => {
		let bytes = 0;
		const count = (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes <= maxBytes) return;
			body.off('data', count);
			body.pause();
			reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
		};
		body.on('data', count);
		body.once('end', resolve);
		body.once('error', reject);
	});
}

/**
 * Fails with `error` once the rest of `body` has been read and dropped (within `maxBytes`): the client,
 * still sending, then reads the answer, which a connection closed under it would lose.
 */
export function refuseAfterBody(body: Readable, maxBytes: number, error: Error): Promise<never> {
	return bodyEnd(body, maxBytes).then(() => Promise.reject(error));
}

/**
 * Bytes handed to the parser at a time, and parts read in one turn of the event loop. The parser reads
 * what it is given at once (a socket's chunk is up to 64 KiB: thousands of tiny parts, at about 10
 * microseconds each, a stream each): so pieces start small and grow while no part begins in them (a
 * file's bytes), a refusal stops it within a piece, and past `turn` parts the rest of a chunk waits for
 * the next turn, the body paused, so that no request holds the loop for long.
 */
const PIECE = { min: 1024, max: 65536, turn: 100 };

/** busboy's parser of the parts of a body of `contentType`; a type without a usable boundary is a 400. */
function partsParser(contentType: string): Dicer {
	const boundary = contentType.match(/boundary=(?:"([^"]+)"|([^;\s]+))/i);
	if (!boundary) throw invalid('the Content-Type has no boundary');
	// No header size or count of its own (Dicer cuts a part's headers silently past them): the body's limit bounds
	// headers as it bounds data. (`maxHeaderSize` is busboy's `limits.headerSize`, missing from Dicer's types.)
	const config: Dicer.Config & { maxHeaderSize: number } = { boundary: boundary[1] ?? boundary[2], maxHeaderSize: Infinity, maxHeaderPairs: Infinity };
	try {
		return new Dicer(config);
	} catch {
		// Dicer takes boundaries of up to 252 characters (RFC 2046 allows 70).
		throw invalid('the boundary is too long');
	}
}

/**
 * A `multipart/form-data` body, read as it arrives. busboy's multipart parser (Dicer, from
 * `@fastify/busboy`) finds the boundaries and the parts' headers; what a part is, is PHP's rule, read
 * here: a part is a file when its `Content-Disposition` has a `filename`, its type is the part's
 * `Content-Type` as sent (none when absent: the upload then sniffs the bytes), values are UTF-8. Fields
 * and files are counted and their names' nesting checked as each part's headers arrive; past a limit, or
 * in a malformed body, parsing stops and the rest of the body is read and dropped before the 400 (past
 * `maxBytes`, the 413 is at once). Files' bytes are kept only when `keepFiles` (the media upload);
 * elsewhere they are counted and dropped, as WordPress's other controllers ignore `$_FILES`.
 */
export function multipartFields(
	body: Readable,
	contentType: string,
	limits: InputLimits,
	{ keepFiles = true, maxBytes = Infinity }: { keepFiles?: boolean; maxBytes?: number } = {},
): Promise<MultipartForm> {
	return new Promise((resolve, reject) => {
		const parser = partsParser(contentType);
		const whole = bodyEnd(body, maxBytes);
		const fields: Fields = Object.create(null);
		const files: FormPart[] = [];
		const countField = fieldCounter(limits, 'form body');
		let fileCount = 0;
		// Parts found, and those whose data is still arriving; whether the last part found has not shown its headers
		// yet (a part without them would never be counted); whether the closing boundary has been met.
		let found = 0;
		let open = 0;
		let headless = false;
		let closed = false;
		let refused = false;

		/** Parsing stops; the answer is `error` once the rest of the body has been read and dropped, or at once. */
		const refuse = (error: Error, now = false) => {
			if (refused) return;
			refused = true;
			parser.destroy();
			if (now) reject(error);
			else whole.then(() => reject(error), reject);
		};
		whole.catch((error: Error) => refuse(error, true));
		const settle = () => {
			if (closed && open === 0 && !refused) resolve({ fields: bracketQuery(fields), files });
		};

		parser.on('part', (part) => {
			found++;
			// The parser's own error says why a part broke off.
			part.on('error', () => {});
			if (headless) refuse(invalid('a part has no end of headers'));
			headless = true;
			part.on('header', (header: Record<string, string[]>) => {
				headless = false;
				if (refused) return part.resume();
				// Header values are the bytes as latin1 text; names and file names are UTF-8.
				const { name, filename } = dispositionParams(Buffer.from(header['content-disposition']?.[0] ?? '', 'latin1').toString('utf8'));
				try {
					if (name === undefined) throw invalid('a part has no Content-Disposition name');
					if (filename === undefined) countField();
					else checkFileCount(limits, ++fileCount);
					checkNesting(limits, name, 'form body');
				} catch (error) {
					part.resume();
					return refuse(error as Error);
				}
				open++;
				const keep = filename === undefined || keepFiles;
				const chunks: Buffer[] = [];
				part.on('data', (chunk: Buffer) => keep && chunks.push(chunk));
				part.on('end', () => {
					open--;
					if (filename === undefined) addField(fields, name, Buffer.concat(chunks).toString('utf8'));
					else if (keep) files.push({ name, filename, type: header['content-type']?.[0].trim(), data: Buffer.concat(chunks) });
					settle();
				});
			});
		});
		parser.on('finish', () => {
			closed = true;
			if (headless) refuse(invalid('a part has no end of headers'));
			settle();
		});
		parser.on('error', (error) => refuse(invalid(/unexpected end/i.test(error.message) ? 'the closing boundary is missing' : error.message)));

		// The body in pieces (`PIECE`); `waiting` while the rest of a chunk waits for the next turn, the body paused.
		let piece = PIECE.min;
		let waiting = false;
		let arrived = false;
		const end = () => refused || parser.end();
		const feed = (chunk: Buffer) => {
			const first = found;
			for (let at = 0; at < chunk.length && !refused; at += piece) {
				if (found - first >= PIECE.turn) {
					waiting = true;
					body.pause();
					setImmediate(() => {
						waiting = false;
						feed(chunk.subarray(at));
						if (waiting) return;
						body.resume();
						if (arrived) end();
					});
					return;
				}
				const before = found;
				parser.write(chunk.subarray(at, at + piece));
				piece = found === before ? Math.min(piece * 2, PIECE.max) : PIECE.min;
			}
		};
		body.on('data', feed);
		// A paused body may still end (its last chunk was read): the parser ends after that chunk's rest.
		body.once('end', () => {
			arrived = true;
			if (!waiting) end();
		});
	});
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
