/**
 * Attempts under way per receiver (the origin of a subscription's URL: one n8n serves many
 * subscriptions), bounded by a limit that adapts to the receiver, as TCP's congestion window does:
 * until its first slow answer a receiver is in slow start (the limit grows by one per quick answer, so
 * it doubles per round of answers: a receiver that keeps up is not held at the start's 8 in its first
 * seconds), then additive increase (one per limit's worth of quick answers); the limit halves when
 * answers come slowly (over `slowMs`), not at all, or as 429/502/503/504. A receiver
 * that answers 429 or 503 with `Retry-After` is paused until then. So a slow n8n gets as many requests
 * as it answers in time instead of a queue of them that it answers after the sender gave up.
 */

/** The limit a receiver starts at (and never goes under 1, nor over `max`). */
const INITIAL = 8;

interface Receiver {
	limit: number;
	busy: number;
	pausedUntil: number;
	/** When the limit was last halved: once per `slowMs`, since the attempts under way then answer alike. */
	lastCut: number;
	/** Never slow yet: the limit grows by one per quick answer (TCP's slow start). */
	slowStart: boolean;
}

export class Pacing {
	private receivers = new Map<string, Receiver>();

	constructor(
		private max: number,
		private slowMs: number,
	) {}

	private of(origin: string): Receiver {
		let receiver = this.receivers.get(origin);
		if (!receiver) this.receivers.set(origin, (receiver = { limit: Math.min(INITIAL, this.max), busy: 0, pausedUntil: 0, lastCut: 0, slowStart: true }));
		return receiver;
	}

	/** Takes room for one attempt to `origin`, if there is some now. */
	take(origin: string, now = Date.now()): boolean {
		const receiver = this.of(origin);
		if (receiver.pausedUntil > now || receiver.busy >= Math.floor(receiver.limit)) return false;
		receiver.busy++;
		return true;
	}

	/** Gives back room taken for an attempt that did not start (its rows could not be leased). */
	release(origin: string) {
		this.of(origin).busy--;
	}

	/** An attempt ended: `ms` it took, and whether it says the receiver is overloaded. */
	done(origin: string, ms: number, overloaded: boolean, now = Date.now()) {
		const receiver = this.of(origin);
		receiver.busy--;
		if (overloaded || ms > this.slowMs) {
			receiver.slowStart = false;
			if (now - receiver.lastCut >= this.slowMs) {
				receiver.limit = Math.max(1, receiver.limit / 2);
				receiver.lastCut = now;
			}
		} else {
			receiver.limit = Math.min(this.max, receiver.limit + (receiver.slowStart ? 1 : 1 / receiver.limit));
		}
	}

	/** The receiver asked for a pause (`Retry-After`). */
	pause(origin: string, until: number) {
		const receiver = this.of(origin);
		receiver.pausedUntil = Math.max(receiver.pausedUntil, until);
	}

	/** The limit now (tests, metrics). */
	limit(origin: string): number {
		return this.receivers.get(origin)?.limit ?? Math.min(INITIAL, this.max);
	}

	busy(origin: string): number {
		return this.receivers.get(origin)?.busy ?? 0;
	}
}

/** `Retry-After` as ms from now: seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (!text) return undefined;
	if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
	const at = Date.parse(text);
	return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
