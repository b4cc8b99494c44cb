import type { INodeProperties } from 'n8n-workflow';
import { asList, contextField, idsField, query } from '../shared/content/fields';
import { picker } from '../shared/pickers';

/** The user an operation works on (`me`, By ID, is the signed-in user). */
export const userField = picker('user', {
	displayName: 'User',
	name: 'userId',
	description: 'The user: pick them from the list, or give their ID (or me, the signed-in user), or their URL',
});

export const ROLES = [
	{ name: 'Administrator', value: 'administrator' },
	{ name: 'Author', value: 'author' },
	{ name: 'Contributor', value: 'contributor' },
	{ name: 'Editor', value: 'editor' },
	{ name: 'Subscriber', value: 'subscriber' },
];

/** Options of a single user: the context of the answer. */
export const userOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [{ ...contextField, description: 'Which fields the site answers with (Edit: email, roles, capabilities...; for oneself or administrators)' }],
};

const body = (property: string) => ({ send: { type: 'body' as const, property } });

/**
 * The writable profile fields of a user, each sent under its REST name. Create shows Username, Email
 * and Password on their own; Update has Email and Password among these.
 */
export function profileFields(withCredentials: boolean): INodeProperties[] {
	const text = (displayName: string, name: string, description: string, extra: Partial<INodeProperties> = {}): INodeProperties => ({
		displayName,
		name,
		type: 'string',
		default: '',
		description,
		routing: body(name),
		...extra,
	});
	const fields: INodeProperties[] = [
		text('Description', 'description', 'About the user, shown with their posts', { typeOptions: { rows: 3 } }),
		...(withCredentials
			? [
					text('Email', 'email', 'Their email address (no other user may have it)', { placeholder: 'name@email.com' }),
					text('Password', 'password', 'Their new login password (for signing in to the site, not to the REST API)', { typeOptions: { password: true } }),
				]
			: []),
		text('First Name', 'first_name', 'Their first name'),
		text('Last Name', 'last_name', 'Their last name'),
		{
			displayName: 'Locale',
			name: 'locale',
			type: 'options',
			options: [
				{ name: 'Site Default', value: '' },
				{ name: 'English (United States)', value: 'en_US' },
			],
			default: '',
			description: 'The language of the site for them',
			routing: body('locale'),
		},
		text('Name', 'name', 'The name shown for them (default: first and last name, or the username)'),
		text('Nickname', 'nickname', 'Their nickname (default: the username)'),
		{
			displayName: 'Role',
			name: 'roles',
			type: 'options',
			options: ROLES,
			default: 'subscriber',
			description: 'Their role on the site (giving roles needs the right to promote users)',
			// WordPress takes a list of roles (one role is a list of one); a site user has one.
			routing: body('roles'),
		},
		text('Slug', 'slug', 'Their alphanumeric identifier in URLs (made unique when in use, on creation)'),
		text('URL', 'url', 'Their website', { placeholder: 'https://example.com' }),
	];
	return fields;
}

/** The filters of Get Many. */
export const userFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Capabilities',
			name: 'capabilities',
			type: 'string',
			default: '',
			placeholder: 'e.g. publish_posts, edit_pages',
			description: 'Only users with at least one of these capabilities (needs the right to list users)',
			routing: query('capabilities'),
		},
		idsField('Exclude User IDs', 'exclude', 'Leave out these users'),
		{
			displayName: 'Has Published Posts',
			name: 'has_published_posts',
			type: 'boolean',
			default: false,
			description: 'Whether to list only users with published posts or pages',
			routing: query('has_published_posts'),
		},
		idsField('Include User IDs', 'include', 'Only these users'),
		{
			displayName: 'Roles',
			name: 'roles',
			type: 'multiOptions',
			options: ROLES,
			default: [],
			description: 'Only users with one of these roles (needs the right to list users)',
			routing: asList('query', 'roles'),
		},
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Users whose username, slug or name contain the text (and email or URL, for who may list users)',
			routing: query('search'),
		},
		{
			displayName: 'Slugs',
			name: 'slug',
			type: 'string',
			default: '',
			placeholder: 'e.g. alice, bob',
			description: 'Only users with these slugs',
			routing: query('slug'),
		},
		{
			displayName: 'Who',
			name: 'who',
			type: 'options',
			options: [{ name: 'Authors', value: 'authors', description: 'Users who may write content: every role but subscriber' }],
			default: 'authors',
			description: 'Only users of this kind (needs the right to edit posts)',
			routing: query('who'),
		},
	],
};
