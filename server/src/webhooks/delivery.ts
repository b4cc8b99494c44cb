import type { Config } from '../config';
import { OutboundError, type Outbound } from '../outbound/fetch';
import type { Store } from '../store';
import type { OutboxRow } from '../store/types';
import { DueWorker } from '../util/due-worker';
import { sign } from './signing';

/** 4xx answers that mean "try again later"; any other 4xx is final. */
const RETRYABLE_4XX = new Set([408, 429]);

/** Rows started at once, and pulled forward at once when a receiver recovers. */
const BATCH = 32;

/** Only the status of an answer matters: this much of its body is read, then the connection is closed. */
const ANSWER_BYTES = 4096;

/**
 * Delivers the outbox at least once: each row is POSTed to its subscription's URL until it gets a
 * 2xx, with exponential backoff and jitter between attempts. A row being tried is leased (its next
 * attempt pushed past the timeout) so a crash mid-attempt only means one more attempt after restart.
 */
export class WebhookDelivery {
	readonly worker: DueWorker;
	/** Attempts under way, by outbox id: their lease must not be pulled forward (that would send them twice at once). */
	private inFlight = new Map<number, Promise<void>>();

	constructor(
		private store: Store,
		private config: Config,
		private outbound: Outbound,
		private onError: (error: unknown) => void,
	) {
		this.worker = new DueWorker(() => store.outbox.nextDueAt(), () => this.startDue(), onError);
	}

	private startDue() {
		const now = Date.now();
		for (const row of this.store.outbox.due(now, BATCH)) {
			this.store.outbox.update(row.id, { next_attempt_at: now + this.config.webhookTimeoutMs + 1000 });
			// A store error (say SQLITE_BUSY) must not become an unhandled rejection; the lease brings the row back.
			const attempt = this.attempt(row)
				.catch(this.onError)
				.finally(() => {
					this.inFlight.delete(row.id);
					this.worker.wake();
				});
			this.inFlight.set(row.id, attempt);
		}
	}

	private async attempt(row: OutboxRow) {
		const sub = this.store.webhooks.byId(row.webhook_id);
		if (!sub || !sub.enabled) {
			this.store.outbox.update(row.id, { state: 'failed', last_error: 'subscription disabled' });
			return;
		}
		const timestamp = Math.floor(Date.now() / 1000);
		let status: number | null = null;
		let error: string | null = null;
		try {
			const res = await this.outbound.fetch(sub.url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'user-agent': 'wdm-reference-server',
					'webhook-id': row.event_id,
					'webhook-timestamp': String(timestamp),
					'webhook-signature': sign(sub.secret, row.event_id, timestamp, row.body),
				},
				body: row.body,
				// The whole attempt, so a trickling receiver cannot outlive the lease.
				timeoutMs: this.config.webhookTimeoutMs,
				maxBytes: ANSWER_BYTES,
				truncate: true,
				maxRedirects: 0,
			});
			status = res.status;
		} catch (e) {
			// A refused (private) target is retried like a network failure: its name may resolve elsewhere later.
			error = e instanceof OutboundError && e.reason === 'private' ? 'refused: private address' : 'could not fetch';
		}
		const attempts = row.attempts + 1;
		if (status !== null && status >= 200 && status < 300) {
			this.store.tx(() => {
				this.store.outbox.update(row.id, { state: 'delivered', attempts, last_status: status, last_error: null });
				// The receiver is back: its backlog goes now rather than when each row's backoff ends.
				this.store.outbox.pullForward(sub.id, Date.now(), BATCH, [...this.inFlight.keys()]);
			});
		} else if (status === 410) {
			this.store.tx(() => {
				this.store.webhooks.disable(sub.id);
				this.store.outbox.update(row.id, { state: 'failed', attempts, last_status: status, last_error: 'receiver answered 410 Gone; subscription disabled' });
			});
		} else if ((status !== null && status >= 400 && status < 500 && !RETRYABLE_4XX.has(status)) || attempts >= this.config.webhookMaxAttempts) {
			this.store.outbox.update(row.id, { state: 'failed', attempts, last_status: status, last_error: error ?? `HTTP ${status}` });
		} else {
			this.store.outbox.update(row.id, { attempts, last_status: status, last_error: error ?? `HTTP ${status}`, next_attempt_at: Date.now() + this.backoff(attempts) });
		}
	}

	/** base * 2^(n-1), capped, with full jitter in [50%, 100%] so retries of many rows spread out. */
	private backoff(attempts: number): number {
		const ceiling = Math.min(this.config.webhookMaxBackoffMs, this.config.webhookBackoffMs * 2 ** (attempts - 1));
		return Math.round(ceiling * (0.5 + Math.random() * 0.5));
	}

	async stop() {
		await this.worker.stop();
		await Promise.allSettled([...this.inFlight.values()]);
	}
}
