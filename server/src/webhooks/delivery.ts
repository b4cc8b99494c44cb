import type { Config } from '../config';
import { retryLater } from '../http/errors';
import { OutboundError, POOL_CONNECTIONS, type Outbound } from '../outbound/fetch';
import type { Store } from '../store';
import type { DeviceRow, OutboxRow, WebhookRow } from '../store/types';
import { DueWorker } from '../util/due-worker';
import { WebhookClaims } from './claims';
import { isExpired } from './events';
import { Pacing, retryAfterMs } from './pacing';
import { sign } from './signing';

/**
 * What n8n answers, with a 200, to every request while it starts (its database connected, not yet
 * migrated), webhooks included: nothing was received. Taken as a 503, so the event comes again (a
 * restarted n8n lost the events that reached it in that second, issue 28).
 */
const N8N_STARTING = 'n8n is starting up. Please wait';

/**
 * 4xx answers that mean "try again later"; any other 4xx is final. 404 is one: n8n answers it while it
 * starts, for every webhook, until it has registered its active workflows' (a restarted n8n lost the
 * events of its first seconds, issue 28); a URL that stays unknown fails after `--webhook-max-attempts`.
 */
const RETRYABLE_4XX = new Set([404, 408, 429]);

/** Answers that say the receiver is overloaded (its pacing slows down). */
const OVERLOADED = new Set([429, 502, 503, 504]);

/** The longest pause a receiver may ask for (at least a second, so the next attempt has its own timestamp). */
const RETRY_AFTER_MAX_MS = 60 * 60 * 1000;

/** Answers whose `Retry-After` is a pause the receiver asks for: the attempt is not counted. */
const PAUSE = new Set([429, 503]);

/** Rows read (and leased) at once. */
const BATCH = 256;

/**
 * Attempts under way to one receiver (the origin of its URL) at most: two per kept-alive connection
 * (`Outbound.post`), so the next request is ready when a connection frees up. Below it, the receiver's
 * own pace sets the limit (`Pacing`). The cap also keeps one receiver from taking every row read.
 */
const PER_RECEIVER = 2 * POOL_CONNECTIONS;

/** The origin a subscription's URL delivers to (its pacing key). */
const originOf = (url: string) => {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
};

/** While rows wait for room, how often the worker looks at the outbox by itself. */
const SATURATED_RECHECK_MS = 1000;

/** Only the status of an answer matters: this much of its body is read, then the connection is closed. */
const ANSWER_BYTES = 4096;

/** How long a count of the rows waiting to be sent stands (`admit`): it walks the due index, so not per request. */
const BACKLOG_FRESH_MS = 20;

/** The longest `Retry-After` of a refusal for a backlog (`admit`). */
const BACKLOG_RETRY_MAX_MS = 60 * 1000;

/**
 * Delivers the outbox at least once: each row is POSTed to its subscription's URL until it gets a
 * 2xx, with exponential backoff and jitter between attempts. A row being tried is leased (its next
 * attempt pushed past the timeout) so a crash mid-attempt only means one more attempt after restart.
 * Throughput (thousands of events a second to one receiver): due rows are read and leased in batches,
 * posted over kept-alive connections, and their outcomes recorded in shared commits (`txShared`).
 */
export class WebhookDelivery {
	readonly worker: DueWorker;
	/** Attempts under way, by outbox id: their lease must not be pulled forward (that would send them twice at once). */
	private inFlight = new Map<number, Promise<void>>();
	/** Told after each attempt (its outcome recorded), with its outbox row as it was leased (the dashboard's live delivery log). */
	readonly attempted = new Set<(row: OutboxRow) => void>();
	/** Attempts under way per receiver, and how many it may have (adapts to its answers). */
	readonly pacing: Pacing;
	/** Events claimed by their receiver for a run (the WDM Trigger: one run per event). */
	readonly claims: WebhookClaims;
	/** The last run left due rows for lack of room (see `nextRunAt`). */
	private saturated = false;
	/**
	 * Subscriptions known to have no row waiting for their receiver to come back, so a success needs no
	 * pull-forward query. Empty at start: rows may wait from before a restart.
	 */
	private nothingWaiting = new Set<string>();
	/** The rows waiting to be sent, as last counted (`admit`). */
	private waiting = { n: 0, at: -Infinity };
	/** Attempts started in the last second or so, and since when: the pace the outbox goes at (`admit`'s Retry-After). */
	private pace = { since: 0, started: 0, perSecond: 0 };

	constructor(
		private store: Store,
		private config: Config,
		private outbound: Outbound,
		private onError: (error: unknown) => void,
	) {
		// An answer slower than a tenth of the time limit means the receiver queues what it gets.
		this.pacing = new Pacing(PER_RECEIVER, config.webhookTimeoutMs / 10);
		this.claims = new WebhookClaims(store);
		this.worker = new DueWorker(() => this.nextRunAt(), () => this.startDue(), onError);
	}

