import crypto from 'node:crypto';
import type { Store } from '../store';
import type { DeviceRow, GroupParticipantRow, GroupRow } from '../store/types';
import type { Events } from '../webhooks/events';
import type { Media } from '../media/load';
import type { Messaging } from './messaging';
import { badRequest, networkFailure } from '../http/errors';
import { groupView } from '../gateway/views';
import { userJid } from './jid';
import { isAdmin } from './group-rules';

/** Invite links are this address followed by the group's invite code. */
export const INVITE_BASE = 'https://chat.whatsapp.com/';

/** The network's limit on the participants of one group. */
export const MAX_PARTICIPANTS = 1024;

export const PARTICIPANT_ACTIONS = ['add', 'remove', 'promote', 'demote', 'approve', 'reject'] as const;
export type ParticipantAction = (typeof PARTICIPANT_ACTIONS)[number];

/** The outcome for one participant (or one group of a community): `status` is 200 when done, else why not. */
export interface ItemResult {
	jid: string;
	ok: boolean;
	status: number;
	error: string | null;
}

const done = (jid: string): ItemResult => ({ jid, ok: true, status: 200, error: null });
const refused = (jid: string, status: number, error: string): ItemResult => ({ jid, ok: false, status, error });

/** A change of one group setting, as the update routes ask for it. */
export type SettingChange =
	| { announce: boolean }
	| { locked: boolean }
	| { joinApprovalMode: boolean }
	| { name: string }
	| { description: string }
	| { image: Media | null };

