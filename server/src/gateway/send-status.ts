import { z } from 'zod';
import { route, type Route } from '../http/route';
import { article, badRequest } from '../http/errors';
import { type Address, STATUS_JID } from '../network/jid';
import { loadMediaFor, mimetypeField } from './send';
import { pickCommon, repeatedSend, sendMessage } from './sending';
import { messageAnswer } from './views';
import { idempotent } from './idempotency';

const STATUS_TYPES = ['text', 'image', 'video', 'audio', 'myaudio', 'ptt'] as const;

/** Spec limit for the text of a text status, in characters (code points: an emoji counts once). */
const TEXT_STATUS_MAX = 656;

/** Status posts are messages of the device in its status feed. */
const STATUS_FEED: Address = { jid: STATUS_JID, isGroup: false };

/** Fields that belong to one kind of status only; given for the other kind, they are a mistake (400). */
const TEXT_ONLY = ['background_color', 'font'] as const;
const MEDIA_ONLY = ['file', 'thumbnail', 'mimetype'] as const;

/** Status posts of the device. */
export const statusRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/wdm/v1/send/status',
		media: true,
		auth: 'instance',
		...idempotent,
		summary: 'Publish a status (text, image, video or audio) of the device',
		body: z.strictObject({
			type: z.enum(STATUS_TYPES),
			text: z.string().optional(),
			background_color: z.number().int().min(1).max(19).optional(),
			font: z.number().int().min(0).max(10).optional(),
			file: z.string().min(1).optional(),
			thumbnail: z.string().min(1).optional(),
			mimetype: mimetypeField,
			...pickCommon('delay', 'async', 'track_source', 'track_id'),
		}),
		answer: messageAnswer,
		handler: async (ctx) => {
			const { body, services } = ctx;
			const { type } = body;
			const isText = type === 'text';
			const problems = (isText ? MEDIA_ONLY : TEXT_ONLY)
				.filter((field) => body[field] !== undefined)
				.map((field) => `${field} applies to ${isText ? 'media statuses (image, video, audio)' : 'text statuses (type "text")'} only`);
			if (isText && !body.text?.trim()) problems.push('text is required for a text status');
			if (isText && body.text && [...body.text].length > TEXT_STATUS_MAX) {
				problems.push(`text must be at most ${TEXT_STATUS_MAX} characters long for a text status`);
			}
			if (!isText && !body.file) problems.push(`file is required for ${article(type)} status`);
			if (problems.length) throw badRequest(problems.join('; '));

			if (isText) {
				return sendMessage(ctx, STATUS_FEED, body, {
					type: 'text',
					text: body.text,
					// 19 (gray) and the plain font are the network's defaults.
					content: { background_color: body.background_color ?? 19, font: body.font ?? 0 },
				});
			}
			// A repeat of an earlier keyed send downloads nothing (nor is refused by what changed since).
			const repeat = repeatedSend(ctx);
			if (repeat) return repeat;
			// Refuse before downloading anything when the status could not be published anyway.
			services.messaging.check(ctx.device, STATUS_FEED);
			const media = await loadMediaFor(services, type, body.file!, { mimetype: body.mimetype });
			return sendMessage(ctx, STATUS_FEED, body, {
				type,
				text: body.text ?? null,
				file: media,
				content: { size: media.data.length, ...(body.thumbnail ? { thumbnail: body.thumbnail } : {}) },
			});
		},
	}),
];
