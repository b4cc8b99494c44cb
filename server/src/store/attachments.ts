import type { Db } from './db';
import type { AttachmentRow, FileRow } from './types';

/**
 * The files of the site's media items. The item itself is a `content` row of type `attachment`
 * (see ContentRepo); deleting it deletes its attachment row and, by trigger, the file.
 */
export class AttachmentsRepo {
	constructor(private db: Db) {}

	/** The attachment with its file's name and size (not its bytes). */
	get(contentId: number): (AttachmentRow & { file_name: string; size: number }) | undefined {
		return this.db
			.prepare('SELECT a.*, f.file_name, f.size FROM attachments a JOIN files f ON f.id = a.file_id WHERE a.content_id = ?')
			.get(contentId) as (AttachmentRow & { file_name: string; size: number }) | undefined;
	}

	insert(row: AttachmentRow) {
		this.db
			.prepare('INSERT INTO attachments (content_id, file_id, alt_text, details) VALUES (@content_id, @file_id, @alt_text, @details)')
			.run(row);
	}

	/** Records a resized copy (`thumbnail`, `medium`, ...) of the attachment's image, stored as `fileId`. */
	addSize(contentId: number, name: string, fileId: string) {
		this.db.prepare('INSERT INTO attachment_sizes (content_id, name, file_id) VALUES (?, ?, ?)').run(contentId, name, fileId);
	}

	/** The stored file of each resized copy of the attachment's image, by size name. */
	sizeFiles(contentId: number): Map<string, string> {
		const rows = this.db.prepare('SELECT name, file_id FROM attachment_sizes WHERE content_id = ?').all(contentId) as { name: string; file_id: string }[];
		return new Map(rows.map((r) => [r.name, r.file_id]));
	}

	/**
	 * A resized copy served beside its original (`<original's id>/<name>-150x150.png`): the stored file
	 * of the size named `fileName` of the attachment whose original file is `originalId`.
	 */
	sizeFile(originalId: string, fileName: string): FileRow | undefined {
		return this.db
			.prepare(
				`SELECT f.* FROM attachments a JOIN attachment_sizes s ON s.content_id = a.content_id JOIN files f ON f.id = s.file_id
				WHERE a.file_id = ? AND f.file_name = ? LIMIT 1`,
			)
			.get(originalId, fileName) as FileRow | undefined;
	}

	setDetails(contentId: number, details: string) {
		this.db.prepare('UPDATE attachments SET details = ? WHERE content_id = ?').run(details, contentId);
	}

	setAltText(contentId: number, altText: string) {
		this.db.prepare('UPDATE attachments SET alt_text = ? WHERE content_id = ?').run(altText, contentId);
	}
}
