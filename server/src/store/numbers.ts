import type { Db } from './db';

/**
 * Numbers outside the server as each user's sandbox sees them, and whose world each number is in.
 *
 * Settings (`network_numbers`) are per user: what one user says about a number (absent, its name) holds
 * in that user's world only; unknown numbers are on the network.
 *
 * Worlds (`number_worlds`): a number is in a user's world once one of their devices paired with it
 * (`device` 1) or talked to it as a contact (`device` 0). Another user's pairing cannot take a number in
 * someone's world, and the sandbox never plays another user's device (docs/decisions/sandbox.md, "A shared
 * sandbox: numbers have owners").
 */
export class NumbersRepo {
	constructor(private db: Db) {}

	onNetwork(userId: number, phone: string): boolean {
		const row = this.db.prepare('SELECT on_network FROM network_numbers WHERE user_id = ? AND phone = ?').get(userId, phone) as
			| { on_network: number }
			| undefined;
		return row ? row.on_network === 1 : true;
	}

	name(userId: number, phone: string): string | undefined {
		const row = this.db.prepare('SELECT name FROM network_numbers WHERE user_id = ? AND phone = ?').get(userId, phone) as
			| { name: string | null }
			| undefined;
		return row?.name ?? undefined;
	}

	set(userId: number, phone: string, onNetwork: boolean, name?: string) {
		this.db
			.prepare(
				`INSERT INTO network_numbers (user_id, phone, on_network, name) VALUES (?, ?, ?, ?)
				 ON CONFLICT(user_id, phone) DO UPDATE SET on_network = excluded.on_network, name = coalesce(excluded.name, name)`,
			)
			.run(userId, phone, onNetwork ? 1 : 0, name ?? null);
	}

	/** Whether the number is in the world of a user other than `userId` (as a device with `asDevice`). */
	inOtherWorld(phone: string, userId: number, asDevice = false): boolean {
		return !!this.db
			.prepare(`SELECT 1 FROM number_worlds WHERE phone = ? AND user_id != ?${asDevice ? ' AND device = 1' : ''} LIMIT 1`)
			.get(phone, userId);
	}

	/** Whether the number is in anyone's world (automatic pairing hands out only numbers that are not). */
	inAnyWorld(phone: string): boolean {
		return !!this.db.prepare('SELECT 1 FROM number_worlds WHERE phone = ? LIMIT 1').get(phone);
	}

	/**
	 * The user's device talks to the number as a contact: it enters the user's world, unless it is another
	 * user's device number (a device keeps its number for its own user, to pair again).
	 */
	claimContact(phone: string, userId: number) {
		// Every send claims its recipient: a point read settles the usual case (already claimed) for a
		// third of what the conditional insert costs.
		if (this.db.prepare('SELECT 1 FROM number_worlds WHERE phone = ? AND user_id = ?').get(phone, userId)) return;
		this.db
			.prepare(
				`INSERT OR IGNORE INTO number_worlds (phone, user_id, device)
				 SELECT @phone, @userId, 0 WHERE NOT EXISTS
				 (SELECT 1 FROM number_worlds WHERE phone = @phone AND user_id != @userId AND device = 1)`,
			)
			.run({ phone, userId });
	}

	/** A device of the user pairs with the number. */
	claimDevice(phone: string, userId: number) {
		this.db
			.prepare(
				`INSERT INTO number_worlds (phone, user_id, device) VALUES (?, ?, 1)
				 ON CONFLICT(phone, user_id) DO UPDATE SET device = 1`,
			)
			.run(phone, userId);
	}
}
