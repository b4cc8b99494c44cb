import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { fileSourceFields, readFileSource } from '../shared/fileSource';
import { gatewayRouting } from '../shared/gateway';
import { ALL_COMMON, numberField, sendOptions } from './fields';

const FILE_PARAMETERS = { url: 'fileUrl', base64: 'fileBase64' };

/** Where the file comes from (`fileFromSource` reads it); Send Media Status shows the same fields. */
export const mediaFileFields = fileSourceFields('file', FILE_PARAMETERS, 'e.g. https://example.com/photo.jpg');

/** Options of a media message that Send Media Status has too. */
export const mediaOptions: INodeProperties[] = [
	{
		displayName: 'Caption',
		name: 'text',
		type: 'string',
		default: '',
		description: 'Caption; in a message, {{name}} markers take the values of Placeholders',
		routing: { send: { type: 'body', property: 'text' } },
	},
	{
		displayName: 'MIME Type',
		name: 'mimetype',
		type: 'string',
		default: '',
		placeholder: 'e.g. application/pdf',
		description: 'MIME type of the file (default: detected)',
		routing: { send: { type: 'body', property: 'mimetype' } },
	},
	{
		displayName: 'Thumbnail',
		name: 'thumbnail',
		type: 'string',
		default: '',
		description: 'Thumbnail for videos and documents: a URL or Base64',
		routing: { send: { type: 'body', property: 'thumbnail' } },
	},
];

/** Puts the chosen file source into `file`; a binary input also supplies MIME type and file name. */
export async function fileFromSource(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const body = options.body as IDataObject;
	const file = await readFileSource.call(this, FILE_PARAMETERS);
	if (typeof file === 'string') body.file = file;
	else {
		body.file = file.base64;
		body.mimetype ??= file.mimeType;
		if (body.type === 'document') body.docName ??= file.fileName;
	}
	return options;
}

export const sendMedia: Operation = {
	name: 'Send Media',
	value: 'sendMedia',
	action: 'Send a media message',
	description: 'Send an image, video, document, audio, voice note or sticker',
	routing: { ...gatewayRouting('POST', '/send/media'), send: { preSend: [fileFromSource] } },
	fields: [
		numberField,
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			required: true,
			default: 'image',
			description: 'How the file is sent: its kind of media message',
			options: [
				{ name: 'Audio', value: 'audio' },
				{ name: 'Audio (Own Recording)', value: 'myaudio' },
				{ name: 'Document', value: 'document' },
				{ name: 'Image', value: 'image' },
				{ name: 'Round Video Note', value: 'ptv' },
				{ name: 'Sticker', value: 'sticker' },
				{ name: 'Video', value: 'video' },
				{ name: 'Voice Note', value: 'ptt' },
			],
			routing: { send: { type: 'body', property: 'type' } },
		},
		...mediaFileFields,
		sendOptions(
			[
				...mediaOptions,
				{
					displayName: 'File Name',
					name: 'docName',
					type: 'string',
					default: '',
					description: 'File name shown for documents (default: the input file name)',
					routing: { send: { type: 'body', property: 'docName' } },
				},
			],
			ALL_COMMON,
		),
	],
};
