import crypto from 'node:crypto';
import type { Db } from './db';
import { type Sql, uncached } from './content';
import type { AppPasswordRow, SiteRole, UserRow } from './types';
import { hashSecret, randomSecret, sameDigest } from '../security';

/** WordPress shows application passwords as six groups of four; the spaces are optional when signing in. */
function newAppPassword(): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	const chars = Array.from(crypto.randomBytes(24), (b) => alphabet[b % alphabet.length]).join('');
	return chars.match(/.{4}/g)!.join(' ');
}

const normalisePassword = (password: string) => password.replace(/\s+/g, '');

/** A login password's digest: scrypt with a salt of its own (`salt:hash`, hex). */
function hashLoginPassword(password: string): string {
	const salt = crypto.randomBytes(16);
	return `${salt.toString('hex')}:${crypto.scryptSync(password, salt, 32).toString('hex')}`;
}

/** WordPress's `user_nicename` from a login: lower case, dots, spaces and `@` as dashes, the rest dropped. */
export const loginSlug = (login: string) =>
	login
		.toLowerCase()
		.replace(/[.\s@]+/g, '-')
		.replace(/[^a-z0-9_-]/g, '')
		.replace(/-+/g, '-')
		.replace(/^-|-$/g, '')
		.slice(0, 50) || 'user';

/** The profile fields a site user has besides its login and role (WordPress's user fields). */
export type UserProfile = Partial<
	Pick<UserRow, 'display_name' | 'email' | 'slug' | 'first_name' | 'last_name' | 'nickname' | 'url' | 'description' | 'locale' | 'role'>
>;

const PROFILE_COLUMNS = ['display_name', 'email', 'slug', 'first_name', 'last_name', 'nickname', 'url', 'description', 'locale', 'role'] as const;

/**
 * The users: one list for the gateway (API key) and the site (role, profile, login password,
 * application passwords).
 */
export class UsersRepo {
	constructor(
		private db: Db,
		/** Told of a user deleted (their devices go by cascade: the device cache must forget them). */
		private onDelete: (id: number) => void,
	) {}

