import type { Db } from './db';
import type { OutboxRow, WebhookRow } from './types';
import { randomId } from '../security';

/** The `meta` key of the count of deliveries dropped for an expired subscription. */
const EXPIRED_DROPS = 'webhook_expired_dropped';

export class WebhooksRepo {
	constructor(private db: Db) {}

	ofDevice(deviceId: string): WebhookRow[] {
		// rowid: the order they were made in, also for several made in the same millisecond.
		return this.db.prepare('SELECT * FROM webhooks WHERE device_id = ? ORDER BY created_at, rowid').all(deviceId) as WebhookRow[];
	}

	enabledOf(deviceId: string): WebhookRow[] {
		return this.db.prepare('SELECT * FROM webhooks WHERE device_id = ? AND enabled = 1').all(deviceId) as WebhookRow[];
	}

	byId(id: string): WebhookRow | undefined {
		return this.db.prepare('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
	}

	byUrl(deviceId: string, url: string): WebhookRow | undefined {
		return this.db.prepare('SELECT * FROM webhooks WHERE device_id = ? AND url = ?').get(deviceId, url) as WebhookRow | undefined;
	}

	/** Inserts or replaces the subscription of this device for this URL. */
	upsert(row: Omit<WebhookRow, 'id' | 'created_at'>): WebhookRow {
		const existing = this.byUrl(row.device_id, row.url);
		const id = existing?.id ?? `wh_${randomId(8)}`;
		this.db
			.prepare(
				`INSERT INTO webhooks (id, device_id, url, events, exclude_messages, enabled, secret, created_at, chatid, expires_at)
				 VALUES (@id, @device_id, @url, @events, @exclude_messages, @enabled, @secret, @created_at, @chatid, @expires_at)
				 ON CONFLICT(device_id, url) DO UPDATE SET events = excluded.events, exclude_messages = excluded.exclude_messages,
				 enabled = excluded.enabled, secret = excluded.secret, chatid = excluded.chatid, expires_at = excluded.expires_at`,
			)
			.run({ ...row, id, created_at: Date.now() });
		return this.byId(id)!;
	}

	/**
	 * Deletes the device's subscriptions whose time is over (they already receive nothing: see `wants`);
	 * their waiting deliveries go with them, counted as dropped.
	 */
	deleteExpired(deviceId: string, now: number) {
		const waiting = this.db
			.prepare("SELECT count(*) AS n FROM outbox WHERE state = 'pending' AND webhook_id IN (SELECT id FROM webhooks WHERE device_id = ? AND expires_at <= ?)")
			.get(deviceId, now) as { n: number };
		this.countExpiredDrops(waiting.n);
		this.db.prepare('DELETE FROM webhooks WHERE device_id = ? AND expires_at <= ?').run(deviceId, now);
	}

	/** Deliveries dropped because their subscription expired, since the store was made (`wdm_webhook_expired_dropped`). */
	expiredDrops(): number {
		const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(EXPIRED_DROPS) as { value: string } | undefined;
		return Number(row?.value ?? 0);
	}

	countExpiredDrops(n: number) {
		if (n <= 0) return;
		this.db
			.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value')
			.run(EXPIRED_DROPS, String(n));
	}

	delete(id: string) {
		this.db.prepare('DELETE FROM webhooks WHERE id = ?').run(id);
	}

	disable(id: string) {
		this.db.prepare('UPDATE webhooks SET enabled = 0 WHERE id = ?').run(id);
	}
}

export class OutboxRepo {
	constructor(private db: Db) {}

	add(webhookId: string, eventId: string, body: string, now: number) {
		this.db
			.prepare('INSERT INTO outbox (webhook_id, event_id, body, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?)')
			.run(webhookId, eventId, body, now, now);
	}

	/**
	 * The next `limit` due rows, oldest first: only their id and subscription (the worker takes those its
	 * receivers have room for, then reads the bodies of those alone as it leases them).
	 */
	due(now: number, limit: number): Pick<OutboxRow, 'id' | 'webhook_id'>[] {
		return this.db
			.prepare("SELECT id, webhook_id FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?")
			.all(now, limit) as Pick<OutboxRow, 'id' | 'webhook_id'>[];
	}

	/** Rows due and not being attempted (not leased), counted up to `limit`: the index's range, no row read. */
	dueCount(now: number, limit: number): number {
		const row = this.db
			.prepare("SELECT count(*) AS n FROM (SELECT 1 FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? LIMIT ?)")
			.get(now, limit) as { n: number };
		return row.n;
	}

	/**
	 * Makes the next `limit` rows of a subscription that wait because its receiver was unreachable (no
	 * answer, or 502/503/504) due at `now`, oldest first (`due` keeps them in id order). Rows refused for
	 * themselves (a 500 on that event) keep their backoff; `busy` rows are being attempted (a lease, not a backoff).
	 * Answers whether any row was pulled.
	 */
	pullForward(webhookId: string, now: number, limit: number, busy: number[]): boolean {
		const pull = this.db.prepare(
			`UPDATE outbox SET next_attempt_at = @now WHERE id IN (
			 SELECT id FROM outbox WHERE webhook_id = @webhookId AND state = 'pending' AND next_attempt_at > @now
			 AND (last_status IS NULL OR last_status IN (502, 503, 504))
			 AND id NOT IN (SELECT value FROM json_each(@busy)) ORDER BY id LIMIT @limit)`,
		);
		return pull.run({ now, webhookId, limit, busy: JSON.stringify(busy) }).changes > 0;
	}

	/**
	 * Pushes the next attempt of these rows to `until`: they are being attempted (see `WebhookDelivery`).
	 * Answers the rows as leased, in the order of `ids`. Run it in a transaction: a statement per row then
	 * costs half of one statement for all (`id IN json_each`), and a fifth of one with `RETURNING`.
	 */
	lease(ids: number[], until: number): OutboxRow[] {
		const lease = this.db.prepare('UPDATE outbox SET next_attempt_at = ? WHERE id = ?');
		return ids.flatMap((id) => (lease.run(until, id).changes ? [this.byId(id)!] : []));
	}

	nextDueAt(): number | undefined {
		const row = this.db.prepare("SELECT min(next_attempt_at) AS at FROM outbox WHERE state = 'pending'").get() as { at: number | null };
		return row.at ?? undefined;
	}

	update(id: number, changes: Partial<Omit<OutboxRow, 'id'>>) {
		const keys = Object.keys(changes);
		this.db.prepare(`UPDATE outbox SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...changes, id });
	}

	ofWebhook(webhookId: string): OutboxRow[] {
		return this.db.prepare('SELECT * FROM outbox WHERE webhook_id = ? ORDER BY id').all(webhookId) as OutboxRow[];
	}

	/** A subscription's delivery log, newest first (the dashboard's). */
	latestOfWebhook(webhookId: string, limit: number): OutboxRow[] {
		return this.db.prepare('SELECT * FROM outbox WHERE webhook_id = ? ORDER BY id DESC LIMIT ?').all(webhookId, limit) as OutboxRow[];
	}

	byId(id: number): OutboxRow | undefined {
		return this.db.prepare('SELECT * FROM outbox WHERE id = ?').get(id) as OutboxRow | undefined;
	}
}
