import { z } from 'zod';
import { route } from '../http/route';
import { badRequest, networkFailure, notFound } from '../http/errors';
import { recipient } from '../http/schema';
import { parseAddress } from '../network/jid';
import type { Services } from '../services';
import type { ChatColumn, ChatCondition, Comparison } from '../store/chat-query';
import type { ChatRow, DeviceRow } from '../store/types';
import { chatAnswer, chatView, nextPage, pageAnswer } from './views';

/** As on the network's apps: at most this many chats are pinned at a time. */
export const MAX_PINNED = 3;

/** `muteEndTime`: hours to mute for (8 hours, 1 week), 0 to unmute, -1 for ever. */
const MUTE_HOURS = [0, 8, 168, -1] as const;
const HOUR_MS = 3_600_000;

const DELETE_FLAGS = ['deleteChatDB', 'deleteMessagesDB', 'deleteChatNetwork'] as const;

/** The chat a route names; a device has a chat once a message was exchanged (or the chat was labelled). */
function chatOf(services: Services, device: DeviceRow, number: string): ChatRow {
	const { jid } = parseAddress(number, 'number');
	const chat = services.store.chats.get(device.id, jid);
	if (!chat) throw notFound(`number: no chat with ${jid} on this device (a chat exists once a message was exchanged)`);
	return chat;
}

type ChatState = Parameters<Services['store']['chats']['setState']>[2];

/**
 * Changes a chat's state on the network (so the device must be connected), in one transaction with
 * what `change` does, and tells the webhooks with a `chats` event when the chat shows anything new.
 */
function changeChat(services: Services, device: DeviceRow, number: string, change: (chat: ChatRow) => ChatState) {
	const { store, events, messaging } = services;
	return store.tx(() => {
		const chat = chatOf(services, device, number);
		messaging.checkConnected(device);
		const before = chatView(chat);
		const after = chatView(store.chats.setState(device.id, chat.chatid, change(chat)));
		if (JSON.stringify(after) !== JSON.stringify(before)) events.emit(device, 'chats', after);
		return after;
	});
}

/** What a filter compares against: a column of a given kind, or the chat's label ids. */
type Attribute = { kind: 'text' | 'number' | 'boolean'; column: ChatColumn } | { kind: 'label' };

/** Every field of the chat view, as /chat/find filters and sorts on it. */
export const CHAT_ATTRIBUTES: Record<string, Attribute> = {
	id: { kind: 'text', column: 'id' },
	wa_chatid: { kind: 'text', column: 'chatid' },
	wa_name: { kind: 'text', column: 'name' },
	phone: { kind: 'text', column: 'phone' },
	wa_isGroup: { kind: 'boolean', column: 'is_group' },
	wa_isPinned: { kind: 'boolean', column: 'pinned' },
	wa_archived: { kind: 'boolean', column: 'archived' },
	wa_muteEndTime: { kind: 'number', column: 'mute_end' },
	wa_unreadCount: { kind: 'number', column: 'unread' },
	wa_lastMsgTimestamp: { kind: 'number', column: 'last_msg_ts' },
	wa_lastMessageType: { kind: 'text', column: 'last_msg_type' },
	wa_label: { kind: 'label' },
};

const ATTRIBUTE_NAMES = Object.keys(CHAT_ATTRIBUTES);

/** The attribute of that name; own keys only, so that `constructor` is no attribute. */
const attributeOf = (name: string): Attribute | undefined => (Object.hasOwn(CHAT_ATTRIBUTES, name) ? CHAT_ATTRIBUTES[name] : undefined);
const SORT_FIELDS = ATTRIBUTE_NAMES.filter((name) => CHAT_ATTRIBUTES[name].kind !== 'label');

/** Which comparisons each kind of attribute takes (the prefix of a filter value; none is `=`). */
const OPERATORS: Record<Attribute['kind'], readonly Comparison[]> = {
	text: ['=', '!=', '~', '>', '>=', '<', '<='],
	number: ['=', '!=', '>', '>=', '<', '<='],
	boolean: ['=', '!='],
	label: ['=', '!='],
};

/** A filter value's operator prefix; longer ones first, so that `>=5` is not read as `>` and `=5`. */
const PREFIX = /^(~|!=|>=|<=|>|<|=)?([\s\S]*)$/;

