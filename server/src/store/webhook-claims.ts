import type { Db } from './db';

/**
 * The claims of delivered events by their receivers, and the attempts of each event that failed (see
 * `webhooks/claims.ts`). An event's attempts go one after another with rising `webhook-timestamp`s, so
 * "the attempt sent at T failed" is "T <= the latest failed attempt's timestamp": one column holds it.
 */
export class WebhookClaimsRepo {
	constructor(private db: Db) {}

	/** The `webhook-timestamp` of the event's latest failed attempt, if one failed. */
	lastFailed(webhookId: string, eventId: string): number | undefined {
		const row = this.db.prepare('SELECT failed_ts FROM webhook_claims WHERE webhook_id = ? AND event_id = ?').get(webhookId, eventId) as { failed_ts: number | null } | undefined;
		return row?.failed_ts ?? undefined;
	}

	/**
	 * Claims the event for the run of the attempt sent at `timestamp`: true when no claim stands and that
	 * attempt has not failed. One statement: two claims at once cannot both win.
	 */
	claim(webhookId: string, eventId: string, timestamp: number, releaseOnFailure: boolean, now: number): boolean {
		return (
			this.db
				.prepare(
					`INSERT INTO webhook_claims (webhook_id, event_id, claim_ts, release_on_failure, at) VALUES (@webhookId, @eventId, @timestamp, @release, @now)
					 ON CONFLICT (webhook_id, event_id) DO UPDATE SET claim_ts = excluded.claim_ts, release_on_failure = excluded.release_on_failure, at = excluded.at
					 WHERE claim_ts IS NULL AND (failed_ts IS NULL OR failed_ts < excluded.claim_ts)`,
				)
				.run({ webhookId, eventId, timestamp, release: releaseOnFailure ? 1 : 0, now }).changes === 1
		);
	}

	/**
	 * The attempt sent at `timestamp` failed: recorded, and a claim it carried that asked for it released.
	 * Nothing when the subscription is gone (deleted while its attempt was under way).
	 */
	failed(webhookId: string, eventId: string, timestamp: number, now: number) {
		this.db
			.prepare(
				`INSERT INTO webhook_claims (webhook_id, event_id, failed_ts, at)
				 SELECT @webhookId, @eventId, @timestamp, @now WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = @webhookId)
				 ON CONFLICT (webhook_id, event_id) DO UPDATE SET failed_ts = max(coalesce(failed_ts, 0), excluded.failed_ts), at = excluded.at,
				 claim_ts = CASE WHEN release_on_failure = 1 AND claim_ts = excluded.failed_ts THEN NULL ELSE claim_ts END`,
			)
			.run({ webhookId, eventId, timestamp, now });
	}

	/** Drops what was last touched before `before`; returns how many. */
	prune(before: number): number {
		return this.db.prepare('DELETE FROM webhook_claims WHERE at < ?').run(before).changes;
	}
}
