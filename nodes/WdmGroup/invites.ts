import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { groupJidField, inviteCodeField } from './fields';

export const getInviteInfo: Operation = {
	name: 'Get Invite Info',
	value: 'getInviteInfo',
	action: 'Get the group an invite opens',
	description: 'See which group an invite code or link opens, without joining',
	routing: gatewayRouting('POST', '/group/inviteInfo'),
	fields: [inviteCodeField],
};

export const join: Operation = {
	name: 'Join',
	value: 'join',
	action: 'Join a group by invite',
	description: 'Join a group by invite code or link; a group that approves new participants gets a join request (status "pending")',
	routing: gatewayRouting('POST', '/group/join'),
	fields: [inviteCodeField],
};

export const resetInviteCode: Operation = {
	name: 'Reset Invite Link',
	value: 'resetInviteCode',
	action: 'Reset the invite link of a group',
	description: 'Make a new invite code and link; the old ones stop working (admins only)',
	routing: gatewayRouting('POST', '/group/resetInviteCode'),
	fields: [groupJidField],
};
