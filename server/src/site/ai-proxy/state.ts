import crypto from 'node:crypto';
import { z } from 'zod';
import type { Store } from '../../store';

/**
 * What the AI proxy keeps: the upstream API key (write-only: no route answers it), the chosen model,
 * the nonce secret, and each user's conversation. All site objects of namespace `proxyext`.
 */

const NAMESPACE = 'proxyext';

export const apiKey = (store: Store): string => store.objects.get<string>(NAMESPACE, 'setting', 'api_key')?.data ?? '';

/** Stores the key; an empty one removes it. */
export function saveApiKey(store: Store, key: string) {
	if (key) store.objects.put(NAMESPACE, 'setting', 'api_key', key);
	else store.objects.delete(NAMESPACE, 'setting', 'api_key');
}

export const aiModel = (store: Store): string => store.objects.get<string>(NAMESPACE, 'setting', 'model')?.data ?? '';

export const saveAiModel = (store: Store, model: string) => store.objects.put(NAMESPACE, 'setting', 'model', model);

/**
 * Nonces as WordPress makes them (`wp_create_nonce`): a hash of the time tick, the action and the user,
 * keyed by a site secret. A tick is half the lifetime; a nonce is good during its tick and the next,
 * so it lives 12 to 24 hours, and only for the user and action it was made for.
 */
export const NONCE_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const SETTINGS_ACTION = 'proxyext_ai_settings';

const tick = (now: number) => Math.ceil(now / (NONCE_LIFETIME_MS / 2));

function nonceSecret(store: Store): string {
	const stored = store.objects.get<string>(NAMESPACE, 'secret', 'nonce')?.data;
	if (stored) return stored;
	return store.objects.put(NAMESPACE, 'secret', 'nonce', crypto.randomBytes(32).toString('hex')).data;
}

const nonceAt = (store: Store, userId: number, action: string, t: number) =>
	crypto.createHmac('sha256', nonceSecret(store)).update(`${t}|${action}|${userId}`).digest('hex').slice(-12);

export const createNonce = (store: Store, userId: number, action: string, now = Date.now()) => nonceAt(store, userId, action, tick(now));

export function verifyNonce(store: Store, userId: number, action: string, nonce: string, now = Date.now()): boolean {
	const given = Buffer.from(nonce);
	return [tick(now), tick(now) - 1].some((t) => {
		const expected = Buffer.from(nonceAt(store, userId, action, t));
		return expected.length === given.length && crypto.timingSafeEqual(expected, given);
	});
}

/** One remembered message of a user's conversation through the proxy, as stored and answered. */
export const conversationMessageAnswer = z.object({
	role: z.string().meta({ description: 'user or assistant' }),
	content: z.string(),
	model: z.string().optional().meta({ description: 'The model that answered (assistant messages)' }),
	date: z.string().meta({ description: 'ISO time' }),
});
export type ConversationMessage = z.output<typeof conversationMessageAnswer>;

/** A conversation keeps its last messages only. */
export const CONVERSATION_LIMIT = 200;

export const conversation = (store: Store, userId: number): ConversationMessage[] =>
	store.objects.get<ConversationMessage[]>(NAMESPACE, 'conversation', String(userId))?.data ?? [];

export function saveConversation(store: Store, userId: number, messages: ConversationMessage[]) {
	if (messages.length) store.objects.put(NAMESPACE, 'conversation', String(userId), messages.slice(-CONVERSATION_LIMIT));
	else store.objects.delete(NAMESPACE, 'conversation', String(userId));
}

/** Appends messages to a user's conversation. */
export function remember(store: Store, userId: number, messages: ConversationMessage[]) {
	store.tx(() => saveConversation(store, userId, [...conversation(store, userId), ...messages]));
}
