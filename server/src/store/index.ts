import { openDb, type Db, type ModeNotice } from './db';
import { ChatsRepo } from './chats';
import { AttachmentsRepo } from './attachments';
import { CommentsRepo } from './comments';
import { ContentRepo, TermsRepo } from './content';
import { ContactsRepo } from './contacts';
import { DevicesRepo } from './devices';
import { FilesRepo } from './files';
import { GroupsRepo } from './groups';
import { LabelsRepo } from './labels';
import { MessagesRepo } from './messages';
import { MetaRepo } from './meta';
import { NetworkRepo } from './network';
import { NumbersRepo } from './numbers';
import { ObjectsRepo } from './objects';
import { ProxiesRepo } from './proxies';
import { SendKeysRepo } from './send-keys';
import { WebhookClaimsRepo } from './webhook-claims';
import { UsersRepo } from './users';
import { OutboxRepo, WebhooksRepo } from './webhooks';

/**
 * How often the planner's statistics are refreshed (`PRAGMA optimize`: it re-analyses only the tables
 * that changed much since, within `analysis_limit`), so a store that grows while the server runs keeps
 * its plans: SQLite advises every few hours for a connection that stays open.
 */
const OPTIMIZE_EVERY_MS = 60 * 60 * 1000;

/** The embedded store: one SQLite database, one repository per table family. */
export class Store {
	readonly meta: MetaRepo;
	readonly users: UsersRepo;
	readonly devices: DevicesRepo;
	readonly files: FilesRepo;
	readonly groups: GroupsRepo;
	readonly messages: MessagesRepo;
	readonly chats: ChatsRepo;
	readonly contacts: ContactsRepo;
	readonly numbers: NumbersRepo;
	readonly network: NetworkRepo;
	readonly webhooks: WebhooksRepo;
	readonly outbox: OutboxRepo;
	readonly labels: LabelsRepo;
	readonly proxies: ProxiesRepo;
	readonly sendKeys: SendKeysRepo;
	readonly webhookClaims: WebhookClaimsRepo;
	readonly content: ContentRepo;
	readonly terms: TermsRepo;
	readonly comments: CommentsRepo;
	readonly attachments: AttachmentsRepo;
	readonly objects: ObjectsRepo;
	/**
	 * One transaction wrapper for every `tx`: better-sqlite3 builds a new one (with its variants) per
	 * `transaction()` call. IMMEDIATE: the write lock is taken at BEGIN, so a transaction that reads and
	 * then writes waits (busy_timeout) for another process's writer instead of failing on the upgrade.
	 */
	private readonly inTx: <T>(fn: () => T) => T;
	/** Units waiting for the next group commit (see `txShared`). */
	private queued: { fn: () => unknown; refusesBeforeWriting: boolean; resolve: (value: unknown) => void; reject: (error: unknown) => void }[] = [];
	private optimizer: NodeJS.Timeout;

	constructor(readonly db: Db) {
		this.inTx = db.transaction((fn: () => unknown) => fn()).immediate as <T>(fn: () => T) => T;
		this.meta = new MetaRepo(db);
		this.users = new UsersRepo(db, (id) => this.devices.forgetUser(id));
		this.devices = new DevicesRepo(db);
		this.files = new FilesRepo(db);
		this.groups = new GroupsRepo(db);
		this.messages = new MessagesRepo(db);
		this.chats = new ChatsRepo(db);
		this.contacts = new ContactsRepo(db);
		this.numbers = new NumbersRepo(db);
		this.network = new NetworkRepo(db);
		this.webhooks = new WebhooksRepo(db);
		this.outbox = new OutboxRepo(db);
		this.labels = new LabelsRepo(db);
		this.proxies = new ProxiesRepo(db);
		this.sendKeys = new SendKeysRepo(db);
		this.webhookClaims = new WebhookClaimsRepo(db);
		this.content = new ContentRepo(db);
		this.terms = new TermsRepo(db);
		this.comments = new CommentsRepo(db);
		this.attachments = new AttachmentsRepo(db);
		this.objects = new ObjectsRepo(db);
		this.optimizer = setInterval(() => {
			try {
				this.optimize();
			} catch {
				// Busy (another process writing): only statistics, the next run refreshes them.
			}
		}, OPTIMIZE_EVERY_MS).unref();
	}

	/** Refreshes the planner's statistics of the tables that changed much (run every OPTIMIZE_EVERY_MS). */
	optimize() {
		this.db.pragma('optimize');
	}

	/** `notice` is told when the data directory or the store's files had their modes tightened (see `openDb`). */
	static open(data: string, notice?: ModeNotice): Store {
		return new Store(openDb(data, notice));
	}

	/** Runs `fn` in one transaction: everything it writes lands, or nothing does. */
	tx<T>(fn: () => T): T {
		return this.inTx(fn);
	}

	/**
	 * Runs `fn` in a transaction shared with the other units queued in this event-loop turn, and resolves
	 * once that transaction has committed. Under load one commit (and one write of each hot page to the
	 * log) then serves many requests. Each unit runs in its own savepoint: one that throws is rolled back
	 * and rejected alone, the others still commit.
	 *
	 * `refusesBeforeWriting`: the unit throws its refusals before its first write (a send checks, then
	 * writes), so a throw leaves nothing of it to roll back and it runs without a savepoint (SQLite copies
	 * every page a savepoint's unit changes to its journal: about 3 us of a send). Should it throw after
	 * writing all the same (an error of the store itself), its writes cannot be undone alone: the whole
	 * group is rolled back and every unit of it rejected, as when the store fails the transaction.
	 */
	txShared<T>(fn: () => T, options: { refusesBeforeWriting?: boolean } = {}): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			const unit = { fn, refusesBeforeWriting: options.refusesBeforeWriting === true, resolve: resolve as (value: unknown) => void, reject };
			if (this.queued.push(unit) === 1) setImmediate(() => this.commitQueued());
		});
	}

	/** Rows written by this connection since it opened (SQLite's `total_changes()`): whether a unit wrote. */
	private writes(): number {
		return (this.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
	}

	private commitQueued() {
		const units = this.queued;
		this.queued = [];
		const results: { ok: boolean; value: unknown }[] = [];
		// Alone in its transaction, a unit needs no savepoint: its own rollback is the transaction's.
		if (units.length === 1) {
			const [unit] = units;
			try {
				unit.resolve(this.inTx(unit.fn));
			} catch (error) {
				unit.reject(error);
			}
			return;
		}
		let failed: { unit: (typeof units)[number]; error: unknown } | undefined;
		try {
			this.inTx(() => {
				for (const unit of units) {
					const before = unit.refusesBeforeWriting ? this.writes() : 0;
					try {
						// Nested in the open transaction, better-sqlite3 runs it in a savepoint.
						results.push({ ok: true, value: unit.refusesBeforeWriting ? unit.fn() : this.inTx(unit.fn) });
					} catch (error) {
						// Some errors (disk full, I/O) make SQLite roll back the whole transaction: nothing lands.
						if (!this.db.inTransaction) throw error;
						if (unit.refusesBeforeWriting && this.writes() !== before) {
							failed = { unit, error };
							throw error;
						}
						results.push({ ok: false, value: error });
					}
				}
			});
		} catch (error) {
			const others = failed && new Error('the shared transaction was rolled back: another unit of it failed after writing');
			for (const unit of units) unit.reject(others && unit !== failed?.unit ? others : error);
			return;
		}
		units.forEach((unit, i) => (results[i].ok ? unit.resolve(results[i].value) : unit.reject(results[i].value)));
	}

	close() {
		clearInterval(this.optimizer);
		this.db.close();
	}
}
