import crypto from 'node:crypto';
import type { Config } from '../config';
import type { Store } from '../store';
import type { DeviceRow, MessageRow } from '../store/types';
import type { Events } from '../webhooks/events';
import { badRequest, networkFailure } from '../http/errors';
import { chatView, messageView } from '../gateway/views';
import { type Address, parseAddress, STATUS_JID, userJid } from './jid';
import { groupSendRefusal } from './group-rules';
import type { Presence } from './presence';
import { NetworkRefusal, type NetworkRules, type Permit } from './rules';
import type { Media } from '../media/load';

/** A message as a send route hands it to the network. */
export interface Draft {
	to: Address;
	type: string;
	text?: string | null;
	/** Id of the replied-to message in the sender's store. */
	quoted?: string | null;
	mentions?: string[];
	forwarded?: boolean;
	/** Media to attach; it is stored with the message, in the same transaction. */
	file?: Media;
	content?: Record<string, unknown>;
	track_source?: string;
	track_id?: string;
	/** Mark the chat read / its latest messages read when sending. */
	readchat?: boolean;
	readmessages?: boolean;
}

type ReadFlags = Pick<Draft, 'readchat' | 'readmessages'>;

const AUDIO_TYPES = new Set(['audio', 'myaudio', 'ptt']);

/** One entry of a message's `reactions`. */
interface Reaction {
	sender: string;
	text: string;
	timestamp: number;
}

/**
 * Network message ids look like the real ones: `3EB0` and hex digits, here the time (12) then 40
 * random bits (10). Time first keeps new ids in order, so the indexes over them grow at their right
 * edge: a send dirties the same few pages as the sends before it instead of one random page per
 * index, and the commit writes that much less to the log. 40 bits keep ids of one millisecond apart.
 */
const newMessageId = () => {
	// randomUUID draws from a cached pool of entropy (randomBytes asks the system each time): its first
	// 8 hex digits and the 2 after the dash are random.
	const uuid = crypto.randomUUID();
	return `3EB0${Date.now().toString(16).padStart(12, '0')}${uuid.slice(0, 8)}${uuid.slice(9, 11)}`.toUpperCase();
};

/**
 * The simulated network's message traffic: sending, delivery to devices on this server, receipts,
 * and the other side's actions the sandbox plays (inbound messages, reads, reactions).
 */
export class Messaging {
	/**
	 * Receipts still to come, in the order they fall due (the delay is the same for all). One timer
	 * serves the queue: it fires a tenth of the delay after the first receipt is due and confirms, in one
	 * transaction, every receipt due by then. A receipt thus arrives `receiptDelayMs` to 1.1 x that after
	 * the send, never earlier, and under load many messages share one timer and one commit.
	 */
	private receipts: { id: string; deviceId: string; at: number }[] = [];
	private receiptTimer?: NodeJS.Timeout;

	constructor(
		private store: Store,
		private events: Events,
		private config: Config,
		private presence: Presence,
		private rules: NetworkRules,
		private baseUrl: () => string,
	) {}

	/** Confirms messages whose receipt was still due when the server stopped. */
	start() {
		for (const row of this.store.messages.awaitingReceipt()) this.scheduleReceipt(row);
	}

	stop() {
		clearTimeout(this.receiptTimer);
		this.receiptTimer = undefined;
		this.receipts = [];
	}

	/** Throws the network's refusal when the device is not on the network (not paired, or logged out). */
	checkConnected(device: DeviceRow) {
		if (device.status !== 'connected' || !device.phone) {
			throw networkFailure(`device '${device.name}' is not connected (status: ${device.status}); pair it with a QR code first`);
		}
	}

	/** Throws the network's refusal when this device cannot send to this address now. */
	check(device: DeviceRow, to: Address) {
		this.checkConnected(device);
		if (to.isGroup) {
			const refusal = groupSendRefusal(this.store, device.phone!, to.jid);
			if (refusal) throw networkFailure(refusal);
			return;
		}
		if (to.phone && !this.store.devices.connectedByPhone(to.phone) && !this.store.numbers.onNetwork(device.user_id, to.phone)) {
			throw new NetworkRefusal(500, `${to.phone} is not on the network`, 'wdm_network_error', 'not_on_network');
		}
	}

	/** A contact the device writes to enters its user's world: no other user may pair with that number. */
	private claim(device: DeviceRow, to: Address) {
		if (to.phone) this.store.numbers.claimContact(to.phone, device.user_id);
	}

