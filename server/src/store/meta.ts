import type { Db } from './db';

export class MetaRepo {
	constructor(private db: Db) {}

	get(key: string): string | undefined {
		return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
	}

	set(key: string, value: string) {
		this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
	}

	/**
	 * Deletes a value that must not outlive its deletion in the file: SQLite would otherwise leave its bytes
	 * in the page's free space, and the page's old version in the write-ahead log until it is reused.
	 */
	erase(key: string) {
		this.db.pragma('secure_delete = ON');
		try {
			this.db.prepare('DELETE FROM meta WHERE key = ?').run(key);
		} finally {
			this.db.pragma('secure_delete = OFF');
		}
		this.db.pragma('wal_checkpoint(TRUNCATE)');
	}

	/** Returns the stored value, creating it with `make()` on first use. */
	getOrCreate(key: string, make: () => string): string {
		this.db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(key, make());
		return this.get(key)!;
	}
}
