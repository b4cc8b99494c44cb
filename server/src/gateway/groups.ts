import { z } from 'zod';
import { route } from '../http/route';
import { badRequest } from '../http/errors';
import { qBool } from '../http/schema';
import { loadMedia } from '../media/load';
import { inviteCodeOf, inviteLink, PARTICIPANT_ACTIONS } from '../network/groups';
import { parseUser, userJid } from '../network/jid';
import type { GroupRow } from '../store/types';
import { groupAnswer, itemResultAnswer, nextPage, pageAnswer } from './views';

/** A group (or community) JID, lower-cased: `120363012345678901@g.us`. */
export const groupJid = z
	.string()
	.trim()
	.toLowerCase()
	.regex(/^[\d-]{6,40}@g\.us$/, { error: 'must be a group JID such as 120363012345678901@g.us' });

export const groupName = z.string().trim().min(1).max(100);

const groupjid = { groupjid: groupJid };
const invitecode = z.strictObject({ invitecode: z.string().trim().min(1) });

/** Numbers or user JIDs, each normalised to its phone number; a bad one is a 400 naming its position. */
const phonesOf = (list: string[], field: string) => list.map((entry, i) => parseUser(entry, `${field}[${i}]`).phone);

const participantList = z.array(z.string()).min(1);

/** The invite fields of a group's answer, for whoever may see them. */
export const invite = (group: GroupRow) => ({ inviteCode: group.invite_code, inviteLink: inviteLink(group) });
export const inviteAnswer = { inviteCode: z.string(), inviteLink: z.string() };

