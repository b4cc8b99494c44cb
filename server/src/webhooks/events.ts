import type { Store } from '../store';
import type { DeviceRow, WebhookRow } from '../store/types';
import { randomId } from '../security';

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

export function wants(sub: WebhookRow, event: EventName, data: unknown): boolean {
	const events = JSON.parse(sub.events) as EventName[];
	if (events.length && !events.includes(event)) return false;
	if (event !== 'messages') return true;
	return !excluded(JSON.parse(sub.exclude_messages), data as MessageFlags);
}

/**
 * Turns what happens on a device into webhook deliveries: one outbox row per interested subscription,
 * written in the caller's transaction, so an event is persisted exactly when the change that caused it is.
 */
export class Events {
	constructor(
		private store: Store,
		private onQueued: () => void,
	) {}

	/** `data` may be a function: it is then built only when some subscription is there to receive it. */
	emit(device: DeviceRow, event: EventName, data: unknown) {
		const enabled = this.store.webhooks.enabledOf(device.id);
		if (!enabled.length) return;
		if (typeof data === 'function') data = data();
		const subs = enabled.filter((sub) => wants(sub, event, data));
		if (!subs.length) return;
		const now = Date.now();
		const id = `evt_${randomId(12)}`;
		const body = JSON.stringify({ id, event, device: device.name, timestamp: now, data });
		for (const sub of subs) this.store.outbox.add(sub.id, id, body, now);
		this.onQueued();
	}
}
