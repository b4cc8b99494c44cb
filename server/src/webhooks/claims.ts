/**
 * Claims of delivered events by their receiver (the WDM Trigger), so that an event delivered more than
 * once starts one run: the receiver claims an event's `webhook-id` before it starts a run, and the
 * first claim wins. A claim may ask to be released when the attempt that carried it is recorded as
 * failed (the receiver acknowledges only when its run has finished: a failed attempt means the run did
 * not finish, and the redelivery must run). See docs/decisions.md, "Webhooks: exactly-once runs".
 *
 * Kept in memory: a receiver checks the signature's timestamp (5 minutes of tolerance), so an attempt
 * older than that can never start a run, and a claim need not outlive it by much.
 */

/** How long a claim is kept after it was made: the signature tolerance (5 min) and a margin. */
export const CLAIM_TTL_MS = 10 * 60 * 1000;

/** Claims kept at most; past it the oldest go first (a claim is a few dozen bytes). */
const MAX_CLAIMS = 200_000;

interface Claim {
	/** The `webhook-timestamp` of the attempt that made it: that attempt's failure releases it. */
	timestamp: number;
	releaseOnFailure: boolean;
	at: number;
}

export class WebhookClaims {
	/** By `subscription id + "\n" + event id`, oldest first (Map keeps insertion order). */
	private claims = new Map<string, Claim>();

	/** Claims an event for a run: true when no live claim exists. */
	claim(subscriptionId: string, eventId: string, timestamp: number, releaseOnFailure: boolean, now = Date.now()): boolean {
		this.expire(now);
		const key = `${subscriptionId}\n${eventId}`;
		if (this.claims.has(key)) return false;
		this.claims.set(key, { timestamp, releaseOnFailure, at: now });
		if (this.claims.size > MAX_CLAIMS) this.claims.delete(this.claims.keys().next().value!);
		return true;
	}

	/** The attempt sent at `timestamp` failed: a claim it carried that asked for it is released. */
	failed(subscriptionId: string, eventId: string, timestamp: number) {
		const key = `${subscriptionId}\n${eventId}`;
		const claim = this.claims.get(key);
		if (claim?.releaseOnFailure && claim.timestamp === timestamp) this.claims.delete(key);
	}

	get size() {
		return this.claims.size;
	}

	private expire(now: number) {
		for (const [key, claim] of this.claims) {
			if (now - claim.at < CLAIM_TTL_MS) break;
			this.claims.delete(key);
		}
	}
}
