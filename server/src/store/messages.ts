import type { Db } from './db';
import { dropFileIfUnused } from './files';
import type { MessageRow } from './types';

export type NewMessage = Omit<MessageRow, 'mentions' | 'content' | 'forwarded' | 'edited' | 'reaction' | 'reactions' | 'was_sent_by_api' | 'send_at' | 'pending' | 'sender_name' | 'quoted' | 'file_id' | 'mimetype' | 'file_name' | 'text' | 'track_source' | 'track_id'> &
	Partial<MessageRow>;

/** A value the caller left out takes the column's default. */
const or = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);

/**
 * The stored row of a new message, every column in the table's order: one object literal, so every row
 * has the same shape (cheap to read later) and its values are the statement's parameters in order. A
 * spread (`{...DEFAULTS, ...message}`) or a row filled key by key cost more than the insert's own SQL.
 */
const rowOf = (m: NewMessage): MessageRow => ({
	id: m.id,
	device_id: m.device_id,
	messageid: m.messageid,
	chatid: m.chatid,
	sender: m.sender,
	sender_name: or(m.sender_name, null),
	from_me: m.from_me,
	is_group: m.is_group,
	message_type: m.message_type,
	text: or(m.text, null),
	timestamp: m.timestamp,
	status: m.status,
	quoted: or(m.quoted, null),
	mentions: or(m.mentions, '[]'),
	forwarded: or(m.forwarded, 0),
	edited: or(m.edited, 0),
	reaction: or(m.reaction, null),
	reactions: or(m.reactions, '[]'),
	file_id: or(m.file_id, null),
	mimetype: or(m.mimetype, null),
	file_name: or(m.file_name, null),
	content: or(m.content, '{}'),
	track_source: or(m.track_source, null),
	track_id: or(m.track_id, null),
	was_sent_by_api: or(m.was_sent_by_api, 0),
	send_at: or(m.send_at, null),
	pending: or(m.pending, null),
});

/** The columns an insert writes: the row's keys, in its order. */
const COLUMNS = Object.keys(rowOf({} as NewMessage));

export interface MessageQuery {
	id?: string;
	chatid?: string;
	track_source?: string;
	track_id?: string;
	limit: number;
	offset: number;
}

/**
 * `total` is counted up to this many matches past the end of the asked page, through the same index
 * as the page: exact below it, and past it a lower bound flagged `totalIsEstimate` (a device's whole
 * history, or one track source tagging every message, would otherwise be counted on every page).
 */
export const TOTAL_COUNT_MARGIN = 1000;

export interface MessagePage {
	rows: MessageRow[];
	total: number;
	/** `total` reached the counting cap: at least that many match. */
	totalIsEstimate: boolean;
}

export class MessagesRepo {
	private insertStmt;

