import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { chatField } from './fields';

export const mute: Operation = {
	name: 'Mute',
	value: 'mute',
	action: 'Mute or unmute a chat',
	description: 'Mute a chat for 8 hours, a week or for ever, or unmute it',
	routing: gatewayRouting('POST', '/chat/mute'),
	fields: [
		chatField,
		{
			displayName: 'Mute For',
			name: 'muteEndTime',
			type: 'options',
			default: 8,
			options: [
				{ name: '8 Hours', value: 8 },
				{ name: '1 Week', value: 168 },
				{ name: 'Forever', value: -1 },
				{ name: 'Unmute', value: 0, description: 'End the mute' },
			],
			routing: { send: { type: 'body', property: 'muteEndTime' } },
		},
	],
};
