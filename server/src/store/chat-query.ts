import Database from 'better-sqlite3';
import type { Db } from './db';
import type { ChatRow } from './types';

/**
 * The chat columns a search may filter and sort on, as SQL over the `chats` table. Only these texts
 * (and the fixed comparison operators) ever reach the SQL; every value is a bound parameter.
 */
export const CHAT_COLUMNS = {
	id: 'id',
	chatid: 'chatid',
	name: 'name',
	phone: "CASE WHEN is_group = 1 THEN '' ELSE substr(chatid, 1, instr(chatid, '@') - 1) END",
	is_group: 'is_group',
	pinned: 'pinned',
	archived: 'archived',
	mute_end: 'mute_end',
	unread: 'unread',
	last_msg_ts: 'last_msg_ts',
	last_msg_type: 'last_msg_type',
} as const;

export type ChatColumn = keyof typeof CHAT_COLUMNS;

/** Text columns sort without regard to case. */
const TEXT_COLUMNS = new Set<ChatColumn>(['id', 'chatid', 'name', 'phone', 'last_msg_type']);

/** `~` is "contains, ignoring case"; the others compare as SQL does. */
export const COMPARISONS = ['=', '!=', '>', '>=', '<', '<=', '~'] as const;
export type Comparison = (typeof COMPARISONS)[number];

export type ChatCondition =
	| { column: ChatColumn; op: Comparison; value: string | number }
	/** The chat has (or, with `has: false`, lacks) this label id. */
	| { label: string; has: boolean };

export interface ChatQuery {
	conditions: ChatCondition[];
	/** How the conditions combine. */
	match: 'AND' | 'OR';
	sort: ChatColumn;
	descending: boolean;
	limit: number;
	offset: number;
}

function conditionSql(condition: ChatCondition, params: unknown[]): string {
	if ('label' in condition) {
		params.push(condition.label);
		// Label ids are stored as numbers or strings: compare their text.
		return `${condition.has ? '' : 'NOT '}EXISTS (SELECT 1 FROM json_each(chats.labels) WHERE CAST(value AS TEXT) = ?)`;
	}
	const column = CHAT_COLUMNS[condition.column];
	params.push(condition.value);
	if (condition.op === '~') return `instr(lower(${column}), lower(?)) > 0`;
	return `${column} ${condition.op} ?`;
}

/**
 * A device's chats matching the query, one page in the asked order (ties: newest message first), with the
 * total. The SQL text varies with the conditions a client sends, so it is prepared each time rather than
 * through the store's statement cache (which keeps every distinct text for the life of the process).
 */
export function findChats(db: Db, deviceId: string, query: ChatQuery): { rows: ChatRow[]; total: number } {
	const params: unknown[] = [deviceId];
	let where = 'device_id = ?';
	if (query.conditions.length) {
		where += ` AND (${query.conditions.map((c) => conditionSql(c, params)).join(` ${query.match} `)})`;
	}
	const prepare = (sql: string) => Database.prototype.prepare.call(db, sql) as Database.Statement<unknown[]>;
	const total = (prepare(`SELECT count(*) AS n FROM chats WHERE ${where}`).get(...params) as { n: number }).n;
	const order = `${CHAT_COLUMNS[query.sort]}${TEXT_COLUMNS.has(query.sort) ? ' COLLATE NOCASE' : ''} ${query.descending ? 'DESC' : 'ASC'}`;
	const rows = prepare(`SELECT * FROM chats WHERE ${where} ORDER BY ${order}, last_msg_ts DESC, id LIMIT ? OFFSET ?`).all(
		...params,
		query.limit,
		query.offset,
	) as ChatRow[];
	return { rows, total };
}
