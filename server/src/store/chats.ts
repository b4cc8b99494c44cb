import type { Db } from './db';
import type { ChatRow } from './types';
import { randomId } from '../security';
import { type ChatQuery, findChats } from './chat-query';

export class ChatsRepo {
	constructor(private db: Db) {}

	get(deviceId: string, chatid: string): ChatRow | undefined {
		return this.db.prepare('SELECT * FROM chats WHERE device_id = ? AND chatid = ?').get(deviceId, chatid) as ChatRow | undefined;
	}

	/** Creates a chat that has no message yet (e.g. to label a contact before writing to it). */
	create(deviceId: string, chat: { chatid: string; name: string; isGroup: boolean }): ChatRow {
		return this.db
			.prepare('INSERT INTO chats (id, device_id, chatid, name, is_group) VALUES (?, ?, ?, ?, ?) RETURNING *')
			.get(`r${randomId(6)}`, deviceId, chat.chatid, chat.name, chat.isGroup ? 1 : 0) as ChatRow;
	}

	/** Records a message in its chat, creating the chat on first contact; answers the chat when it is new. */
	touch(
		deviceId: string,
		chat: { chatid: string; name: string; isGroup: boolean },
		message: { timestamp: number; type: string; unread: boolean },
	): ChatRow | undefined {
		// One statement for a chat that exists (the usual case), a second to create it on first contact.
		const { changes } = this.db
			.prepare(
				`UPDATE chats SET unread = unread + ?, last_msg_ts = max(last_msg_ts, ?), last_msg_type = ?,
				 name = CASE WHEN name = '' THEN ? ELSE name END, archived = 0 WHERE device_id = ? AND chatid = ?`,
			)
			.run(message.unread ? 1 : 0, message.timestamp, message.type, chat.name, deviceId, chat.chatid);
		if (changes) return undefined;
		return this.db
			.prepare(
				`INSERT INTO chats (id, device_id, chatid, name, is_group, unread, last_msg_ts, last_msg_type)
				 VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
			)
			.get(`r${randomId(6)}`, deviceId, chat.chatid, chat.name, chat.isGroup ? 1 : 0, message.unread ? 1 : 0, message.timestamp, message.type) as ChatRow;
	}

	markRead(deviceId: string, chatid: string) {
		this.db.prepare('UPDATE chats SET unread = 0 WHERE device_id = ? AND chatid = ?').run(deviceId, chatid);
	}

	/** `count` messages of the chat were read (or went away unread): the unread count falls, never below 0. */
	lowerUnread(deviceId: string, chatid: string, count: number) {
		this.db.prepare('UPDATE chats SET unread = max(0, unread - ?) WHERE device_id = ? AND chatid = ?').run(count, deviceId, chatid);
	}

	/** Sets a chat's state (archived, pinned, mute end, unread count) and returns it as stored. */
	setState(deviceId: string, chatid: string, changes: Partial<Pick<ChatRow, 'archived' | 'pinned' | 'mute_end' | 'unread'>>): ChatRow {
		const keys = Object.keys(changes);
		return this.db
			.prepare(`UPDATE chats SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE device_id = @deviceId AND chatid = @chatid RETURNING *`)
			.get({ ...changes, deviceId, chatid }) as ChatRow;
	}

	/** The device's pinned chats, most recent first. */
	pinned(deviceId: string): ChatRow[] {
		return this.db.prepare('SELECT * FROM chats WHERE device_id = ? AND pinned = 1 ORDER BY last_msg_ts DESC').all(deviceId) as ChatRow[];
	}

	/** Removes the chat record (its messages are the messages repository's); says whether there was one. */
	delete(deviceId: string, chatid: string): boolean {
		return this.db.prepare('DELETE FROM chats WHERE device_id = ? AND chatid = ?').run(deviceId, chatid).changes > 0;
	}

	/** A page of the device's chats matching a search (see `findChats`). */
	find(deviceId: string, query: ChatQuery): { rows: ChatRow[]; total: number } {
		return findChats(this.db, deviceId, query);
	}
}