	count(): number {
		return (this.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
	}

	byName(name: string): UserRow | undefined {
		return this.db.prepare('SELECT * FROM users WHERE name = ?').get(name) as UserRow | undefined;
	}

	byId(id: number): UserRow | undefined {
		return this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
	}

	/** Email addresses are compared without case, as WordPress's `email_exists` does in MySQL. */
	byEmail(email: string): UserRow | undefined {
		return this.db.prepare('SELECT * FROM users WHERE email = ? COLLATE NOCASE').get(email) as UserRow | undefined;
	}

	bySlug(slug: string): UserRow | undefined {
		return this.db.prepare('SELECT * FROM users WHERE slug = ?').get(slug) as UserRow | undefined;
	}

	/** `slug`, or `slug-2`, `slug-3`, ... : the first no other user has (WordPress's `wp_insert_user`). */
	uniqueSlug(slug: string, exceptId = 0): string {
		const taken = (s: string) => {
			const user = this.bySlug(s);
			return !!user && user.id !== exceptId;
		};
		let candidate = slug;
		for (let n = 2; taken(candidate); n++) candidate = `${slug}-${n}`;
		return candidate;
	}

	/**
	 * Creates a user and returns its API key, which is stored only as a digest. (The site's users route
	 * shows the key to nobody: such a user has no gateway access until `newApiKey` issues one.)
	 */
	create(
		name: string,
		apiKey = randomSecret('wdm_'),
		role: SiteRole = 'editor',
		profile: UserProfile & { password?: string } = {},
	): { user: UserRow; apiKey: string } {
		const info = this.db
			.prepare('INSERT INTO users (name, api_key_hash, created_at, role, slug, nickname, password_hash) VALUES (?, ?, ?, ?, ?, ?, ?)')
			.run(
				name,
				hashSecret(apiKey),
				Date.now(),
				role,
				this.uniqueSlug(profile.slug || loginSlug(name)),
				name,
				profile.password ? hashLoginPassword(profile.password) : null,
			);
		const id = Number(info.lastInsertRowid);
		const { slug: _slug, ...rest } = profile;
		const user = this.update(id, rest);
		return { user, apiKey };
	}

	/** Writes the given profile fields (and the login password, hashed); the others stay. */
	update(id: number, fields: UserProfile & { password?: string }): UserRow {
		const sets: string[] = [];
		const params: unknown[] = [];
		for (const column of PROFILE_COLUMNS) {
			if (fields[column] === undefined) continue;
			sets.push(`${column} = ?`);
			params.push(fields[column]);
		}
		if (fields.password !== undefined) {
			sets.push('password_hash = ?');
			params.push(hashLoginPassword(fields.password));
		}
		if (sets.length) this.db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
		return this.byId(id)!;
	}

	/** Whether `password` is the user's login password (never a way in to the REST API: see auth.ts). */
	checkLoginPassword(user: UserRow, password: string): boolean {
		if (!user.password_hash) return false;
		const [salt, hash] = user.password_hash.split(':');
		return sameDigest(crypto.scryptSync(password, Buffer.from(salt, 'hex'), 32).toString('hex'), hash);
	}

	/** A page of users matching `where` (over `users u`), in `order`, with the total. */
	find(where: Sql, order: Sql, limit: number, offset: number): { rows: UserRow[]; total: number } {
		// Their text varies with the filters: compiled each time, outside the store's statement cache.
		const rows = uncached(this.db, `SELECT u.* FROM users u WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`).all(
			...where.params,
			...order.params,
			limit,
			offset,
		) as UserRow[];
		const { n } = uncached(this.db, `SELECT count(*) AS n FROM users u WHERE ${where.sql}`).get(...where.params) as { n: number };
		return { rows, total: n };
	}

	/**
	 * Deletes a user (its devices go with it). Its content goes to `reassign`, or, without one, is
	 * deleted with its revisions (an id freed by SQLite may be given again: nothing may keep pointing at it).
	 */
	delete(id: number, reassign: number | null) {
		if (reassign) {
			this.db.prepare('UPDATE content SET author = ? WHERE author = ?').run(reassign, id);
		} else {
			const owned = this.db.prepare("SELECT id FROM content WHERE author = ? AND type <> 'revision'").all(id) as { id: number }[];
			const children = this.db.prepare("DELETE FROM content WHERE parent = ? AND type = 'revision'");
			for (const { id: contentId } of owned) children.run(contentId);
			this.db.prepare('DELETE FROM content WHERE author = ?').run(id);
		}
		this.db.prepare('DELETE FROM users WHERE id = ?').run(id);
		this.onDelete(id);
	}

	byApiKey(apiKey: string): UserRow | undefined {
		const digest = hashSecret(apiKey);
		const user = this.db.prepare('SELECT * FROM users WHERE api_key_hash = ?').get(digest) as UserRow | undefined;
		return user && sameDigest(user.api_key_hash, digest) ? user : undefined;
	}

	/** Gives the user a new API key (shown once, stored as a digest); the old one stops working. */
	newApiKey(userId: number): string {
		const apiKey = randomSecret('wdm_');
		this.db.prepare('UPDATE users SET api_key_hash = ? WHERE id = ?').run(hashSecret(apiKey), userId);
		return apiKey;
	}

	// ---- application passwords ----

	/** Issues an application password for the site; like the API key, it is shown once and stored as a digest. */
	addAppPassword(userId: number, name: string, password = newAppPassword(), appId = ''): string {
		return this.createAppPassword(userId, name, appId, password).password;
	}

	/** Issues an application password and returns its row with the password, shown only now. */
	createAppPassword(userId: number, name: string, appId = '', password = newAppPassword()): { row: AppPasswordRow; password: string } {
		const row = this.db
			.prepare('INSERT INTO app_passwords (uuid, user_id, name, app_id, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *')
			.get(crypto.randomUUID(), userId, name, appId, hashSecret(normalisePassword(password)), Date.now()) as AppPasswordRow;
		return { row, password };
	}

	/** A user's application passwords, oldest first. */
	appPasswords(userId: number): AppPasswordRow[] {
		return this.db.prepare('SELECT * FROM app_passwords WHERE user_id = ? ORDER BY created_at, rowid').all(userId) as AppPasswordRow[];
	}

	appPassword(userId: number, uuid: string): AppPasswordRow | undefined {
		return this.db.prepare('SELECT * FROM app_passwords WHERE user_id = ? AND uuid = ?').get(userId, uuid) as AppPasswordRow | undefined;
	}

	/** Whether the user has another application password of that name (WordPress wants them unique). */
	appPasswordNameTaken(userId: number, name: string, exceptUuid = ''): boolean {
		return !!this.db.prepare('SELECT 1 FROM app_passwords WHERE user_id = ? AND name = ? AND uuid <> ?').get(userId, name, exceptUuid);
	}

	renameAppPassword(userId: number, uuid: string, name: string): AppPasswordRow {
		return this.db.prepare('UPDATE app_passwords SET name = ? WHERE user_id = ? AND uuid = ? RETURNING *').get(name, userId, uuid) as AppPasswordRow;
	}

	deleteAppPassword(userId: number, uuid: string) {
		this.db.prepare('DELETE FROM app_passwords WHERE user_id = ? AND uuid = ?').run(userId, uuid);
	}

	/** Deletes all of a user's application passwords; returns how many there were. */
	deleteAppPasswords(userId: number): number {
		return this.db.prepare('DELETE FROM app_passwords WHERE user_id = ?').run(userId).changes;
	}

	/**
	 * The user whose application password this is, and which password it is, recording the use (time
	 * and address); undefined when either is wrong.
	 */
	byAppPassword(
		name: string,
		password: string,
		ip: string | null = null,
	): { user?: UserRow; uuid?: string; reason?: 'unknown_user' | 'wrong_password' } {
		const user = this.byName(name);
		if (!user) return { reason: 'unknown_user' };
		const digest = hashSecret(normalisePassword(password));
		const row = this.db.prepare('SELECT * FROM app_passwords WHERE user_id = ? AND password_hash = ?').get(user.id, digest) as
			| AppPasswordRow
			| undefined;
		if (!row || !sameDigest(row.password_hash, digest)) return { reason: 'wrong_password' };
		this.db.prepare('UPDATE app_passwords SET last_used = ?, last_ip = ? WHERE uuid = ?').run(Date.now(), ip, row.uuid);
		return { user, uuid: row.uuid };
	}
}
