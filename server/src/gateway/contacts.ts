import { z } from 'zod';
import { route } from '../http/route';
import { badRequest, notFound } from '../http/errors';
import { recipient } from '../http/schema';
import { type Address, parseAddress, parseUser } from '../network/jid';
import type { Services } from '../services';
import type { ContactRow, DeviceRow } from '../store/types';
import { chatAnswer, chatView, groupAnswer, nextPage, pageAnswer } from './views';

/** /contacts/list pages: `pageSize` (alias `limit`) 1..MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE by default. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
/** The most entries one /chat/check takes. */
export const MAX_CHECK = 500;

export const contactAnswer = z.object({ jid: z.string(), phone: z.string(), name: z.string(), createdAt: z.number(), updatedAt: z.number() });

export function contactView(row: ContactRow): z.output<typeof contactAnswer> {
	return { jid: row.jid, phone: row.jid.split('@')[0], name: row.name, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** A person's or a group's address; the device's status feed (`status@broadcast`) is neither. */
function addressOf(input: string, field: string): Address {
	const address = parseAddress(input, field);
	if (!address.isGroup && !address.phone) throw badRequest(`${field} must be a phone number, a user JID or a group JID (got "${input}")`);
	return address;
}

/** What the network shows of a person's number: whether it is on it, its profile name, and a business's verified name. */
function person(services: Services, device: DeviceRow, phone: string) {
	const owner = services.store.devices.connectedByPhone(phone);
	if (owner) return { isInWhatsapp: true, profileName: owner.profile_name, verifiedName: owner.is_business ? owner.profile_name : null };
	const { numbers } = services.store;
	const isInWhatsapp = numbers.onNetwork(device.user_id, phone);
	return { isInWhatsapp, profileName: isInWhatsapp ? (numbers.name(device.user_id, phone) ?? null) : null, verifiedName: null };
}

/** A chat's view, or what it would show before any message (`id` null) when the device has no such chat. */
function chatFields(services: Services, device: DeviceRow, address: Address) {
	const chat = services.store.chats.get(device.id, address.jid);
	if (chat) return chatView(chat);
	const blank = { id: '', device_id: device.id, chatid: address.jid, name: '', is_group: address.isGroup ? 1 : 0, pinned: 0, archived: 0 };
	return { ...chatView({ ...blank, mute_end: 0, unread: 0, last_msg_ts: 0, last_msg_type: '', labels: '[]' }), id: null };
}

/** One entry of /chat/check's answer. */
const numberCheckAnswer = z.object({
	query: z.union([z.string(), z.number()]),
	jid: z.string().nullable(),
	isInWhatsapp: z.boolean(),
	isGroup: z.boolean(),
	name: z.string().nullable(),
	verifiedName: z.string().nullable(),
	error: z.string().optional().meta({ description: 'Why the entry is malformed' }),
});

/** /chat/details: the chat's fields (`id` null before any message) with the person's or the group's. */
const chatDetailsAnswer = chatAnswer.extend({
	id: z.string().nullable(),
	jid: z.string(),
	isGroup: z.boolean(),
	name: z.string(),
	isInWhatsapp: z.boolean(),
	hasChat: z.boolean(),
	isMember: z.boolean().optional().meta({ description: 'A group: whether the device takes part in it' }),
	group: groupAnswer.nullable().optional(),
	contactName: z.string().nullable().optional(),
	profileName: z.string().nullable().optional(),
	verifiedName: z.string().nullable().optional(),
	isMe: z.boolean().optional(),
});

/** One entry of /chat/check: a malformed one carries the reason instead of failing the whole request. */
function check(services: Services, device: DeviceRow, query: string | number, field: string) {
	let address: Address;
	try {
		address = addressOf(String(query), field);
	} catch (error) {
		return { query, jid: null, isInWhatsapp: false, isGroup: false, name: null, verifiedName: null, error: (error as Error).message };
	}
	if (address.isGroup) {
		const group = services.store.groups.get(address.jid);
		return { query, jid: address.jid, isInWhatsapp: !!group, isGroup: true, name: group?.name ?? null, verifiedName: null };
	}
	const { isInWhatsapp, profileName, verifiedName } = person(services, device, address.phone!);
	return { query, jid: address.jid, isInWhatsapp, isGroup: false, name: profileName, verifiedName };
}

/** The device's saved contacts, and what the network says about numbers and groups. */
export const contactRoutes = [
	route({
		method: 'GET',
		path: '/wdm/v1/contacts',
		auth: 'instance',
		summary: 'List every contact saved on the device, by name',
		answer: z.array(contactAnswer),
		handler: ({ services, device }) => services.store.contacts.list(device.id).rows.map(contactView),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/contacts/list',
		auth: 'instance',
		summary: `List the saved contacts a page at a time (page 1 of ${DEFAULT_PAGE_SIZE} by default, at most ${MAX_PAGE_SIZE})`,
		body: z.strictObject({
			page: z.number().int().min(1).max(1_000_000).optional(),
			pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
			limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
			offset: z.number().int().min(0).optional(),
		}),
		answer: z.object({ contacts: z.array(contactAnswer), page: z.number(), pageSize: z.number(), totalPages: z.number(), ...pageAnswer }),
		handler: ({ services, device, body }) => {
			if (body.pageSize !== undefined && body.limit !== undefined && body.pageSize !== body.limit) {
				throw badRequest(`limit is another name for pageSize: give one of them (got pageSize ${body.pageSize} and limit ${body.limit})`);
			}
			if (body.page !== undefined && body.offset !== undefined) throw badRequest('give page or offset, not both');
			const size = body.pageSize ?? body.limit ?? DEFAULT_PAGE_SIZE;
			const offset = body.offset ?? ((body.page ?? 1) - 1) * size;
			const { rows, total } = services.store.contacts.list(device.id, { limit: size, offset });
			return {
				contacts: rows.map(contactView),
				total,
				page: Math.floor(offset / size) + 1,
				pageSize: size,
				totalPages: Math.ceil(total / size),
				limit: size,
				offset,
				...nextPage(offset, rows.length, total),
			};
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/contact/add',
		auth: 'instance',
		summary: 'Save a contact on the device; saving a saved number again renames it',
		body: z.strictObject({ phone: recipient, name: z.string().trim().min(1).max(100) }),
		answer: contactAnswer.extend({ created: z.boolean() }),
		handler: ({ services, device, body }) => {
			const { jid } = parseUser(body.phone, 'phone');
			const { store, events, messaging } = services;
			return store.tx(() => {
				// The address book syncs over the network: the device must be on it.
				messaging.checkConnected(device);
				const before = store.contacts.get(device.id, jid);
				const { contact, created } = store.contacts.save(device.id, jid, body.name);
				const view = contactView(contact);
				if (created || before?.name !== contact.name) events.emit(device, 'contacts', { action: created ? 'add' : 'update', contact: view });
				return { ...view, created };
			});
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/contact/remove',
		auth: 'instance',
		summary: 'Remove a saved contact from the device',
		body: z.strictObject({ phone: recipient }),
		answer: contactAnswer.extend({ removed: z.literal(true) }),
		errors: [404],
		handler: ({ services, device, body }) => {
			const { jid } = parseUser(body.phone, 'phone');
			const { store, events, messaging } = services;
			return store.tx(() => {
				if (!store.contacts.get(device.id, jid)) throw notFound(`phone: ${jid} is not a saved contact of this device`);
				messaging.checkConnected(device);
				const view = contactView(store.contacts.remove(device.id, jid)!);
				events.emit(device, 'contacts', { action: 'remove', contact: view });
				return { ...view, removed: true as const };
			});
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/chat/details',
		auth: 'instance',
		summary: "A contact's or group's details merged with the state of its chat",
		body: z.strictObject({ number: recipient }),
		answer: chatDetailsAnswer,
		errors: [404],
		handler: ({ services, device, body }) => {
			const address = addressOf(body.number, 'number');
			const chat = chatFields(services, device, address);
			if (address.isGroup) {
				const group = services.store.groups.get(address.jid);
				if (!group && chat.id === null) throw notFound(`number: group ${address.jid} is not known to this device`);
				// Only participants see who else takes part.
				const isMember = !!group && !!device.phone && !!services.store.groups.participant(group.jid, device.phone);
				return {
					...chat,
					jid: address.jid,
					isGroup: true,
					name: group?.name ?? chat.wa_name,
					isInWhatsapp: !!group,
					isMember,
					group: group ? services.groups.view(group, isMember) : null,
					hasChat: chat.id !== null,
				};
			}
			const phone = address.phone!;
			const saved = services.store.contacts.get(device.id, address.jid);
			const { isInWhatsapp, profileName, verifiedName } = person(services, device, phone);
			return {
				...chat,
				jid: address.jid,
				isGroup: false,
				// As the app shows a chat: the saved name first, then the name the person gave themselves.
				name: saved?.name || profileName || chat.wa_name || phone,
				contactName: saved?.name ?? null,
				profileName,
				verifiedName,
				isInWhatsapp,
				isMe: phone === device.phone,
				hasChat: chat.id !== null,
			};
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/chat/check',
		auth: 'instance',
		summary: `Check up to ${MAX_CHECK} numbers and group ids on the network; a malformed entry is reported in its place`,
		body: z.strictObject({
			numbers: z
				.array(z.union([z.string(), z.number()], { error: 'must be a number or JID, as text' }))
				.min(1)
				.max(MAX_CHECK),
		}),
		answer: z.array(numberCheckAnswer),
		handler: ({ services, device, body }) => {
			services.messaging.checkConnected(device);
			return body.numbers.map((query, i) => check(services, device, query, `numbers[${i}]`));
		},
	}),
];
