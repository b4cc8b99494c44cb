import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { ALL_COMMON, numberField, sendOptions, textField } from './fields';

export const sendText: Operation = {
	name: 'Send Text',
	value: 'sendText',
	action: 'Send a text message',
	description: 'Send a text message, with an optional link preview',
	routing: gatewayRouting('POST', '/send/text'),
	fields: [
		numberField,
		textField,
		sendOptions(
			[
				{
					displayName: 'Link Preview',
					name: 'linkPreview',
					type: 'boolean',
					default: false,
					description: 'Whether to show a preview of the first link in the text',
					routing: { send: { type: 'body', property: 'linkPreview' } },
				},
				{
					displayName: 'Link Preview Title',
					name: 'linkPreviewTitle',
					type: 'string',
					default: '',
					description: "Title of the link preview, instead of the linked page's own",
					routing: { send: { type: 'body', property: 'linkPreviewTitle' } },
				},
				{
					displayName: 'Link Preview Description',
					name: 'linkPreviewDescription',
					type: 'string',
					default: '',
					description: "Description of the link preview, instead of the linked page's own",
					routing: { send: { type: 'body', property: 'linkPreviewDescription' } },
				},
				{
					displayName: 'Link Preview Image URL',
					name: 'linkPreviewImage',
					type: 'string',
					default: '',
					description: "URL of the image of the link preview, instead of the linked page's own",
					routing: { send: { type: 'body', property: 'linkPreviewImage' } },
				},
				{
					displayName: 'Large Link Preview',
					name: 'linkPreviewLarge',
					type: 'boolean',
					default: false,
					description: 'Whether to show the preview with a large image',
					routing: { send: { type: 'body', property: 'linkPreviewLarge' } },
				},
			],
			ALL_COMMON,
		),
	],
};
