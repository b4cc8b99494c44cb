import { Store } from '../../server/src/store';
import { openDb } from '../../server/src/store/db';

/**
 * The message lookups stay flat as the store grows (issue 16): each statement the repository runs is an
 * index search, never a walk of the device's messages. Checked on SQLite's own plan of the repository's
 * own SQL (no timed tests), with the planner's statistics of a large store: many messages per device,
 * few per chat or track id, one track source on most of them.
 */
const db = openDb(':memory:');
db.exec(`
	INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
		('messages', 'messages_device_time', '1000000 500000 1'),
		('messages', 'messages_device_chat', '1000000 500000 5000 1'),
		('messages', 'messages_device_track_id', '100000 50000 2 1'),
		('messages', 'messages_device_track_source', '100000 50000 50000 1'),
		('messages', 'messages_messageid', '1000000 2');
	ANALYZE sqlite_schema;
`);
const store = new Store(db);

/** A prepared statement, with the arguments it binds left open. */
type Statement = { get: (...args: unknown[]) => unknown; all: (...args: unknown[]) => unknown[] };

/** The plans of the SELECTs `run` executes, with the arguments it bound. */
function plansOf(run: () => unknown): string[] {
	const prepare = db.prepare;
	const executed: { sql: string; args: unknown[] }[] = [];
	db.prepare = ((sql: string) => {
		const statement = prepare.call(db, sql) as Statement;
		if (!/^\s*SELECT/i.test(sql)) return statement;
		const record = (args: unknown[]) => executed.push({ sql, args });
		return {
			get: (...args: unknown[]) => (record(args), statement.get(...args)),
			all: (...args: unknown[]) => (record(args), statement.all(...args)),
		};
	}) as unknown as typeof db.prepare;
	try {
		run();
	} finally {
		db.prepare = prepare;
	}
	return executed.map(({ sql, args }) => {
		const rows = (prepare.call(db, `EXPLAIN QUERY PLAN ${sql}`) as Statement).all(...args) as { detail: string }[];
		return rows.map((row) => row.detail).join(' | ');
	});
}

const page = { limit: 10, offset: 0 };

test.each([
	['by id or network message id', () => store.messages.byId('d', 'm'), ['sqlite_autoindex_messages_1 (id=?)', 'messages_messageid (messageid=?)']],
	['find by id', () => store.messages.find('d', { ...page, id: 'm', track_id: 't' }), ['sqlite_autoindex_messages_1 (id=?)', 'messages_messageid (messageid=?)']],
	['find by track id', () => store.messages.find('d', { ...page, track_id: 't' }), ['messages_device_track_id', 'messages_device_track_id']],
	['find by track source and id', () => store.messages.find('d', { ...page, track_source: 'n8n', track_id: 't' }), ['messages_device_track_id', 'messages_device_track_id']],
	['find by track source', () => store.messages.find('d', { ...page, track_source: 'n8n' }), ['messages_device_track_source', 'messages_device_track_source']],
	['find by chat', () => store.messages.find('d', { ...page, chatid: 'c' }), ['messages_device_chat', 'messages_device_chat']],
	['awaiting a receipt (start-up)', () => store.messages.awaitingReceipt(), ['messages_awaiting_receipt']],
])('%s: every statement searches its index', (_, run, indexes) => {
	const plans = plansOf(run);
	expect(plans).toHaveLength(indexes.length);
	plans.forEach((plan, i) => {
		expect(plan).toContain(indexes[i]);
		expect(plan).not.toMatch(/\bSCAN messages\b(?! USING INDEX messages_awaiting)/);
	});
});
