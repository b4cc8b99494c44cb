import type { Db } from './db';
import type { FileRow } from './types';
import { randomId } from '../security';

/** Removes a message's media file once no message shows it any more (copies on other devices may still). */
export function dropFileIfUnused(db: Db, fileId: string) {
	db.prepare('DELETE FROM files WHERE id = ? AND NOT EXISTS (SELECT 1 FROM messages WHERE file_id = ?)').run(fileId, fileId);
}

export class FilesRepo {
	constructor(private db: Db) {}

	insert(file: Pick<FileRow, 'mimetype' | 'file_name' | 'data'>): FileRow {
		const id = randomId(16);
		this.db
			.prepare('INSERT INTO files (id, mimetype, file_name, size, data, created_at) VALUES (?, ?, ?, ?, ?, ?)')
			.run(id, file.mimetype, file.file_name, file.data.length, file.data, Date.now());
		return this.byId(id)!;
	}

	byId(id: string): FileRow | undefined {
		return this.db.prepare('SELECT * FROM files WHERE id = ?').get(id) as FileRow | undefined;
	}
}
