import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { binaryInput, unwrapData } from '../shared/gateway';
import { ALL_COMMON, numberField, sendOptions } from './fields';

/** Puts the chosen file source into `file`; a binary input also supplies MIME type and file name. */
export async function fileFromSource(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const body = options.body as IDataObject;
	const source = this.getNodeParameter('source') as string;
	if (source === 'binary') {
		const file = await binaryInput.call(this, this.getNodeParameter('binaryPropertyName') as string);
		body.file = file.base64;
		body.mimetype ??= file.mimeType;
		if (body.type === 'document') body.docName ??= file.fileName;
	} else {
		body.file = this.getNodeParameter(source === 'url' ? 'fileUrl' : 'fileBase64') as string;
	}
	return options;
}

const showFor = (source: string) => ({ show: { source: [source] } });

/** Where the file comes from: an input binary property, a URL the gateway downloads, or Base64 (`fileFromSource` reads them). */
export const fileSourceFields: INodeProperties[] = [
	{
		displayName: 'File Source',
		name: 'source',
		type: 'options',
		default: 'binary',
		options: [
			{ name: 'Binary Input', value: 'binary', description: 'A binary property of the input item' },
			{ name: 'URL', value: 'url', description: 'The gateway downloads the file' },
			{ name: 'Base64', value: 'base64', description: 'Base64 content or a data URI' },
		],
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		description: 'Name of the binary property that holds the file',
		displayOptions: showFor('binary'),
	},
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/photo.jpg',
		displayOptions: showFor('url'),
	},
	{
		displayName: 'Base64 Content',
		name: 'fileBase64',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		displayOptions: showFor('base64'),
	},
];

export const sendMedia: Operation = {
	name: 'Send Media',
	value: 'sendMedia',
	action: 'Send a media message',
	description: 'Send an image, video, document, audio, voice note or sticker',
	routing: {
		request: { method: 'POST', url: '/send/media' },
		send: { preSend: [fileFromSource] },
		output: { postReceive: [unwrapData] },
	},
	fields: [
		numberField,
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			required: true,
			default: 'image',
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
		...fileSourceFields,
		sendOptions(
			[
				{
					displayName: 'Caption',
					name: 'text',
					type: 'string',
					default: '',
					description: 'Caption; {{name}} markers take the values of Placeholders',
					routing: { send: { type: 'body', property: 'text' } },
				},
				{
					displayName: 'File Name',
					name: 'docName',
					type: 'string',
					default: '',
					description: 'File name shown for documents (default: the input file name)',
					routing: { send: { type: 'body', property: 'docName' } },
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
			],
			ALL_COMMON,
		),
	],
};