	/**
	 * When the worker runs next by itself. While rows wait for room, attempts finishing wake it; the timer
	 * then only looks again now and then (rows of other receivers may fall due), instead of spinning.
	 */
	private nextRunAt(): number | undefined {
		const due = this.store.outbox.nextDueAt();
		return this.saturated && due !== undefined ? Math.max(due, Date.now() + SATURATED_RECHECK_MS) : due;
	}

	/**
	 * Refuses (429, with the time the outbox needs as `Retry-After`) what would add events for `device`
	 * while more than `--webhook-backlog-max` events are due and not yet sent: deliveries are behind, and
	 * taking more would only grow the outbox. Asked by the sandbox's inbound messages, the load a user
	 * drives (issue 42); a device without webhooks adds nothing to the outbox and is never refused.
	 */
	admit(device: DeviceRow, now = Date.now()) {
		const max = this.config.webhookBacklogMax;
		if (!max) return;
		if (now - this.waiting.at >= BACKLOG_FRESH_MS) this.waiting = { n: this.store.outbox.dueCount(now, 2 * max), at: now };
		const waiting = this.waiting.n;
		if (waiting <= max || !this.store.webhooks.enabledOf(device.id).length) return;
		// Time to send what is past half the bound at the recent pace (a second when unknown), so that a retry finds room.
		const { perSecond } = this.pace;
		const ms = perSecond ? Math.min(BACKLOG_RETRY_MAX_MS, ((waiting - max / 2) * 1000) / perSecond) : 1000;
		throw retryLater(
			429,
			`webhook deliveries are behind: ${waiting >= 2 * max ? `at least ${waiting}` : waiting} events wait to be sent, more than --webhook-backlog-max (${max}); ` +
				`inbound messages for devices with webhooks are refused until they are sent: retry after ${Math.max(1, Math.ceil(ms / 1000))} s`,
			'wdm_webhooks_behind',
			ms,
		);
	}

	private async startDue() {
		const now = Date.now();
		const due = this.store.outbox.due(now, BATCH);
		const subscriptions = new Map<string, { sub?: WebhookRow; origin?: string }>();
		const subscriptionOf = (webhookId: string) => {
			let known = subscriptions.get(webhookId);
			if (!known) {
				const sub = this.store.webhooks.byId(webhookId);
				subscriptions.set(webhookId, (known = { sub, origin: sub && originOf(sub.url) }));
			}
			return known;
		};
		// A row of a gone subscription takes no receiver's room (it is only marked failed).
		const taken = due.filter((row) => {
			const { origin } = subscriptionOf(row.webhook_id);
			return !origin || this.pacing.take(origin, now);
		});
		this.saturated = taken.length < due.length;
		this.pace.started += taken.length;
		// Over a longer window (the worker was idle) the pace is unknown.
		const window = now - this.pace.since;
		if (window >= 1000) this.pace = { since: now, started: 0, perSecond: window <= 2000 ? (this.pace.started * 1000) / window : 0 };
		if (!taken.length) return;
		// Only the rows taken are read whole (their bodies), as they are leased: in the commit shared with
		// this turn's other writes (under inbound load, the messages' and the last attempts' outcomes), one
		// commit where a lease of its own made two. The worker runs again only once it has committed.
		const ids = taken.map((row) => row.id);
		let rows: OutboxRow[];
		try {
			rows = await this.store.txShared(() => this.store.outbox.lease(ids, now + this.config.webhookTimeoutMs + 1000));
		} catch (error) {
			for (const row of taken) {
				const { origin } = subscriptionOf(row.webhook_id);
				if (origin) this.pacing.release(origin);
			}
			throw error;
		}
		for (const row of rows) {
			const { sub, origin } = subscriptionOf(row.webhook_id);
			const started = Date.now();
			let overloaded = false;
			// A store error (say SQLITE_BUSY) must not become an unhandled rejection; the lease brings the row back.
			const attempt = this.attempt(row, sub)
				.then((outcome) => {
					overloaded = outcome === 'overloaded';
				})
				.catch(this.onError)
				.finally(() => {
					this.inFlight.delete(row.id);
					if (origin) this.pacing.done(origin, Date.now() - started, overloaded);
					// While rows wait for room, the next read waits for room for many of them (a read per
					// finished attempt would read the same waiting rows again and again).
					if (!this.saturated || !origin || this.pacing.busy(origin) <= this.pacing.limit(origin) / 2) this.worker.wake();
					for (const listener of this.attempted) listener(row);
				});
			this.inFlight.set(row.id, attempt);
		}
	}

