import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { chatField, flag } from './fields';

export const remove: Operation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a chat',
	description: 'Delete a chat on the network and/or from the gateway database, and/or its stored messages',
	routing: gatewayRouting('POST', '/chat/delete'),
	fields: [
		chatField,
		flag('Delete on Network', 'deleteChatNetwork', 'Whether to delete the chat from the account on the network (the device must be connected)'),
		flag('Delete Chat Record', 'deleteChatDB', "Whether to remove the chat from the gateway's database"),
		{ ...flag('Delete Messages', 'deleteMessagesDB', "Whether to remove the chat's messages (and their media) from the gateway's database"), default: false },
	],
};
