import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { type CommonField, body, sendOptions, textField } from './fields';
import { fileFromSource, mediaFileFields, mediaOptions } from './sendMedia';

/**
 * `/send/status` as two operations, a text status and a media status: their fields differ by kind,
 * and one operation with a Type would need fields conditioned on it across operations, which n8n's
 * display rules cannot express (see docs/decisions/nodes.md, "Nodes: one declaration per field").
 */

/** The common fields /send/status lists: a status has no recipient to reply to, mention or read. */
const STATUS_COMMON: CommonField[] = ['delay', 'async', 'track_source', 'track_id'];

const statusRouting = gatewayRouting('POST', '/send/status');

export const sendTextStatus: Operation = {
	name: 'Send Text Status',
	value: 'sendTextStatus',
	action: 'Publish a text status',
	description: 'Publish a text status of the device, at most 656 characters (find it later in the chat status@broadcast)',
	routing: { ...statusRouting, request: { ...statusRouting.request, body: { type: 'text' } } },
	fields: [
		textField,
		sendOptions(
			[
				{
					displayName: 'Background Color',
					name: 'background_color',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 19 },
					default: 19,
					description: 'Background colour number from 1 to 19 (for example 7–9 blue, 10–12 lilac, 17–19 gray)',
					routing: body('background_color'),
				},
				{
					displayName: 'Font',
					name: 'font',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 10 },
					default: 0,
					description: 'Font number from 0 (plain) to 10',
					routing: body('font'),
				},
			],
			STATUS_COMMON,
		),
	],
};

export const sendMediaStatus: Operation = {
	name: 'Send Media Status',
	value: 'sendMediaStatus',
	action: 'Publish a media status',
	description: 'Publish an image, video or audio status of the device (find it later in the chat status@broadcast)',
	routing: { ...statusRouting, send: { preSend: [fileFromSource] } },
	fields: [
		{
			// Not `type`: Send Media's types are others (one declaration per name, see fieldProperties).
			displayName: 'Status Type',
			name: 'statusType',
			type: 'options',
			required: true,
			default: 'image',
			description: 'Kind of media the status shows',
			options: [
				{ name: 'Audio', value: 'audio' },
				{ name: 'Audio (Own Recording)', value: 'myaudio' },
				{ name: 'Image', value: 'image' },
				{ name: 'Video', value: 'video' },
				{ name: 'Voice Note', value: 'ptt' },
			],
			routing: body('type'),
		},
		...mediaFileFields,
		sendOptions(mediaOptions, STATUS_COMMON),
	],
};
