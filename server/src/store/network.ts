import type { Db } from './db';

/** A device's own network settings (null: the server's default) and its quality. */
export interface NetworkDeviceRow {
	device_id: string;
	tier: string | null;
	per_second: number | null;
	per_minute: number | null;
	not_on_network_rate: number | null;
	block_rate: number | null;
	report_rate: number | null;
	disconnect_rate: number | null;
	seed: number | null;
	score: number;
	score_at: number;
	restricted_until: number | null;
	blocks: number;
	reports: number;
}

export type NetworkSettings = Pick<NetworkDeviceRow, 'tier' | 'per_second' | 'per_minute' | 'not_on_network_rate' | 'block_rate' | 'report_rate' | 'disconnect_rate' | 'seed'>;
export type NetworkQuality = Pick<NetworkDeviceRow, 'score' | 'score_at' | 'restricted_until' | 'blocks' | 'reports'>;

/** A simulated contact who blocked the device, or reported (and blocked) it. */
export type RecipientOutcome = 'blocked' | 'reported';

export interface OptOutRow {
	phone: string;
	/** The word the contact sent; null when the device's owner recorded it. */
	keyword: string | null;
	at: number;
}

/** What the sandbox network's rules keep of each device (`network/rules.ts`, which caches it in memory). */
export class NetworkRepo {
	constructor(private db: Db) {}

	device(deviceId: string): NetworkDeviceRow | undefined {
		return this.db.prepare('SELECT * FROM network_devices WHERE device_id = ?').get(deviceId) as NetworkDeviceRow | undefined;
	}

	/** Every device's row that has one (the metrics read them all). */
	all(): NetworkDeviceRow[] {
		return this.db.prepare('SELECT * FROM network_devices').all() as NetworkDeviceRow[];
	}

	/** Writes the given columns, creating the device's row (settings all default, quality full) when it has none. */
	save(deviceId: string, changes: Partial<NetworkSettings & NetworkQuality>) {
		const keys = Object.keys(changes);
		this.db.prepare('INSERT OR IGNORE INTO network_devices (device_id) VALUES (?)').run(deviceId);
		if (keys.length) this.db.prepare(`UPDATE network_devices SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE device_id = @deviceId`).run({ ...changes, deviceId });
	}

	/** The conversations the device opened since `since`, oldest first. */
	conversations(deviceId: string, since: number): { phone: string; opened_at: number }[] {
		return this.db
			.prepare('SELECT phone, opened_at FROM network_conversations WHERE device_id = ? AND opened_at > ? ORDER BY opened_at')
			.all(deviceId, since) as { phone: string; opened_at: number }[];
	}

	openConversation(deviceId: string, phone: string, at: number) {
		this.db.prepare('INSERT OR REPLACE INTO network_conversations (device_id, phone, opened_at) VALUES (?, ?, ?)').run(deviceId, phone, at);
	}

	/** Drops the conversations opened before `before` (out of every tier's window). */
	pruneConversations(before: number): number {
		return this.db.prepare('DELETE FROM network_conversations WHERE opened_at <= ?').run(before).changes;
	}

	outcomes(deviceId: string): { phone: string; outcome: RecipientOutcome }[] {
		return this.db.prepare('SELECT phone, outcome FROM network_recipients WHERE device_id = ?').all(deviceId) as { phone: string; outcome: RecipientOutcome }[];
	}

	recordOutcome(deviceId: string, phone: string, outcome: RecipientOutcome, at: number) {
		this.db.prepare('INSERT OR IGNORE INTO network_recipients (device_id, phone, outcome, at) VALUES (?, ?, ?, ?)').run(deviceId, phone, outcome, at);
	}

	/** Who opted out of the device's messages, in the order they did. */
	optOuts(deviceId: string): OptOutRow[] {
		return this.db.prepare('SELECT phone, keyword, at FROM opt_outs WHERE device_id = ? ORDER BY at, phone').all(deviceId) as OptOutRow[];
	}

	optOut(deviceId: string, row: OptOutRow) {
		this.db.prepare('INSERT OR REPLACE INTO opt_outs (device_id, phone, keyword, at) VALUES (?, ?, ?, ?)').run(deviceId, row.phone, row.keyword, row.at);
	}

	/** Clears an opt-out; false when the number had not opted out. */
	optIn(deviceId: string, phone: string): boolean {
		return this.db.prepare('DELETE FROM opt_outs WHERE device_id = ? AND phone = ?').run(deviceId, phone).changes > 0;
	}
}
