import type { Db } from './db';
import type { UserRow } from './types';
import { hashSecret, randomSecret, sameDigest } from '../security';

export class UsersRepo {
	constructor(private db: Db) {}

	count(): number {
		return (this.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
	}

	byName(name: string): UserRow | undefined {
		return this.db.prepare('SELECT * FROM users WHERE name = ?').get(name) as UserRow | undefined;
	}

	/** Creates a user and returns its API key, which is stored only as a digest. */
	create(name: string, apiKey = randomSecret('wdm_')): { user: UserRow; apiKey: string } {
		const info = this.db
			.prepare('INSERT INTO users (name, api_key_hash, created_at) VALUES (?, ?, ?)')
			.run(name, hashSecret(apiKey), Date.now());
		return { user: this.db.prepare('SELECT * FROM users WHERE id = ?').get(info.lastInsertRowid) as UserRow, apiKey };
	}

	byApiKey(apiKey: string): UserRow | undefined {
		const digest = hashSecret(apiKey);
		const user = this.db.prepare('SELECT * FROM users WHERE api_key_hash = ?').get(digest) as UserRow | undefined;
		return user && sameDigest(user.api_key_hash, digest) ? user : undefined;
	}
}
