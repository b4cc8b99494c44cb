import { createHmac, timingSafeEqual } from 'crypto';

/** Events older or newer than this are refused, so a captured delivery cannot be replayed later. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * Checks a Standard Webhooks signature: `webhook-signature` holds one or more `v1,<base64>` entries,
 * each an HMAC-SHA256 of `id.timestamp.body` under the Base64 key after `whsec_`.
 * Returns why it fails, or undefined when it is valid.
 */
export function signatureProblem(
	secret: string,
	headers: Record<string, string | string[] | undefined>,
	body: string,
	now = Date.now(),
): string | undefined {
	const id = headers['webhook-id'];
	const timestamp = headers['webhook-timestamp'];
	const signatures = headers['webhook-signature'];
	if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') {
		return 'missing webhook-id, webhook-timestamp or webhook-signature header';
	}
	const seconds = Number(timestamp);
	if (!Number.isInteger(seconds) || Math.abs(now / 1000 - seconds) > TOLERANCE_SECONDS) return 'timestamp too old or in the future';
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
	const valid = signatures.split(' ').some((entry) => {
		const [version, value] = entry.split(',');
		const given = Buffer.from(value ?? '', 'base64');
		return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
	});
	return valid ? undefined : 'signature does not match';
}
