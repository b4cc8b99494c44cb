import type { Db } from './db';
import type { AttachmentRow } from './types';

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

	setAltText(contentId: number, altText: string) {
		this.db.prepare('UPDATE attachments SET alt_text = ? WHERE content_id = ?').run(altText, contentId);
	}
}
