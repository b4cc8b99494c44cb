import type { Db } from './db';
import type { DeviceRow, GroupParticipantRow, GroupRequestRow, GroupRole, GroupRow } from './types';

export interface GroupQuery {
	/** Part of the name or of the JID, any case. */
	search?: string;
	limit: number;
	offset: number;
}

/**
 * Groups and communities of the simulated network: they belong to the network, not to a device, so
 * every device of this server that is a participant sees the same group. Participants are phone numbers.
 */
export class GroupsRepo {
	constructor(private db: Db) {}

	get(jid: string): GroupRow | undefined {
		return this.db.prepare('SELECT * FROM network_groups WHERE jid = ?').get(jid) as GroupRow | undefined;
	}

	byInviteCode(code: string): GroupRow | undefined {
		return this.db.prepare('SELECT * FROM network_groups WHERE invite_code = ?').get(code) as GroupRow | undefined;
	}

	insert(row: GroupRow): GroupRow {
		const keys = Object.keys(row);
		this.db.prepare(`INSERT INTO network_groups (${keys.join(', ')}) VALUES (${keys.map((k) => `@${k}`).join(', ')})`).run(row);
		return row;
	}

	/** Writes the given columns and returns the updated row. */
	update(jid: string, changes: Partial<Omit<GroupRow, 'jid'>>): GroupRow {
		const keys = Object.keys(changes);
		if (!keys.length) return this.get(jid)!;
		return this.db
			.prepare(`UPDATE network_groups SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE jid = @jid RETURNING *`)
			.get({ ...changes, jid }) as GroupRow;
	}

	/** Groups linked to a community (its announcement group included). */
	linkedTo(community: string): GroupRow[] {
		return this.db.prepare('SELECT * FROM network_groups WHERE community = ? ORDER BY created_at, jid').all(community) as GroupRow[];
	}

	/** The groups a number takes part in, by name, with the total before paging. */
	ofMember(phone: string, query: GroupQuery): { rows: GroupRow[]; total: number } {
		const where = `FROM network_groups g JOIN network_group_participants p ON p.group_jid = g.jid
			WHERE p.phone = @phone AND (@search IS NULL OR instr(lower(g.name), lower(@search)) > 0 OR instr(g.jid, lower(@search)) > 0)`;
		const args = { phone, search: query.search || null };
		const { total } = this.db.prepare(`SELECT count(*) AS total ${where}`).get(args) as { total: number };
		const rows = this.db
			.prepare(`SELECT g.* ${where} ORDER BY lower(g.name), g.jid LIMIT @limit OFFSET @offset`)
			.all({ ...args, limit: query.limit, offset: query.offset }) as GroupRow[];
		return { rows, total };
	}

	/** Participants, super admin first, then admins, then members in the order they joined (rowid breaks ties within a millisecond). */
	participants(jid: string): GroupParticipantRow[] {
		return this.participantsOf([jid]);
	}

	/** Participants of several groups in one query (lists show many groups). */
	participantsOf(jids: string[]): GroupParticipantRow[] {
		if (!jids.length) return [];
		return this.db
			.prepare(
				`SELECT * FROM network_group_participants WHERE group_jid IN (SELECT value FROM json_each(?))
				 ORDER BY CASE role WHEN 'superadmin' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, added_at, rowid`,
			)
			.all(JSON.stringify(jids)) as GroupParticipantRow[];
	}

	participant(jid: string, phone: string): GroupParticipantRow | undefined {
		return this.db.prepare('SELECT * FROM network_group_participants WHERE group_jid = ? AND phone = ?').get(jid, phone) as
			| GroupParticipantRow
			| undefined;
	}

	count(jid: string): number {
		return (this.db.prepare('SELECT count(*) AS n FROM network_group_participants WHERE group_jid = ?').get(jid) as { n: number }).n;
	}

	/** Adds a participant; one already there keeps its role. */
	addParticipant(jid: string, phone: string, role: GroupRole = 'member') {
		this.db
			.prepare('INSERT OR IGNORE INTO network_group_participants (group_jid, phone, role, added_at) VALUES (?, ?, ?, ?)')
			.run(jid, phone, role, Date.now());
	}

	removeParticipant(jid: string, phone: string) {
		this.db.prepare('DELETE FROM network_group_participants WHERE group_jid = ? AND phone = ?').run(jid, phone);
	}

	setRole(jid: string, phone: string, role: GroupRole) {
		this.db.prepare('UPDATE network_group_participants SET role = ? WHERE group_jid = ? AND phone = ?').run(role, jid, phone);
	}

	requests(jid: string): GroupRequestRow[] {
		return this.db
			.prepare('SELECT * FROM network_group_requests WHERE group_jid = ? ORDER BY requested_at, phone')
			.all(jid) as GroupRequestRow[];
	}

	request(jid: string, phone: string): GroupRequestRow | undefined {
		return this.db.prepare('SELECT * FROM network_group_requests WHERE group_jid = ? AND phone = ?').get(jid, phone) as
			| GroupRequestRow
			| undefined;
	}

	addRequest(jid: string, phone: string) {
		this.db
			.prepare('INSERT OR IGNORE INTO network_group_requests (group_jid, phone, requested_at) VALUES (?, ?, ?)')
			.run(jid, phone, Date.now());
	}

	removeRequest(jid: string, phone: string) {
		this.db.prepare('DELETE FROM network_group_requests WHERE group_jid = ? AND phone = ?').run(jid, phone);
	}

	/** Deletes a replaced group image (a message showing the same file keeps it). */
	dropFile(fileId: string) {
		this.db.prepare('DELETE FROM files WHERE id = ? AND NOT EXISTS (SELECT 1 FROM messages WHERE file_id = ?)').run(fileId, fileId);
	}

	/** The connected devices of this server that take part in a group: they receive its messages and events. */
	memberDevices(jid: string): DeviceRow[] {
		return this.db
			.prepare(
				`SELECT d.* FROM devices d JOIN network_group_participants p ON p.phone = d.phone
				 WHERE p.group_jid = ? AND d.status = 'connected'`,
			)
			.all(jid) as DeviceRow[];
	}
}