	/** The message a draft replies to; a `replyid` not stored on this device is the client's mistake (400). */
	quotedOf(device: DeviceRow, id: string | null | undefined): MessageRow | undefined {
		if (!id) return undefined;
		const row = this.store.messages.byId(device.id, id);
		if (!row) throw badRequest(`replyid: no message with id "${id}" on this device`);
		return row;
	}

	/**
	 * Sends now: stored as `sent`, delivered to the other side, confirmed by a receipt shortly after.
	 * Runs in the caller's transaction (the send routes' shared one), which also holds the check's reads.
	 * Every refusal (the network's and its rules', a bad replyid) comes before the first write (`Store.txShared`).
	 */
	send(device: DeviceRow, draft: Draft): MessageRow {
		this.check(device, draft.to);
		const permit = this.rules.admit(device, draft.to);
		const row = this.build(device, draft, 'sent');
		this.rules.count(device, permit);
		this.claim(device, draft.to);
		return this.transmit(device, this.store.messages.insert(row), draft, permit);
	}

	/** Accepts a message for the send queue; `SendQueue` hands it to `dispatch` at `sendAt`. */
	enqueue(device: DeviceRow, draft: Draft, sendAt: number): MessageRow {
		this.check(device, draft.to);
		this.rules.screen(device, draft.to);
		this.claim(device, draft.to);
		const flags: ReadFlags = { readchat: draft.readchat, readmessages: draft.readmessages };
		return this.store.tx(() =>
			this.store.messages.insert({ ...this.build(device, draft, 'queued'), send_at: sendAt, pending: JSON.stringify(flags) }),
		);
	}

	/**
	 * Sends a queued message, or marks it failed when the network refuses it for good (`content.error`
	 * says why, and `content.refusal` which rule). When the network holds the device back (a rate, a lost
	 * connection), its queue is spread over the time it may send again, at its pace, and undefined is answered.
	 */
	dispatch(queued: MessageRow): MessageRow | undefined {
		const device = this.store.devices.byId(queued.device_id);
		if (!device) return queued;
		// Parsed back from the stored chat id, so that a status post (`status@broadcast`) is not taken for a phone number.
		const to = parseAddress(queued.chatid, 'chatid');
		let permit: Permit | undefined;
		try {
			this.check(device, to);
			permit = this.rules.admit(device, to);
		} catch (error) {
			if (error instanceof NetworkRefusal && error.passes) {
				this.store.tx(() => this.store.messages.paceQueued(device.id, error.retryAt!, this.rules.spacing(device)));
				return undefined;
			}
			const refusal = error instanceof NetworkRefusal ? { refusal: error.reason } : {};
			return this.store.tx(() => {
				const failed = this.store.messages.update(queued.id, {
					status: 'failed',
					pending: null,
					content: JSON.stringify({ ...JSON.parse(queued.content), error: (error as Error).message, ...refusal }),
				});
				this.events.emit(device, 'messages_update', this.update(failed));
				return failed;
			});
		}
		const flags = JSON.parse(queued.pending ?? '{}') as ReadFlags;
		return this.store.tx(() => {
			this.rules.count(device, permit);
			return this.transmit(device, this.store.messages.update(queued.id, { status: 'sent', timestamp: Date.now(), pending: null }), flags, permit);
		});
	}

	/** The sender's copy of a draft; stores its media. Runs inside the caller's transaction. */
	private build(device: DeviceRow, draft: Draft, status: MessageRow['status']): MessageRow {
		return this.compose(device, draft, {
			chatid: draft.to.jid,
			sender: userJid(device.phone!),
			sender_name: device.profile_name,
			from_me: 1,
			is_group: draft.to.isGroup ? 1 : 0,
			status,
			quoted: this.quotedOf(device, draft.quoted)?.id ?? null,
			was_sent_by_api: 1,
		});
	}

