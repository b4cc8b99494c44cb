import { z } from 'zod';
import type { RouteContext } from '../http/route';
import type { Draft } from '../network/messaging';
import { badRequest, networkFailure } from '../http/errors';
import { type Address, parseAddress, STATUS_JID } from '../network/jid';
import { earlierSend, sendKeyOf, sendOnce } from './idempotency';
import { messageView } from './views';

/** The common fields of the send routes (spec: "Common fields"); each route picks the ones it lists. */
export const commonFields = {
	replyid: z.string().trim().min(1).optional(),
	mentions: z.union([z.string(), z.array(z.string())]).optional(),
	delay: z.number().int().min(0).max(300000).optional(),
	readchat: z.boolean().optional(),
	readmessages: z.boolean().optional(),
	forward: z.boolean().optional(),
	track_source: z.string().max(255).optional(),
	track_id: z.string().max(255).optional(),
	async: z.boolean().optional(),
	placeholders: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
};

/** The common fields a route lists, in a body schema: `...pickCommon('delay', 'async')`. */
export function pickCommon<K extends keyof typeof commonFields>(...names: K[]): Pick<typeof commonFields, K> {
	return Object.fromEntries(names.map((name) => [name, commonFields[name]])) as Pick<typeof commonFields, K>;
}

export type CommonFields = { [K in keyof typeof commonFields]?: z.output<(typeof commonFields)[K]> };

/** `{{name}}` takes the placeholder's value; a name with no value is left as written. */
export function fillPlaceholders(text: string | undefined, values: CommonFields['placeholders']): string | undefined {
	if (text === undefined || !values) return text;
	return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (marker, name: string) =>
		Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : marker,
	);
}

function mentionList(mentions: CommonFields['mentions']): string[] {
	if (mentions === undefined) return [];
	const list = Array.isArray(mentions) ? mentions : mentions.split(',');
	return list.map((m) => m.trim()).filter(Boolean).map((m) => parseAddress(m, 'mentions').jid);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The chat a send route's `number` names; the status feed is only for /send/status. */
export function recipientOf(number: string): Address {
	const to = parseAddress(number, 'number');
	if (to.jid === STATUS_JID) throw badRequest(`number: ${STATUS_JID} is the device's status feed; publish a status with /send/status`);
	return to;
}

/**
 * Sends what a send route built, honouring the common fields: `delay` shows typing (or recording,
 * for voice notes) first, `async` hands the message to the persisted queue and answers at once.
 * `to` is the route's `number`, or an address the route chose itself (the status feed).
 */
export async function sendMessage(
	ctx: RouteContext<unknown, unknown, unknown>,
	to: string | Address,
	common: CommonFields,
	message: Omit<Draft, 'to' | 'quoted' | 'mentions' | 'forwarded' | 'track_source' | 'track_id' | 'readchat' | 'readmessages'>,
) {
	const { services } = ctx;
	const sendKey = sendKeyOf(ctx);
	// A repeat is answered before anything shows (typing) or waits (delay); the check in the sending
	// transaction below is the one that holds against a repeat sent at the same time.
	const repeat = repeatedSend(ctx);
	if (repeat) return repeat;
	// Field by field: an object spread here builds a slow object, a cost on every send.
	const draft: Draft = {
		type: message.type,
		text: message.text,
		file: message.file,
		content: message.content,
		to: typeof to === 'string' ? recipientOf(to) : to,
		quoted: common.replyid,
		mentions: mentionList(common.mentions),
		forwarded: common.forward,
		track_source: common.track_source,
		track_id: common.track_id,
		readchat: common.readchat,
		readmessages: common.readmessages,
	};
	const delay = common.delay ?? 0;
	const presence = message.type === 'ptt' || message.type === 'myaudio' ? 'recording' : 'composing';
	// Nobody watches a status being typed: the status feed is not a conversation.
	const showPresence = delay > 0 && draft.to.jid !== STATUS_JID;
	if (common.async) {
		const enqueue = () => services.messaging.enqueue(ctx.device, draft, Date.now() + delay);
		const queued = sendKey ? services.store.tx(() => sendOnce(services.store, ctx.device.id, sendKey, enqueue)) : { row: enqueue(), replayed: false };
		if (!queued.replayed) {
			if (showPresence) services.presence.set(ctx.device, draft.to.jid, presence, delay);
			services.sendQueue.worker.wake();
		}
		return answer(ctx, queued);
	}
	if (delay > 0) {
		services.messaging.check(ctx.device, draft.to);
		// Refuse a bad replyid now, not after showing typing for the whole delay.
		services.messaging.quotedOf(ctx.device, draft.quoted);
		if (showPresence) services.presence.set(ctx.device, draft.to.jid, presence, delay);
		await sleep(delay);
	}
	// The device may have been logged out, or deleted, while the request waited. It is read again in the
	// sending transaction: a read on its own would open (and pay for) a database transaction of its own.
	// The transaction is shared with the sends of the same event-loop turn; the answer waits for its commit.
	// A send refuses (a deleted device, the network's refusals, a bad replyid, a reused key) before it writes.
	const sent = await services.store.txShared(
		() =>
			sendOnce(services.store, ctx.device.id, sendKey, () => {
				const device = services.store.devices.byId(ctx.device.id);
				if (!device) throw networkFailure(`device '${ctx.device.name}' was deleted before the message went out`);
				return services.messaging.send(device, draft);
			}),
		{ refusesBeforeWriting: true },
	);
	return answer(ctx, sent);
}

/**
 * The answer to a repeat of an earlier keyed send, if this request is one. Media routes ask before they
 * download the file; `sendMessage` asks before anything shows or waits.
 */
export function repeatedSend(ctx: RouteContext<unknown, unknown, unknown>) {
	const sendKey = sendKeyOf(ctx);
	const earlier = sendKey && earlierSend(ctx.services.store, ctx.device.id, sendKey);
	return earlier ? answer(ctx, { row: earlier, replayed: true }) : undefined;
}

/** A send's answer: its message; a repeat's is marked (`Idempotent-Replayed`, Stripe's header). */
function answer(ctx: RouteContext<unknown, unknown, unknown>, { row, replayed }: ReturnType<typeof sendOnce>) {
	if (replayed) ctx.reply.header('Idempotent-Replayed', 'true');
	return messageView(row, ctx.services.baseUrl);
}
