import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { listOptions } from '../shared/content/fields';
import type { Operation } from '../shared/operations';
import { picker } from '../shared/pickers';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../shared/site';
import { profileFields, userField, userFilters, userOptions } from './fields';

const USERS = '/cms/v2/users';
const ME = '/cms/v2/users/me';
const ITEM = '/cms/v2/users/{id}';
const item = { id: 'userId' };

export const getMany: Operation = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many users',
	description: 'List users, filtered by role, capability, text and more (the public sees authors of published posts only)',
	routing: siteListRouting(USERS),
	fields: [
		...siteReturnAllFields,
		userFilters,
		listOptions([
			{ name: 'Email', value: 'email' },
			{ name: 'ID', value: 'id' },
			{ name: 'Include', value: 'include', description: 'The order of Include User IDs' },
			{ name: 'Include Slugs', value: 'include_slugs', description: 'The order of Slugs' },
			{ name: 'Name', value: 'name' },
			{ name: 'Registered Date', value: 'registered_date' },
			{ name: 'Slug', value: 'slug' },
			{ name: 'URL', value: 'url' },
		]),
	],
};

export const get: Operation = {
	name: 'Get',
	value: 'get',
	action: 'Get a user',
	description: 'Get a user by ID',
	routing: siteRouting('GET', ITEM, item),
	fields: [userField, userOptions],
};

export const getMe: Operation = {
	name: 'Get Me',
	value: 'getMe',
	action: 'Get the signed-in user',
	description: "Get the user of the credential's application password",
	routing: siteRouting('GET', ME),
	fields: [userOptions],
};

const credentialFields: INodeProperties[] = [
	{ displayName: 'Username', name: 'username', type: 'string', required: true, default: '', description: 'Their login name (letters, digits, spaces, dots and _ - @); it cannot change later', routing: { send: { type: 'body', property: 'username' } } },
	{ displayName: 'Email', name: 'email', type: 'string', required: true, default: '', placeholder: 'name@email.com', description: 'Their email address (no other user may have it)', routing: { send: { type: 'body', property: 'email' } } },
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		required: true,
		typeOptions: { password: true },
		default: '',
		description: 'Their login password (for signing in to the site; the REST API takes application passwords)',
		routing: { send: { type: 'body', property: 'password' } },
	},
];

export const create: Operation = {
	name: 'Create',
	value: 'create',
	action: 'Create a user',
	description: 'Create a user (a subscriber unless a role is given; needs the right to create users)',
	routing: siteRouting('POST', USERS),
	fields: [
		...credentialFields,
		{ displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: profileFields(false) },
	],
};

const updateFields: INodeProperties = { displayName: 'Update Fields', name: 'updateFields', type: 'collection', placeholder: 'Add Field', default: {}, options: profileFields(true) };

export const update: Operation = {
	name: 'Update',
	value: 'update',
	action: 'Update a user',
	description: "Update a user's profile or role (the username cannot change)",
	routing: siteRouting('POST', ITEM, item),
	fields: [userField, updateFields],
};

export const updateMe: Operation = {
	name: 'Update Me',
	value: 'updateMe',
	action: 'Update the signed-in user',
	description: "Update the profile of the credential's user",
	routing: siteRouting('POST', ME),
	fields: [updateFields],
};

/**
 * WordPress deletes users for good only (`force=true`) and wants to know where their content goes:
 * to another user (`reassign`), or, with Delete Their Content, nowhere (`reassign=false`).
 */
async function deleteQuery(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const deleteContent = this.getNodeParameter('deleteContent', false) as boolean;
	const reassign = deleteContent ? false : String(this.getNodeParameter('reassign', '', { extractValue: true }) ?? '').trim();
	return { ...options, qs: { ...options.qs, force: true, reassign } };
}

const deleteFields: INodeProperties[] = [
	{
		displayName: 'Delete Their Content',
		name: 'deleteContent',
		type: 'boolean',
		default: false,
		description: "Whether to delete the user's posts and pages with them instead of giving them to another user",
	},
	{
		...picker('user', { displayName: 'Reassign To', name: 'reassign', description: "The user who gets the deleted user's posts and pages" }),
		displayOptions: { show: { deleteContent: [false] } },
	},
];

const withDeleteQuery = (routing: ReturnType<typeof siteRouting>) => ({ ...routing, send: { preSend: [...(routing.send?.preSend ?? []), deleteQuery] } });

export const remove: Operation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a user',
	description: 'Delete a user for good, giving their content to another user or deleting it (needs the right to delete users)',
	routing: withDeleteQuery(siteRouting('DELETE', ITEM, item)),
	fields: [userField, ...deleteFields],
};

export const removeMe: Operation = {
	name: 'Delete Me',
	value: 'deleteMe',
	action: 'Delete the signed-in user',
	description: "Delete the credential's user for good (needs the right to delete users)",
	routing: withDeleteQuery(siteRouting('DELETE', ME)),
	fields: deleteFields,
};
