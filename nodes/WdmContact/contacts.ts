import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { gatewayRouting, listOperationRouting, returnAllFields } from '../shared/gateway';
import { picker } from '../shared/pickers';

// Add and Remove share it: typed by number first (a new contact is not in the list yet).
const phoneField: INodeProperties = picker('contact', {
	displayName: 'Contact',
	name: 'phone',
	mode: 'id',
	description: 'The contact: a phone number in international format (country code first), a user JID (…@s.whatsapp.net), or one of the saved contacts picked from the list',
	routing: { send: { type: 'body', property: 'phone' } },
});

export const getMany: Operation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many contacts',
	description: 'Every contact saved on the device, by name, in one request',
	routing: gatewayRouting('GET', '/contacts'),
	fields: returnAllFields,
};

export const list: Operation = {
	name: 'List',
	value: 'list',
	action: 'List contacts page by page',
	description: 'The contacts saved on the device, by name, fetched a page at a time',
	routing: listOperationRouting('POST', '/contacts/list', 'contacts'),
	fields: returnAllFields,
};

export const add: Operation = {
	name: 'Add',
	value: 'add',
	action: 'Add a contact',
	description: 'Save a contact on the device; saving a saved number again renames it',
	routing: gatewayRouting('POST', '/contact/add'),
	fields: [
		phoneField,
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Ana Souza',
			description: 'Full name of the contact',
			routing: { send: { type: 'body', property: 'name' } },
		},
	],
};

export const remove: Operation = {
	name: 'Remove',
	value: 'remove',
	action: 'Remove a contact',
	description: 'Remove a saved contact from the device',
	routing: gatewayRouting('POST', '/contact/remove'),
	fields: [phoneField],
};
