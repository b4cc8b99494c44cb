import { badRequest } from '../http/errors';

/** The simulated network's domain: the number 5511999990001 is the chat 5511999990001@s.whatsapp.net. */
export const USER_DOMAIN = 's.whatsapp.net';
export const GROUP_DOMAIN = 'g.us';
/** The device's own status feed: status posts are messages in this chat (readable with /message/find). */
export const STATUS_JID = 'status@broadcast';

export interface Address {
	jid: string;
	/** Digits of the phone number, for user chats. */
	phone?: string;
	isGroup: boolean;
}

const DIGITS = /^\d{8,15}$/;

/**
 * Accepts a bare number (`+55 11 99999-0001` is fine), a user JID (`…@s.whatsapp.net`, `…@lid`)
 * or a group JID (`…@g.us`) and returns the canonical address. `field` names the request field in errors.
 */
export function parseAddress(input: string, field: string): Address {
	const value = input.trim();
	const at = value.indexOf('@');
	if (at >= 0) {
		const user = value.slice(0, at);
		const domain = value.slice(at + 1).toLowerCase();
		if (value.toLowerCase() === STATUS_JID) return { jid: STATUS_JID, isGroup: false };
		if (domain === GROUP_DOMAIN && /^[\d-]{6,40}$/.test(user)) return { jid: `${user}@${GROUP_DOMAIN}`, isGroup: true };
		if ((domain === USER_DOMAIN || domain === 'lid' || domain === 'c.us') && DIGITS.test(user)) {
			return { jid: `${user}@${domain === 'lid' ? 'lid' : USER_DOMAIN}`, phone: user, isGroup: false };
		}
		throw badRequest(`${field} must be a phone number or a JID ending in @${USER_DOMAIN}, @lid or @${GROUP_DOMAIN} (got "${input}")`);
	}
	const digits = value.replace(/[\s()+.-]/g, '');
	if (!DIGITS.test(digits)) {
		throw badRequest(`${field} must be an international phone number of 8 to 15 digits, country code first (got "${input}")`);
	}
	return { jid: `${digits}@${USER_DOMAIN}`, phone: digits, isGroup: false };
}

export const userJid = (phone: string) => `${phone}@${USER_DOMAIN}`;

/** A person's address (not a group): what sends a message, or what is on the network. */
export function parseUser(input: string, field: string): Address & { phone: string } {
	const address = parseAddress(input, field);
	if (!address.phone) throw badRequest(`${field} must be a phone number or a user JID, not a group (got "${input}")`);
	return address as Address & { phone: string };
}
