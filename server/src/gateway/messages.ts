import { z } from 'zod';
import { route } from '../http/route';
import { ApiError, article, badRequest, notFound } from '../http/errors';
import { nonEmpty, recipient } from '../http/schema';
import { parseAddress, userJid } from '../network/jid';
import type { Services } from '../services';
import type { DeviceRow, MessageRow } from '../store/types';
import { messageAnswer, messageView, fileUrl, nextPage, pageAnswer } from './views';

const AUDIO_TYPES = new Set(['audio', 'myaudio', 'ptt']);

/** The network accepts edits for 15 minutes after a message was sent. */
const EDIT_WINDOW_MS = 15 * 60 * 1000;

/** The device's message with this id (or network id); another device's message is as unknown as one that never was. */
function messageOf(services: Services, device: DeviceRow, id: string): MessageRow {
	const row = services.store.messages.byId(device.id, id);
	if (!row) throw notFound(`id: no message with id "${id}" on this device`);
	return row;
}

/** Refuses an action on a message the network does not carry: one still queued, refused (failed) or deleted. */
function mustBeOnNetwork(row: MessageRow, action: string) {
	if (row.status === 'deleted') throw badRequest(`id: message "${row.id}" was deleted, so it cannot be ${action}`);
	if (row.status === 'queued' || row.status === 'failed') {
		throw badRequest(`id: message "${row.id}" has not been sent (status: ${row.status}), so it cannot be ${action}`);
	}
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** One emoji: a single grapheme (skin tones, ZWJ families and flags are one) that is pictographic, a flag or a keycap. */
export const isOneEmoji = (text: string) =>
	[...graphemes.segment(text)].length === 1 && /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(text);

/** `number` names the message's chat: the bare number, its JID or its `@lid` form. */
const isChatOf = (number: string, row: MessageRow) => {
	const to = parseAddress(number, 'number');
	return to.jid === row.chatid || (to.phone !== undefined && !to.isGroup && userJid(to.phone) === row.chatid);
};

export const messageRoutes = [
	route({
		method: 'POST',
		path: '/wdm/v1/message/find',
		auth: 'instance',
		summary: 'Find messages by id, chat or tracking fields, newest first, with paging',
		body: z.strictObject({
			id: z.string().trim().min(1).optional(),
			chatid: recipient.optional(),
			track_source: z.string().optional(),
			track_id: z.string().optional(),
			limit: z.number().int().min(1).max(1000).default(100),
			offset: z.number().int().min(0).default(0),
		}),
		answer: z.object({
			messages: z.array(messageAnswer),
			totalIsEstimate: z.literal(true).optional().meta({ description: 'Counting stopped at its cap: total is a lower bound' }),
			...pageAnswer,
		}),
		handler: ({ services, device, body }) => {
			const chatid = body.chatid ? parseAddress(body.chatid, 'chatid').jid : undefined;
			const { rows, total, totalIsEstimate } = services.store.messages.find(device.id, { ...body, chatid });
			return {
				messages: rows.map((row) => messageView(row, services.baseUrl)),
				total,
				// Only when counting stopped at its cap (see TOTAL_COUNT_MARGIN): `total` is then a lower bound.
				...(totalIsEstimate ? { totalIsEstimate } : {}),
				limit: body.limit,
				offset: body.offset,
				...nextPage(body.offset, rows.length, total),
			};
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/message/download',
		auth: 'instance',
		summary: "Download a message's media, as a link and/or Base64",
		body: z.strictObject({
			id: z.string().trim().min(1),
			return_base64: z.boolean().default(false),
			return_link: z.boolean().default(true),
			generate_mp3: z.boolean().default(false),
			transcribe: z.boolean().default(false),
			vendor_apikey: z.string().optional(),
			download_quoted: z.boolean().default(false),
		}),
		answer: z.object({
			id: z.string(),
			mimetype: z.string(),
			fileName: z.string(),
			size: z.number(),
			fileURL: z.string().optional(),
			base64Data: z.string().optional(),
		}),
		errors: [404, 501],
		handler: ({ services, device, body }) => {
			const { messages, files } = services.store;
			let message = messageOf(services, device, body.id);
			if (body.download_quoted) {
				if (!message.quoted) throw badRequest(`download_quoted: message "${body.id}" does not quote another message`);
				// The quoted message (a status post, a media message) may be gone or deleted: then there is nothing to download.
				const quoted = messages.byId(device.id, message.quoted);
				if (!quoted?.file_id) throw badRequest(`download_quoted: the message that "${body.id}" quotes has no media to download`);
				message = quoted;
			}
			const file = message.file_id ? files.byId(message.file_id) : undefined;
			if (!file) throw badRequest(`id: message "${message.id}" has no media to download`);
			if (body.generate_mp3) {
				if (!AUDIO_TYPES.has(message.message_type)) throw badRequest('generate_mp3 applies to audio messages only');
				throw new ApiError(501, 'generate_mp3: this server has no audio converter configured; download the original audio instead');
			}
			if (body.transcribe) {
				throw new ApiError(501, 'transcribe: this server has no transcription vendor configured, so it cannot transcribe audio');
			}
			return {
				id: message.id,
				mimetype: file.mimetype,
				fileName: file.file_name,
				size: file.size,
				...(body.return_link ? { fileURL: fileUrl(services.baseUrl, file.id, file.file_name) } : {}),
				...(body.return_base64 ? { base64Data: file.data.toString('base64') } : {}),
			};
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/message/markread',
		auth: 'instance',
		summary: 'Mark received messages read: their chat counts them read, and the sender sees them read',
		body: z.strictObject({
			// The spec's array; one id on its own is taken as a list of one.
			id: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(nonEmpty).min(1).max(1000)),
		}),
		answer: z.array(messageAnswer),
		errors: [404],
		handler: ({ services, device, body }) => {
			const found = body.id.map((id) => ({ id, row: services.store.messages.byId(device.id, id) }));
			const unknown = found.filter((f) => !f.row).map((f) => `"${f.id}"`);
			if (unknown.length === 1) throw notFound(`id: no message with id ${unknown[0]} on this device`);
			if (unknown.length) throw notFound(`id: no messages with ids ${unknown.join(', ')} on this device`);
			const rows = found.map((f) => f.row!);
			const sent = rows.find((row) => row.from_me);
			if (sent) throw badRequest(`id: message "${sent.id}" was sent by this device; only received messages can be marked read`);
			services.messaging.checkConnected(device);
			// The same message named twice (by id and by network id) is read once.
			const unique = [...new Map(rows.map((row) => [row.id, row])).values()];
			return services.messaging.markRead(device, unique).map((row) => messageView(row, services.baseUrl));
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/message/react',
		auth: 'instance',
		summary: 'React to a message with an emoji, or remove the reaction with an empty text',
		body: z.strictObject({
			number: recipient,
			text: z
				.string()
				.trim()
				// Long texts stop here, before the emoji check reads them.
				.max(64, { abort: true })
				.refine((text) => text === '' || isOneEmoji(text), { error: 'must be a single emoji, or empty to remove the reaction' }),
			id: nonEmpty,
		}),
		answer: messageAnswer,
		errors: [404],
		handler: ({ services, device, body }) => {
			const row = messageOf(services, device, body.id);
			if (!isChatOf(body.number, row)) throw badRequest(`number: message "${body.id}" is in chat ${row.chatid}, not in ${body.number}`);
			mustBeOnNetwork(row, 'reacted to');
			services.messaging.checkConnected(device);
			return messageView(services.messaging.react(device, row, userJid(device.phone!), body.text), services.baseUrl);
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/message/delete',
		auth: 'instance',
		summary: 'Delete a message the device sent, for everyone',
		body: z.strictObject({ id: nonEmpty }),
		answer: messageAnswer,
		errors: [404],
		handler: ({ services, device, body }) => {
			const row = messageOf(services, device, body.id);
			if (!row.from_me) {
				throw badRequest(`id: message "${body.id}" was sent by ${row.sender}; only messages sent by this device can be deleted for everyone`);
			}
			// Deleting twice is not an error: a retried workflow gets the same answer.
			if (row.status === 'deleted') return messageView(row, services.baseUrl);
			// A message still queued (or refused) never reached the network: deleting it here cancels it.
			if (row.status !== 'queued' && row.status !== 'failed') services.messaging.checkConnected(device);
			return messageView(services.messaging.deleteForEveryone(device, row), services.baseUrl);
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/message/edit',
		auth: 'instance',
		summary: 'Replace the text of a text message the device sent (within 15 minutes of sending)',
		body: z.strictObject({
			id: nonEmpty,
			text: z.string().refine((text) => text.trim() !== '', { error: 'must not be empty' }),
		}),
		answer: messageAnswer,
		errors: [404],
		handler: ({ services, device, body }) => {
			const row = messageOf(services, device, body.id);
			if (!row.from_me) throw badRequest(`id: message "${body.id}" was sent by ${row.sender}; only messages sent by this device can be edited`);
			if (row.message_type !== 'text') {
				throw badRequest(`id: message "${body.id}" is ${article(row.message_type)} message; only text messages can be edited`);
			}
			mustBeOnNetwork(row, 'edited');
			if (Date.now() - row.timestamp > EDIT_WINDOW_MS) {
				throw badRequest(`id: message "${body.id}" was sent more than 15 minutes ago; the network accepts edits for 15 minutes only`);
			}
			services.messaging.checkConnected(device);
			return messageView(services.messaging.edit(device, row, body.text), services.baseUrl);
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/message/presence',
		auth: 'instance',
		summary: 'Show typing or recording in a chat for a while, or stop it',
		body: z.strictObject({
			number: recipient,
			presence: z.enum(['composing', 'recording', 'paused']),
			delay: z.number().int().min(1).max(300000).optional(),
		}),
		answer: z.object({ number: z.string(), presence: z.enum(['composing', 'recording', 'paused']), until: z.number().nullable().meta({ description: 'When it stops, Unix time in milliseconds; null when stopped' }) }),
		handler: ({ services, device, body }) => {
			const to = parseAddress(body.number, 'number');
			services.messaging.check(device, to);
			// The answer shows the same deadline the presence runs to.
			const until = services.presence.set(device, to.jid, body.presence, body.delay ?? 300000);
			return { number: to.jid, presence: body.presence, until };
		},
	}),
];
