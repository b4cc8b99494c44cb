import { z } from 'zod';
import { DEVICE_STATUSES, type ChatRow, type DeviceRow, type MessageRow, type WebhookRow } from '../store/types';
import { userJid } from '../network/jid';
import type { GroupParticipantRow, GroupRow } from '../store/types';

/** How the gateway shows its records to clients (field names per DESIGN.md). */

/** A device as the gateway shows it; its instance token only to its owner's list and to its creation. */
export const deviceAnswer = z.object({
	name: z.string(),
	status: z.enum(DEVICE_STATUSES),
	phone: z.string().nullable().meta({ description: 'The number of the connected account; null when not connected' }),
	jid: z.string().nullable(),
	profileName: z.string().nullable(),
	isBusiness: z.boolean(),
	createdAt: z.number().meta({ description: 'Unix time, milliseconds' }),
	lastDisconnect: z.number().nullable(),
	lastDisconnectReason: z.string().nullable(),
	token: z.string().optional().meta({ description: "The device's instance token" }),
});

export function deviceView(row: DeviceRow, token?: string): z.output<typeof deviceAnswer> {
	return {
		name: row.name,
		status: row.status,
		phone: row.phone && row.status === 'connected' ? row.phone : null,
		jid: row.phone && row.status === 'connected' ? userJid(row.phone) : null,
		profileName: row.profile_name,
		isBusiness: row.is_business === 1,
		createdAt: row.created_at,
		lastDisconnect: row.last_disconnect,
		lastDisconnectReason: row.last_disconnect_reason,
		...(token ? { token } : {}),
	};
}

export const fileUrl = (baseUrl: string, fileId: string, fileName: string) =>
	`${baseUrl}/wp-content/uploads/wdm/${fileId}/${encodeURIComponent(fileName)}`;

/** A stored message as the gateway shows it. */
export const messageAnswer = z.object({
	id: z.string(),
	messageid: z.string().meta({ description: "The network's id of the message" }),
	chatid: z.string(),
	sender: z.string(),
	senderName: z.string().nullable(),
	fromMe: z.boolean(),
	isGroup: z.boolean(),
	messageType: z.string(),
	text: z.string().nullable(),
	messageTimestamp: z.number().meta({ description: 'Unix time, milliseconds' }),
	status: z.enum(['queued', 'sent', 'delivered', 'read', 'played', 'failed', 'deleted']),
	quoted: z.string().nullable(),
	mentions: z.array(z.string()),
	forwarded: z.boolean(),
	edited: z.boolean(),
	reaction: z.string().nullable(),
	reactions: z.array(z.object({ sender: z.string(), text: z.string(), timestamp: z.number() })),
	fileURL: z.string().nullable(),
	mimetype: z.string().nullable(),
	fileName: z.string().nullable(),
	content: z.record(z.string(), z.unknown()).meta({ description: 'What the message carries besides its text, by type' }),
	track_source: z.string().nullable(),
	track_id: z.string().nullable(),
	wasSentByApi: z.boolean(),
});

export function messageView(row: MessageRow, baseUrl: string): z.output<typeof messageAnswer> {
	return {
		id: row.id,
		messageid: row.messageid,
		chatid: row.chatid,
		sender: row.sender,
		senderName: row.sender_name,
		fromMe: row.from_me === 1,
		isGroup: row.is_group === 1,
		messageType: row.message_type,
		text: row.text,
		messageTimestamp: row.timestamp,
		status: row.status,
		quoted: row.quoted,
		mentions: JSON.parse(row.mentions) as string[],
		forwarded: row.forwarded === 1,
		edited: row.edited === 1,
		reaction: row.reaction,
		reactions: JSON.parse(row.reactions) as { sender: string; text: string; timestamp: number }[],
		fileURL: row.file_id ? fileUrl(baseUrl, row.file_id, row.file_name ?? 'file') : null,
		mimetype: row.mimetype,
		fileName: row.file_name,
		content: JSON.parse(row.content) as Record<string, unknown>,
		track_source: row.track_source,
		track_id: row.track_id,
		wasSentByApi: row.was_sent_by_api === 1,
	};
}
export type MessageView = ReturnType<typeof messageView>;

