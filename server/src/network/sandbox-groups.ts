import { z } from 'zod';
import type { Services } from '../services';
import type { GroupRow, UserRow } from '../store/types';
import { route } from '../http/route';
import { badRequest, forbidden, notFound } from '../http/errors';
import { recipient } from '../http/schema';
import { groupJid } from '../gateway/groups';
import { groupAnswer } from '../gateway/views';
import { inviteCodeOf, SETTING_WHAT } from './groups';
import { isAdmin } from './group-rules';
import { parseUser } from './jid';
import { checkPlayable, playAs } from './owners';

/** The group a sandbox request names (a sandbox mistake is a 400/404, not a network failure). */
function groupOf(services: Services, body: { groupjid?: string; invitecode?: string }) {
	const group = body.invitecode
		? services.store.groups.byInviteCode(inviteCodeOf(body.invitecode))
		: services.store.groups.get(body.groupjid!);
	if (!group) throw notFound(body.invitecode ? `invitecode: no group has the invite code ${inviteCodeOf(body.invitecode)}` : `group ${body.groupjid} does not exist`);
	return group;
}

/**
 * The caller plays the network around its own devices only: it acts on a group named by JID when one of
 * its connected devices is a participant. An invite code is a capability of its own (whoever holds it may
 * join, as on a phone), so a join by invite code needs no device in the group.
 */
function ownedGroup(services: Services, user: UserRow, body: { groupjid?: string; invitecode?: string }): GroupRow {
	const group = groupOf(services, body);
	if (body.invitecode) return group;
	if (!services.store.groups.memberDevices(group.jid).some((d) => d.user_id === user.id)) {
		throw forbidden(`group ${group.jid}: none of your connected devices is a participant`);
	}
	return group;
}

/**
 * As `ownedGroup`, for what only admins may do: one of the caller's connected devices is an admin of the
 * group, as the gateway requires of the device that changes a setting (`setting` names it in the refusal).
 */
function adminGroup(services: Services, user: UserRow, body: { groupjid: string }, setting: keyof typeof SETTING_WHAT): GroupRow {
	const group = ownedGroup(services, user, body);
	const { groups } = services.store;
	const admin = groups.memberDevices(group.jid).some((d) => d.user_id === user.id && isAdmin(groups.participant(group.jid, d.phone!)));
	if (!admin) throw forbidden(`only admins of group ${group.jid} can ${SETTING_WHAT[setting]}`);
	return group;
}

/**
 * A simulated contact of the caller's world: a number on the network that is not a device of this server
 * (devices act through the gateway), nor one another user's device ever used.
 */
function contactOf(services: Services, user: UserRow, number: string) {
	const { phone } = parseUser(number, 'number');
	checkPlayable(services.store, user.id, phone, 'number');
	const device = services.store.devices.connectedByPhone(phone);
	if (device) throw badRequest(`number ${phone} is device '${device.name}' of this server: it joins and leaves with its own token`);
	if (!services.store.numbers.onNetwork(user.id, phone)) throw badRequest(`number ${phone} is not on the network`);
	return playAs(services.store, user.id, phone, 'number');
}

/**
 * `sandbox/v1` for groups: contacts join (or ask to join), leave, and admins on phones change the
 * settings the gateway has no route for (approval of new participants).
 */
export const sandboxGroupRoutes = [
	route({
		method: 'POST',
		path: '/sandbox/v1/groups/join',
		auth: 'user',
		summary: 'A contact joins a group by invite code or link (or by JID); a group that approves new participants gets a join request',
		body: z
			.strictObject({ number: recipient, invitecode: z.string().trim().min(1).optional(), groupjid: groupJid.optional() })
			.refine((b) => (b.invitecode === undefined) !== (b.groupjid === undefined), {
				error: 'give exactly one of invitecode and groupjid',
				path: ['invitecode'],
			}),
		// One transaction: a refused join leaves the number out of the caller's world.
		answer: z.object({ jid: z.string(), number: z.string(), status: z.enum(['joined', 'pending', 'member']) }),
		errors: [403, 404],
		handler: ({ services, user, body }) =>
			services.store.tx(() => {
				const phone = contactOf(services, user, body.number);
				const group = ownedGroup(services, user, body);
				return { jid: group.jid, number: phone, status: services.groups.contactJoin(phone, group) };
			}),
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/groups/leave',
		auth: 'user',
		summary: 'A contact leaves a group',
		body: z.strictObject({ number: recipient, groupjid: groupJid }),
		answer: z.object({ jid: z.string(), number: z.string(), left: z.literal(true) }),
		errors: [403, 404],
		handler: ({ services, user, body }) =>
			services.store.tx(() => {
				const phone = contactOf(services, user, body.number);
				services.groups.contactLeave(phone, ownedGroup(services, user, body));
				return { jid: body.groupjid, number: phone, left: true as const };
			}),
	}),

	route({
		method: 'POST',
		path: '/sandbox/v1/groups/settings',
		auth: 'user',
		summary: "An admin on a phone changes a group setting the gateway has no route for: whether new participants need approval",
		body: z.strictObject({ groupjid: groupJid, joinApprovalMode: z.boolean() }),
		answer: groupAnswer,
		errors: [403, 404],
		handler: ({ services, user, body }) =>
			services.groups.view(services.groups.setBySandbox(adminGroup(services, user, body, 'joinApprovalMode'), { joinApprovalMode: body.joinApprovalMode })),
	}),
];