/** Group JIDs look like the real ones: `120363` and 12 more digits. */
const newGroupJid = () => `120363${crypto.randomInt(0, 1e12).toString().padStart(12, '0')}@g.us`;

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Invite codes are 22 letters and digits, as on the real network. */
const newInviteCode = () => Array.from(crypto.randomBytes(22), (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');

const INVITE_URL = /^(?:https?:\/\/)?chat\.whatsapp\.com\/(?:invite\/)?([^/?#\s]+)\/?(?:[?#].*)?$/i;

/** The code of an invite given as a code or as a full invite link; anything else is the client's mistake. */
export function inviteCodeOf(input: string, field = 'invitecode'): string {
	const value = input.trim();
	const code = value.match(INVITE_URL)?.[1] ?? value;
	if (!/^[A-Za-z0-9_-]{6,64}$/.test(code)) {
		throw badRequest(`${field} must be an invite code or an invite link such as ${INVITE_BASE}<code> (got "${input}")`);
	}
	return code;
}

export const inviteLink = (group: GroupRow) => `${INVITE_BASE}${group.invite_code}`;

/**
 * The network's groups and communities and their rules: who may change what, invites, join requests,
 * and the `groups` events every member device of this server receives.
 */
export class Groups {
	constructor(
		private store: Store,
		private events: Events,
		private messaging: Messaging,
		private baseUrl: () => string,
	) {}

	/** The groups as clients see them, participants read in one query; communities list their groups. */
	views(rows: GroupRow[], withParticipants = true) {
		const participants = this.store.groups.participantsOf(rows.map((g) => g.jid));
		return rows.map((group) => {
			const own = participants.filter((p) => p.group_jid === group.jid);
			const view = groupView(group, own, this.baseUrl(), withParticipants);
			if (group.kind !== 'community') return view;
			const linked = this.store.groups.linkedTo(group.jid);
			return {
				...view,
				announcementGroup: linked.find((g) => g.kind === 'announcement')?.jid ?? null,
				groups: linked.filter((g) => g.kind === 'group').map((g) => ({ jid: g.jid, name: g.name })),
			};
		});
	}

	view(group: GroupRow, withParticipants = true) {
		return this.views([group], withParticipants)[0];
	}

	/** The group, or the network's refusal when there is none with this JID. */
	get(jid: string): GroupRow {
		const group = this.store.groups.get(jid);
		if (!group) throw networkFailure(`group ${jid} does not exist`);
		return group;
	}

	/** The group and the device's place in it: a device that is not (or no longer) a participant cannot act on it. */
	membership(device: DeviceRow, jid: string): { group: GroupRow; me: GroupParticipantRow } {
		this.messaging.checkConnected(device);
		const group = this.get(jid);
		const me = this.store.groups.participant(jid, device.phone!);
		if (!me) throw networkFailure(`this device is not a participant of group ${jid}`);
		return { group, me };
	}

	/** As `membership`, for what only admins may do (`what` completes "only admins of group X can ..."). */
	asAdmin(device: DeviceRow, jid: string, what: string) {
		const found = this.membership(device, jid);
		if (!isAdmin(found.me)) throw networkFailure(`only admins of group ${jid} can ${what}`);
		return found;
	}

	/** The group an invite code (or link) opens; an unknown or reset code is the network's refusal. */
	byInvite(code: string): GroupRow {
		const group = this.store.groups.byInviteCode(code);
		if (!group) throw networkFailure(`invite code ${code} is invalid: it does not exist or has been reset`);
		return group;
	}

	/** A new group with the device as super admin; numbers not on the network are reported, not added. */
	create(device: DeviceRow, name: string, phones: string[]): { group: GroupRow; results: ItemResult[] } {
		this.messaging.checkConnected(device);
		return this.store.tx(() => {
			const group = this.insert(device, { name });
			const results = unique(phones)
				.filter((phone) => phone !== device.phone)
				.map((phone) => this.add(group, phone, device.user_id));
			this.notify([group.jid], { jid: group.jid, action: 'created', author: userJid(device.phone!), group: this.view(group) });
			return { group, results };
		});
	}

	/** A community with its announcement group (only admins write there; members of linked groups read it). */
	createCommunity(device: DeviceRow, name: string): GroupRow {
		this.messaging.checkConnected(device);
		return this.store.tx(() => {
			const community = this.insert(device, { name, kind: 'community', locked: 1 });
			this.insert(device, { name, kind: 'announcement', announce: 1, locked: 1, community: community.jid });
			this.notify([community.jid], { jid: community.jid, action: 'created', author: userJid(device.phone!), group: this.view(community) });
			return community;
		});
	}

	private insert(device: DeviceRow, fields: Partial<GroupRow> & { name: string }): GroupRow {
		const group = this.store.groups.insert({
			jid: newGroupJid(),
			kind: 'group',
			description: '',
			image_file_id: null,
			image_name: null,
			announce: 0,
			locked: 0,
			join_approval: 0,
			invite_code: newInviteCode(),
			owner: device.phone!,
			community: null,
			created_at: Date.now(),
			...fields,
		});
		this.store.groups.addParticipant(group.jid, device.phone!, 'superadmin');
		return group;
	}

	/**
	 * Adds one number for an admin (a device of user `userId`): refused when already there, not on the
	 * network, or the group is full. A contact added enters the admin's world, as one it talks to.
	 */
	private add(group: GroupRow, phone: string, userId: number): ItemResult {
		const jid = userJid(phone);
		if (this.store.groups.participant(group.jid, phone)) return refused(jid, 409, 'already a participant');
		if (!this.onNetwork(phone, userId)) return refused(jid, 404, `${phone} is not on the network`);
		if (this.store.groups.count(group.jid) >= MAX_PARTICIPANTS) return refused(jid, 403, `the group is full (${MAX_PARTICIPANTS} participants)`);
		this.enter(group, phone);
		this.store.numbers.claimContact(phone, userId);
		return done(jid);
	}

	private enter(group: GroupRow, phone: string) {
		this.store.groups.addParticipant(group.jid, phone);
		this.store.groups.removeRequest(group.jid, phone);
		// Who joins a community, or a group linked to one, also reads the community's announcements.
		const community = group.kind === 'community' ? group.jid : group.community;
		const announcement = community && this.announcementOf(community);
		if (announcement && announcement.jid !== group.jid) this.store.groups.addParticipant(announcement.jid, phone);
	}

	private announcementOf(community: string): GroupRow | undefined {
		return this.store.groups.linkedTo(community).find((g) => g.kind === 'announcement');
	}

	/** A device of this server, or a number the sandbox of this user has not marked absent. */
	private onNetwork(phone: string, userId: number): boolean {
		return this.store.devices.phoneTaken(phone) || this.store.numbers.onNetwork(userId, phone);
	}

	/** Adds, removes, promotes or demotes participants, or answers join requests; admins only. */
	updateParticipants(device: DeviceRow, jid: string, action: ParticipantAction, phones: string[]) {
		const what = {
			add: 'add participants',
			remove: 'remove participants',
			promote: 'promote participants',
			demote: 'demote admins',
			approve: 'approve join requests',
			reject: 'reject join requests',
		}[action];
		return this.store.tx(() => {
			const { group, me } = this.asAdmin(device, jid, what);
			const results = unique(phones).map((phone) => this.apply(group, me, action, phone, device.user_id));
			const changed = results.filter((r) => r.ok).map((r) => r.jid);
			if (changed.length) {
				// Those removed or turned away are told too: they are no longer (or not yet) members.
				const told = action === 'remove' || action === 'reject' ? changed.map((j) => j.split('@')[0]) : [];
				this.notify([jid], { jid, action, author: userJid(me.phone), participants: changed }, told);
			}
			return { group: this.store.groups.get(jid)!, results };
		});
	}

	private apply(group: GroupRow, me: GroupParticipantRow, action: ParticipantAction, phone: string, userId: number): ItemResult {
		const jid = userJid(phone);
		const groups = this.store.groups;
		if (action === 'add') return this.add(group, phone, userId);
		if (action === 'approve' || action === 'reject') {
			if (!groups.request(group.jid, phone)) return refused(jid, 404, 'no pending join request from this number');
			if (action === 'reject') {
				groups.removeRequest(group.jid, phone);
				return done(jid);
			}
			if (groups.count(group.jid) >= MAX_PARTICIPANTS) return refused(jid, 403, `the group is full (${MAX_PARTICIPANTS} participants)`);
			this.enter(group, phone);
			this.store.numbers.claimContact(phone, userId);
			return done(jid);
		}
		const target = groups.participant(group.jid, phone);
		if (!target) return refused(jid, 404, 'not a participant of the group');
		if (action === 'promote') {
			if (target.role === 'member') groups.setRole(group.jid, phone, 'admin');
			return done(jid);
		}
		if (target.role === 'superadmin') return refused(jid, 403, `the group creator cannot be ${action === 'remove' ? 'removed' : 'demoted'}`);
		if (action === 'remove') {
			if (phone === me.phone) return refused(jid, 403, 'an admin leaves with /group/leave, not by removing itself');
			groups.removeParticipant(group.jid, phone);
			return done(jid);
		}
		// demote
		if (target.role === 'admin') {
			const admins = groups.participants(group.jid).filter((p) => isAdmin(p) && p.phone !== phone);
			if (!admins.length) return refused(jid, 403, 'the group needs at least one admin');
			groups.setRole(group.jid, phone, 'member');
		}
		return done(jid);
	}

	/** The device joins by invite; a group that approves new participants gets a join request instead. */
	join(device: DeviceRow, code: string): { group: GroupRow; status: 'joined' | 'pending' | 'member' } {
		this.messaging.checkConnected(device);
		return this.store.tx(() => {
			const group = this.byInvite(code);
			const status = this.arrive(group, device.phone!);
			if (status === 'full') throw networkFailure(`group ${group.jid} is full (${MAX_PARTICIPANTS} participants)`);
			return { group, status };
		});
	}

	/** A number arrives by invite: joins, or asks to when the group approves new participants. Inside a transaction. */
	private arrive(group: GroupRow, phone: string): 'joined' | 'pending' | 'member' | 'full' {
		const groups = this.store.groups;
		if (groups.participant(group.jid, phone)) return 'member';
		const jid = userJid(phone);
		if (group.join_approval) {
			if (!groups.request(group.jid, phone)) {
				groups.addRequest(group.jid, phone);
				this.notify([group.jid], { jid: group.jid, action: 'request', author: jid, participants: [jid] }, [phone]);
			}
			return 'pending';
		}
		if (groups.count(group.jid) >= MAX_PARTICIPANTS) return 'full';
		this.enter(group, phone);
		this.notify([group.jid], { jid: group.jid, action: 'join', author: jid, participants: [jid] });
		return 'joined';
	}

	/** The device leaves: it no longer sees the group, gets its messages, or may act on it. */
	leave(device: DeviceRow, jid: string) {
		this.store.tx(() => {
			const { me } = this.membership(device, jid);
			this.depart(jid, me.phone);
		});
	}

	/** A participant goes; when no admin is left, the longest-standing participant becomes one (as the network does). */
	private depart(jid: string, phone: string) {
		const groups = this.store.groups;
		groups.removeParticipant(jid, phone);
		const who = userJid(phone);
		this.notify([jid], { jid, action: 'leave', author: who, participants: [who] }, [phone]);
		const rest = groups.participants(jid);
		if (rest.length && !rest.some(isAdmin)) {
			const heir = rest[0]; // in the order they joined
			groups.setRole(jid, heir.phone, 'admin');
			this.notify([jid], { jid, action: 'promote', author: null, participants: [userJid(heir.phone)] });
		}
	}

	/** A new invite code: the old code (and link) stops working. Admins only. */
	resetInviteCode(device: DeviceRow, jid: string): GroupRow {
		return this.store.tx(() => {
			const { me } = this.asAdmin(device, jid, 'reset the invite link');
			const group = this.store.groups.update(jid, { invite_code: newInviteCode() });
			this.notify([jid], { jid, action: 'update', author: userJid(me.phone), changes: { inviteLink: 'reset' } });
			return group;
		});
	}

	/**
	 * Refuses a setting change the device may not make: announce, locked and approval mode are for
	 * admins; name, description and image too while the group is locked, otherwise for any member.
	 */
	checkChange(device: DeviceRow, jid: string, setting: keyof typeof SETTING_WHAT) {
		const { group, me } = this.membership(device, jid);
		const what = SETTING_WHAT[setting];
		const adminOnly = setting === 'announce' || setting === 'locked' || setting === 'joinApprovalMode';
		if (!isAdmin(me) && adminOnly) throw networkFailure(`only admins of group ${jid} can ${what}`);
		if (!isAdmin(me) && group.locked) throw networkFailure(`group ${jid} is locked: only admins can ${what}`);
		return { group, me };
	}

	/** Applies one setting change for the device, after `checkChange`; tells every member device. */
	update(device: DeviceRow, jid: string, change: SettingChange): GroupRow {
		const setting = Object.keys(change)[0] as keyof typeof SETTING_WHAT;
		return this.store.tx(() => {
			const { group, me } = this.checkChange(device, jid, setting);
			return this.write(group, change, userJid(me.phone));
		});
	}

	/** Writes a setting (when it changes) and tells the member devices; `author` is null for the sandbox. */
	private write(group: GroupRow, change: SettingChange, author: string | null): GroupRow {
		const groups = this.store.groups;
		let row: Partial<GroupRow>;
		let shown: Record<string, unknown>;
		if ('image' in change) {
			const file = change.image && this.store.files.insert({ mimetype: change.image.mimetype, file_name: change.image.fileName, data: change.image.data });
			if (group.image_file_id) groups.dropFile(group.image_file_id);
			row = { image_file_id: file ? file.id : null, image_name: file ? file.file_name : null };
		} else if ('announce' in change) row = { announce: change.announce ? 1 : 0 };
		else if ('locked' in change) row = { locked: change.locked ? 1 : 0 };
		else if ('joinApprovalMode' in change) row = { join_approval: change.joinApprovalMode ? 1 : 0 };
		else row = change;
		const changed = Object.entries(row).some(([key, value]) => group[key as keyof GroupRow] !== value);
		if (!changed) return group;
		const updated = groups.update(group.jid, row);
		if ('image' in change) shown = { imageURL: this.view(updated, false).imageURL };
		else shown = change;
		this.notify([group.jid], { jid: group.jid, action: 'update', author, changes: shown });
		return updated;
	}

	/** Adds groups to a community or removes them; the device must be an admin of the community (and, to add, of each group). */
	editCommunity(device: DeviceRow, jid: string, action: 'add' | 'remove', groupJids: string[]) {
		return this.store.tx(() => {
			const community = this.get(jid);
			if (community.kind !== 'community') throw networkFailure(`${jid} is not a community`);
			const { me } = this.asAdmin(device, jid, 'edit its groups');
			const results = unique(groupJids).map((g) => (action === 'add' ? this.link(community, me, g) : this.unlink(community, g)));
			const changed = results.filter((r) => r.ok).map((r) => r.jid);
			if (changed.length) {
				const announcement = this.announcementOf(jid);
				this.notify([jid, ...(announcement ? [announcement.jid] : []), ...changed], {
					jid,
					action: action === 'add' ? 'link' : 'unlink',
					author: userJid(me.phone),
					groups: changed,
				});
			}
			return { community: this.store.groups.get(jid)!, results };
		});
	}

	private link(community: GroupRow, me: GroupParticipantRow, jid: string): ItemResult {
		const group = this.store.groups.get(jid);
		if (!group) return refused(jid, 404, `group ${jid} does not exist`);
		if (group.kind !== 'group') return refused(jid, 403, 'a community or an announcement group cannot be added to a community');
		if (group.community === community.jid) return refused(jid, 409, 'already in this community');
		if (group.community) return refused(jid, 409, `already in community ${group.community}`);
		if (!isAdmin(this.store.groups.participant(jid, me.phone))) return refused(jid, 403, 'only admins of a group can add it to a community');
		const linked = this.store.groups.update(jid, { community: community.jid });
		// Everyone in a linked group reads the community's announcements.
		for (const p of this.store.groups.participants(jid)) this.enter(linked, p.phone);
		return done(jid);
	}

	private unlink(community: GroupRow, jid: string): ItemResult {
		const group = this.store.groups.get(jid);
		if (!group) return refused(jid, 404, `group ${jid} does not exist`);
		if (group.community !== community.jid) return refused(jid, 404, 'not a group of this community');
		if (group.kind === 'announcement') return refused(jid, 403, 'the announcement group cannot be removed from its community');
		this.store.groups.update(jid, { community: null });
		return done(jid);
	}

	// The other side, as the sandbox plays it.

	/** A contact joins by invite (or by the group JID), or asks to when the group approves new participants. */
	contactJoin(phone: string, group: GroupRow): 'joined' | 'pending' | 'member' {
		return this.store.tx(() => {
			const status = this.arrive(group, phone);
			if (status === 'full') throw badRequest(`group ${group.jid} is full (${MAX_PARTICIPANTS} participants)`);
			return status;
		});
	}

	/** A contact leaves a group it takes part in. */
	contactLeave(phone: string, group: GroupRow) {
		this.store.tx(() => {
			if (!this.store.groups.participant(group.jid, phone)) throw badRequest(`number: ${phone} is not a participant of group ${group.jid}`);
			this.depart(group.jid, phone);
		});
	}

	/** An admin on a phone changes a setting (e.g. turns on approval of new participants). */
	setBySandbox(group: GroupRow, change: SettingChange): GroupRow {
		return this.store.tx(() => this.write(group, change, null));
	}

	/** Emits a `groups` event to every connected device of this server in these groups, and to those of `phones`. */
	private notify(jids: string[], data: Record<string, unknown>, phones: string[] = []) {
		const devices = new Map<string, DeviceRow>();
		for (const jid of jids) for (const device of this.store.groups.memberDevices(jid)) devices.set(device.id, device);
		for (const phone of phones) {
			const device = this.store.devices.connectedByPhone(phone);
			if (device) devices.set(device.id, device);
		}
		for (const device of devices.values()) this.events.emit(device, 'groups', data);
	}
}

/** How refusals name each setting: "only admins of group X can <what>". */
export const SETTING_WHAT = {
	announce: 'change who may send messages',
	locked: 'change who may edit the group info',
	joinApprovalMode: 'change whether new participants need approval',
	name: 'change its name',
	description: 'change its description',
	image: 'change its image',
};

const unique = <T>(list: T[]) => [...new Set(list)];
