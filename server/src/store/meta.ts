import type { Db } from './db';

export class MetaRepo {
	constructor(private db: Db) {}

	get(key: string): string | undefined {
		return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
	}

	set(key: string, value: string) {
		this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
	}

	/** Returns the stored value, creating it with `make()` on first use. */
	getOrCreate(key: string, make: () => string): string {
		this.db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(key, make());
		return this.get(key)!;
	}
}
