import crypto from 'node:crypto';
import type { Store } from '../store';
import type { DeviceRow, WebhookRow } from '../store/types';

export const EVENT_NAMES = [
	'connection',
	'messages',
	'messages_update',
	'presence',
	'chats',
	'contacts',
	'groups',
	'labels',
	'chat_labels',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Filters a subscription can set on `messages` events, so a bot does not answer itself. */
export const MESSAGE_EXCLUSIONS = ['wasSentByApi', 'wasNotSentByApi', 'fromMeYes', 'fromMeNo', 'isGroupYes', 'isGroupNo'] as const;
export type MessageExclusion = (typeof MESSAGE_EXCLUSIONS)[number];

/** An event's id (its `webhook-id`): `evt_` and this many random bytes in hex. */
const EVENT_ID_BYTES = 12;
/** The length of every event id: a claim names no longer one. */
export const EVENT_ID_LENGTH = 'evt_'.length + 2 * EVENT_ID_BYTES;

/**
 * Random bytes for event ids, drawn a pool at a time: a call into OpenSSL costs about 10 us, as much as
 * the rest of an event's id and body (an id is no secret: it names the event to its receiver).
 */
const idPool = Buffer.alloc(256 * EVENT_ID_BYTES);
let idPoolAt = idPool.length;

function newEventId(): string {
	if (idPoolAt === idPool.length) {
		crypto.randomFillSync(idPool);
		idPoolAt = 0;
	}
	idPoolAt += EVENT_ID_BYTES;
	return `evt_${idPool.toString('hex', idPoolAt - EVENT_ID_BYTES, idPoolAt)}`;
}

interface MessageFlags {
	fromMe?: boolean;
	wasSentByApi?: boolean;
	isGroup?: boolean;
}

function excluded(exclusions: MessageExclusion[], m: MessageFlags): boolean {
	return exclusions.some(
		(rule) =>
			(rule === 'wasSentByApi' && m.wasSentByApi === true) ||
			(rule === 'wasNotSentByApi' && m.wasSentByApi === false) ||
			(rule === 'fromMeYes' && m.fromMe === true) ||
			(rule === 'fromMeNo' && m.fromMe === false) ||
			(rule === 'isGroupYes' && m.isGroup === true) ||
			(rule === 'isGroupNo' && m.isGroup === false),
	);
}

/** A subscription past its `expiresAt`: it gets nothing more (no event, retry or replay). */
export const isExpired = (sub: WebhookRow, now = Date.now()) => sub.expires_at !== null && sub.expires_at <= now;

export function wants(sub: WebhookRow, event: EventName, data: unknown): boolean {
	if (isExpired(sub)) return false;
	// A one-chat subscription gets only events about that chat (events of no chat, e.g. `connection`, are not).
	if (sub.chatid !== null && (data as { chatid?: unknown } | null)?.chatid !== sub.chatid) return false;
	const events = JSON.parse(sub.events) as EventName[];
	if (events.length && !events.includes(event)) return false;
	if (event !== 'messages') return true;
	return !excluded(JSON.parse(sub.exclude_messages), data as MessageFlags);
}

export type EventObserver = (device: DeviceRow, event: EventName, data: unknown) => void;

/**
 * Turns what happens on a device into webhook deliveries: one outbox row per interested subscription,
 * written in the caller's transaction, so an event is persisted exactly when the change that caused it is.
 */
export class Events {
	/** In-process listeners (the dashboard's live stream): told of every event, subscribed to or not. */
	private observers = new Set<EventObserver>();

	constructor(
		private store: Store,
		private onQueued: () => void,
	) {}

	/** Adds a listener; the function returned removes it. */
	observe(observer: EventObserver): () => void {
		this.observers.add(observer);
		return () => this.observers.delete(observer);
	}

	/** `data` may be a function: it is then built only when some subscription or observer is there to receive it. */
	emit(device: DeviceRow, event: EventName, data: unknown) {
		if (this.observers.size) {
			if (typeof data === 'function') data = data();
			for (const observer of this.observers) observer(device, event, data);
		}
		const enabled = this.store.webhooks.enabledOf(device.id);
		if (!enabled.length) return;
		if (typeof data === 'function') data = data();
		const subs = enabled.filter((sub) => wants(sub, event, data));
		if (!subs.length) return;
		const now = Date.now();
		const id = newEventId();
		const body = JSON.stringify({ id, event, device: device.name, timestamp: now, data });
		for (const sub of subs) this.store.outbox.add(sub.id, id, body, now);
		this.onQueued();
	}
}
