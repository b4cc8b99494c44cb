import { Store } from '../../server/src/store';
import { openDb } from '../../server/src/store/db';
import { TOTAL_COUNT_MARGIN } from '../../server/src/store/messages';

/**
 * The lookups stay flat as the store grows (issue 16): each statement a repository runs is an index
 * search, never a walk of the device's messages (or of a table's history). Checked on SQLite's own plan
 * of the repository's own SQL (no timed tests), with the planner's statistics of a large store: many
 * messages per device, few per chat or track id, one track source on most of them.
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
type Statement = { get: (...args: unknown[]) => unknown; all: (...args: unknown[]) => unknown[]; run: (...args: unknown[]) => unknown };

/** The plans of the statements that read (SELECTs, and UPDATEs or DELETEs with a WHERE) `run` executes, with the arguments it bound. */
function plansOf(run: () => unknown): string[] {
	const prepare = db.prepare;
	const executed: { sql: string; args: unknown[] }[] = [];
	db.prepare = ((sql: string) => {
		const statement = prepare.call(db, sql) as Statement;
		if (!/^\s*(SELECT|UPDATE|DELETE)/i.test(sql)) return statement;
		const record = (args: unknown[]) => executed.push({ sql, args });
		return {
			get: (...args: unknown[]) => (record(args), statement.get(...args)),
			all: (...args: unknown[]) => (record(args), statement.all(...args)),
			run: (...args: unknown[]) => (record(args), statement.run(...args)),
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
	['find with no filter', () => store.messages.find('d', page), ['messages_device_time', 'messages_device_time']],
	['awaiting a receipt (start-up)', () => store.messages.awaitingReceipt(), ['messages_awaiting_receipt']],
	['queued sends due', () => store.messages.due(1, 10), ['messages_queued']],
	['next queued send', () => store.messages.nextDueAt(), ['messages_queued']],
])('%s: every statement searches its index', (_, run, indexes) => {
	const plans = plansOf(run);
	expect(plans).toHaveLength(indexes.length);
	plans.forEach((plan, i) => {
		expect(plan).toContain(indexes[i]);
		expect(plan).not.toMatch(/\bSCAN messages\b(?! USING INDEX messages_awaiting)/);
	});
});

test.each([
	['by chat', { ...page, chatid: 'c' }],
	['with no filter', page],
])('find %s: the page is read in the index order, newest first, with no sort', (name, query) => {
	const [, rows] = plansOf(() => store.messages.find('d', query));
	expect(rows).not.toContain('TEMP B-TREE');
	// Ties in time in the order they were stored, backwards, as the sort would give them.
	const at = Date.now();
	const { user } = store.users.create(`order-${name.replace(/\W/g, '')}`);
	const device = `order-${user.id}`;
	store.devices.insert({ id: device, user_id: user.id, name: device, profile_name: null }, `${device}-token`);
	store.tx(() => {
		for (let i = 0; i < 6; i++) {
			const message = { device_id: device, sender: 'me', from_me: 1, is_group: 0, message_type: 'text', status: 'read' as const };
			store.messages.insert({ ...message, id: `${device}-${i}`, messageid: `${device}-${i}`, chatid: 'c', timestamp: at + (i >> 1) });
		}
	});
	expect(store.messages.find(device, query).rows.map((row) => row.id)).toEqual([5, 4, 3, 2, 1, 0].map((i) => `${device}-${i}`));
});

test('total is counted up to a cap past the page: exact below it, a flagged lower bound past it', () => {
	const at = Date.now();
	const { user } = store.users.create('cap');
	store.devices.insert({ id: 'cap', user_id: user.id, name: 'cap', profile_name: null }, 'cap-token');
	store.tx(() => {
		for (let i = 0; i < TOTAL_COUNT_MARGIN + 20; i++) {
			store.messages.insert({
				id: `cap-${i}`,
				device_id: 'cap',
				messageid: `CAP${i}`,
				chatid: i < 5 ? 'few@s.whatsapp.net' : 'many@s.whatsapp.net',
				sender: 'me',
				from_me: 1,
				is_group: 0,
				message_type: 'text',
				timestamp: at + i,
				status: 'read',
				track_source: 'n8n',
			});
		}
	});
	expect(store.messages.find('cap', { chatid: 'few@s.whatsapp.net', limit: 2, offset: 0 })).toMatchObject({ total: 5, totalIsEstimate: false });
	const capped = store.messages.find('cap', { track_source: 'n8n', limit: 10, offset: 5 });
	expect(capped).toMatchObject({ total: 5 + 10 + TOTAL_COUNT_MARGIN, totalIsEstimate: true });
	expect(capped.rows.map((row) => row.id)).toEqual(Array.from({ length: 10 }, (_, i) => `cap-${TOTAL_COUNT_MARGIN + 14 - i}`));
	// Counting stopped at the cap: the statement's plan searches the index, and its LIMIT bounds the walk.
	const [count] = plansOf(() => store.messages.find('cap', { track_source: 'n8n', limit: 10, offset: 0 }));
	expect(count).toContain('messages_device_track_source');
});

/** Plans of other tables: a walk (`SCAN`) of any table but a device's own handful of rows fails. */
test.each([
	['due webhook deliveries', () => store.outbox.due(1, 10), ['outbox_due']],
	['next webhook delivery', () => store.outbox.nextDueAt(), ['outbox_due']],
	['lease of the rows being attempted', () => store.outbox.lease([1], 5), ['INTEGER PRIMARY KEY']],
	['due webhook deliveries counted', () => store.outbox.dueCount(1, 10), ['outbox_due']],
	['pull-forward of a recovered receiver', () => store.outbox.pullForward('wh', 1, 10, [3]), ['outbox_webhook_pending']],
	['delivery record of a subscription', () => store.outbox.ofWebhook('wh'), ['outbox_webhook']],
	['a page of contacts by name', () => store.contacts.list('d', { limit: 10, offset: 0 }), ['contacts_device_name', 'contacts_device_name']],
	['a chat', () => store.chats.get('d', 'c'), ['sqlite_autoindex_chats_2 (device_id=? AND chatid=?)']],
	['scheduled posts due', () => store.content.publishDue(1), ['content_scheduled']],
])('%s: searches its index', (_, run, indexes) => {
	const plans = plansOf(run);
	expect(plans).toHaveLength(indexes.length);
	plans.forEach((plan, i) => {
		expect(plan).toContain(indexes[i]);
		expect(plan).not.toMatch(/\bSCAN (outbox|contacts|chats|content)\b/);
		expect(plan).not.toContain('TEMP B-TREE');
	});
});

test("a member's groups: searched through the member's participations; only those are sorted, not every group", () => {
	const plans = plansOf(() => store.groups.ofMember('5511900000000', { limit: 10, offset: 0 }));
	expect(plans).toHaveLength(2);
	for (const plan of plans) {
		expect(plan).toContain('SEARCH p USING INDEX network_group_participants_phone (phone=?)');
		expect(plan).toContain('SEARCH g USING INDEX sqlite_autoindex_network_groups_1 (jid=?)');
		expect(plan).not.toMatch(/\bSCAN\b/);
	}
});
