import type { Db } from './db';

/** What the sandbox has said about numbers outside the server; unknown numbers are on the network. */
export class NumbersRepo {
	constructor(private db: Db) {}

	onNetwork(phone: string): boolean {
		const row = this.db.prepare('SELECT on_network FROM network_numbers WHERE phone = ?').get(phone) as
			| { on_network: number }
			| undefined;
		return row ? row.on_network === 1 : true;
	}

	name(phone: string): string | undefined {
		const row = this.db.prepare('SELECT name FROM network_numbers WHERE phone = ?').get(phone) as { name: string | null } | undefined;
		return row?.name ?? undefined;
	}

	set(phone: string, onNetwork: boolean, name?: string) {
		this.db
			.prepare(
				`INSERT INTO network_numbers (phone, on_network, name) VALUES (?, ?, ?)
				 ON CONFLICT(phone) DO UPDATE SET on_network = excluded.on_network, name = coalesce(excluded.name, name)`,
			)
			.run(phone, onNetwork ? 1 : 0, name ?? null);
	}
}
