import { z } from 'zod';
import { route, type Route } from '../http/route';
import { badRequest } from '../http/errors';
import { httpUrl, nonEmpty, recipient } from '../http/schema';
import { parseUser } from '../network/jid';
import { pickCommon, sendMessage } from './sending';
import { messageAnswer } from './views';
import { idempotent } from './idempotency';

/** The common fields /send/contact, /send/location and /send/location-button list. */
const CARD_COMMON = pickCommon('replyid', 'mentions', 'delay', 'readchat', 'readmessages', 'forward', 'track_source', 'track_id', 'async');

/** `phoneNumber` holds one or more numbers separated by commas; each must be a phone number (digits, not a group or a @lid). */
function phoneNumbers(input: string): string[] {
	const entries = input.split(',').map((entry) => entry.trim()).filter(Boolean);
	if (!entries.length) throw badRequest('phoneNumber must hold at least one phone number (separate several with commas)');
	const numbers = entries.map((entry) => {
		const address = parseUser(entry, 'phoneNumber');
		if (address.jid.endsWith('@lid')) throw badRequest(`phoneNumber must be a phone number, not a @lid id (got "${entry}")`);
		return address.phone;
	});
	return [...new Set(numbers)];
}

/** vCard text values escape backslashes, commas, semicolons and line breaks (RFC 2426, 4). */
const escapeText = (value: string) => value.replace(/[\\,;]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');

/** Lines longer than 75 octets are folded: continued on the next line after one space (RFC 2425, 5.8.1). */
function fold(line: string): string {
	const parts = [''];
	let octets = 0;
	for (const char of line) {
		const size = Buffer.byteLength(char);
		// A continuation line starts with the space, which counts.
		if (octets + size > (parts.length === 1 ? 75 : 74)) {
			parts.push('');
			octets = 0;
		}
		parts[parts.length - 1] += char;
		octets += size;
	}
	return parts.join('\r\n ');
}

interface ContactCard {
	fullName: string;
	phoneNumbers: string[];
	organization?: string;
	email?: string;
	url?: string;
}

/** The contact as a vCard 3.0, one TEL line per number with its network id (`waid`), as the apps read it. */
function vcard(card: ContactCard): string {
	const lines = [
		'BEGIN:VCARD',
		'VERSION:3.0',
		`N:;${escapeText(card.fullName)};;;`,
		`FN:${escapeText(card.fullName)}`,
		...(card.organization ? [`ORG:${escapeText(card.organization)}`] : []),
		...card.phoneNumbers.map((phone) => `TEL;type=CELL;type=VOICE;waid=${phone}:+${phone}`),
		...(card.email ? [`EMAIL;type=INTERNET:${escapeText(card.email)}`] : []),
		...(card.url ? [`URL:${card.url}`] : []),
		'END:VCARD',
	];
	return lines.map(fold).join('\r\n');
}

/** Contact cards, locations and location-request buttons. */
export const sendCardRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/wdm/v1/send/contact',
		auth: 'instance',
		...idempotent,
		summary: 'Send a contact card (vCard) with one or more phone numbers',
		body: z.strictObject({
			number: recipient,
			fullName: nonEmpty,
			phoneNumber: nonEmpty,
			organization: nonEmpty.optional(),
			email: z.email({ error: 'must be an email address' }).optional(),
			url: httpUrl.optional(),
			...CARD_COMMON,
		}),
		answer: messageAnswer,
		handler: (ctx) => {
			const { body } = ctx;
			const card: ContactCard = {
				fullName: body.fullName,
				phoneNumbers: phoneNumbers(body.phoneNumber),
				organization: body.organization,
				email: body.email,
				url: body.url,
			};
			return sendMessage(ctx, body.number, body, {
				type: 'contact',
				text: null,
				content: {
					contact: { ...card, organization: card.organization ?? null, email: card.email ?? null, url: card.url ?? null },
					vcard: vcard(card),
				},
			});
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/send/location',
		auth: 'instance',
		...idempotent,
		summary: 'Send a location: latitude and longitude, with an optional place name and address',
		body: z.strictObject({
			number: recipient,
			latitude: z.number().min(-90).max(90),
			longitude: z.number().min(-180).max(180),
			name: nonEmpty.optional(),
			address: nonEmpty.optional(),
			...CARD_COMMON,
		}),
		answer: messageAnswer,
		handler: (ctx) => {
			const { body } = ctx;
			return sendMessage(ctx, body.number, body, {
				type: 'location',
				text: null,
				content: { location: { latitude: body.latitude, longitude: body.longitude, name: body.name ?? null, address: body.address ?? null } },
			});
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/send/location-button',
		auth: 'instance',
		...idempotent,
		summary: "Send a text with a button that asks for the recipient's location",
		body: z.strictObject({ number: recipient, text: z.string().min(1), ...CARD_COMMON }),
		answer: messageAnswer,
		handler: (ctx) => {
			const { body } = ctx;
			return sendMessage(ctx, body.number, body, {
				type: 'locationButton',
				text: body.text,
				// The network adds the button itself; the content shows what the recipient gets.
				content: { button: { type: 'send_location', text: 'Send location' } },
			});
		},
	}),
];
