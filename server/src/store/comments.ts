import Database from 'better-sqlite3';
import type { Sql } from './content';
import type { Db } from './db';
import type { CommentRow } from './types';

/** Every column but `id`, in the table's order. */
const COLUMNS = [
	'post', 'parent', 'author', 'author_name', 'author_email', 'author_url', 'author_ip', 'author_user_agent',
	'date_gmt', 'content', 'status', 'trashed_status', 'type', 'meta',
] as const satisfies readonly (keyof CommentRow)[];

export type NewComment = Omit<CommentRow, 'id'>;

/** Statements whose text varies with the request are prepared each time, outside the store's statement cache. */
const uncached = (db: Db, sql: string) => Database.prototype.prepare.call(db, sql) as Database.Statement<unknown[]>;

/** The site's comments (`comments`); a content item deleted for good takes its comments along (cascade). */
export class CommentsRepo {
	constructor(private db: Db) {}

	get(id: number): CommentRow | undefined {
		return this.db.prepare('SELECT * FROM comments WHERE id = ?').get(id) as CommentRow | undefined;
	}

	insert(fields: NewComment): CommentRow {
		return this.db
			.prepare(`INSERT INTO comments (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')}) RETURNING *`)
			.get(fields) as CommentRow;
	}

	/** Writes every column of the row as given. */
	save(row: CommentRow): CommentRow {
		return this.db
			.prepare(`UPDATE comments SET ${COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id RETURNING *`)
			.get(row) as CommentRow;
	}

	/** Deletes a comment for good; its replies move up to its parent (WordPress's `wp_delete_comment`). */
	delete(row: CommentRow) {
		this.db.prepare('UPDATE comments SET parent = ? WHERE parent = ?').run(row.parent, row.id);
		this.db.prepare('DELETE FROM comments WHERE id = ?').run(row.id);
	}

	/**
	 * A comment on the same item with the same parent, by the same author (name or email), with the same
	 * text, not trashed: WordPress's duplicate check (`wp_allow_comment`).
	 */
	duplicate(c: Pick<CommentRow, 'post' | 'parent' | 'author_name' | 'author_email' | 'content'>): boolean {
		return !!this.db
			.prepare(
				`SELECT 1 FROM comments WHERE post = @post AND parent = @parent AND status <> 'trash'
				 AND (author_name = @author_name OR (@author_email <> '' AND author_email = @author_email)) AND content = @content LIMIT 1`,
			)
			.get(c);
	}

	/**
	 * Whether this author already has an approved comment (WordPress's `comment_previously_approved`): a
	 * user by their id, anyone else by name and email.
	 */
	previouslyApproved(author: number, authorName: string, authorEmail: string): boolean {
		if (author) return !!this.db.prepare("SELECT 1 FROM comments WHERE author = ? AND status = 'approved' LIMIT 1").get(author);
		if (!authorName || !authorEmail) return false;
		return !!this.db
			.prepare("SELECT 1 FROM comments WHERE author_name = ? AND author_email = ? AND status = 'approved' LIMIT 1")
			.get(authorName, authorEmail);
	}

	/** Whether the comment has replies (of any status). */
	hasChildren(id: number): boolean {
		return !!this.db.prepare('SELECT 1 FROM comments WHERE parent = ? LIMIT 1').get(id);
	}

	/** One page of the comments matching `where` (over `comments cm JOIN content c` on its item), in `order`, with the total. */
	find(where: Sql, order: Sql, limit: number, offset: number): { rows: CommentRow[]; total: number } {
		const from = 'FROM comments cm JOIN content c ON c.id = cm.post';
		const total = (uncached(this.db, `SELECT count(*) AS n ${from} WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
		const rows = uncached(this.db, `SELECT cm.* ${from} WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`).all(
			...where.params,
			...order.params,
			limit,
			offset,
		) as CommentRow[];
		return { rows, total };
	}
}