	/** A new message row of this device, its media stored; `who` says who wrote it, where, and its state. */
	private compose(
		device: DeviceRow,
		draft: Omit<Draft, 'to'>,
		who: Pick<MessageRow, 'chatid' | 'sender' | 'sender_name' | 'from_me' | 'is_group' | 'status' | 'quoted' | 'was_sent_by_api'>,
	): MessageRow {
		const messageid = newMessageId();
		const file = draft.file && this.store.files.insert({ mimetype: draft.file.mimetype, file_name: draft.file.fileName, data: draft.file.data });
		// Field by field, in the table's order: a spread of `who` would build a slow object.
		return {
			id: `${device.phone}:${messageid}`,
			device_id: device.id,
			messageid,
			chatid: who.chatid,
			sender: who.sender,
			sender_name: who.sender_name,
			from_me: who.from_me,
			is_group: who.is_group,
			message_type: draft.type,
			text: draft.text ?? null,
			timestamp: Date.now(),
			status: who.status,
			quoted: who.quoted,
			mentions: JSON.stringify(draft.mentions ?? []),
			forwarded: draft.forwarded ? 1 : 0,
			edited: 0,
			reaction: null,
			reactions: '[]',
			file_id: file?.id ?? null,
			mimetype: file?.mimetype ?? null,
			file_name: file?.file_name ?? null,
			content: JSON.stringify(draft.content ?? {}),
			track_source: draft.track_source ?? null,
			track_id: draft.track_id ?? null,
			was_sent_by_api: who.was_sent_by_api,
			send_at: null,
			pending: null,
		};
	}

	/** Everything that follows a message leaving the device; runs inside the caller's transaction. */
	private transmit(device: DeviceRow, row: MessageRow, flags: ReadFlags, permit: Permit | undefined): MessageRow {
		this.presence.cancel(device, row.chatid);
		this.record(device, row, false);
		if (flags.readmessages) this.readInbound(device, row.chatid);
		if (flags.readchat) this.store.chats.markRead(device.id, row.chatid);
		// A group message reaches every member device of this server, a direct one the device with that number.
		const peers = row.is_group ? this.store.groups.memberDevices(row.chatid) : [this.store.devices.connectedByPhone(row.chatid.split('@')[0])];
		for (const peer of peers) {
			if (!peer || peer.id === device.id) continue;
			// On the other side the chat is the group, or the sender.
			const chatid = row.is_group ? row.chatid : userJid(device.phone!);
			const quoted = row.quoted ? this.store.messages.byId(device.id, row.quoted) : undefined;
			this.record(
				peer,
				this.store.messages.insert({
					...row,
					id: `${peer.phone}:${row.messageid}`,
					device_id: peer.id,
					chatid,
					from_me: 0,
					was_sent_by_api: 0,
					status: 'delivered',
					quoted: quoted ? `${peer.phone}:${quoted.messageid}` : null,
					track_source: null,
					track_id: null,
				}),
				true,
			);
			// A direct message is the peer's contact writing: its service window, its STOP or START.
			if (!row.is_group) this.rules.received(peer, device.phone!, row.message_type === 'text' ? row.text : null);
		}
		// A recipient who blocked the device never gets its messages: they stay `sent`.
		if (!permit?.blocked) this.scheduleReceipt(row);
		return row;
	}

	/** Stores a message in its chat and tells the device's webhooks. */
	private record(device: DeviceRow, row: MessageRow, unread: boolean) {
		// Status posts are messages of the status feed, not of a conversation: no chat is listed for them.
		if (row.chatid !== STATUS_JID) {
			const peerPhone = row.chatid.split('@')[0];
			const name = row.is_group
				? (this.store.groups.get(row.chatid)?.name ?? '')
				: row.from_me
					? (this.store.numbers.name(device.user_id, peerPhone) ?? '')
					: (row.sender_name ?? '');
			const created = this.store.chats.touch(
				device.id,
				{ chatid: row.chatid, name, isGroup: row.is_group === 1 },
				{ timestamp: row.timestamp, type: row.message_type, unread },
			);
			if (created) this.events.emit(device, 'chats', chatView(created));
		}
		this.events.emit(device, 'messages', () => messageView(row, this.baseUrl()));
	}

	/** A message from someone on the network (a simulated contact) arrives at the device. */
	receive(device: DeviceRow, from: Address, draft: Omit<Draft, 'to'> & { senderName?: string }): MessageRow {
		if (device.status !== 'connected' || !device.phone) {
			throw badRequest(`device '${device.name}' is not connected (status: ${device.status}); it cannot receive messages`);
		}
		return this.store.tx(() => {
			const row = this.store.messages.insert(
				this.compose(device, draft, {
					chatid: from.jid,
					sender: from.jid,
					sender_name: draft.senderName ?? this.store.numbers.name(device.user_id, from.phone ?? '') ?? null,
					from_me: 0,
					is_group: 0,
					status: 'delivered',
					// The sandbox may quote a message the device no longer has: then there is no quote.
					quoted: draft.quoted ? (this.store.messages.byId(device.id, draft.quoted)?.id ?? null) : null,
					was_sent_by_api: 0,
				}),
			);
			this.record(device, row, true);
			if (from.phone) this.rules.received(device, from.phone, draft.type === 'text' ? draft.text : null);
			return row;
		});
	}

