import type { INodeProperties } from 'n8n-workflow';
import { contextField } from '../shared/content/fields';
import type { Operation } from '../shared/operations';
import { picker } from '../shared/pickers';
import { siteRouting } from '../shared/site';
import { userField } from './fields';

/** `/cms/v2/users/{user}/application-passwords`: a user's (`me`: the signed-in one's) application passwords. */
const LIST = '/cms/v2/users/{user}/application-passwords';
const ITEM = `${LIST}/{uuid}`;
const fields = { user: 'userId', uuid: 'uuid' };

const uuidField = picker('appPassword', {
	displayName: 'Application Password',
	name: 'uuid',
	description: "One of the user's application passwords: pick it by name, or give its UUID",
});

const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'appName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. n8n',
	description: 'The name of the application it is for (unique among the user’s passwords)',
	routing: { send: { type: 'body', property: 'name' } },
};

const contextOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [contextField],
};

export const createAppPassword: Operation = {
	name: 'Create Application Password',
	value: 'createAppPassword',
	action: 'Create an application password',
	description: 'Create an application password for a user; the password is in the output only this once',
	routing: siteRouting('POST', LIST, fields),
	fields: [
		userField,
		nameField,
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'App ID',
					name: 'app_id',
					type: 'string',
					default: '',
					placeholder: 'e.g. 3f2504e0-4f89-41d3-9a0c-0305e82c3301',
					description: 'A UUID the application gives to say which it is',
					routing: { send: { type: 'body', property: 'app_id' } },
				},
			],
		},
	],
};

export const getAppPassword: Operation = {
	name: 'Get Application Password',
	value: 'getAppPassword',
	action: 'Get an application password',
	description: 'Get one of a user’s application passwords (its name and use, never the password)',
	routing: siteRouting('GET', ITEM, fields),
	fields: [userField, uuidField, contextOptions],
};

export const getManyAppPasswords: Operation = {
	name: 'Get Many Application Passwords',
	value: 'getManyAppPasswords',
	action: 'Get many application passwords',
	description: 'List a user’s application passwords (their names and use, never the passwords)',
	routing: siteRouting('GET', LIST, fields),
	fields: [userField, contextOptions],
};

export const updateAppPassword: Operation = {
	name: 'Update Application Password',
	value: 'updateAppPassword',
	action: 'Rename an application password',
	description: 'Rename one of a user’s application passwords',
	routing: siteRouting('POST', ITEM, fields),
	fields: [userField, uuidField, nameField],
};

export const deleteAppPassword: Operation = {
	name: 'Delete Application Password',
	value: 'deleteAppPassword',
	action: 'Delete an application password',
	description: 'Delete one of a user’s application passwords: it no longer signs in',
	routing: siteRouting('DELETE', ITEM, fields),
	fields: [userField, uuidField],
};

export const deleteAllAppPasswords: Operation = {
	name: 'Delete All Application Passwords',
	value: 'deleteAllAppPasswords',
	action: 'Delete all application passwords',
	description: 'Delete every application password of a user (with the credential’s own, when it is theirs)',
	routing: siteRouting('DELETE', LIST, fields),
	fields: [userField],
};

export const introspectAppPassword: Operation = {
	name: 'Introspect Application Password',
	value: 'introspectAppPassword',
	action: 'Introspect the application password',
	description: 'Get the application password the credential signs in with',
	routing: siteRouting('GET', `${LIST}/introspect`, fields),
	fields: [userField, contextOptions],
};
