import { openDb, type Db } from './db';
import { ChatsRepo } from './chats';
import { DevicesRepo } from './devices';
import { FilesRepo } from './files';
import { MessagesRepo } from './messages';
import { MetaRepo } from './meta';
import { NumbersRepo } from './numbers';
import { UsersRepo } from './users';
import { OutboxRepo, WebhooksRepo } from './webhooks';

/** The embedded store: one SQLite database, one repository per table family. */
export class Store {
	readonly meta: MetaRepo;
	readonly users: UsersRepo;
	readonly devices: DevicesRepo;
	readonly files: FilesRepo;
	readonly messages: MessagesRepo;
	readonly chats: ChatsRepo;
	readonly numbers: NumbersRepo;
	readonly webhooks: WebhooksRepo;
	readonly outbox: OutboxRepo;
	/** One transaction wrapper for every `tx`: better-sqlite3 builds a new one (with its variants) per `transaction()` call. */
	private readonly inTx: <T>(fn: () => T) => T;

	constructor(readonly db: Db) {
		this.inTx = db.transaction((fn: () => unknown) => fn()) as <T>(fn: () => T) => T;
		this.meta = new MetaRepo(db);
		this.users = new UsersRepo(db);
		this.devices = new DevicesRepo(db);
		this.files = new FilesRepo(db);
		this.messages = new MessagesRepo(db);
		this.chats = new ChatsRepo(db);
		this.numbers = new NumbersRepo(db);
		this.webhooks = new WebhooksRepo(db);
		this.outbox = new OutboxRepo(db);
	}

	static open(data: string): Store {
		return new Store(openDb(data));
	}

	/** Runs `fn` in one transaction: everything it writes lands, or nothing does. */
	tx<T>(fn: () => T): T {
		return this.inTx(fn);
	}

	close() {
		this.db.close();
	}
}
