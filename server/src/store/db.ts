import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrations } from './schema';

export type Db = Database.Database;

/** Told when the data directory or the store's files had to be tightened, or could not be. */
export type ModeNotice = (message: string) => void;

/**
 * Opens the store (`:memory:` or a data directory holding `wdm.sqlite`) and brings its schema up to date.
 * The store holds every secret of the server (webhook secrets, the AI key, the nonce secret): the
 * directory is made 0700 and the files 0600, and an existing directory or store that others may read
 * (made by an older server, or by hand) is tightened to that, with a notice; one that cannot be (not
 * the process's own) is left as it is, with a warning.
 */
export function openDb(data: string, notice: ModeNotice = () => undefined): Db {
	if (data === ':memory:') return prepareDb(new Database(data));
	const dir = path.resolve(data);
	const file = path.join(dir, 'wdm.sqlite');
	try {
		fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
		// Created with its mode from the start; SQLite gives the -wal and -shm files the same one.
		fs.closeSync(fs.openSync(file, 'a', 0o600));
	} catch (error) {
		throw new Error(`cannot use the data directory ${dir}: ${causeOf(error)} (choose another with --data)`);
	}
	tighten(dir, 0o700, notice);
	for (const own of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(own)) tighten(own, 0o600, notice);
	let db: Db | undefined;
	try {
		db = new Database(file);
		return prepareDb(db);
	} catch (error) {
		db?.close();
		throw new Error(`cannot open the store ${file}: ${causeOf(error)}`);
	}
}

/** Takes away the permissions `target` has beyond `allowed` (never adds any). */
function tighten(target: string, allowed: number, notice: ModeNotice) {
	if (process.platform === 'win32') return;
	const mode = fs.statSync(target).mode & 0o777;
	if (!(mode & ~allowed)) return;
	const octal = (m: number) => m.toString(8).padStart(4, '0');
	try {
		fs.chmodSync(target, mode & allowed);
		notice(`${target} could be read by other users of this machine (mode ${octal(mode)}): made ${octal(mode & allowed)}`);
	} catch (error) {
		notice(`${target} can be read by other users of this machine (mode ${octal(mode)}) and could not be changed (${causeOf(error)}): chmod ${octal(allowed).slice(1)} ${target}`);
	}
}

/** What went wrong with a file, in words: SQLite's own ("unable to open database file") name neither the file nor the reason. */
function causeOf(error: unknown): string {
	const { code, message } = error as NodeJS.ErrnoException;
	const user = os.userInfo().username;
	if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PERM') {
		return `permission denied for user ${user} (${message})`;
	}
	if (code === 'EROFS') return 'the file system is read-only';
	if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file is in the way of the directory';
	return message;
}

function prepareDb(db: Db): Db {
	cacheStatements(db);
	db.pragma('journal_mode = WAL');
	db.pragma('synchronous = NORMAL');
	// In WAL mode with NORMAL sync, commits append to the log without fsync; the fsyncs (two) come with the
	// checkpoint that copies the log back into the database. SQLite's default runs it every 1000 pages
	// (about 120 sent messages: each writes ~8 pages, one per index). On a busy disk those fsyncs were a
	// large share of a send and most of its variance; checkpointing every 10000 pages (a log of up to
	// ~40 MB) makes them ten times rarer and copies each hot page once for many more commits.
	db.pragma('wal_autocheckpoint = 10000');
	// Another process (`wdm-server users create`) may write while the server runs.
	db.pragma('busy_timeout = 5000');
	// Off while migrating (better-sqlite3 turns them on by default): a migration that rebuilds a table drops
	// the old one, which with foreign keys on would delete every row that references it (SQLite's procedure
	// for altering a table runs with them off). On again below, once the migrations are checked.
	db.pragma('foreign_keys = OFF');
	// IMMEDIATE, and the version read inside: of two processes opening a new store at once (a server and
	// `wdm-server users create`), one migrates and the other then finds nothing left to do.
	db.transaction(() => {
		const applied = db.pragma('user_version', { simple: true }) as number;
		for (let i = applied; i < migrations.length; i++) {
			db.exec(migrations[i]);
			db.pragma(`user_version = ${i + 1}`);
		}
		// Migrations run with foreign keys off (below): check what they left before it commits.
		const broken = applied < migrations.length ? (db.pragma('foreign_key_check') as unknown[]) : [];
		if (broken.length) throw new Error(`a migration left ${broken.length} rows whose references are broken (PRAGMA foreign_key_check)`);
	}).immediate();
	db.pragma('foreign_keys = ON');
	// Table statistics for the planner (SQLite's advice for a connection that stays open: optimize with
	// 0x10002 at open). Without them it guesses about ten rows per value of an index's first column and
	// can pick the wrong index on a large store.
	// ANALYZE samples at most this many rows per index, so that neither this nor the periodic optimize
	// (Store) takes longer on a store of millions of messages.
	db.pragma('analysis_limit = 1000');
	db.pragma('optimize = 0x10002');
	return db;
}

/**
 * Makes `db.prepare` compile each SQL text once and hand back the same statement afterwards, so the
 * repositories can write their queries where they use them without paying SQLite's parse and plan on
 * every call (it was the largest cost of a send). Dynamic SQL (the `update` helpers) is cached per
 * column set, which the code bounds. A statement is shared by every caller of its SQL text: never
 * switch its mode (`pluck`, `raw`, `expand`, `safeIntegers`) or keep an `iterate()` open across calls.
 */
function cacheStatements(db: Db) {
	const prepare = db.prepare.bind(db);
	const statements = new Map<string, Database.Statement>();
	db.prepare = ((sql: string) => {
		let statement = statements.get(sql);
		if (!statement) {
			statement = prepare(sql);
			statements.set(sql, statement);
		}
		return statement;
	}) as Db['prepare'];
}
