import type { Db } from './db';

/** A send made with an idempotency key: the request it was made for (a hash) and the message it made. */
export interface SendKeyRow {
	device_id: string;
	key: string;
	fingerprint: string;
	message_id: string;
	created_at: number;
	/** How many repeats it answered (`wdm_send_replays`). */
	replays: number;
}

/** Idempotency keys of a device's sends (see `gateway/idempotency.ts`). */
export class SendKeysRepo {
	constructor(private db: Db) {}

	/** The send made with `key` since `since` (older ones have expired), if any. */
	find(deviceId: string, key: string, since: number): SendKeyRow | undefined {
		return this.db.prepare('SELECT * FROM send_keys WHERE device_id = ? AND key = ? AND created_at >= ?').get(deviceId, key, since) as SendKeyRow | undefined;
	}

	/** Records a send; an expired row of the same key gives way. */
	insert(row: Omit<SendKeyRow, 'replays'>) {
		this.db
			.prepare('INSERT OR REPLACE INTO send_keys (device_id, key, fingerprint, message_id, created_at) VALUES (?, ?, ?, ?, ?)')
			.run(row.device_id, row.key, row.fingerprint, row.message_id, row.created_at);
	}

	/** Counts a repeat the key answered. */
	replayed(deviceId: string, key: string) {
		this.db.prepare('UPDATE send_keys SET replays = replays + 1 WHERE device_id = ? AND key = ?').run(deviceId, key);
	}

	/** Repeats answered by the keys kept (a day's worth). */
	replays(deviceId?: string): number {
		const row = (deviceId === undefined
			? this.db.prepare('SELECT coalesce(sum(replays), 0) AS n FROM send_keys').get()
			: this.db.prepare('SELECT coalesce(sum(replays), 0) AS n FROM send_keys WHERE device_id = ?').get(deviceId)) as { n: number };
		return row.n;
	}

	/** Drops the keys made before `before`; returns how many. */
	prune(before: number): number {
		return this.db.prepare('DELETE FROM send_keys WHERE created_at < ?').run(before).changes;
	}
}
