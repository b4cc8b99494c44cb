import type { Store } from '../store';
import { forbidden } from '../http/errors';

/**
 * The sandbox plays a number for a user (a message, presence, reaction, answer or group join from it).
 * It never plays another user's device: that device speaks for itself, through the gateway with its own
 * token. Any other number is a simulated contact of the caller's world and enters it (so that no other
 * user can pair with it later). docs/decisions/sandbox.md, "A shared sandbox: numbers have owners".
 */
export function playAs(store: Store, userId: number, phone: string, field: string): string {
	checkPlayable(store, userId, phone, field);
	store.numbers.claimContact(phone, userId);
	return phone;
}

/** Refuses, as `playAs` does, without claiming the number (for a check before slow work). */
export function checkPlayable(store: Store, userId: number, phone: string, field: string) {
	if (store.numbers.inOtherWorld(phone, userId, true)) {
		throw forbidden(`${field}: ${phone} is a device of another user of this server; the sandbox plays only contacts of your own world`);
	}
}
