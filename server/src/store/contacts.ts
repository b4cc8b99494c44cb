import type { Db } from './db';
import type { ContactRow } from './types';

/** The contacts saved on each device (its address book), ordered by name. */
export class ContactsRepo {
	constructor(private db: Db) {}

	get(deviceId: string, jid: string): ContactRow | undefined {
		return this.db.prepare('SELECT * FROM contacts WHERE device_id = ? AND jid = ?').get(deviceId, jid) as ContactRow | undefined;
	}

	/** Saves a contact, or renames it when it is saved already; says which. */
	save(deviceId: string, jid: string, name: string): { contact: ContactRow; created: boolean } {
		const now = Date.now();
		const created = !this.get(deviceId, jid);
		const contact = this.db
			.prepare(
				`INSERT INTO contacts (device_id, jid, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
				 ON CONFLICT (device_id, jid) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at RETURNING *`,
			)
			.get(deviceId, jid, name, now, now) as ContactRow;
		return { contact, created };
	}

	/** Removes a saved contact; undefined when there was none. */
	remove(deviceId: string, jid: string): ContactRow | undefined {
		return this.db.prepare('DELETE FROM contacts WHERE device_id = ? AND jid = ? RETURNING *').get(deviceId, jid) as ContactRow | undefined;
	}

	/** One page of the device's contacts by name (then JID), with the total; no `limit` lists them all. */
	list(deviceId: string, page: { limit: number; offset: number } = { limit: -1, offset: 0 }): { rows: ContactRow[]; total: number } {
		const total = (this.db.prepare('SELECT count(*) AS n FROM contacts WHERE device_id = ?').get(deviceId) as { n: number }).n;
		const rows = this.db
			.prepare('SELECT * FROM contacts WHERE device_id = ? ORDER BY name COLLATE NOCASE, jid LIMIT ? OFFSET ?')
			.all(deviceId, page.limit, page.offset) as ContactRow[];
		return { rows, total };
	}
}
