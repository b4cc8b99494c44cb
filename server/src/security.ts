import crypto from 'node:crypto';

/**
 * Keys and tokens are stored as SHA-256 digests; the clear value is shown once. One-shot `crypto.hash`:
 * every authenticated request hashes its credential, and a `Hash` object costs three times as much.
 */
export const hashSecret = (secret: string) => crypto.hash('sha256', secret, 'hex');

export const randomSecret = (prefix: string, bytes = 24) =>
	`${prefix}${crypto.randomBytes(bytes).toString('base64url')}`;

/** Compares two digests without leaking, through timing, how much of them matched. */
export function sameDigest(a: string, b: string): boolean {
	const x = Buffer.from(a, 'hex');
	const y = Buffer.from(b, 'hex');
	return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export const randomId = (bytes = 10) => crypto.randomBytes(bytes).toString('hex');
