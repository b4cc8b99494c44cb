import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { type CommonField, sendOptions, textField } from './fields';
import { fileFromSource, mediaFileFields } from './sendMedia';

/** The common fields /send/status lists: a status has no recipient to reply to, mention or read. */
const STATUS_COMMON: CommonField[] = ['delay', 'async', 'track_source', 'track_id'];

const forText = { show: { type: ['text'] } };
const forMedia = { hide: { type: ['text'] } };

/** Only media statuses carry a file. */
async function statusFile(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (this.getNodeParameter('type') === 'text') return options;
	return fileFromSource.call(this, options);
}

const textOptions = sendOptions(
	[
		{
			displayName: 'Background Color',
			name: 'background_color',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 19 },
			default: 19,
			description: 'Background colour number from 1 to 19 (for example 7–9 blue, 10–12 lilac, 17–19 gray)',
			routing: { send: { type: 'body', property: 'background_color' } },
		},
		{
			displayName: 'Font',
			name: 'font',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 0,
			description: 'Font number from 0 (plain) to 10',
			routing: { send: { type: 'body', property: 'font' } },
		},
	],
	STATUS_COMMON,
);

const mediaOptions = sendOptions(
	[
		{
			displayName: 'Caption',
			name: 'text',
			type: 'string',
			default: '',
			routing: { send: { type: 'body', property: 'text' } },
		},
		{
			displayName: 'MIME Type',
			name: 'mimetype',
			type: 'string',
			default: '',
			placeholder: 'e.g. video/mp4',
			description: 'MIME type of the file (default: detected)',
			routing: { send: { type: 'body', property: 'mimetype' } },
		},
		{
			displayName: 'Thumbnail',
			name: 'thumbnail',
			type: 'string',
			default: '',
			description: 'Thumbnail for a video: a URL or Base64',
			routing: { send: { type: 'body', property: 'thumbnail' } },
		},
	],
	STATUS_COMMON,
);

export const sendStatus: Operation = {
	name: 'Send Status',
	value: 'sendStatus',
	action: 'Publish a status',
	description: "Publish a text, image, video or audio status of the device (find it later in the chat status@broadcast)",
	routing: { ...gatewayRouting('POST', '/send/status'), send: { preSend: [statusFile] } },
	fields: [
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			required: true,
			default: 'text',
			options: [
				{ name: 'Audio', value: 'audio' },
				{ name: 'Audio (Own Recording)', value: 'myaudio' },
				{ name: 'Image', value: 'image' },
				{ name: 'Text', value: 'text' },
				{ name: 'Video', value: 'video' },
				{ name: 'Voice Note', value: 'ptt' },
			],
			routing: { send: { type: 'body', property: 'type' } },
		},
		{ ...textField('Status text, at most 656 characters'), displayOptions: forText },
		...mediaFileFields.map((field): INodeProperties => ({ ...field, displayOptions: { ...field.displayOptions, ...forMedia } })),
		{ ...textOptions, displayOptions: forText },
		{ ...mediaOptions, displayOptions: forMedia },
	],
};
