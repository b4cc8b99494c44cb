import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { chatField, flag } from './fields';

export const archive: Operation = {
	name: 'Archive',
	value: 'archive',
	action: 'Archive or unarchive a chat',
	description: 'Archive a chat (this unpins it) or bring it back from the archive',
	routing: gatewayRouting('POST', '/chat/archive'),
	fields: [chatField, flag('Archive', 'archive', 'Whether to archive the chat; turn off to unarchive it')],
};
