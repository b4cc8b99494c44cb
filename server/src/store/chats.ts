import type { Db } from './db';
import type { ChatRow } from './types';
import { randomId } from '../security';

export class ChatsRepo {
	constructor(private db: Db) {}

	get(deviceId: string, chatid: string): ChatRow | undefined {
		return this.db.prepare('SELECT * FROM chats WHERE device_id = ? AND chatid = ?').get(deviceId, chatid) as ChatRow | undefined;
	}

	/** Records a message in its chat, creating the chat on first contact. Returns the chat and whether it is new. */
	touch(
		deviceId: string,
		chat: { chatid: string; name: string; isGroup: boolean },
		message: { timestamp: number; type: string; unread: boolean },
	): { chat: ChatRow; created: boolean } {
		// One statement for a chat that exists (the usual case), a second to create it on first contact.
		const updated = this.db
			.prepare(
				`UPDATE chats SET unread = unread + ?, last_msg_ts = max(last_msg_ts, ?), last_msg_type = ?,
				 name = CASE WHEN name = '' THEN ? ELSE name END, archived = 0 WHERE device_id = ? AND chatid = ? RETURNING *`,
			)
			.get(message.unread ? 1 : 0, message.timestamp, message.type, chat.name, deviceId, chat.chatid) as ChatRow | undefined;
		if (updated) return { chat: updated, created: false };
		const created = this.db
			.prepare(
				`INSERT INTO chats (id, device_id, chatid, name, is_group, unread, last_msg_ts, last_msg_type)
				 VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
			)
			.get(`r${randomId(6)}`, deviceId, chat.chatid, chat.name, chat.isGroup ? 1 : 0, message.unread ? 1 : 0, message.timestamp, message.type) as ChatRow;
		return { chat: created, created: true };
	}

	markRead(deviceId: string, chatid: string) {
		this.db.prepare('UPDATE chats SET unread = 0 WHERE device_id = ? AND chatid = ?').run(deviceId, chatid);
	}
}
