import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { binaryInput } from '../shared/gateway';
import { siteResponse, toSiteNamespace } from '../shared/site';
import { mediaFields } from './fields';

/** RFC 5987 leaves these unencoded, yet they may not appear in `filename*`. */
const encodeExtended = (text: string) => encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `attachment; filename="..."` with an ASCII fallback, and the exact name in `filename*` (RFC 6266). */
export function contentDisposition(fileName: string): string {
	const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtended(fileName)}`;
}

/**
 * The request body is the file itself, as WordPress takes a raw upload: its bytes, its Content-Type and
 * `Content-Disposition: attachment; filename=...`. The fields go in the query string.
 */
async function fileBody(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const file = await binaryInput.call(this, this.getNodeParameter('binaryPropertyName') as string);
	const fileName = (this.getNodeParameter('fileName', '') as string).trim() || file.fileName || 'file';
	options.body = file.buffer;
	options.headers = {
		...options.headers,
		'Content-Type': file.mimeType ?? 'application/octet-stream',
		'Content-Disposition': contentDisposition(fileName),
	};
	return options;
}

export const upload: Operation = {
	name: 'Upload',
	value: 'upload',
	action: 'Upload a media file',
	description: 'Upload a file from a binary property to the media library',
	routing: {
		request: { method: 'POST', url: '/cms/v2/media' },
		send: { preSend: [toSiteNamespace, fileBody] },
		output: { postReceive: [siteResponse] },
	},
	fields: [
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			required: true,
			default: 'data',
			description: 'Name of the binary property of the input item that holds the file to upload',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. team-photo.jpg',
			description: "Name to store the file under; by default the binary data's own file name",
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: mediaFields('query'),
		},
	],
};