/** A chat as the gateway shows it. */
export const chatAnswer = z.object({
	id: z.string(),
	wa_chatid: z.string(),
	wa_name: z.string(),
	phone: z.string(),
	wa_isGroup: z.boolean(),
	wa_isPinned: z.boolean(),
	wa_archived: z.boolean(),
	wa_muteEndTime: z.number().meta({ description: 'Unix time, milliseconds, when the mute ends; 0 not muted, -1 for ever' }),
	wa_unreadCount: z.number(),
	wa_lastMsgTimestamp: z.number(),
	wa_lastMessageType: z.string(),
	wa_label: z.array(z.string()),
});

export function chatView(row: ChatRow): z.output<typeof chatAnswer> {
	return {
		id: row.id,
		wa_chatid: row.chatid,
		wa_name: row.name,
		phone: row.is_group ? '' : row.chatid.split('@')[0],
		wa_isGroup: row.is_group === 1,
		wa_isPinned: row.pinned === 1,
		wa_archived: row.archived === 1,
		wa_muteEndTime: row.mute_end,
		wa_unreadCount: row.unread,
		wa_lastMsgTimestamp: row.last_msg_ts,
		wa_lastMessageType: row.last_msg_type,
		wa_label: JSON.parse(row.labels) as string[],
	};
}

/** A subscription as GET shows it: everything but the secret. */
export const webhookAnswer = z.object({
	id: z.string(),
	url: z.string(),
	events: z.array(z.string()),
	excludeMessages: z.array(z.string()),
	enabled: z.boolean(),
	createdAt: z.number(),
	chatid: z.string().optional(),
	expiresAt: z.number().optional(),
});

export function webhookView(row: WebhookRow): z.output<typeof webhookAnswer> {
	return {
		id: row.id,
		url: row.url,
		events: JSON.parse(row.events) as string[],
		excludeMessages: JSON.parse(row.exclude_messages) as string[],
		enabled: row.enabled === 1,
		createdAt: row.created_at,
		// Shown only when set: most subscriptions are for every chat and for good.
		...(row.chatid !== null ? { chatid: row.chatid } : {}),
		...(row.expires_at !== null ? { expiresAt: row.expires_at } : {}),
	};
}

/** A group or community as its participants see it; a community lists its groups. */
export const groupAnswer = z.object({
	jid: z.string(),
	name: z.string(),
	description: z.string(),
	owner: z.string().nullable(),
	createdAt: z.number(),
	announce: z.boolean(),
	locked: z.boolean(),
	joinApprovalMode: z.boolean(),
	isCommunity: z.boolean(),
	isCommunityAnnounce: z.boolean(),
	community: z.string().nullable(),
	imageURL: z.string().nullable(),
	size: z.number(),
	participants: z.array(z.object({ jid: z.string(), phone: z.string(), isAdmin: z.boolean(), isSuperAdmin: z.boolean() })).optional(),
	announcementGroup: z.string().nullable().optional().meta({ description: "A community's announcement group" }),
	groups: z.array(z.object({ jid: z.string(), name: z.string() })).optional().meta({ description: "A community's groups" }),
});

/** The outcome for one participant (or one group of a community): `status` 200 when done. */
export const itemResultAnswer = z.object({ jid: z.string(), ok: z.boolean(), status: z.number(), error: z.string().nullable() });

/** The paging fields of a list's answer (`nextPage`). */
export const pageAnswer = { total: z.number(), limit: z.number(), offset: z.number(), nextOffset: z.number().nullable(), hasMore: z.boolean() };

/** `withParticipants: false` leaves the list out (`size` stays). */
export function groupView(row: GroupRow, participants: GroupParticipantRow[], baseUrl: string, withParticipants = true) {
	return {
		jid: row.jid,
		name: row.name,
		description: row.description,
		owner: row.owner ? userJid(row.owner) : null,
		createdAt: row.created_at,
		announce: row.announce === 1,
		locked: row.locked === 1,
		joinApprovalMode: row.join_approval === 1,
		isCommunity: row.kind === 'community',
		isCommunityAnnounce: row.kind === 'announcement',
		community: row.community,
		imageURL: row.image_file_id ? fileUrl(baseUrl, row.image_file_id, row.image_name ?? 'image') : null,
		size: participants.length,
		...(withParticipants
			? {
					participants: participants.map((p) => ({
						jid: userJid(p.phone),
						phone: p.phone,
						isAdmin: p.role !== 'member',
						isSuperAdmin: p.role === 'superadmin',
					})),
				}
			: {}),
	};
}

/** The end of a paged list's answer: where the next page starts (null after the last one), and whether it does. */
export function nextPage(offset: number, count: number, total: number) {
	const hasMore = offset + count < total;
	return { nextOffset: hasMore ? offset + count : null, hasMore };
}
