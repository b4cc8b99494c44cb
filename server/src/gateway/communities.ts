import { z } from 'zod';
import { route } from '../http/route';
import { groupJid, groupName, invite, inviteAnswer } from './groups';
import { groupAnswer, itemResultAnswer } from './views';

/** Communities: a parent group with an announcement group, to which groups are linked. */
export const communityRoutes = [
	route({
		method: 'POST',
		path: '/wdm/v1/community/create',
		auth: 'instance',
		summary: 'Create a community, with its announcement group; the device is its super admin',
		body: z.strictObject({ name: groupName }),
		answer: groupAnswer.extend(inviteAnswer),
		handler: ({ services, device, body }) => {
			const community = services.groups.createCommunity(device, body.name);
			return { ...services.groups.view(community), ...invite(community) };
		},
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/community/editgroups',
		auth: 'instance',
		summary: 'Add groups to a community or remove them; one result per group',
		body: z.strictObject({ community: groupJid, action: z.enum(['add', 'remove']), groupjids: z.array(groupJid).min(1) }),
		answer: groupAnswer.extend({ results: z.array(itemResultAnswer) }),
		handler: ({ services, device, body }) => {
			const { community, results } = services.groups.editCommunity(device, body.community, body.action, body.groupjids);
			return { ...services.groups.view(community), results };
		},
	}),
];
