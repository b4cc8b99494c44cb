import type { Db } from './db';

/** One stored object of an extension namespace: its kind, its key, its JSON data. */
export interface SiteObject<T> {
	key: string;
	data: T;
	/** Insertion order (increasing), for stable lists and "newest first". */
	position: number;
	created_at: number;
	modified_at: number;
}

interface ObjectRow {
	key: string;
	data: string;
	position: number;
	created_at: number;
	modified_at: number;
}

const parse = <T>(row: ObjectRow): SiteObject<T> => ({ ...row, data: JSON.parse(row.data) as T });

/**
 * The state of the site's extension namespaces (engine post types, builder globals, components, plugin
 * state, ...): JSON objects by namespace, kind and key, in one table (`site_objects`). The namespaces'
 * shapes change as the plugins they stand for do, so the store keeps documents, and each module
 * validates what it writes (zod) and owns the shape of its kinds.
 */
export class ObjectsRepo {
	constructor(private db: Db) {}

	/** The objects of one kind, in insertion order. */
	list<T>(namespace: string, kind: string): SiteObject<T>[] {
		const rows = this.db
			.prepare('SELECT key, data, position, created_at, modified_at FROM site_objects WHERE namespace = ? AND kind = ? ORDER BY position')
			.all(namespace, kind) as ObjectRow[];
		return rows.map((row) => parse<T>(row));
	}

	get<T>(namespace: string, kind: string, key: string): SiteObject<T> | undefined {
		const row = this.db
			.prepare('SELECT key, data, position, created_at, modified_at FROM site_objects WHERE namespace = ? AND kind = ? AND key = ?')
			.get(namespace, kind, key) as ObjectRow | undefined;
		return row && parse<T>(row);
	}

	/** Creates or replaces an object; a replaced one keeps its position and creation time. */
	put<T>(namespace: string, kind: string, key: string, data: T): SiteObject<T> {
		const now = Date.now();
		const row = this.db
			.prepare(
				`INSERT INTO site_objects (namespace, kind, key, data, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?)
				 ON CONFLICT(namespace, kind, key) DO UPDATE SET data = excluded.data, modified_at = excluded.modified_at
				 RETURNING key, data, position, created_at, modified_at`,
			)
			.get(namespace, kind, key, JSON.stringify(data), now, now) as ObjectRow;
		return parse<T>(row);
	}

	/** Deletes an object; whether there was one. */
	delete(namespace: string, kind: string, key: string): boolean {
		return this.db.prepare('DELETE FROM site_objects WHERE namespace = ? AND kind = ? AND key = ?').run(namespace, kind, key).changes > 0;
	}

	/** Deletes every object of a kind (a cache, a conversation). */
	clear(namespace: string, kind: string): number {
		return this.db.prepare('DELETE FROM site_objects WHERE namespace = ? AND kind = ?').run(namespace, kind).changes;
	}

	/**
	 * The next numeric key of a kind (WordPress-style ids: 1, 2, ...), never reused after a delete.
	 * Counted in the store's meta, so it must be called inside the transaction that puts the object.
	 */
	nextId(namespace: string, kind: string): number {
		const name = `objects.${namespace}.${kind}.last_id`;
		const row = this.db
			.prepare(
				`INSERT INTO meta (key, value) VALUES (?, '1')
				 ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value`,
			)
			.get(name) as { value: string };
		return Number(row.value);
	}
}
