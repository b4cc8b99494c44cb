import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { migrations } from './schema';

export type Db = Database.Database;

/** Opens the store (`:memory:` or a data directory holding `wdm.sqlite`) and brings its schema up to date. */
export function openDb(data: string): Db {
	let file = data;
	if (data !== ':memory:') {
		fs.mkdirSync(data, { recursive: true });
		file = path.join(data, 'wdm.sqlite');
	}
	const db = new Database(file);
	db.pragma('journal_mode = WAL');
	db.pragma('synchronous = NORMAL');
	db.pragma('foreign_keys = ON');
	// Another process (`wdm-server users create`) may write while the server runs.
	db.pragma('busy_timeout = 5000');
	const applied = db.pragma('user_version', { simple: true }) as number;
	for (let i = applied; i < migrations.length; i++) {
		db.transaction(() => {
			db.exec(migrations[i]);
			db.pragma(`user_version = ${i + 1}`);
		})();
	}
	return db;
}
