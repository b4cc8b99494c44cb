import Database from 'better-sqlite3';
import type { Db } from './db';
import type { ContentRow, TermRow } from './types';

export type NewContent = Partial<Omit<ContentRow, 'id'>> & Pick<ContentRow, 'type' | 'status' | 'date_gmt' | 'modified_gmt'>;

/** A piece of SQL with its bound values; only code-made text reaches the SQL, every value is bound. */
export interface Sql {
	sql: string;
	params: unknown[];
}

/** Every column but `id`, in the table's order: inserts and saves write them all (one cached statement each). */
const COLUMNS = [
	'type', 'status', 'author', 'parent', 'slug', 'title', 'content', 'excerpt', 'password', 'date_gmt', 'date_floating',
	'modified_gmt', 'comment_status', 'ping_status', 'format', 'sticky', 'template', 'menu_order', 'featured_media',
	'mime_type', 'meta', 'trashed_status', 'trashed_slug',
] as const satisfies readonly (keyof ContentRow)[];

const DEFAULTS: Omit<ContentRow, 'id' | 'type' | 'status' | 'date_gmt' | 'modified_gmt'> = {
	author: 0,
	parent: 0,
	slug: '',
	title: '',
	content: '',
	excerpt: '',
	password: '',
	date_floating: 0,
	comment_status: 'open',
	ping_status: 'open',
	format: 'standard',
	sticky: 0,
	template: '',
	menu_order: 0,
	featured_media: 0,
	mime_type: '',
	meta: '{}',
	trashed_status: null,
	trashed_slug: null,
};

/** Statements whose text varies with the request are prepared each time, outside the store's statement cache. */
export const uncached = (db: Db, sql: string) => Database.prototype.prepare.call(db, sql) as Database.Statement<unknown[]>;

/**
 * The site's content items (`content`), every post type in one table, and the terms they carry
 * (`content_terms`). Revisions and autosaves are items of type `revision` whose `parent` is their post.
 */
export class ContentRepo {
	constructor(private db: Db) {}

	get(id: number): ContentRow | undefined {
		return this.db.prepare('SELECT * FROM content WHERE id = ?').get(id) as ContentRow | undefined;
	}

	insert(fields: NewContent): ContentRow {
		const row = { ...DEFAULTS, ...fields };
		return this.db
			.prepare(`INSERT INTO content (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')}) RETURNING *`)
			.get(row) as ContentRow;
	}

	/** Writes every column of the row as given. */
	save(row: ContentRow): ContentRow {
		return this.db
			.prepare(`UPDATE content SET ${COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id RETURNING *`)
			.get(row) as ContentRow;
	}

	/** Deletes the item with its revisions and term relationships. */
	delete(id: number) {
		this.db.prepare("DELETE FROM content WHERE parent = ? AND type = 'revision'").run(id);
		this.db.prepare('DELETE FROM content WHERE id = ?').run(id);
	}

	/** Points the children of `from` (of one type) at `to`, as WordPress does when a page is deleted. */
	reparent(type: string, from: number, to: number) {
		this.db.prepare('UPDATE content SET parent = ? WHERE parent = ? AND type = ?').run(to, from, type);
	}

	/** Scheduled items whose time has come are published (WordPress's cron does this). */
	publishDue(now: number) {
		this.db.prepare("UPDATE content SET status = 'publish' WHERE status = 'future' AND date_gmt <= ?").run(now);
	}

	/** Whether another item of these types (and, when given, this parent) already has the slug. */
	slugTaken(slug: string, types: readonly string[], exceptId: number, parent?: number): boolean {
		return !!this.db
			.prepare(
				`SELECT 1 FROM content WHERE slug = ? AND id <> ? AND type IN (SELECT value FROM json_each(?))
				 AND (? IS NULL OR parent = ?) LIMIT 1`,
			)
			.get(slug, exceptId, JSON.stringify(types), parent ?? null, parent ?? null);
	}

	/** Whether `root` is `id` itself or one of its ancestors (walking up the parents of `id`). */
	inSubtreeOf(id: number, root: number): boolean {
		return !!this.db
			.prepare(
				`WITH RECURSIVE up(id, parent) AS (SELECT id, parent FROM content WHERE id = ?
				   UNION SELECT c.id, c.parent FROM content c JOIN up ON c.id = up.parent WHERE up.parent <> 0)
				 SELECT 1 FROM up WHERE id = ? LIMIT 1`,
			)
			.get(id, root);
	}

