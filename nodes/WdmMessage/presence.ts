import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { numberField } from './fields';

export const setPresence: Operation = {
	name: 'Set Presence',
	value: 'setPresence',
	action: 'Show typing or recording in a chat',
	description: 'Show "typing…" or "recording…" in a chat for a while, or stop it',
	routing: gatewayRouting('POST', '/message/presence'),
	fields: [
		numberField,
		{
			displayName: 'Presence',
			name: 'presence',
			type: 'options',
			default: 'composing',
			options: [
				{ name: 'Typing', value: 'composing' },
				{ name: 'Recording Audio', value: 'recording' },
				{ name: 'Stop', value: 'paused', description: 'End a typing or recording indicator' },
			],
			routing: { send: { type: 'body', property: 'presence' } },
		},
		{
			displayName: 'Duration (Ms)',
			name: 'delay',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 300000 },
			default: 30000,
			description: 'How long the indicator lasts (at most 5 minutes); it is re-sent every 10 seconds meanwhile',
			displayOptions: { hide: { presence: ['paused'] } },
			routing: { send: { type: 'body', property: 'delay' } },
		},
	],
};
