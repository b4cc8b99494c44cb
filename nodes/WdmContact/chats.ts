import type { Operation } from '../shared/operations';
import { listToBody } from '../shared/lists';
import { chatField, post } from '../WdmChat/fields';

export const getChatDetails: Operation = {
	name: 'Get Chat Details',
	value: 'getChatDetails',
	action: 'Get the details of a contact or group chat',
	description: "A contact's or group's details (names, whether on the network) with the state of its chat",
	routing: post('/chat/details'),
	fields: [chatField],
};

export const checkNumbers: Operation = {
	name: 'Check Numbers',
	value: 'checkNumbers',
	action: 'Check numbers on the network',
	description: 'Whether numbers (and group IDs) are on the network, with their names; one item per number',
	routing: post('/chat/check'),
	fields: [
		{
			displayName: 'Numbers',
			name: 'numbers',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Number',
			default: {},
			description: 'Up to 500 numbers or group IDs to check',
			options: [
				{
					displayName: 'Number',
					name: 'values',
					values: [
						{
							displayName: 'Number',
							name: 'number',
							type: 'string',
							default: '',
							placeholder: 'e.g. 5511999990001',
							description: 'International number, user JID or group JID; an expression may give several (an array, or separated by commas)',
						},
					],
				},
			],
			routing: { send: { preSend: [listToBody('numbers', 'number', 'numbers')] } },
		},
	],
};
