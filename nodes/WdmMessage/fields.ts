import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { IDEMPOTENCY_KEY } from '../shared/direct';
import { pairsToObject } from '../shared/gateway';
import { picker } from '../shared/pickers';

/**
 * Fields that many message operations share. Each is declared once for every operation that shows it
 * (see `fieldProperties`), so its description fits them all.
 */

export const numberField: INodeProperties = picker('chat', {
	displayName: 'Chat',
	name: 'number',
	// A send to a new customer starts with a number to type: the list holds only the chats there already are.
	mode: 'id',
	description:
		'Who the message goes to (for other actions: the chat they apply to). Pick a chat from the list, or give a phone number in international format with the country code first and digits only (e.g. 5511999990001), a user JID (…@s.whatsapp.net) or a group JID (…@g.us).',
	routing: { send: { type: 'body', property: 'number' } },
});


/** The message an action applies to. */
export const messageIdField: INodeProperties = picker('message', {
	displayName: 'Message',
	name: 'id',
	description: 'The message: pick it (from the chat of the Chat field, if given), or give its ID as a send, a trigger or Find gives it (its full ID or its network message ID)',
	routing: { send: { type: 'body', property: 'id' } },
});

/** Routing that sends a field as the body property named. */
export const body = (property: string) => ({ send: { type: 'body' as const, property } });

/** The required message text of a send or edit operation. */
export const textField: INodeProperties = {
	displayName: 'Text',
	name: 'text',
	type: 'string',
	typeOptions: { rows: 4 },
	required: true,
	default: '',
	description:
		'The message text (a poll: the question; a status: at most 656 characters; menus, carousels and location buttons add their buttons below it). {{name}} markers take the values of Placeholders.',
	routing: body('text'),
};

/** The spec's common send fields, as Options entries; each send operation picks those its route lists. */
const COMMON: Record<string, INodeProperties> = {
	replyid: picker('message', {
		displayName: 'Reply To',
		name: 'replyid',
		required: false,
		description: 'The message this one replies to (it is shown quoted): pick it from the chat, or give its ID',
		routing: body('replyid'),
	}),
	mentions: {
		displayName: 'Mentions',
		name: 'mentions',
		type: 'string',
		default: '',
		placeholder: 'e.g. 5511999990001,5511999990002',
		description: 'Numbers to mention, separated by commas',
		routing: body('mentions'),
	},
	delay: {
		displayName: 'Delay (Ms)',
		name: 'delay',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 300000 },
		default: 0,
		description: 'Wait this long before sending, showing "typing…" (or "recording…" for voice notes) meanwhile',
		routing: body('delay'),
	},
	readchat: {
		displayName: 'Mark Chat Read',
		name: 'readchat',
		type: 'boolean',
		default: false,
		description: 'Whether to mark the conversation as read',
		routing: body('readchat'),
	},
	readmessages: {
		displayName: 'Mark Messages Read',
		name: 'readmessages',
		type: 'boolean',
		default: false,
		description: 'Whether to mark the latest received messages of the chat as read',
		routing: body('readmessages'),
	},
	forward: {
		displayName: 'Mark as Forwarded',
		name: 'forward',
		type: 'boolean',
		default: false,
		description: 'Whether to show the message as forwarded',
		routing: body('forward'),
	},
	track_source: {
		displayName: 'Track Source',
		name: 'track_source',
		type: 'string',
		default: '',
		description: 'Where this message comes from (e.g. "crm"), to find it later with Find',
		routing: body('track_source'),
	},
	track_id: {
		displayName: 'Track ID',
		name: 'track_id',
		type: 'string',
		default: '',
		description: 'Your ID for this message (duplicates are allowed), to find it later with Find',
		routing: body('track_id'),
	},
	async: {
		displayName: 'Send Asynchronously',
		name: 'async',
		type: 'boolean',
		default: false,
		description: 'Whether to queue the message and return at once (status "queued") instead of waiting until it is sent',
		routing: body('async'),
	},
	placeholders: {
		displayName: 'Placeholders',
		name: 'placeholders',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Placeholder',
		description: 'Values for {{name}} markers in the text',
		options: [
			{
				displayName: 'Placeholder',
				name: 'values',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Marker name, without braces' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '', description: 'Text that replaces the marker' },
				],
			},
		],
		routing: { send: { preSend: [pairsToObject('options.placeholders', 'placeholders')] } },
	},
};

export type CommonField = keyof typeof COMMON;

export const ALL_COMMON: CommonField[] = Object.keys(COMMON);

/** The common fields but those named: most send routes list all but one or two of them. */
export const commonExcept = (...names: CommonField[]): CommonField[] => ALL_COMMON.filter((name) => !names.includes(name));

/** The `Idempotency-Key` header from Options > Idempotency Key, when it is set. */
async function idempotencyHeader(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const key = this.getNodeParameter(`options.${IDEMPOTENCY_KEY}`, '') as string;
	return key ? { ...options, headers: { ...options.headers, 'Idempotency-Key': key } } : options;
}

/**
 * Every send route takes an `Idempotency-Key` header: a run that sends again what it already sent (n8n
 * running it again after its worker died, a retry) sends nothing more and gets the first message back.
 * Without this option, shared/direct.ts sends a key of the execution, node and item (shared/retry.ts),
 * so that its retries, and n8n's Retry On Fail, send once within the execution.
 */
const idempotencyKey: INodeProperties = {
	displayName: 'Idempotency Key',
	name: IDEMPOTENCY_KEY,
	type: 'string',
	default: '',
	placeholder: 'e.g. newsletter-2026-11-{{ $json.phone }}',
	description:
		"Send once per key (kept a day): a send with a key already used, by a retried or re-run execution, sends nothing more and returns the first message. Make it from what the message is for: a bot's reply from the WDM Trigger event's ID (the same in every delivery of the event), a bulk send's message from the campaign and the contact. Without it, each send gets a key of this execution and item: retries within the execution send once, a re-run may send again.",
	// A header, by a preSend: n8n's `send` routing reaches the body and the query only, and a `request`
	// routing would take the send off the bulk path (shared/direct.ts runs preSends, not `request`).
	routing: { send: { preSend: [idempotencyHeader] } },
};

/** The Options collection of a send operation: its own optional fields, then the common ones it takes. */
export function sendOptions(own: INodeProperties[], common: CommonField[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...own, ...common.map((name) => COMMON[name]), idempotencyKey].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}