	/**
	 * A contact writes in a group (as the sandbox plays it): every member device of this server gets the
	 * message. Returns the copy of `device`, which must be a member; the sandbox's mistakes are 400s.
	 */
	receiveInGroup(device: DeviceRow, group: string, from: Address & { phone: string }, draft: Omit<Draft, 'to'> & { senderName?: string }): MessageRow {
		if (device.status !== 'connected' || !device.phone) {
			throw badRequest(`device '${device.name}' is not connected (status: ${device.status}); it cannot receive messages`);
		}
		if (!this.store.groups.participant(group, device.phone)) throw badRequest(`group: device '${device.name}' is not a member of group ${group}`);
		const refusal = groupSendRefusal(this.store, from.phone, group, from.phone);
		if (refusal) throw badRequest(`from: ${refusal}`);
		return this.store.tx(() => {
			const row = this.store.messages.insert(
				this.compose(device, draft, {
					chatid: group,
					sender: from.jid,
					sender_name: draft.senderName ?? this.store.numbers.name(device.user_id, from.phone) ?? null,
					from_me: 0,
					is_group: 1,
					status: 'delivered',
					quoted: draft.quoted ? (this.store.messages.byId(device.id, draft.quoted)?.id ?? null) : null,
					was_sent_by_api: 0,
				}),
			);
			this.record(device, row, true);
			const quoted = row.quoted ? this.store.messages.byId(device.id, row.quoted) : undefined;
			for (const peer of this.store.groups.memberDevices(group)) {
				if (peer.id === device.id) continue;
				const copy = { ...row, id: `${peer.phone}:${row.messageid}`, device_id: peer.id, quoted: quoted ? `${peer.phone}:${quoted.messageid}` : null };
				this.record(peer, this.store.messages.insert(copy), true);
			}
			return row;
		});
	}

	/** The recipient reads (or, for audio, plays) messages the device sent. */
	readByRecipient(device: DeviceRow, ids: string[], played: boolean): MessageRow[] {
		return this.store.tx(() =>
			ids.map((id) => {
				const row = this.store.messages.byId(device.id, id);
				if (!row || !row.from_me) throw badRequest(`id: no message sent by this device has the id "${id}"`);
				if (row.status === 'queued' || row.status === 'failed' || row.status === 'deleted') {
					throw badRequest(`id: message "${id}" is ${row.status} and cannot be read`);
				}
				const status = played && AUDIO_TYPES.has(row.message_type) ? 'played' : 'read';
				// Receipts only move forward: reading a played voice note again leaves it played.
				if (row.status === status || row.status === 'played') return row;
				return this.setStatus(device, row, status);
			}),
		);
	}

	/** The device reads the unread messages of a chat; the senders on this server see them read. */
	readInbound(device: DeviceRow, chatid: string) {
		this.markRead(device, this.store.messages.unreadInbound(device.id, chatid));
		this.store.chats.markRead(device.id, chatid);
	}

	/**
	 * The device reads messages it received: each unread one becomes `read`, its chat's unread count
	 * falls, and a sender on this server sees its copy read. Messages already read (or deleted) stay as they are.
	 */
	markRead(device: DeviceRow, rows: MessageRow[]): MessageRow[] {
		return this.store.tx(() =>
			rows.map((row) => {
				if (row.from_me || row.status !== 'delivered') return row;
				const read = this.setStatus(device, row, 'read');
				this.store.chats.lowerUnread(device.id, row.chatid, 1);
				for (const copy of this.store.messages.copies(row.messageid)) {
					// Only forward: a voice note the sandbox already marked played stays played.
					const owner = copy.from_me && (copy.status === 'sent' || copy.status === 'delivered') && this.store.devices.byId(copy.device_id);
					if (owner) this.setStatus(owner, copy, 'read');
				}
				return read;
			}),
		);
	}

	/**
	 * `reactor` (a JID) reacts to a message with an emoji, replacing their earlier reaction; an empty
	 * emoji takes it back. Every stored copy shows it. Answers `device`'s copy.
	 */
	react(device: DeviceRow, row: MessageRow, reactor: string, emoji: string): MessageRow {
		return this.changeCopies(
			device,
			row,
			(copy) => {
				const others = (JSON.parse(copy.reactions) as Reaction[]).filter((r) => r.sender !== reactor);
				const reactions = emoji ? [...others, { sender: reactor, text: emoji, timestamp: Date.now() }] : others;
				return { reactions: JSON.stringify(reactions), reaction: reactions.at(-1)?.text ?? null };
			},
			(updated) => ({ reaction: updated.reaction, reactions: JSON.parse(updated.reactions) as Reaction[], sender: reactor }),
		);
	}

