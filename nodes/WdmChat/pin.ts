import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { chatField, flag } from './fields';

export const pin: Operation = {
	name: 'Pin',
	value: 'pin',
	action: 'Pin or unpin a chat',
	description: 'Pin a chat to the top (at most 3 chats; this unarchives it) or unpin it',
	routing: gatewayRouting('POST', '/chat/pin'),
	fields: [chatField, flag('Pin', 'pin', 'Whether to pin the chat; turn off to unpin it')],
};