	/** Delivers one row once and records the outcome; says whether the receiver seemed overloaded. */
	private async attempt(row: OutboxRow, sub: WebhookRow | undefined): Promise<'ok' | 'overloaded' | undefined> {
		if (!sub || !sub.enabled) {
			this.store.outbox.update(row.id, { state: 'failed', last_error: 'subscription disabled' });
			return undefined;
		}
		// Its time is over: a retry queued before then is dropped (and counted), never signed and sent.
		if (isExpired(sub)) {
			await this.store.txShared(() => {
				this.store.outbox.update(row.id, { state: 'failed', last_error: 'subscription expired; not delivered' });
				this.store.webhooks.countExpiredDrops(1);
			});
			return undefined;
		}
		// A Retry-After answer is recorded without counting an attempt: its status says it was tried.
		const timestamp = this.claims.timestampFor(sub.id, row.event_id, row.attempts > 0 || row.last_status !== null || row.last_error !== null);
		let status: number | null = null;
		let error: string | null = null;
		let retryAfter: number | undefined;
		try {
			const res = await this.outbound.post(sub.url, {
				headers: {
					'content-type': 'application/json',
					'webhook-id': row.event_id,
					'webhook-timestamp': String(timestamp),
					'webhook-signature': sign(sub.secret, row.event_id, timestamp, row.body),
				},
				body: row.body,
				// The whole attempt, so a trickling receiver cannot outlive the lease.
				timeoutMs: this.config.webhookTimeoutMs,
				maxBytes: ANSWER_BYTES,
			});
			status = res.status;
			if (status === 200 && res.head.startsWith(N8N_STARTING)) {
				status = 503;
				error = `HTTP 200 "${N8N_STARTING}": not received`;
			}
			if (PAUSE.has(status)) retryAfter = retryAfterMs(res.headers['retry-after']);
		} catch (e) {
			// A refused (private) target is retried like a network failure: its name may resolve elsewhere later.
			error = e instanceof OutboundError && e.reason === 'private' ? 'refused: private address' : 'could not fetch';
		}
		const overloaded = status === null || OVERLOADED.has(status) ? 'overloaded' : 'ok';
		// At once, not in the shared commit below: a late claim for this attempt may arrive before that commit.
		if (status === null || status < 200 || status >= 300) this.claims.failed(sub.id, row.event_id, timestamp);
		if (retryAfter !== undefined) {
			// The receiver asked for a pause: honoured for all its rows, and this attempt is not counted.
			const until = Date.now() + Math.min(Math.max(retryAfter, 1000), RETRY_AFTER_MAX_MS);
			this.pacing.pause(originOf(sub.url), until);
			await this.store.txShared(() =>
				this.store.outbox.update(row.id, { last_status: status, last_error: `HTTP ${status}, Retry-After honoured`, next_attempt_at: until }),
			);
			return overloaded;
		}
		const attempts = row.attempts + 1;
		if (status !== null && status >= 200 && status < 300) {
			await this.store.txShared(() => {
				this.store.outbox.update(row.id, { state: 'delivered', attempts, last_status: status, last_error: null });
				// The receiver is back: its backlog goes now rather than when each row's backoff ends.
				if (!this.nothingWaiting.has(sub.id) && !this.store.outbox.pullForward(sub.id, Date.now(), BATCH, [...this.inFlight.keys()])) {
					this.nothingWaiting.add(sub.id);
				}
			});
		} else if (status === 410) {
			await this.store.txShared(() => {
				this.store.webhooks.disable(sub.id);
				this.store.outbox.update(row.id, { state: 'failed', attempts, last_status: status, last_error: 'receiver answered 410 Gone; subscription disabled' });
			});
		} else if ((status !== null && status >= 400 && status < 500 && !RETRYABLE_4XX.has(status)) || attempts >= this.config.webhookMaxAttempts) {
			await this.store.txShared(() =>
				this.store.outbox.update(row.id, { state: 'failed', attempts, last_status: status, last_error: error ?? `HTTP ${status}` }),
			);
		} else {
			// Waiting for its receiver (no answer, 502-504): the next success pulls it forward.
			if (status === null || (status >= 502 && status <= 504)) this.nothingWaiting.delete(sub.id);
			await this.store.txShared(() =>
				this.store.outbox.update(row.id, {
					attempts,
					last_status: status,
					last_error: error ?? `HTTP ${status}`,
					next_attempt_at: Date.now() + this.backoff(attempts),
				}),
			);
		}
		return overloaded;
	}

	/** base * 2^(n-1), capped, with full jitter in [50%, 100%] so retries of many rows spread out. */
	private backoff(attempts: number): number {
		const ceiling = Math.min(this.config.webhookMaxBackoffMs, this.config.webhookBackoffMs * 2 ** (attempts - 1));
		return Math.round(ceiling * (0.5 + Math.random() * 0.5));
	}

	async stop() {
		await this.worker.stop();
		await Promise.allSettled([...this.inFlight.values()]);
		// Only deliveries use the kept-alive connections (`Outbound.post`).
		await this.outbound.close();
	}
}
