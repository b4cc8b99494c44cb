import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';
import { listField } from '../shared/lists';
import { chatField } from '../WdmChat/fields';

export const getChatDetails: Operation = {
	name: 'Get Chat Details',
	value: 'getChatDetails',
	action: 'Get the details of a contact or group chat',
	description: "A contact's or group's details (names, whether on the network) with the state of its chat",
	routing: gatewayRouting('POST', '/chat/details'),
	fields: [chatField],
};

export const checkNumbers: Operation = {
	name: 'Check Numbers',
	value: 'checkNumbers',
	action: 'Check numbers on the network',
	description: 'Whether numbers (and group IDs) are on the network, with their names; one item per number',
	routing: gatewayRouting('POST', '/chat/check'),
	fields: [
		listField(
			{ displayName: 'Numbers', name: 'numbers', item: 'Number', description: 'Up to 500 numbers or group IDs to check', bodyKey: 'numbers' },
			{
				displayName: 'Number',
				name: 'number',
				type: 'string',
				default: '',
				placeholder: 'e.g. 5511999990001',
				description: 'International number, user JID or group JID; an expression may give several (an array, or separated by commas)',
			},
		),
	],
};
