import type { Operation } from '../shared/operations';
import { base64ToBinary, binaryOutputField, unwrapData } from '../shared/gateway';
import { messageIdField } from './fields';

export const download: Operation = {
	name: 'Download Media',
	value: 'download',
	action: 'Download the media of a message',
	description: "Download a message's media as binary data",
	routing: {
		request: { method: 'POST', url: '/message/download', body: { return_base64: true } },
		output: {
			postReceive: [
				unwrapData,
				base64ToBinary('base64Data', 'outputPropertyName', {
					fileName: (data) => String(data.fileName ?? 'file'),
					mimeType: (data) => String(data.mimetype),
				}),
			],
		},
	},
	fields: [
		messageIdField,
		binaryOutputField,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Convert to MP3',
					name: 'generate_mp3',
					type: 'boolean',
					default: false,
					description: 'Whether to convert audio to MP3 (needs a converter on the gateway)',
					routing: { send: { type: 'body', property: 'generate_mp3' } },
				},
				{
					displayName: 'Download Quoted Media',
					name: 'download_quoted',
					type: 'boolean',
					default: false,
					description:
						'Whether to download the media of the status post or message this message replies to, instead of its own (e.g. a customer\'s reply to your status)',
					routing: { send: { type: 'body', property: 'download_quoted' } },
				},
				{
					displayName: 'Include Public Link',
					name: 'return_link',
					type: 'boolean',
					default: true,
					description: 'Whether to include the public URL of the file (fileURL)',
					routing: { send: { type: 'body', property: 'return_link' } },
				},
				{
					displayName: 'Transcribe',
					name: 'transcribe',
					type: 'boolean',
					default: false,
					description: 'Whether to transcribe audio (needs a transcription vendor)',
					routing: { send: { type: 'body', property: 'transcribe' } },
				},
				{
					displayName: 'Vendor API Key',
					name: 'vendor_apikey',
					type: 'string',
					typeOptions: { password: true },
					default: '',
					description: 'API key of the transcription vendor',
					routing: { send: { type: 'body', property: 'vendor_apikey' } },
				},
			],
		},
	],
};
