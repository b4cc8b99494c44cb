import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from './store';

export interface AdminAccess {
	apiKey: string;
	appPassword: string;
}

/**
 * On an empty store, creates the `admin` user (site administrator) with an API key for the gateway and
 * an application password for the site; both are shown only this once.
 */
export function ensureAdmin(store: Store, given: Partial<AdminAccess> = {}): AdminAccess | undefined {
	if (store.users.count() > 0) return undefined;
	return store.tx(() => {
		const { user, apiKey } = store.users.create('admin', given.apiKey, 'administrator');
		return { apiKey, appPassword: store.users.addAppPassword(user.id, 'wdm-server', given.appPassword) };
	});
}

export const TOKEN_KEY_FILE = 'token.key';
/** Where stores before the key file kept the key (moved out on the next start). */
const LEGACY_TOKEN_KEY = 'token_key';

/**
 * The key instance tokens are derived under (see `Services.instanceToken`). It lives beside the store in
 * `<data>/token.key` (mode 0600), not in it: the store holds the tokens' digests, and with the key next
 * to them a copy of the store alone would give every token back. `:memory:` gets a random key for the
 * life of the process. A store whose key file is gone while it has devices does not start: a new key
 * would silently replace every token the devices were given.
 */
export function loadTokenKey(store: Store, data: string): Buffer {
	if (data === ':memory:') return crypto.randomBytes(32);
	const file = path.join(data, TOKEN_KEY_FILE);
	const legacy = store.meta.get(LEGACY_TOKEN_KEY);
	if (legacy !== undefined) {
		// Written before the store forgets it: a crash in between leaves both, and the next start ends the move.
		if (!fs.existsSync(file)) writeKeyFile(file, legacy);
		else if (!readKeyFile(file).equals(Buffer.from(legacy, 'hex'))) {
			throw new Error(`${file} holds another key than the one the store kept: remove one of them (the store's, meta.token_key, is the one its tokens come from)`);
		}
		store.meta.erase(LEGACY_TOKEN_KEY);
	}
	if (!fs.existsSync(file)) {
		if (store.devices.all().length > 0) {
			throw new Error(
				`${file} is missing, and the instance tokens of this store's devices come from it. Restore it from a backup ` +
					`of the data directory. If it is lost, write a new one (\`openssl rand -hex 32 > ${file}; chmod 600 ${file}\`): ` +
					'every device then has a new instance token (GET /devices shows it) and the old ones stop working.',
			);
		}
		writeKeyFile(file, crypto.randomBytes(32).toString('hex'));
	}
	return readKeyFile(file);
}

function writeKeyFile(file: string, hex: string) {
	// `wx`: created here, with its mode from the start, never over a file that appeared meanwhile.
	fs.writeFileSync(file, `${hex}\n`, { mode: 0o600, flag: 'wx' });
}

function readKeyFile(file: string): Buffer {
	const mode = fs.statSync(file).mode;
	if (process.platform !== 'win32' && mode & 0o077) {
		throw new Error(`${file} can be read by other users of this machine (mode ${(mode & 0o777).toString(8)}): chmod 600 ${file}`);
	}
	const hex = fs.readFileSync(file, 'utf8').trim();
	if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} must hold 64 hexadecimal digits (a 32-byte key)`);
	return Buffer.from(hex, 'hex');
}