	constructor(private db: Db) {
		this.insertStmt = db.prepare(`INSERT INTO messages (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
	}

	insert(message: NewMessage): MessageRow {
		const row = rowOf(message);
		this.insertStmt.run(Object.values(row));
		return row;
	}

	/**
	 * A message of the device by its id or its network `messageid`: two index lookups (the primary key,
	 * then `messages_messageid`). One query with `id = ? OR messageid = ?` let the planner walk every
	 * message of the device instead, slower the larger the store.
	 */
	byId(deviceId: string, id: string): MessageRow | undefined {
		return (this.db.prepare('SELECT * FROM messages WHERE id = ? AND device_id = ?').get(id, deviceId) ??
			this.db.prepare('SELECT * FROM messages WHERE messageid = ? AND device_id = ?').get(id, deviceId)) as MessageRow | undefined;
	}

	/** The messages of a chat the device received and has not read yet, however many. */
	unreadInbound(deviceId: string, chatid: string): MessageRow[] {
		return this.db
			.prepare("SELECT * FROM messages WHERE device_id = ? AND chatid = ? AND from_me = 0 AND status = 'delivered' ORDER BY timestamp")
			.all(deviceId, chatid) as MessageRow[];
	}

	/** Every stored copy of a network message (the sender's and, on this server, the recipient's). */
	copies(messageid: string): MessageRow[] {
		return this.db.prepare('SELECT * FROM messages WHERE messageid = ?').all(messageid) as MessageRow[];
	}

	/** Writes the given columns and returns the row as stored (no changes: just reads it). */
	update(id: string, changes: Partial<Omit<MessageRow, 'id'>>): MessageRow {
		const keys = Object.keys(changes);
		if (!keys.length) return this.get(id)!;
		return this.db
			.prepare(`UPDATE messages SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id RETURNING *`)
			.get({ ...changes, id }) as MessageRow;
	}

	/** Moves a message from status `from` to `to`; false when it is not (or no longer) in `from`. */
	advance(id: string, from: MessageRow['status'], to: MessageRow['status']): boolean {
		return this.db.prepare('UPDATE messages SET status = ? WHERE id = ? AND status = ?').run(to, id, from).changes > 0;
	}

	get(id: string): MessageRow | undefined {
		return this.db.prepare('SELECT * FROM messages WHERE id = ?').get(id) as MessageRow | undefined;
	}

	/** Removes a media file once no message shows it any more (after a delete for everyone). */
	dropFileIfUnused(fileId: string) {
		dropFileIfUnused(this.db, fileId);
	}

	/** Deletes a chat's messages on one device, and the media files no other message shows; returns how many went. */
	deleteOfChat(deviceId: string, chatid: string): number {
		const files = this.db
			.prepare('SELECT DISTINCT file_id AS id FROM messages WHERE device_id = ? AND chatid = ? AND file_id IS NOT NULL')
			.all(deviceId, chatid) as { id: string }[];
		const { changes } = this.db.prepare('DELETE FROM messages WHERE device_id = ? AND chatid = ?').run(deviceId, chatid);
		for (const file of files) this.dropFileIfUnused(file.id);
		return changes;
	}

	/** Newest first; returns one row more than asked so the caller can tell whether more remain. */
	find(deviceId: string, q: MessageQuery): MessagePage {
		if (q.id) return this.findById(deviceId, q);
		const where = ['device_id = @deviceId'];
		if (q.chatid) where.push('chatid = @chatid');
		// With both, the track id (rare) leads: `+` keeps the planner off the track-source index (one source
		// usually tags every message, so that index would walk them all).
		if (q.track_source) where.push(q.track_id ? '+track_source = @track_source' : 'track_source = @track_source');
		if (q.track_id) where.push('track_id = @track_id');
		const clause = where.join(' AND ');
		const cap = q.offset + q.limit + TOTAL_COUNT_MARGIN;
		const args = { ...q, deviceId, cap };
		const total = (this.db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM messages WHERE ${clause} LIMIT @cap)`).get(args) as { n: number }).n;
		const rows = this.db
			.prepare(`SELECT * FROM messages WHERE ${clause} ORDER BY timestamp DESC, rowid DESC LIMIT @limit OFFSET @offset`)
			.all(args) as MessageRow[];
		return { rows, total, totalIsEstimate: total === cap };
	}

	/** `find` by id: the one message (through `byId`), if it also matches the other filters. */
	private findById(deviceId: string, q: MessageQuery): MessagePage {
		const row = this.byId(deviceId, q.id!);
		const matches =
			!!row &&
			(!q.chatid || row.chatid === q.chatid) &&
			(!q.track_source || row.track_source === q.track_source) &&
			(!q.track_id || row.track_id === q.track_id);
		return { rows: matches && q.offset === 0 && q.limit > 0 ? [row] : [], total: matches ? 1 : 0, totalIsEstimate: false };
	}

	/** Queued messages whose time has come, oldest first. */
	due(now: number, limit: number): MessageRow[] {
		return this.db
			.prepare("SELECT * FROM messages WHERE status = 'queued' AND send_at <= ? ORDER BY send_at, rowid LIMIT ?")
			.all(now, limit) as MessageRow[];
	}

	/**
	 * Spreads the device's queued messages that would fall due before `start` over slots `spacing` ms
	 * apart from `start`, in their order: the queue then drains at the pace the network allows.
	 */
	paceQueued(deviceId: string, start: number, spacing: number): number {
		return this.db
			.prepare(
				`UPDATE messages SET send_at = q.slot FROM (
					SELECT id, @start + CAST((row_number() OVER (ORDER BY send_at, rowid) - 1) * @spacing AS INTEGER) AS slot
					FROM messages WHERE status = 'queued' AND device_id = @deviceId AND send_at < @start
				) AS q WHERE messages.id = q.id`,
			)
			.run({ deviceId, start, spacing }).changes;
	}

	/** When the contact of a direct chat last wrote to the device, if they did since `since` (the customer service window). */
	lastInboundSince(deviceId: string, chatid: string, since: number): number | undefined {
		const row = this.db
			.prepare('SELECT timestamp FROM messages WHERE device_id = ? AND chatid = ? AND timestamp >= ? AND from_me = 0 ORDER BY timestamp DESC LIMIT 1')
			.get(deviceId, chatid, since) as { timestamp: number } | undefined;
		return row?.timestamp;
	}

	nextDueAt(): number | undefined {
		const row = this.db.prepare("SELECT min(send_at) AS at FROM messages WHERE status = 'queued'").get() as { at: number | null };
		return row.at ?? undefined;
	}

	/**
	 * Outbound messages the network accepted but has not yet confirmed to the sender; not those to a
	 * contact who blocked the device (`network_recipients`): they are never delivered.
	 */
	awaitingReceipt(): MessageRow[] {
		return this.db
			.prepare(
				`SELECT * FROM messages m WHERE from_me = 1 AND status = 'sent' AND NOT EXISTS
				 (SELECT 1 FROM network_recipients r WHERE r.device_id = m.device_id AND r.phone = substr(m.chatid, 1, instr(m.chatid, '@') - 1))`,
			)
			.all() as MessageRow[];
	}
}
