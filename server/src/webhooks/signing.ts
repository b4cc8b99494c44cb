import crypto from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` followed by the Base64 of 24 to 64 random bytes. */
export const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64')}`;

export function isValidSecret(secret: string): boolean {
	if (!secret.startsWith('whsec_')) return false;
	const b64 = secret.slice(6);
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false;
	const size = Buffer.from(b64, 'base64').length;
	return size >= 24 && size <= 64;
}

/** The `webhook-signature` header value: `v1,` + Base64 HMAC-SHA256 of `id.timestamp.body`. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
	const key = Buffer.from(secret.slice(6), 'base64');
	return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