	/** Deletes a message for everyone: every copy keeps its id and place in the chat, with status `deleted` and no content. */
	deleteForEveryone(device: DeviceRow, row: MessageRow): MessageRow {
		return this.store.tx(() => {
			const deleted = this.changeCopies(device, row, (copy) => {
				// A copy deleted before it was read leaves nothing to read in its chat.
				if (!copy.from_me && copy.status === 'delivered') this.store.chats.lowerUnread(copy.device_id, copy.chatid, 1);
				return {
					status: 'deleted',
					text: null,
					file_id: null,
					mimetype: null,
					file_name: null,
					content: '{}',
					mentions: '[]',
					reaction: null,
					reactions: '[]',
					pending: null,
				};
			});
			// The copies on this server share the file: it goes once none shows it.
			if (row.file_id) this.store.messages.dropFileIfUnused(row.file_id);
			return deleted;
		});
	}

	/** Replaces the text of a message on every copy; `content.originalText` keeps the text as first sent. */
	edit(device: DeviceRow, row: MessageRow, text: string): MessageRow {
		return this.changeCopies(
			device,
			row,
			// Spread last: a message edited before keeps its first original.
			(copy) => ({ text, edited: 1, content: JSON.stringify({ originalText: copy.text, ...JSON.parse(copy.content) }) }),
			(updated) => ({ text: updated.text, edited: true }),
		);
	}

	/**
	 * Applies a change to every stored copy of a network message (the sender's and, on this server, the
	 * recipient's) and tells each owner's webhooks with `messages_update`; answers `device`'s copy.
	 */
	private changeCopies(
		device: DeviceRow,
		row: MessageRow,
		change: (copy: MessageRow) => Partial<MessageRow>,
		details: (updated: MessageRow) => Record<string, unknown> = () => ({}),
	): MessageRow {
		return this.store.tx(() => {
			let mine = row;
			for (const copy of this.store.messages.copies(row.messageid)) {
				const owner = copy.device_id === device.id ? device : this.store.devices.byId(copy.device_id);
				if (!owner) continue;
				const updated = this.store.messages.update(copy.id, change(copy));
				this.events.emit(owner, 'messages_update', { ...this.update(updated), ...details(updated) });
				if (copy.id === row.id) mine = updated;
			}
			return mine;
		});
	}

	private setStatus(device: DeviceRow, row: MessageRow, status: MessageRow['status']): MessageRow {
		const updated = this.store.messages.update(row.id, { status });
		this.events.emit(device, 'messages_update', this.update(updated));
		return updated;
	}

	private update(row: MessageRow) {
		return { id: row.id, messageid: row.messageid, chatid: row.chatid, fromMe: row.from_me === 1, status: row.status, timestamp: Date.now() };
	}

	private scheduleReceipt(row: MessageRow) {
		this.receipts.push({ id: row.id, deviceId: row.device_id, at: Date.now() + this.config.receiptDelayMs });
		if (!this.receiptTimer) this.armReceipts();
	}

	private armReceipts() {
		if (!this.receipts.length) return;
		const wait = this.receipts[0].at + Math.floor(this.config.receiptDelayMs / 10) - Date.now();
		this.receiptTimer = setTimeout(() => this.confirmDueReceipts(), Math.max(0, wait));
		this.receiptTimer.unref();
	}

	/** The network confirms delivery of every message whose receipt is due: `sent` becomes `delivered`. */
	private confirmDueReceipts() {
		this.receiptTimer = undefined;
		const now = Date.now();
		let count = 0;
		while (count < this.receipts.length && this.receipts[count].at <= now) count++;
		const due = this.receipts.splice(0, count);
		if (due.length) {
			this.store.tx(() => {
				const devices = new Map<string, DeviceRow | undefined>();
				for (const { id, deviceId } of due) {
					// One statement: a message read (or deleted) meanwhile is left as it is.
					if (!this.store.messages.advance(id, 'sent', 'delivered')) continue;
					if (!devices.has(deviceId)) devices.set(deviceId, this.store.devices.byId(deviceId));
					const device = devices.get(deviceId);
					// The row is read back only for a subscription that wants the event.
					if (device) this.events.emit(device, 'messages_update', () => this.update(this.store.messages.get(id)!));
				}
			});
		}
		this.armReceipts();
	}
}
