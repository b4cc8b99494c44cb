import { filetypeinfo } from 'magic-bytes.js';
import mime from 'mime-types';
import { badRequest } from '../http/errors';
import { OutboundError, type Outbound } from '../outbound/fetch';
import { essence } from './type';

export interface Media {
	data: Buffer;
	mimetype: string;
	fileName: string;
}

export interface MediaLimits {
	timeoutMs: number;
	maxBytes: number;
	/** The guarded client URLs are fetched with (it refuses private targets unless the server allows them). */
	outbound: Outbound;
}

/** A character outside Base64's two alphabets. */
const NOT_BASE64 = /[^A-Za-z0-9+/_-]/;

/**
 * Whether `text` is Base64 (standard or URL-safe alphabet, up to two `=` of padding), by a search for a
 * character outside the alphabet: a `^[...]+$` pattern keeps a backtracking entry per character, and on
 * a 20 MiB value V8 ran out of stack ("Maximum call stack size exceeded": a 500 for a valid send).
 */
function isBase64(text: string): boolean {
	let end = text.length;
	while (end > 0 && text.length - end < 2 && text[end - 1] === '=') end--;
	return end > 0 && !NOT_BASE64.test(text.slice(0, end));
}

/** A data URI's media type and Base64 payload (`data:image/png;base64,...`), read without a pattern over the payload. */
function dataUri(value: string): { type?: string; payload: string } | undefined {
	if (!value.startsWith('data:')) return undefined;
	const comma = value.indexOf(',');
	const header = comma < 0 ? '' : value.slice(5, comma);
	if (!header.endsWith(';base64')) return undefined;
	return { type: header.split(';')[0] || undefined, payload: value.slice(comma + 1) };
}

/** Content sniffing first, then the file name's extension, then the generic binary type. */
export function detectMime(data: Buffer, fileName?: string): string {
	const sniffed = filetypeinfo(data.subarray(0, 4100)).find((t) => t.mime)?.mime;
	return sniffed || (fileName && mime.lookup(fileName)) || 'application/octet-stream';
}

/** The last path segment, decoded when it can be (`bad%zz.png` is kept as written, not an error). */
function fileNameOf(url: string): string {
	const last = new URL(url).pathname.split('/').pop() || 'file';
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}

/**
 * Fetches a media URL. Errors say only what this server decided (a private target, its own time and
 * size limits), never how the target answered or failed: that would make the server a probe.
 */
async function download(url: string, field: string, limits: MediaLimits): Promise<{ data: Buffer; type?: string; name: string }> {
	try {
		const res = await limits.outbound.fetch(url, { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes, maxRedirects: 5 });
		if (res.status < 200 || res.status >= 300) throw new OutboundError('failed');
		// Only one valid media type is a hint (a list, or garbage, is not: the content then tells).
		const type = essence(String(res.headers['content-type'] ?? ''));
		return { data: res.body, type: type && type !== 'application/octet-stream' ? type : undefined, name: fileNameOf(url) };
	} catch (error) {
		const reason = error instanceof OutboundError ? error.reason : 'failed';
		if (reason === 'private') throw badRequest(`${field}: refused: private address ${url}`);
		const why = reason === 'timeout' ? `: it took longer than ${limits.timeoutMs} ms` : reason === 'too-large' ? `: it is larger than ${limits.maxBytes} bytes` : '';
		throw badRequest(`${field}: could not fetch ${url}${why}`);
	}
}

/**
 * Reads a media field: an http(s) URL (downloaded with a time and size limit), a data URI, or Base64.
 * `mimetype` and `fileName` given by the client win over what is detected.
 */
export async function loadMedia(
	input: string,
	field: string,
	limits: MediaLimits,
	given: { mimetype?: string; fileName?: string } = {},
): Promise<Media> {
	const value = input.trim();
	let data: Buffer;
	let typeHint: string | undefined;
	let nameHint = 'file';
	if (/^https?:\/\//i.test(value)) {
		const got = await download(value, field, limits);
		({ data, type: typeHint, name: nameHint } = got);
	} else {
		const uri = dataUri(value);
		const b64 = (uri ? uri.payload : value).replace(/\s+/g, '');
		if (!isBase64(b64)) throw badRequest(`${field} must be an http(s) URL, a data URI or Base64 content`);
		data = Buffer.from(b64, b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64');
		typeHint = uri?.type;
		if (data.length > limits.maxBytes) throw badRequest(`${field} is larger than ${limits.maxBytes} bytes`);
	}
	if (data.length === 0) throw badRequest(`${field} is empty`);
	const mimetype = given.mimetype ?? typeHint ?? detectMime(data, given.fileName ?? nameHint);
	const ext = mime.extension(mimetype);
	const fileName = given.fileName ?? (nameHint !== 'file' ? nameHint : `file${ext ? `.${ext}` : ''}`);
	return { data, mimetype, fileName };
}