export const groupRoutes = [
	route({
		method: 'POST',
		path: '/wdm/v1/group/create',
		auth: 'instance',
		summary: 'Create a group; the device is its super admin, numbers not on the network are reported',
		body: z.strictObject({ name: groupName, participants: participantList }),
		answer: groupAnswer.extend({ ...inviteAnswer, results: z.array(itemResultAnswer) }),
		handler: ({ services, device, body }) => {
			const { group, results } = services.groups.create(device, body.name, phonesOf(body.participants, 'participants'));
			return { ...services.groups.view(group), ...invite(group), results };
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/info',
		auth: 'instance',
		summary: 'Group details, optionally with the invite link and the pending join requests',
		body: z.strictObject({
			...groupjid,
			getInviteLink: z.boolean().default(false),
			getRequestsParticipants: z.boolean().default(false),
			// The simulator reads the network itself: there is no cache to skip.
			force: z.boolean().default(false),
		}),
		answer: groupAnswer.extend({
			...z.object(inviteAnswer).partial().shape,
			pendingRequests: z.array(z.object({ jid: z.string(), phone: z.string(), requestedAt: z.number() })).optional(),
		}),
		handler: ({ services, device, body }) => {
			const { groups } = services;
			const { group } = groups.membership(device, body.groupjid);
			if (body.getInviteLink) groups.asAdmin(device, body.groupjid, 'see the invite link');
			if (body.getRequestsParticipants) groups.asAdmin(device, body.groupjid, 'see the join requests');
			return {
				...groups.view(group),
				...(body.getInviteLink ? invite(group) : {}),
				...(body.getRequestsParticipants
					? {
							pendingRequests: services.store.groups
								.requests(group.jid)
								.map((r) => ({ jid: userJid(r.phone), phone: r.phone, requestedAt: r.requested_at })),
						}
					: {}),
			};
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/inviteInfo',
		auth: 'instance',
		summary: 'What an invite code (or link) opens, without joining',
		body: invitecode,
		answer: groupAnswer.extend({ inviteCode: z.string() }),
		handler: ({ services, device, body }) => {
			services.messaging.checkConnected(device);
			const group = services.groups.byInvite(inviteCodeOf(body.invitecode));
			return { ...services.groups.view(group), inviteCode: group.invite_code };
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/join',
		auth: 'instance',
		summary: 'Join a group by invite code (or link); a group that approves new participants gets a request',
		body: invitecode,
		answer: groupAnswer.extend({ status: z.enum(['joined', 'pending', 'member']) }),
		handler: ({ services, device, body }) => {
			const { group, status } = services.groups.join(device, inviteCodeOf(body.invitecode));
			return { ...services.groups.view(group), status };
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/leave',
		auth: 'instance',
		summary: 'Leave a group',
		body: z.strictObject(groupjid),
		answer: z.object({ jid: z.string(), left: z.literal(true) }),
		handler: ({ services, device, body }) => {
			services.groups.leave(device, body.groupjid);
			return { jid: body.groupjid, left: true as const };
		},
	}),

	route({
		method: 'GET',
		path: '/wdm/v1/group/list',
		auth: 'instance',
		summary: 'Every group the device takes part in, by name, without paging',
		query: z.object({ force: qBool.optional(), noparticipants: qBool.optional() }),
		answer: z.array(groupAnswer),
		handler: ({ services, device, query }) => {
			services.messaging.checkConnected(device);
			// SQLite reads LIMIT -1 as no limit.
			const { rows } = services.store.groups.ofMember(device.phone!, { limit: -1, offset: 0 });
			return services.groups.views(rows, !query.noparticipants);
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/list',
		auth: 'instance',
		summary: 'The groups the device takes part in, by name, with search and paging',
		body: z
			.strictObject({
				page: z.number().int().min(1).optional(),
				pageSize: z.number().int().min(1).max(1000).optional(),
				limit: z.number().int().min(1).max(1000).optional(),
				offset: z.number().int().min(0).optional(),
				search: z.string().trim().optional(),
				force: z.boolean().default(false),
				noParticipants: z.boolean().default(false),
			})
			.refine((b) => b.pageSize === undefined || b.limit === undefined || b.pageSize === b.limit, {
				error: 'is an alias of pageSize: give one of them, or the same value',
				path: ['limit'],
			})
			.refine((b) => b.page === undefined || b.offset === undefined, { error: 'cannot be combined with page', path: ['offset'] }),
		answer: z.object({ groups: z.array(groupAnswer), page: z.number(), pageSize: z.number(), ...pageAnswer }),
		handler: ({ services, device, body }) => {
			services.messaging.checkConnected(device);
			const pageSize = body.limit ?? body.pageSize ?? 50;
			const offset = body.offset ?? ((body.page ?? 1) - 1) * pageSize;
			const { rows, total } = services.store.groups.ofMember(device.phone!, { search: body.search, limit: pageSize, offset });
			return {
				groups: services.groups.views(rows, !body.noParticipants),
				total,
				page: Math.floor(offset / pageSize) + 1,
				pageSize,
				limit: pageSize,
				offset,
				...nextPage(offset, rows.length, total),
			};
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/resetInviteCode',
		auth: 'instance',
		summary: 'Make a new invite code; the old one stops working',
		body: z.strictObject(groupjid),
		answer: groupAnswer.extend(inviteAnswer),
		handler: ({ services, device, body }) => {
			const group = services.groups.resetInviteCode(device, body.groupjid);
			return { ...services.groups.view(group), ...invite(group) };
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/updateAnnounce',
		auth: 'instance',
		summary: 'Announce mode: when on, only admins send messages',
		body: z.strictObject({ ...groupjid, announce: z.boolean() }),
		answer: groupAnswer,
		handler: ({ services, device, body }) => services.groups.view(services.groups.update(device, body.groupjid, { announce: body.announce })),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/updateDescription',
		auth: 'instance',
		summary: 'Set the group description (empty removes it)',
		body: z.strictObject({ ...groupjid, description: z.string().trim().max(2048) }),
		answer: groupAnswer,
		handler: ({ services, device, body }) =>
			services.groups.view(services.groups.update(device, body.groupjid, { description: body.description })),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/updateImage',
		media: true,
		auth: 'instance',
		summary: 'Set the group image from a URL or Base64, or remove it with "remove" or "delete"',
		body: z.strictObject({ ...groupjid, image: z.string().trim().min(1) }),
		answer: groupAnswer,
		handler: async ({ services, device, body }) => {
			const { groups } = services;
			const remove = /^(remove|delete)$/i.test(body.image);
			// Refuse before downloading anything when the device may not change the image anyway.
			if (!remove) groups.checkChange(device, body.groupjid, 'image');
			const image = remove ? null : await loadMedia(body.image, 'image', services.media);
			if (image && !image.mimetype.startsWith('image/')) throw badRequest(`image must be an image file (got ${image.mimetype})`);
			return groups.view(groups.update(device, body.groupjid, { image }));
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/updateLocked',
		auth: 'instance',
		summary: 'Lock editing: when on, only admins change the name, description and image',
		body: z.strictObject({ ...groupjid, locked: z.boolean() }),
		answer: groupAnswer,
		handler: ({ services, device, body }) => services.groups.view(services.groups.update(device, body.groupjid, { locked: body.locked })),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/updateName',
		auth: 'instance',
		summary: 'Rename the group',
		body: z.strictObject({ ...groupjid, name: groupName }),
		answer: groupAnswer,
		handler: ({ services, device, body }) => services.groups.view(services.groups.update(device, body.groupjid, { name: body.name })),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/group/updateParticipants',
		auth: 'instance',
		summary: 'Add, remove, promote or demote participants, or approve or reject join requests; one result per participant',
		body: z.strictObject({ ...groupjid, action: z.enum(PARTICIPANT_ACTIONS), participants: participantList }),
		answer: groupAnswer.extend({ results: z.array(itemResultAnswer) }),
		handler: ({ services, device, body }) => {
			const phones = phonesOf(body.participants, 'participants');
			const { group, results } = services.groups.updateParticipants(device, body.groupjid, body.action, phones);
			return { ...services.groups.view(group), results };
		},
	}),
];
