import { z } from 'zod';
import { route } from '../http/route';
import { ApiError, badRequest, notFound } from '../http/errors';
import { recipient } from '../http/schema';
import { parseAddress } from '../network/jid';
import { messageView, fileUrl } from './views';

const AUDIO_TYPES = new Set(['audio', 'myaudio', 'ptt']);

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
		handler: ({ services, device, body }) => {
			const chatid = body.chatid ? parseAddress(body.chatid, 'chatid').jid : undefined;
			const { rows, total } = services.store.messages.find(device.id, { ...body, chatid });
			const hasMore = body.offset + rows.length < total;
			return {
				messages: rows.map((row) => messageView(row, services.baseUrl)),
				total,
				limit: body.limit,
				offset: body.offset,
				nextOffset: hasMore ? body.offset + rows.length : null,
				hasMore,
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
		handler: ({ services, device, body }) => {
			const { messages, files } = services.store;
			let message = messages.byId(device.id, body.id);
			if (!message) throw notFound(`id: no message with id "${body.id}" on this device`);
			if (body.download_quoted) {
				if (!message.quoted) throw badRequest(`download_quoted: message "${body.id}" does not quote another message`);
				message = messages.byId(device.id, message.quoted);
				if (!message) throw notFound(`download_quoted: the quoted message is no longer stored on this device`);
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
		path: '/wdm/v1/message/presence',
		auth: 'instance',
		summary: 'Show typing or recording in a chat for a while, or stop it',
		body: z.strictObject({
			number: recipient,
			presence: z.enum(['composing', 'recording', 'paused']),
			delay: z.number().int().min(1).max(300000).optional(),
		}),
		handler: ({ services, device, body }) => {
			const to = parseAddress(body.number, 'number');
			services.messaging.check(device, to);
			// The answer shows the same deadline the presence runs to.
			const until = services.presence.set(device, to.jid, body.presence, body.delay ?? 300000);
			return { number: to.jid, presence: body.presence, until };
		},
	}),
];
