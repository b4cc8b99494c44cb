import axios from 'axios';
import { filetypeinfo } from 'magic-bytes.js';
import mime from 'mime-types';
import { badRequest } from '../http/errors';

export interface Media {
	data: Buffer;
	mimetype: string;
	fileName: string;
}

export interface MediaLimits {
	timeoutMs: number;
	maxBytes: number;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

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

async function download(url: string, field: string, limits: MediaLimits): Promise<{ data: Buffer; type?: string; name: string }> {
	try {
		const res = await axios.get<ArrayBuffer>(url, {
			responseType: 'arraybuffer',
			timeout: limits.timeoutMs,
			// `timeout` only limits idle time; a server that keeps trickling bytes must be cut off too.
			signal: AbortSignal.timeout(limits.timeoutMs),
			maxContentLength: limits.maxBytes,
			maxRedirects: 5,
		});
		const type = String(res.headers['content-type'] ?? '').split(';')[0].trim();
		const name = fileNameOf(url);
		return { data: Buffer.from(res.data), type: type && type !== 'application/octet-stream' ? type : undefined, name };
	} catch (error) {
		const e = error as { response?: { status: number }; code?: string; message: string };
		const why = e.response
			? `it answered HTTP ${e.response.status}`
			: e.code === 'ECONNABORTED' || e.code === 'ERR_CANCELED'
				? `it took longer than ${limits.timeoutMs} ms`
				: e.message.includes('maxContentLength')
					? `it is larger than ${limits.maxBytes} bytes`
					: e.message;
		throw badRequest(`${field}: could not download ${url}: ${why}`);
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
		const dataUri = value.match(/^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s);
		const b64 = (dataUri ? dataUri[2] : value).replace(/\s+/g, '');
		if (!b64 || !BASE64.test(b64)) throw badRequest(`${field} must be an http(s) URL, a data URI or Base64 content`);
		data = Buffer.from(b64, b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64');
		typeHint = dataUri?.[1];
		if (data.length > limits.maxBytes) throw badRequest(`${field} is larger than ${limits.maxBytes} bytes`);
	}
	if (data.length === 0) throw badRequest(`${field} is empty`);
	const mimetype = given.mimetype ?? typeHint ?? detectMime(data, given.fileName ?? nameHint);
	const ext = mime.extension(mimetype);
	const fileName = given.fileName ?? (nameHint !== 'file' ? nameHint : `file${ext ? `.${ext}` : ''}`);
	return { data, mimetype, fileName };
}
