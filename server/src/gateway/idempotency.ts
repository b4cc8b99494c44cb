import crypto from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../http/errors';
import type { RouteContext } from '../http/route';
import type { Store } from '../store';
import type { MessageRow } from '../store/types';

/**
 * Idempotent sends (docs/decisions/webhooks.md, "Sends: the Idempotency-Key header"): a send route given an
 * `Idempotency-Key` makes one message per key and device; the same request again with the same key
 * answers the message the first one made (`Idempotent-Replayed: true`), whatever happened to the answer
 * of the first (a run that died after its send and runs again, a retry after a timeout). As the IETF's
 * draft (draft-ietf-httpapi-idempotency-key-header) says: the key with another request is a 422.
 */

/** How long a key is kept: a day, as the draft's example and Stripe's keys. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What a send route declares: the header it reads, and the 422 of a key reused for another request.
 * Every send route spreads it, so it also declares the network rules' refusals (`network/rules.ts`):
 * 422 for a recipient who opted out, 429 past a limit (503, a lost connection, is in `default`).
 */
export const idempotent = {
	headers: z.object({
		'idempotency-key': z
			.string()
			.min(1, { error: 'header must not be empty' })
			.max(255, { error: 'header must be at most 255 characters' })
			.optional()
			.meta({
				description:
					'Makes the send idempotent for a day: the same request with the same key sends nothing more and answers the message the first one made (header `Idempotent-Replayed: true`); with another request it is a 422.',
			}),
	}),
	errors: [422, 429],
};

export interface SendKey {
	key: string;
	/** The request the key was made for: its method, path and body. */
	fingerprint: string;
}

/** Each request's key, made once (a media send's body may be megabytes to hash). */
const keys = new WeakMap<object, SendKey>();

/** The key of a send request, if it has one. */
export function sendKeyOf(ctx: RouteContext<unknown, unknown, unknown>): SendKey | undefined {
	const key = (ctx.headers as { 'idempotency-key'?: string } | undefined)?.['idempotency-key'];
	if (key === undefined) return undefined;
	let sendKey = keys.get(ctx.request);
	if (!sendKey) {
		const { method, url, body } = ctx.request;
		const fingerprint = crypto.hash('sha256', `${method} ${url.split('?')[0]}\n${JSON.stringify(body ?? null)}`, 'base64url');
		keys.set(ctx.request, (sendKey = { key, fingerprint }));
	}
	return sendKey;
}

/** The message an earlier send with this key made, if any (a 422 when that send was another request). */
export function earlierSend(store: Store, deviceId: string, sendKey: SendKey, now = Date.now()): MessageRow | undefined {
	const earlier = store.sendKeys.find(deviceId, sendKey.key, now - KEY_TTL_MS);
	if (!earlier) return undefined;
	if (earlier.fingerprint !== sendKey.fingerprint) {
		throw new ApiError(422, `Idempotency-Key '${sendKey.key}' was already used for another request (another route or body) in the last 24 hours`, 'wdm_idempotency_key_reused');
	}
	store.sendKeys.replayed(deviceId, sendKey.key);
	return store.messages.byId(deviceId, earlier.message_id);
}

/**
 * Runs `send` once per key, in the caller's transaction: the earlier send's message, or the new one,
 * recorded with the key (and the expired keys dropped, one index range each time).
 */
export function sendOnce(store: Store, deviceId: string, sendKey: SendKey | undefined, send: () => MessageRow): { row: MessageRow; replayed: boolean } {
	if (!sendKey) return { row: send(), replayed: false };
	const now = Date.now();
	const earlier = earlierSend(store, deviceId, sendKey, now);
	if (earlier) return { row: earlier, replayed: true };
	const row = send();
	store.sendKeys.prune(now - KEY_TTL_MS);
	store.sendKeys.insert({ device_id: deviceId, key: sendKey.key, fingerprint: sendKey.fingerprint, message_id: row.id, created_at: now });
	return { row, replayed: false };
}
