import type { Db } from './db';
import type { ChatRow, LabelRow } from './types';

/**
 * A device's labels and the labels of its chats. Label ids are small integers per device, shown as
 * strings; a deleted label keeps its row (`deleted = 1`) so that its id is never handed out again.
 * A chat's labels are `chats.labels`, a JSON array of label id strings, written only here.
 */
export class LabelsRepo {
	constructor(private db: Db) {}

	/** The device's labels, oldest first. */
	ofDevice(deviceId: string): LabelRow[] {
		return this.db.prepare('SELECT * FROM labels WHERE device_id = ? AND deleted = 0 ORDER BY id').all(deviceId) as LabelRow[];
	}

	/** A label of the device by its id as a client writes it (`"3"`); deleted labels are not found. */
	byId(deviceId: string, id: string): LabelRow | undefined {
		if (!/^\d{1,9}$/.test(id)) return undefined;
		return this.db.prepare('SELECT * FROM labels WHERE device_id = ? AND id = ? AND deleted = 0').get(deviceId, Number(id)) as
			| LabelRow
			| undefined;
	}

	byName(deviceId: string, name: string): LabelRow | undefined {
		return this.db
			.prepare('SELECT * FROM labels WHERE device_id = ? AND name = ? COLLATE NOCASE AND deleted = 0')
			.get(deviceId, name) as LabelRow | undefined;
	}

	/** Creates a label with the device's next id. */
	create(deviceId: string, name: string, color: number): LabelRow {
		return this.db
			.prepare(
				`INSERT INTO labels (device_id, id, name, color)
				 VALUES (@deviceId, (SELECT coalesce(max(id), 0) + 1 FROM labels WHERE device_id = @deviceId), @name, @color) RETURNING *`,
			)
			.get({ deviceId, name, color }) as LabelRow;
	}

	update(deviceId: string, id: number, changes: { name?: string; color?: number }): LabelRow {
		return this.db
			.prepare('UPDATE labels SET name = coalesce(?, name), color = coalesce(?, color) WHERE device_id = ? AND id = ? RETURNING *')
			.get(changes.name ?? null, changes.color ?? null, deviceId, id) as LabelRow;
	}

	delete(deviceId: string, id: number) {
		this.db.prepare('UPDATE labels SET deleted = 1 WHERE device_id = ? AND id = ?').run(deviceId, id);
	}

	/** Writes a chat's label ids and returns the chat. */
	setOfChat(chatRowId: string, labelIds: string[]): ChatRow {
		return this.db.prepare('UPDATE chats SET labels = ? WHERE id = ? RETURNING *').get(JSON.stringify(labelIds), chatRowId) as ChatRow;
	}

	/** Takes a label off every chat of the device that has it; returns those chats as they are now. */
	removeFromChats(deviceId: string, id: number): ChatRow[] {
		return this.db
			.prepare(
				`UPDATE chats SET labels = (SELECT json_group_array(value) FROM json_each(chats.labels) WHERE value <> @label)
				 WHERE device_id = @deviceId AND EXISTS (SELECT 1 FROM json_each(chats.labels) WHERE value = @label) RETURNING *`,
			)
			.all({ label: String(id), deviceId }) as ChatRow[];
	}
}
