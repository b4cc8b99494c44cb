/**
 * Claims of delivered events by their receiver (the WDM Trigger), so that an event delivered more than
 * once starts one run: the receiver claims an event's `webhook-id` before it starts a run, and the
 * first claim wins. A claim may ask to be released when the attempt that carried it is recorded as
 * failed (the receiver acknowledges only when its run has finished: a failed attempt means the run did
 * not finish, and the redelivery must run). A claim that carries an attempt already recorded as failed
 * is refused: that attempt's run would run beside the redelivery's (a receiver that answered too late),
 * or belongs to a process that died (its claim still reached the server after the attempt's connection
 * broke). See docs/decisions.md, "Webhooks: exactly-once runs".
 *
 * Kept in memory: a receiver checks the signature's timestamp (5 minutes of tolerance), so an attempt
 * older than that can never start a run, and a claim need not outlive it by much.
 */

/** How long a claim is kept after it was made: the signature tolerance (5 min) and a margin. */
export const CLAIM_TTL_MS = 10 * 60 * 1000;

/** Events kept at most; past it the oldest go first (an entry is a few dozen bytes). */
const MAX_EVENTS = 200_000;

interface EventClaims {
	/** The claim, if one was made: the `webhook-timestamp` of the attempt that carried it. */
	claim?: { timestamp: number; releaseOnFailure: boolean };
	/** The timestamps of the attempts recorded as failed. */
	failed: number[];
	at: number;
}

export class WebhookClaims {
	/** By `subscription id + "\n" + event id`, oldest first (Map keeps insertion order). */
	private events = new Map<string, EventClaims>();

	/**
	 * The `webhook-timestamp` of an attempt (seconds): now, but later than every failed attempt of the
	 * event, so that each attempt has its own (retries may come within the same second) and a claim
	 * names the one attempt that carried it.
	 */
	timestampFor(subscriptionId: string, eventId: string, now = Date.now()): number {
		const seconds = Math.floor(now / 1000);
		const failed = this.events.get(`${subscriptionId}\n${eventId}`)?.failed;
		return failed?.length ? Math.max(seconds, failed[failed.length - 1] + 1) : seconds;
	}

	/** Claims an event for a run: true when no claim stands and the attempt that carries it has not failed. */
	claim(subscriptionId: string, eventId: string, timestamp: number, releaseOnFailure: boolean, now = Date.now()): boolean {
		this.expire(now);
		const entry = this.entry(`${subscriptionId}\n${eventId}`, now);
		if (entry.claim || entry.failed.includes(timestamp)) return false;
		entry.claim = { timestamp, releaseOnFailure };
		return true;
	}

	/** The attempt sent at `timestamp` failed: a claim it carried that asked for it is released. */
	failed(subscriptionId: string, eventId: string, timestamp: number, now = Date.now()) {
		this.expire(now);
		const entry = this.entry(`${subscriptionId}\n${eventId}`, now);
		entry.failed.push(timestamp);
		if (entry.claim?.releaseOnFailure && entry.claim.timestamp === timestamp) entry.claim = undefined;
	}

	get size() {
		return this.events.size;
	}

	private entry(key: string, now: number): EventClaims {
		let entry = this.events.get(key);
		if (!entry) {
			entry = { failed: [], at: now };
			this.events.set(key, entry);
			if (this.events.size > MAX_EVENTS) this.events.delete(this.events.keys().next().value!);
		}
		return entry;
	}

	private expire(now: number) {
		for (const [key, entry] of this.events) {
			if (now - entry.at < CLAIM_TTL_MS) break;
			this.events.delete(key);
		}
	}
}
