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
		const existing = this.get(deviceId, chat.chatid);
		if (!existing) {
			this.db
				.prepare(
					`INSERT INTO chats (id, device_id, chatid, name, is_group, unread, last_msg_ts, last_msg_type)
					 VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				)
				.run(`r${randomId(6)}`, deviceId, chat.chatid, chat.name, chat.isGroup ? 1 : 0, message.unread ? 1 : 0, message.timestamp, message.type);
		} else {
			this.db
				.prepare(
					`UPDATE chats SET unread = unread + ?, last_msg_ts = max(last_msg_ts, ?), last_msg_type = ?,
					 name = CASE WHEN name = '' THEN ? ELSE name END, archived = 0 WHERE id = ?`,
				)
				.run(message.unread ? 1 : 0, message.timestamp, message.type, chat.name, existing.id);
		}
		return { chat: this.get(deviceId, chat.chatid)!, created: !existing };
	}

	markRead(deviceId: string, chatid: string) {
		this.db.prepare('UPDATE chats SET unread = 0 WHERE device_id = ? AND chatid = ?').run(deviceId, chatid);
	}
}
