// The network's rules on groups that both the groups (network/groups.ts) and the messaging that sends to
// them (network/messaging.ts) apply, below both so neither imports the other.
import type { Store } from '../store';
import type { GroupParticipantRow } from '../store/types';

export const isAdmin = (p: GroupParticipantRow | undefined) => !!p && p.role !== 'member';

/**
 * Why the network refuses a message from `phone` to the group `jid` (`who` names the sender in the
 * sentence), or nothing when it takes it: the sender must be a participant, a community takes no
 * messages (its announcement group does), and in announce mode only admins write.
 */
export function groupSendRefusal(store: Store, phone: string, jid: string, who = 'this device'): string | undefined {
	const group = store.groups.get(jid);
	const me = group && store.groups.participant(jid, phone);
	if (!group || !me) return `group ${jid} does not exist or ${who} is not a member`;
	if (group.kind === 'community') {
		const announcement = store.groups.linkedTo(jid).find((g) => g.kind === 'announcement');
		return `${jid} is a community: send to its announcement group ${announcement?.jid ?? ''}`.trim();
	}
	if (group.announce && !isAdmin(me)) return `only admins can send messages to group ${jid} (announce is on)`;
	return undefined;
}
