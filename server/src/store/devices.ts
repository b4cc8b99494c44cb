import type { Db } from './db';
import type { DeviceRow } from './types';
import { hashSecret, sameDigest } from '../security';

export class DevicesRepo {
	constructor(private db: Db) {}

	private one(sql: string, ...args: unknown[]): DeviceRow | undefined {
		return this.db.prepare(sql).get(...args) as DeviceRow | undefined;
	}

	byId(id: string) {
		return this.one('SELECT * FROM devices WHERE id = ?', id);
	}

	byName(name: string) {
		return this.one('SELECT * FROM devices WHERE name = ?', name);
	}

	byToken(token: string): DeviceRow | undefined {
		const digest = hashSecret(token);
		const device = this.one('SELECT * FROM devices WHERE token_hash = ?', digest);
		return device && sameDigest(device.token_hash, digest) ? device : undefined;
	}

	/** The connected device that owns a phone number on this server, if any. */
	connectedByPhone(phone: string) {
		return this.one("SELECT * FROM devices WHERE phone = ? AND status = 'connected'", phone);
	}

	ofUser(userId: number): DeviceRow[] {
		return this.db.prepare('SELECT * FROM devices WHERE user_id = ? ORDER BY created_at, name').all(userId) as DeviceRow[];
	}

	all(): DeviceRow[] {
		return this.db.prepare('SELECT * FROM devices').all() as DeviceRow[];
	}

	insert(row: Pick<DeviceRow, 'id' | 'user_id' | 'name' | 'profile_name'>, token: string): DeviceRow {
		this.db
			.prepare('INSERT INTO devices (id, user_id, name, profile_name, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)')
			.run(row.id, row.user_id, row.name, row.profile_name, hashSecret(token), Date.now());
		return this.byId(row.id)!;
	}

	/** Writes the given columns and returns the updated row. */
	update(id: string, changes: Partial<Omit<DeviceRow, 'id'>>): DeviceRow {
		const keys = Object.keys(changes);
		if (keys.length) {
			this.db
				.prepare(`UPDATE devices SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`)
				.run({ ...changes, id });
		}
		return this.byId(id)!;
	}

	/** Deletes the device; its messages, chats and webhooks go by cascade, its media files here. */
	delete(id: string) {
		this.db.transaction(() => {
			const files = this.db
				.prepare('SELECT DISTINCT file_id AS id FROM messages WHERE device_id = ? AND file_id IS NOT NULL')
				.all(id) as { id: string }[];
			this.db.prepare('DELETE FROM devices WHERE id = ?').run(id);
			// A file that the copy of a message on another device of this server points to stays.
			const drop = this.db.prepare('DELETE FROM files WHERE id = ? AND NOT EXISTS (SELECT 1 FROM messages WHERE file_id = ?)');
			for (const file of files) drop.run(file.id, file.id);
		})();
	}

	phoneTaken(phone: string): boolean {
		return !!this.one('SELECT id FROM devices WHERE phone = ?', phone);
	}
}
