import type { Store } from '../store';

/**
 * Claims of delivered events by their receiver (the WDM Trigger), so that an event delivered more than
 * once starts one run: the receiver claims an event's `webhook-id` before it starts a run, and the
 * first claim wins. A claim may ask to be released when the attempt that carried it is recorded as
 * failed (the receiver acknowledges only when its run has finished: a failed attempt means the run did
 * not finish, and the redelivery must run). A claim that carries an attempt already recorded as failed
 * is refused: that attempt's run would run beside the redelivery's (a receiver that answered too late),
 * or belongs to a process that died (its claim still reached the server after the attempt's connection
 * broke). See docs/decisions/webhooks.md, "Webhooks: exactly-once runs".
 *
 * Kept in the store (`webhook_claims`): a restart of the server keeps them, however many events wait.
 */

/**
 * How long a claim is kept after it was last touched: longer than an event can be delivered again (12
 * attempts with backoff up to 15 minutes take under an hour by default), so a late redelivery of an
 * event whose run started still finds its claim.
 */
export const CLAIM_TTL_MS = 24 * 60 * 60 * 1000;

/** Expired claims are dropped at most this often (one range of an index). */
const PRUNE_EVERY_MS = 60 * 1000;

export class WebhookClaims {
	private prunedAt = 0;

	constructor(private store: Store) {}

	/**
	 * The `webhook-timestamp` of an attempt (seconds): now, but later than every failed attempt of the
	 * event, so that each attempt has its own (retries may come within the same second) and a claim
	 * names the one attempt that carried it. `triedBefore`: whether an attempt of the event was recorded
	 * (a first attempt needs no look into the store).
	 */
	timestampFor(subscriptionId: string, eventId: string, triedBefore: boolean, now = Date.now()): number {
		const seconds = Math.floor(now / 1000);
		const failed = triedBefore ? this.store.webhookClaims.lastFailed(subscriptionId, eventId) : undefined;
		return failed === undefined ? seconds : Math.max(seconds, failed + 1);
	}

	/** Claims an event for a run: true when no claim stands and the attempt that carries it has not failed. */
	claim(subscriptionId: string, eventId: string, timestamp: number, releaseOnFailure: boolean, now = Date.now()): boolean {
		this.prune(now);
		return this.store.webhookClaims.claim(subscriptionId, eventId, timestamp, releaseOnFailure, now);
	}

	/** The attempt sent at `timestamp` failed: a claim it carried that asked for it is released. */
	failed(subscriptionId: string, eventId: string, timestamp: number, now = Date.now()) {
		this.prune(now);
		this.store.webhookClaims.failed(subscriptionId, eventId, timestamp, now);
	}

	private prune(now: number) {
		if (now - this.prunedAt < PRUNE_EVERY_MS) return;
		this.prunedAt = now;
		this.store.webhookClaims.prune(now - CLAIM_TTL_MS);
	}
}
