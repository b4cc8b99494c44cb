import type { Db } from './db';
import { dropFileIfUnused } from './files';
import type { DeviceRow } from './types';
import { hashSecret, sameDigest } from '../security';

/**
 * Every gateway request reads its device (by token, or by its user and name, then again in the sending
 * transaction): the devices read are kept in memory. Only this repository writes devices, and each
 * write drops what it changes (a user's deletion, which takes their devices by cascade, drops theirs);
 * a row read inside a transaction is not kept, since the transaction may still roll back, while one
 * already kept is committed and, unless written since, current.
 */
class DeviceCache {
	private byId = new Map<string, DeviceRow>();
	private idByDigest = new Map<string, string>();
	private idByName = new Map<string, string>();

	constructor(private db: Db) {}

	get(id: string): DeviceRow | undefined {
		return this.byId.get(id);
	}

	idOf(digest: string): string | undefined {
		return this.idByDigest.get(digest);
	}

	idOfName(userId: number, name: string): string | undefined {
		return this.idByName.get(nameKey(userId, name));
	}

	keep(row: DeviceRow | undefined): DeviceRow | undefined {
		if (row && !this.db.inTransaction) {
			// Shared by every reader from now on: nobody may change it in place.
			this.byId.set(row.id, Object.freeze(row));
			this.idByDigest.set(row.token_hash, row.id);
			this.idByName.set(nameKey(row.user_id, row.name), row.id);
		}
		return row;
	}

	drop(id: string) {
		const row = this.byId.get(id);
		if (row) {
			this.idByDigest.delete(row.token_hash);
			this.idByName.delete(nameKey(row.user_id, row.name));
		}
		this.byId.delete(id);
	}

	dropOfUser(userId: number) {
		for (const row of [...this.byId.values()]) if (row.user_id === userId) this.drop(row.id);
	}
}

const nameKey = (userId: number, name: string) => `${userId}\n${name}`;

export class DevicesRepo {
	private cache: DeviceCache;

	constructor(private db: Db) {
		this.cache = new DeviceCache(db);
	}

	private one(sql: string, ...args: unknown[]): DeviceRow | undefined {
		return this.db.prepare(sql).get(...args) as DeviceRow | undefined;
	}

	byId(id: string) {
		return this.cache.get(id) ?? this.cache.keep(this.one('SELECT * FROM devices WHERE id = ?', id));
	}

	/** A user's device by its name (names are unique per user: two users may each have a `shop`). */
	byName(userId: number, name: string) {
		const id = this.cache.idOfName(userId, name);
		return id ? this.byId(id) : this.cache.keep(this.one('SELECT * FROM devices WHERE user_id = ? AND name = ?', userId, name));
	}

	/** Forgets the devices of a user being deleted (the database deletes them by cascade). */
	forgetUser(userId: number) {
		this.cache.dropOfUser(userId);
	}

	byToken(token: string): DeviceRow | undefined {
		const digest = hashSecret(token);
		const id = this.cache.idOf(digest);
		const device = id ? this.byId(id) : this.cache.keep(this.one('SELECT * FROM devices WHERE token_hash = ?', digest));
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

	/** `is_business`: the account kind (business unless told). */
	insert(row: Pick<DeviceRow, 'id' | 'user_id' | 'name' | 'profile_name'> & Partial<Pick<DeviceRow, 'is_business'>>, token: string): DeviceRow {
		this.db
			.prepare('INSERT INTO devices (id, user_id, name, profile_name, is_business, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
			.run(row.id, row.user_id, row.name, row.profile_name, row.is_business ?? 1, hashSecret(token), Date.now());
		return this.byId(row.id)!;
	}

	/** Writes the given columns and returns the updated row. */
	update(id: string, changes: Partial<Omit<DeviceRow, 'id'>>): DeviceRow {
		const keys = Object.keys(changes);
		if (keys.length) {
			this.cache.drop(id);
			this.db
				.prepare(`UPDATE devices SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`)
				.run({ ...changes, id });
		}
		return this.byId(id)!;
	}

	/** Deletes the device; its messages, chats and webhooks go by cascade, its media files here. */
	delete(id: string) {
		this.cache.drop(id);
		this.db.transaction(() => {
			const files = this.db
				.prepare('SELECT DISTINCT file_id AS id FROM messages WHERE device_id = ? AND file_id IS NOT NULL')
				.all(id) as { id: string }[];
			this.db.prepare('DELETE FROM devices WHERE id = ?').run(id);
			// A file that the copy of a message on another device of this server points to stays.
			for (const file of files) dropFileIfUnused(this.db, file.id);
		})();
	}

	phoneTaken(phone: string): boolean {
		return !!this.one('SELECT id FROM devices WHERE phone = ?', phone);
	}
}
