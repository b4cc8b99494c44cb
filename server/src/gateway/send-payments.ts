import { z } from 'zod';
import { route, type Route } from '../http/route';
import { badRequest } from '../http/errors';
import { httpUrl, nonEmpty, recipient } from '../http/schema';
import { loadMedia } from '../media/load';
import { pickCommon, recipientOf, repeatedSend, sendMessage } from './sending';
import { messageAnswer } from './views';
import { idempotent } from './idempotency';

/** The common fields /send/request-payment and /send/pix-button list (no `forward`). */
const PAYMENT_COMMON = pickCommon('replyid', 'mentions', 'delay', 'readchat', 'readmessages', 'track_source', 'track_id', 'async');

const PIX_TYPES = ['CPF', 'CNPJ', 'PHONE', 'EMAIL', 'EVP'] as const;
type PixType = (typeof PIX_TYPES)[number];

/** The receiver name shown when none is given. */
const DEFAULT_PIX_NAME = 'Pix';

/** CPF check digits: weights 10..2 (then 11..2) over the digits before, remainder of 10 x sum by 11 (10 counts as 0). */
function cpfValid(digits: string): boolean {
	if (!/^\d{11}$/.test(digits) || /^(\d)\1+$/.test(digits)) return false;
	const check = (length: number) => {
		let sum = 0;
		for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
		return ((sum * 10) % 11) % 10;
	};
	return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

/** CNPJ check digits: weights 5..2,9..2 (then 6..2,9..2), 11 minus the remainder by 11 (0 when that remainder is under 2). */
function cnpjValid(digits: string): boolean {
	if (!/^\d{14}$/.test(digits) || /^(\d)\1+$/.test(digits)) return false;
	const check = (length: number) => {
		let sum = 0;
		for (let i = 0, weight = length - 7; i < length; i++, weight = weight === 2 ? 9 : weight - 1) sum += Number(digits[i]) * weight;
		const rest = sum % 11;
		return rest < 2 ? 0 : 11 - rest;
	};
	return check(12) === Number(digits[12]) && check(13) === Number(digits[13]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const email = z.email();

/** How each key type is written down and checked; `normalise` gives the key as stored, or undefined when it is not valid. */
const PIX_KEYS: Record<PixType, { rule: string; normalise: (key: string) => string | undefined }> = {
	CPF: {
		rule: 'a CPF: 11 digits with valid check digits',
		normalise: (key) => {
			const digits = key.replace(/[\s.-]/g, '');
			return cpfValid(digits) ? digits : undefined;
		},
	},
	CNPJ: {
		rule: 'a CNPJ: 14 digits with valid check digits',
		normalise: (key) => {
			const digits = key.replace(/[\s./-]/g, '');
			return cnpjValid(digits) ? digits : undefined;
		},
	},
	PHONE: {
		rule: 'a phone number in international format: 8 to 15 digits, country code first',
		normalise: (key) => {
			const digits = key.replace(/[\s().-]/g, '').replace(/^\+/, '');
			return /^\d{8,15}$/.test(digits) ? `+${digits}` : undefined;
		},
	},
	EMAIL: {
		rule: 'an email address',
		normalise: (key) => (email.safeParse(key).success ? key : undefined),
	},
	EVP: {
		rule: 'a random key (EVP): a UUID such as 123e4567-e89b-12d3-a456-426614174000',
		normalise: (key) => (UUID.test(key) ? key.toLowerCase() : undefined),
	},
};

/** Checks an instant-payment key against its type; answers the key as stored (digits only, `+` before phones). */
function pixKey(type: PixType, key: string): string {
	const normalised = PIX_KEYS[type].normalise(key.trim());
	if (normalised === undefined) throw badRequest(`pixKey must be ${PIX_KEYS[type].rule}, as pixType is ${type} (got "${key}")`);
	return normalised;
}

/** Bank-slip line codes ("linha digitável"): 47 digits (bank slips) or 48 (utility and tax slips), dots and spaces allowed. */
function boletoCode(code: string): string {
	const digits = code.replace(/[\s.-]/g, '');
	if (!/^\d{47,48}$/.test(digits)) throw badRequest(`boletoCode must be a bank-slip line code of 47 or 48 digits (got "${code}")`);
	return digits;
}

/** Throws one 400 naming every problem; used for rules that tie fields together. */
function refuse(problems: string[]) {
	if (problems.length) throw badRequest(problems.join('; '));
}

/** Payment requests and instant-payment-key buttons. */
export const paymentRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/wdm/v1/send/request-payment',
		auth: 'instance',
		...idempotent,
		summary: 'Send a payment request: an amount, payable by instant-payment key, bank slip or payment link',
		body: z.strictObject({
			number: recipient,
			amount: z.number().positive(),
			currency: z
				.string()
				.regex(/^[A-Z]{3}$/, { error: 'must be a three-letter currency code such as BRL' })
				.default('BRL'),
			title: nonEmpty.optional(),
			text: z.string().min(1).optional(),
			footer: nonEmpty.optional(),
			itemName: nonEmpty.optional(),
			invoiceNumber: nonEmpty.optional(),
			pixKey: nonEmpty.optional(),
			pixType: z.enum(PIX_TYPES).optional(),
			pixName: nonEmpty.optional(),
			paymentLink: httpUrl.optional(),
			fileUrl: httpUrl.optional(),
			fileName: z.string().trim().min(1).max(255).optional(),
			boletoCode: nonEmpty.optional(),
			...PAYMENT_COMMON,
		}),
		answer: messageAnswer,
		handler: async (ctx) => {
			const { body, services } = ctx;
			refuse([
				...(body.pixKey && !body.pixType ? ['pixType is required with pixKey'] : []),
				...(body.pixType && !body.pixKey ? ['pixKey is required with pixType'] : []),
				...(body.pixName && !body.pixKey ? ['pixName applies only with pixKey'] : []),
				...(body.fileName && !body.fileUrl ? ['fileName applies only with fileUrl'] : []),
			]);
			const pix = body.pixKey && body.pixType ? { type: body.pixType, key: pixKey(body.pixType, body.pixKey), name: body.pixName ?? DEFAULT_PIX_NAME } : null;
			const boleto = body.boletoCode ? { code: boletoCode(body.boletoCode) } : null;
			const methods = [...(pix ? ['pix'] : []), ...(boleto ? ['boleto'] : []), ...(body.paymentLink ? ['link'] : [])];
			// A repeat of an earlier keyed send downloads nothing (nor is refused by what changed since).
			const repeat = repeatedSend(ctx);
			if (repeat) return repeat;
			// Refuse before downloading the attachment when the message could not go out anyway.
			services.messaging.check(ctx.device, recipientOf(body.number));
			services.messaging.quotedOf(ctx.device, body.replyid);
			const file = body.fileUrl
				? await loadMedia(body.fileUrl, 'fileUrl', services.media, { fileName: body.fileName })
				: undefined;
			return sendMessage(ctx, body.number, body, {
				type: 'requestPayment',
				text: body.text ?? null,
				file,
				content: {
					payment: {
						amount: body.amount,
						currency: body.currency,
						title: body.title ?? null,
						footer: body.footer ?? null,
						itemName: body.itemName ?? null,
						invoiceNumber: body.invoiceNumber ?? null,
						methods,
						pix,
						boleto,
						link: body.paymentLink ?? null,
					},
				},
			});
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/send/pix-button',
		auth: 'instance',
		...idempotent,
		summary: 'Send a button that copies an instant-payment (Pix) key',
		body: z.strictObject({
			number: recipient,
			pixType: z.enum(PIX_TYPES),
			pixKey: nonEmpty,
			pixName: nonEmpty.optional(),
			...PAYMENT_COMMON,
		}),
		answer: messageAnswer,
		handler: (ctx) => {
			const { body } = ctx;
			return sendMessage(ctx, body.number, body, {
				type: 'pixButton',
				text: null,
				content: { pix: { type: body.pixType, key: pixKey(body.pixType, body.pixKey), name: body.pixName ?? DEFAULT_PIX_NAME } },
			});
		},
	}),
];