type FilterValue = string | number | boolean;

/** One filter of /chat/find (`wa_unreadCount: ">0"`) as a condition on the store's columns. */
function condition(name: string, raw: FilterValue): ChatCondition {
	const attribute = attributeOf(name);
	if (!attribute) throw badRequest(`${name} is not a chat attribute; filter on ${ATTRIBUTE_NAMES.join(', ')}`);
	let op: Comparison = '=';
	let value: FilterValue = raw;
	if (typeof raw === 'string') {
		const [, prefix, rest] = PREFIX.exec(raw)!;
		op = (prefix ?? '=') as Comparison;
		value = rest;
	}
	const allowed = OPERATORS[attribute.kind];
	const got = `(got ${JSON.stringify(raw)})`;
	if (!allowed.includes(op)) {
		throw badRequest(`${name}: the operator "${op}" does not apply to ${attribute.kind} attributes; use ${allowed.map((o) => `"${o}"`).join(', ')} ${got}`);
	}
	switch (attribute.kind) {
		case 'boolean': {
			const text = String(value).trim().toLowerCase();
			if (text !== 'true' && text !== 'false') throw badRequest(`${name} must be true or false, optionally after "!=" ${got}`);
			return { column: attribute.column, op, value: text === 'true' ? 1 : 0 };
		}
		case 'number': {
			const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			if (typeof number !== 'number' || !Number.isFinite(number)) {
				throw badRequest(`${name} must be a number, optionally after one of ${allowed.join(' ')} ${got}`);
			}
			return { column: attribute.column, op, value: number };
		}
		case 'text':
			if (typeof value === 'boolean') throw badRequest(`${name} must be text, optionally after one of ${allowed.join(' ')} ${got}`);
			return { column: attribute.column, op, value: String(value) };
		case 'label':
			if (typeof value === 'boolean' || String(value).trim() === '') {
				throw badRequest(`${name} must be a label id, optionally after "!=" ${got}`);
			}
			return { label: String(value).trim(), has: op === '=' };
	}
}

/** `-wa_lastMsgTimestamp` -> the column, descending. */
function sortOf(sort: string): { sort: ChatColumn; descending: boolean } {
	const [, sign, name] = /^([+-]?)(.*)$/.exec(sort.trim())!;
	const attribute = attributeOf(name);
	if (!attribute || attribute.kind === 'label') {
		throw badRequest(`sort must be a chat field, with a leading "-" for descending: one of ${SORT_FIELDS.join(', ')} (got "${sort}")`);
	}
	return { sort: attribute.column, descending: sign === '-' };
}

const filterValue = z.union([z.string().max(500), z.number(), z.boolean()]);

