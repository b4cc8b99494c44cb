import crypto from 'node:crypto';
import type { Db } from './db';
import type { AppPasswordRow, SiteRole, UserRow } from './types';
import { hashSecret, randomSecret, sameDigest } from '../security';

/** WordPress shows application passwords as six groups of four; the spaces are optional when signing in. */
function newAppPassword(): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	const chars = Array.from(crypto.randomBytes(24), (b) => alphabet[b % alphabet.length]).join('');
	return chars.match(/.{4}/g)!.join(' ');
}

const normalisePassword = (password: string) => password.replace(/\s+/g, '');

export class UsersRepo {
	constructor(private db: Db) {}

	count(): number {
		return (this.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
	}

	byName(name: string): UserRow | undefined {
		return this.db.prepare('SELECT * FROM users WHERE name = ?').get(name) as UserRow | undefined;
	}

	byId(id: number): UserRow | undefined {
		return this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
	}

	/** Creates a user and returns its API key, which is stored only as a digest. */
	create(name: string, apiKey = randomSecret('wdm_'), role: SiteRole = 'editor'): { user: UserRow; apiKey: string } {
		const info = this.db
			.prepare('INSERT INTO users (name, api_key_hash, created_at, role) VALUES (?, ?, ?, ?)')
			.run(name, hashSecret(apiKey), Date.now(), role);
		return { user: this.byId(Number(info.lastInsertRowid))!, apiKey };
	}

	byApiKey(apiKey: string): UserRow | undefined {
		const digest = hashSecret(apiKey);
		const user = this.db.prepare('SELECT * FROM users WHERE api_key_hash = ?').get(digest) as UserRow | undefined;
		return user && sameDigest(user.api_key_hash, digest) ? user : undefined;
	}

	/** Issues an application password for the site; like the API key, it is shown once and stored as a digest. */
	addAppPassword(userId: number, name: string, password = newAppPassword()): string {
		this.db
			.prepare('INSERT INTO app_passwords (uuid, user_id, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)')
			.run(crypto.randomUUID(), userId, name, hashSecret(normalisePassword(password)), Date.now());
		return password;
	}

	/** The user whose application password this is, recording the use; undefined when either is wrong. */
	byAppPassword(name: string, password: string): { user?: UserRow; reason?: 'unknown_user' | 'wrong_password' } {
		const user = this.byName(name);
		if (!user) return { reason: 'unknown_user' };
		const digest = hashSecret(normalisePassword(password));
		const row = this.db.prepare('SELECT * FROM app_passwords WHERE user_id = ? AND password_hash = ?').get(user.id, digest) as
			| AppPasswordRow
			| undefined;
		if (!row || !sameDigest(row.password_hash, digest)) return { reason: 'wrong_password' };
		this.db.prepare('UPDATE app_passwords SET last_used = ? WHERE uuid = ?').run(Date.now(), row.uuid);
		return { user };
	}
}
