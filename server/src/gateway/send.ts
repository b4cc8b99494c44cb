import { z } from 'zod';
import { route } from '../http/route';
import { article, badRequest } from '../http/errors';
import { recipient } from '../http/schema';
import { loadMedia, type Media } from '../media/load';
import type { Services } from '../services';
import { commonFields, fillPlaceholders, recipientOf, repeatedSend, sendMessage } from './sending';
import { messageAnswer } from './views';
import { idempotent } from './idempotency';

const MEDIA_TYPES = ['image', 'video', 'document', 'audio', 'myaudio', 'ptt', 'ptv', 'sticker'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** Which files each media type takes: the network refuses, say, a PDF sent as an image. */
const MEDIA_FAMILY: Record<MediaType, string | undefined> = {
	image: 'image/',
	sticker: 'image/',
	video: 'video/',
	ptv: 'video/',
	audio: 'audio/',
	myaudio: 'audio/',
	ptt: 'audio/',
	document: undefined,
};

const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/i;

/** The `mimetype` field of the media routes. */
export const mimetypeField = z
	.string()
	.regex(/^[\w.+-]+\/[\w.+-]+$/, { error: 'must be a MIME type such as image/png' })
	.optional();

/** Loads the `file` of a media message (URL, data URI or Base64) and checks that it fits the message type. */
export async function loadMediaFor(
	services: Services,
	type: MediaType,
	file: string,
	given: { mimetype?: string; fileName?: string },
): Promise<Media> {
	const media = await loadMedia(file, 'file', services.media, given);
	const family = MEDIA_FAMILY[type];
	if (family && !media.mimetype.startsWith(family)) {
		throw badRequest(`file: ${article(type)} message needs ${article(family)}* file (got ${media.mimetype})`);
	}
	return media;
}

export const sendRoutes = [
	route({
		method: 'POST',
		path: '/wdm/v1/send/text',
		auth: 'instance',
		...idempotent,
		summary: 'Send a text message, with an optional link preview',
		body: z.strictObject({
			number: recipient,
			text: z.string().min(1),
			linkPreview: z.boolean().optional(),
			linkPreviewTitle: z.string().optional(),
			linkPreviewDescription: z.string().optional(),
			linkPreviewImage: z.url().optional(),
			linkPreviewLarge: z.boolean().optional(),
			...commonFields,
		}),
		answer: messageAnswer,
		handler: (ctx) => {
			const { body } = ctx;
			const text = fillPlaceholders(body.text, body.placeholders)!;
			const link = text.match(URL_IN_TEXT)?.[0];
			// A link that does not parse (`https://[x`) gets no preview rather than a crash.
			const url = link && URL.canParse(link) ? link : undefined;
			const custom = body.linkPreviewTitle ?? body.linkPreviewDescription ?? body.linkPreviewImage;
			// An automatic preview needs a link in the text; custom fields make one for the first link too.
			const linkPreview =
				url && (body.linkPreview || custom)
					? {
							url,
							title: body.linkPreviewTitle ?? new URL(url).hostname,
							description: body.linkPreviewDescription ?? '',
							image: body.linkPreviewImage ?? null,
							large: body.linkPreviewLarge ?? false,
						}
					: null;
			return sendMessage(ctx, body.number, body, { type: 'text', text, content: linkPreview ? { linkPreview } : {} });
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/send/media',
		media: true,
		auth: 'instance',
		...idempotent,
		summary: 'Send an image, video, document, audio, voice note or sticker',
		body: z.strictObject({
			number: recipient,
			type: z.enum(MEDIA_TYPES),
			file: z.string().min(1),
			text: z.string().optional(),
			docName: z.string().trim().min(1).max(255).optional(),
			thumbnail: z.string().optional(),
			mimetype: mimetypeField,
			...commonFields,
		}),
		answer: messageAnswer,
		handler: async (ctx) => {
			const { body, services } = ctx;
			// A repeat of an earlier keyed send downloads nothing (nor is refused by what changed since).
			const repeat = repeatedSend(ctx);
			if (repeat) return repeat;
			// Refuse before downloading anything when the message could not go out anyway.
			services.messaging.check(ctx.device, recipientOf(body.number));
			services.messaging.quotedOf(ctx.device, body.replyid);
			const media = await loadMediaFor(services, body.type, body.file, { mimetype: body.mimetype, fileName: body.docName });
			return sendMessage(ctx, body.number, body, {
				type: body.type,
				text: fillPlaceholders(body.text, body.placeholders) ?? null,
				file: media,
				content: { size: media.data.length, ...(body.thumbnail ? { thumbnail: body.thumbnail } : {}) },
			});
		},
	}),
];