	/** One page of the items matching `where`, in `order`, with the total; `limit` null for all. */
	find(where: Sql, order: Sql, limit: number | null, offset: number): { rows: ContentRow[]; total: number } {
		const total = (uncached(this.db, `SELECT count(*) AS n FROM content c WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
		const rows = uncached(this.db, `SELECT c.* FROM content c WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`).all(
			...where.params,
			...order.params,
			limit ?? -1,
			offset,
		) as ContentRow[];
		return { rows, total };
	}

	/** The revisions (and autosaves) of an item, newest first. */
	revisions(parent: number): ContentRow[] {
		return this.db
			.prepare("SELECT * FROM content WHERE parent = ? AND type = 'revision' ORDER BY date_gmt DESC, id DESC")
			.all(parent) as ContentRow[];
	}

	/** The term ids of an item in one taxonomy, in id order. */
	termIds(contentId: number, taxonomy: string): number[] {
		return (
			this.db
				.prepare('SELECT t.id FROM content_terms ct JOIN terms t ON t.id = ct.term_id WHERE ct.content_id = ? AND t.taxonomy = ? ORDER BY t.id')
				.all(contentId, taxonomy) as { id: number }[]
		).map((r) => r.id);
	}

	/** Replaces the item's terms of one taxonomy. */
	setTermIds(contentId: number, taxonomy: string, ids: number[]) {
		this.db
			.prepare('DELETE FROM content_terms WHERE content_id = ? AND term_id IN (SELECT id FROM terms WHERE taxonomy = ?)')
			.run(contentId, taxonomy);
		const add = this.db.prepare('INSERT OR IGNORE INTO content_terms (content_id, term_id) VALUES (?, ?)');
		for (const id of ids) add.run(contentId, id);
	}
}

/** Categories and tags. */
export class TermsRepo {
	constructor(private db: Db) {}

	get(id: number, taxonomy: string): TermRow | undefined {
		return this.db.prepare('SELECT * FROM terms WHERE id = ? AND taxonomy = ?').get(id, taxonomy) as TermRow | undefined;
	}

	/** The ids among `ids` that are no term of the taxonomy. */
	unknown(taxonomy: string, ids: number[]): number[] {
		const known = new Set(
			(
				this.db
					.prepare('SELECT id FROM terms WHERE taxonomy = ? AND id IN (SELECT value FROM json_each(?))')
					.all(taxonomy, JSON.stringify(ids)) as { id: number }[]
			).map((r) => r.id),
		);
		return [...new Set(ids)].filter((id) => !known.has(id));
	}

	bySlug(taxonomy: string, slug: string): TermRow | undefined {
		return this.db.prepare('SELECT * FROM terms WHERE taxonomy = ? AND slug = ?').get(taxonomy, slug) as TermRow | undefined;
	}

	/** A term of the taxonomy with this name (ignoring case) under this parent. */
	byName(taxonomy: string, name: string, parent: number): TermRow | undefined {
		return this.db
			.prepare('SELECT * FROM terms WHERE taxonomy = ? AND name = ? COLLATE NOCASE AND parent = ?')
			.get(taxonomy, name, parent) as TermRow | undefined;
	}

	insert(term: Omit<TermRow, 'id'>): TermRow {
		return this.db
			.prepare('INSERT INTO terms (taxonomy, name, slug, description, parent) VALUES (@taxonomy, @name, @slug, @description, @parent) RETURNING *')
			.get(term) as TermRow;
	}

	/** Writes a term's name, slug, description and parent. */
	save(term: TermRow): TermRow {
		return this.db
			.prepare('UPDATE terms SET name = @name, slug = @slug, description = @description, parent = @parent WHERE id = @id RETURNING *')
			.get(term) as TermRow;
	}

	/**
	 * Deletes a term as WordPress's `wp_delete_term`: its children move up to its parent, and, given a
	 * default term, the items that had only this term of the taxonomy get the default one.
	 */
	delete(term: TermRow, defaultTerm?: number) {
		this.db.prepare('UPDATE terms SET parent = ? WHERE parent = ? AND taxonomy = ?').run(term.parent, term.id, term.taxonomy);
		if (defaultTerm !== undefined) {
			this.db
				.prepare(
					`INSERT OR IGNORE INTO content_terms (content_id, term_id)
					 SELECT ct.content_id, ? FROM content_terms ct WHERE ct.term_id = ?
					 AND NOT EXISTS (SELECT 1 FROM content_terms o JOIN terms t ON t.id = o.term_id
					   WHERE o.content_id = ct.content_id AND t.taxonomy = ? AND o.term_id <> ?)`,
				)
				.run(defaultTerm, term.id, term.taxonomy, term.id);
		}
		this.db.prepare('DELETE FROM terms WHERE id = ?').run(term.id);
	}

	/** The terms and every term below them. */
	withDescendants(ids: number[]): number[] {
		return (
			this.db
				.prepare(
					`WITH RECURSIVE d(id) AS (SELECT value FROM json_each(?) UNION SELECT t.id FROM terms t JOIN d ON t.parent = d.id)
					 SELECT id FROM d`,
				)
				.all(JSON.stringify(ids)) as { id: number }[]
		).map((r) => r.id);
	}

	/** How many published items carry each term (WordPress's term `count`). */
	counts(ids: number[]): Map<number, number> {
		const rows = this.db
			.prepare(
				`SELECT ct.term_id AS id, count(*) AS n FROM content_terms ct JOIN content c ON c.id = ct.content_id
				 WHERE c.status = 'publish' AND ct.term_id IN (SELECT value FROM json_each(?)) GROUP BY ct.term_id`,
			)
			.all(JSON.stringify(ids)) as { id: number; n: number }[];
		return new Map(rows.map((r) => [r.id, r.n]));
	}

	/** One page of the terms matching `where` (over `terms t`), in `order`, with the total. */
	find(where: Sql, order: Sql, limit: number, offset: number): { rows: TermRow[]; total: number } {
		const total = (uncached(this.db, `SELECT count(*) AS n FROM terms t WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
		const rows = uncached(this.db, `SELECT t.* FROM terms t WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`).all(
			...where.params,
			...order.params,
			limit,
			offset,
		) as TermRow[];
		return { rows, total };
	}
}
