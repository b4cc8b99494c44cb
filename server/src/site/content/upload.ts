import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import mime from 'mime-types';
import { ApiError, badRequest } from '../../http/errors';
import { detectMime } from '../../media/load';
import { dispositionParams, type MultipartForm } from '../../http/forms';

/**
 * Reading a media upload as WordPress's attachments controller takes it: either a raw body (the file's
 * bytes, its `Content-Type` and `Content-Disposition: attachment; filename=...`) or a
 * `multipart/form-data` form with the file in the part `file` and the other fields beside it.
 */

export interface Upload {
	data: Buffer;
	/** As sanitized for storage: `my photo.png` -> `my-photo.png`. */
	fileName: string;
	/** The name as the client gave it (the default title is made from it). */
	originalName: string;
	mimeType: string;
}

const noData = () => badRequest('No data supplied.', 'rest_upload_no_data');

/** A header's value (the first, when repeated). */
function header(request: FastifyRequest, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * WordPress's `sanitize_file_name`, simplified: the last path segment, without characters that are
 * special in paths, URLs or shells, whitespace as dashes, no leading or trailing dots and dashes.
 */
export function sanitizeFileName(name: string): string {
	const base = name.split(/[\\/]/).pop() ?? '';
	const clean = base
		.normalize('NFC')
		.replace(/[?[\]/\\=<>:;,'"&$#*()|~`!{}%+\p{Cc}\u2018\u2019\u201c\u201d\u00ab\u00bb]/gu, '')
		.replace(/\s+/g, '-')
		.replace(/-+/g, '-')
		.replace(/^[.\-_]+|[.\-_]+$/g, '');
	return clean || 'unnamed-file';
}

/** Types a client says when it does not know the type: the bytes decide then. */
const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/x-www-form-urlencoded', 'multipart/form-data']);

/** The file's MIME type: the declared one unless it is generic, else sniffed from the bytes, else from the name. */
export function uploadMime(declared: string | undefined, data: Buffer, fileName: string): string {
	const type = declared?.split(';')[0].trim().toLowerCase();
	if (type && !GENERIC_TYPES.has(type) && /^[\w.+-]+\/[\w.+-]+$/.test(type)) return type;
	return detectMime(data, fileName);
}

function checkMd5(request: FastifyRequest, data: Buffer) {
	const expected = header(request, 'content-md5')?.trim();
	if (expected && expected !== createHash('md5').update(data).digest('hex')) {
		throw new ApiError(412, 'Content hash did not match expected.', 'rest_upload_hash_mismatch');
	}
}

/** A name without an extension gets the type's (`photo` as image/png is stored as `photo.png`). */
function withExtension(fileName: string, mimeType: string): string {
	if (/\.[A-Za-z0-9]{1,8}$/.test(fileName)) return fileName;
	const ext = mime.extension(mimeType);
	return ext ? `${fileName}.${ext}` : fileName;
}

function upload(data: Buffer, name: string, declared: string | undefined): Upload {
	const clean = sanitizeFileName(name);
	const mimeType = uploadMime(declared, data, clean);
	return { data, fileName: withExtension(clean, mimeType), originalName: name, mimeType };
}

/**
 * The form fields of a `POST /cms/v2/media` (multipart only: a raw body carries its fields in the
 * query string) and its file. The file is checked when asked for, so that the caller checks fields and
 * permissions first; a missing or empty file throws WordPress's errors then. The route's scope reads a
 * multipart body into a `MultipartForm` (`http/dispatch.ts`), any other body into a Buffer.
 */
export function readUpload(request: FastifyRequest): { fields: Record<string, unknown>; file: () => Upload } {
	const body = request.body as Buffer | MultipartForm | undefined;
	if (body && !Buffer.isBuffer(body)) {
		const file = body.files.find((part) => part.name === 'file');
		return {
			fields: body.fields as Record<string, unknown>,
			file: () => {
				if (!file || file.data.length === 0) throw noData();
				checkMd5(request, file.data);
				return upload(file.data, file.filename || 'unnamed-file', file.type);
			},
		};
	}
	return { fields: {}, file: () => rawUpload(request, body ?? Buffer.alloc(0), header(request, 'content-type')) };
}

/** WordPress's `upload_from_data`: the body is the file, named by `Content-Disposition`. */
function rawUpload(request: FastifyRequest, body: Buffer, contentType: string | undefined): Upload {
	if (body.length === 0) throw noData();
	if (!contentType) throw badRequest('No Content-Type supplied.', 'rest_upload_no_content_type');
	const disposition = header(request, 'content-disposition');
	if (!disposition) throw badRequest('No Content-Disposition supplied.', 'rest_upload_no_content_disposition');
	const fileName = dispositionParams(disposition).filename?.trim();
	if (!fileName) {
		throw badRequest(
			'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
			'rest_upload_invalid_disposition',
		);
	}
	checkMd5(request, body);
	return upload(body, fileName, contentType);
}