export const chatRoutes = [
	route({
		method: 'POST',
		path: '/wdm/v1/chat/delete',
		auth: 'instance',
		summary: 'Delete a chat from the gateway database and/or the network, and/or its messages',
		body: z.strictObject({
			number: recipient,
			deleteChatDB: z.boolean().default(false),
			deleteMessagesDB: z.boolean().default(false),
			deleteChatNetwork: z.boolean().default(false),
		}),
		answer: z.object({ number: z.string(), chatDeleted: z.boolean(), messagesDeleted: z.number(), deletedOnNetwork: z.boolean() }),
		errors: [404],
		handler: ({ services, device, body }) => {
			if (!DELETE_FLAGS.some((flag) => body[flag])) throw badRequest(`set at least one of ${DELETE_FLAGS.join(', ')} to true`);
			const { jid } = parseAddress(body.number, 'number');
			const { store, events, messaging, presence } = services;
			return store.tx(() => {
				const chat = store.chats.get(device.id, jid);
				// After deleteChatDB the messages may still be stored: they can be deleted later.
				if (!chat && !store.messages.find(device.id, { chatid: jid, limit: 0, offset: 0 }).total) {
					throw notFound(`number: no chat and no messages with ${jid} on this device`);
				}
				// Deleting on the network needs the network; the gateway's own records do not.
				if (body.deleteChatNetwork) messaging.checkConnected(device);
				const messagesDeleted = body.deleteMessagesDB ? store.messages.deleteOfChat(device.id, jid) : 0;
				const chatDeleted = !!chat && (body.deleteChatDB || body.deleteChatNetwork) && store.chats.delete(device.id, jid);
				const deletedOnNetwork = !!chat && body.deleteChatNetwork;
				if (deletedOnNetwork) {
					presence.cancel(device, jid);
					events.emit(device, 'chats', { ...chatView(chat), deleted: true });
				}
				return { number: jid, chatDeleted, messagesDeleted, deletedOnNetwork };
			});
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/chat/archive',
		auth: 'instance',
		summary: 'Archive or unarchive a chat (archiving unpins it)',
		body: z.strictObject({ number: recipient, archive: z.boolean() }),
		answer: chatAnswer,
		errors: [404],
		handler: ({ services, device, body }) =>
			changeChat(services, device, body.number, () => (body.archive ? { archived: 1, pinned: 0 } : { archived: 0 })),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/chat/read',
		auth: 'instance',
		summary: 'Mark a chat read (its received messages too) or unread',
		body: z.strictObject({ number: recipient, read: z.boolean() }),
		answer: chatAnswer,
		errors: [404],
		handler: ({ services, device, body }) =>
			changeChat(services, device, body.number, (chat) => {
				if (!body.read) return { unread: Math.max(chat.unread, 1) };
				services.messaging.readInbound(device, chat.chatid);
				return { unread: 0 };
			}),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/chat/mute',
		auth: 'instance',
		summary: 'Mute a chat for 8 hours, a week or for ever, or unmute it',
		body: z.strictObject({ number: recipient, muteEndTime: z.literal(MUTE_HOURS) }),
		answer: chatAnswer,
		errors: [404],
		handler: ({ services, device, body }) => {
			const hours = body.muteEndTime;
			const muteEnd = hours === 0 || hours === -1 ? hours : Date.now() + hours * HOUR_MS;
			return changeChat(services, device, body.number, () => ({ mute_end: muteEnd }));
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/chat/pin',
		auth: 'instance',
		summary: `Pin or unpin a chat (at most ${MAX_PINNED} chats are pinned; pinning unarchives)`,
		body: z.strictObject({ number: recipient, pin: z.boolean() }),
		answer: chatAnswer,
		errors: [404],
		handler: ({ services, device, body }) =>
			changeChat(services, device, body.number, (chat) => {
				if (!body.pin) return { pinned: 0 };
				const pinned = services.store.chats.pinned(device.id).filter((other) => other.id !== chat.id);
				if (pinned.length >= MAX_PINNED) {
					throw networkFailure(`only ${MAX_PINNED} chats can be pinned; unpin one of ${pinned.map((c) => c.chatid).join(', ')} first`);
				}
				return { pinned: 1, archived: 0 };
			}),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/chat/find',
		auth: 'instance',
		summary: 'Find chats by any attribute (prefix a value with ~, !=, >=, >, <=, <), sorted, with paging',
		body: z
			.object({
				operator: z
					.string()
					.transform((v) => v.toUpperCase())
					.pipe(z.enum(['AND', 'OR']))
					.default('AND'),
				sort: z.string().default('-wa_lastMsgTimestamp'),
				limit: z.number().int().min(1).max(1000).default(100),
				offset: z.number().int().min(0).default(0),
			})
			.catchall(
				z.union([filterValue, z.array(filterValue).min(1).max(20)], {
					error: 'must be a string, a number, true or false, or a list of up to 20 of them',
				}),
			),
		answer: z.object({ chats: z.array(chatAnswer), ...pageAnswer }),
		handler: ({ services, device, body }) => {
			const { operator, sort, limit, offset, ...filters } = body;
			// Several values for one attribute (a list) are several conditions: `[">=100", "<200"]` is a range.
			const conditions = Object.entries(filters).flatMap(([name, value]) =>
				(Array.isArray(value) ? value : [value]).map((v) => condition(name, v as FilterValue)),
			);
			const { rows, total } = services.store.chats.find(device.id, { conditions, match: operator, ...sortOf(sort), limit, offset });
			return { chats: rows.map(chatView), total, limit, offset, ...nextPage(offset, rows.length, total) };
		},
	}),
];
