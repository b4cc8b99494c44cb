import type { Config } from '../config';
import type { Store } from '../store';
import type { DeviceRow } from '../store/types';
import type { Events } from '../webhooks/events';
import { userJid } from './jid';

export type PresenceKind = 'composing' | 'recording' | 'paused';

interface Active {
	chatid: string;
	presence: Exclude<PresenceKind, 'paused'>;
	until: number;
	sent: number;
	timer: NodeJS.Timeout;
	interval: NodeJS.Timeout;
}

/**
 * Typing and recording indicators a device shows in a chat. They run in the background, are re-sent
 * every `presenceResendMs` while they last, and stop at their deadline, on `paused`, or when the
 * device sends a message to that chat. A device on this server that is the other side of the chat
 * receives each of them as a `presence` event.
 */
export class Presence {
	private active = new Map<string, Active>();

	constructor(
		private store: Store,
		private events: Events,
		private config: Config,
	) {}

	/** Starts (or replaces) the indicator; returns when it ends, or null for `paused`. */
	set(device: DeviceRow, chatid: string, presence: PresenceKind, durationMs: number): number | null {
		this.cancel(device, chatid);
		if (presence === 'paused') return null;
		const key = `${device.id}|${chatid}`;
		const state: Active = {
			chatid,
			presence,
			until: Date.now() + durationMs,
			sent: 0,
			timer: setTimeout(() => this.cancel(device, chatid), durationMs),
			interval: setInterval(() => this.announce(device, state), this.config.presenceResendMs),
		};
		state.timer.unref();
		state.interval.unref();
		this.active.set(key, state);
		this.announce(device, state);
		return state.until;
	}

	/** Ends the indicator in a chat, telling the other side it paused. */
	cancel(device: DeviceRow, chatid: string) {
		const key = `${device.id}|${chatid}`;
		const state = this.active.get(key);
		if (!state) return;
		clearTimeout(state.timer);
		clearInterval(state.interval);
		this.active.delete(key);
		this.notifyPeer(device, chatid, 'paused');
	}

	/** What a device is showing right now, for the sandbox. */
	of(device: DeviceRow) {
		return [...this.active.entries()]
			.filter(([key]) => key.startsWith(`${device.id}|`))
			.map(([, s]) => ({ chatid: s.chatid, presence: s.presence, until: s.until, sent: s.sent }));
	}

	/** Ends every indicator of a device: it logged out or was deleted. */
	cancelAll(device: DeviceRow) {
		for (const { chatid } of this.of(device)) this.cancel(device, chatid);
	}

	stop() {
		for (const state of this.active.values()) {
			clearTimeout(state.timer);
			clearInterval(state.interval);
		}
		this.active.clear();
	}

	private announce(device: DeviceRow, state: Active) {
		state.sent++;
		this.notifyPeer(device, state.chatid, state.presence);
	}

	private notifyPeer(device: DeviceRow, chatid: string, presence: PresenceKind) {
		const phone = chatid.endsWith('@s.whatsapp.net') ? chatid.split('@')[0] : undefined;
		const peer = phone && this.store.devices.connectedByPhone(phone);
		if (!peer || !device.phone) return;
		const from = userJid(device.phone);
		this.events.emit(peer, 'presence', { chatid: from, sender: from, presence });
	}
}
