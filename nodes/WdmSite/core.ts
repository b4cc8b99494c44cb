import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, IN8nHttpFullResponse, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { contextField, query } from '../shared/content/fields';
import type { Operation } from '../shared/operations';
import { picker } from '../shared/pickers';
import { siteListRouting, siteResponse, siteReturnAllFields, siteRouting } from '../shared/site';

/*
 * The site's small core routes (WordPress's settings, search, post types, taxonomies and statuses
 * controllers), all in `cms/v2`: `siteRouting` moves them to the credential's namespace (`wp/v2`).
 */

// ---- Settings ----

const statusOptions = [
	{ name: 'Open', value: 'open' },
	{ name: 'Closed', value: 'closed' },
];

const body = (property: string) => ({ send: { type: 'body' as const, property } });

/** A setting of Update Settings, sent under its REST name. */
const setting = (field: Omit<INodeProperties, 'routing'>): INodeProperties => ({ ...field, routing: body(field.name) });

const SETTINGS: INodeProperties[] = [
	setting({ displayName: 'Date Format', name: 'date_format', type: 'string', default: 'F j, Y', description: 'PHP date format of dates on the site, e.g. F j, Y' }),
	picker('category', {
		displayName: 'Default Category',
		name: 'default_category',
		required: false,
		description: 'The category a post gets when it is given none: pick it, or give its ID',
		routing: body('default_category'),
	}),
	setting({ displayName: 'Default Comment Status', name: 'default_comment_status', type: 'options', options: statusOptions, default: 'open', description: 'Whether new posts take comments' }),
	setting({ displayName: 'Default Ping Status', name: 'default_ping_status', type: 'options', options: statusOptions, default: 'open', description: 'Whether new posts take pingbacks and trackbacks' }),
	setting({
		displayName: 'Default Post Format',
		name: 'default_post_format',
		type: 'options',
		options: [
			{ name: 'Aside', value: 'aside' },
			{ name: 'Audio', value: 'audio' },
			{ name: 'Chat', value: 'chat' },
			{ name: 'Gallery', value: 'gallery' },
			{ name: 'Image', value: 'image' },
			{ name: 'Link', value: 'link' },
			{ name: 'Quote', value: 'quote' },
			{ name: 'Standard', value: '0' },
			{ name: 'Status', value: 'status' },
			{ name: 'Video', value: 'video' },
		],
		default: '0',
	}),
	setting({ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '', description: 'Administration email address' }),
	setting({ displayName: 'Language', name: 'language', type: 'string', default: 'en_US', description: 'Locale code of a language installed on the site' }),
	picker('page', { displayName: 'Page for Posts', name: 'page_for_posts', required: false, description: 'The page that lists the posts: pick it, or give its ID or URL (0 for none)', routing: body('page_for_posts') }),
	picker('page', { displayName: 'Page on Front', name: 'page_on_front', required: false, description: 'The page shown on the front page: pick it, or give its ID or URL (0 for none)', routing: body('page_on_front') }),
	setting({ displayName: 'Posts per Page', name: 'posts_per_page', type: 'number', typeOptions: { minValue: 1 }, default: 10, description: 'Posts on a page of the blog' }),
	setting({
		displayName: 'Show on Front',
		name: 'show_on_front',
		type: 'options',
		options: [
			{ name: 'Latest Posts', value: 'posts' },
			{ name: 'A Static Page', value: 'page' },
		],
		default: 'posts',
		description: 'What the front page shows',
	}),
	setting({ displayName: 'Site Icon', name: 'site_icon', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'ID of the media item used as the site icon (0 for none)' }),
	setting({ displayName: 'Site Logo', name: 'site_logo', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'ID of the media item used as the site logo (0 for none)' }),
	setting({
		displayName: 'Start of Week',
		name: 'start_of_week',
		type: 'options',
		options: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((name, value) => ({ name, value })),
		default: 1,
	}),
	setting({ displayName: 'Tagline', name: 'description', type: 'string', default: '', description: 'The site tagline' }),
	setting({ displayName: 'Time Format', name: 'time_format', type: 'string', default: 'g:i a', description: 'PHP time format of times on the site, e.g. g:i a' }),
	setting({ displayName: 'Time Zone', name: 'timezone', type: 'string', placeholder: 'e.g. Europe/Berlin', default: 'UTC', description: 'Time zone name; post dates are shown in it' }),
	setting({ displayName: 'Title', name: 'title', type: 'string', default: '', description: 'The site title' }),
	setting({ displayName: 'Use Smilies', name: 'use_smilies', type: 'boolean', default: true, description: 'Whether to show emoticons such as :-) as images' }),
];

/** Sends `null` for each setting to reset (WordPress deletes it: its default applies again). */
async function resetSettings(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const names = this.getNodeParameter('reset', []) as string[];
	if (!names.length) return options;
	return { ...options, body: { ...(options.body as IDataObject), ...Object.fromEntries(names.map((name) => [name, null])) } };
}

export const getSettings: Operation = {
	name: 'Get Settings',
	value: 'getSettings',
	action: "Get the site's settings",
	description: 'Get the title, tagline, time zone, formats, reading and discussion settings (administrators)',
	routing: siteRouting('GET', '/cms/v2/settings'),
};

export const updateSettings: Operation = {
	name: 'Update Settings',
	value: 'updateSettings',
	action: "Update the site's settings",
	description: 'Change some settings, or reset them to their defaults (administrators); the answer is every setting',
	routing: siteRouting('POST', '/cms/v2/settings'),
	fields: [
		{
			displayName: 'Settings',
			name: 'settings',
			type: 'collection',
			placeholder: 'Add Setting',
			default: {},
			options: SETTINGS,
		},
		{
			displayName: 'Reset Settings',
			name: 'reset',
			type: 'multiOptions',
			options: SETTINGS.map((s) => ({ name: s.displayName, value: s.name })),
			default: [],
			description: 'Settings to put back to their defaults',
			routing: { send: { preSend: [resetSettings] } },
		},
	],
};

// ---- Search ----

export const search: Operation = {
	name: 'Search',
	value: 'search',
	action: 'Search the site',
	description: 'Search published posts, pages and items of public post types, or terms, or post formats',
	routing: siteListRouting('/cms/v2/search'),
	fields: [
		{ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text to look for (empty: everything, newest first)', routing: query('search') },
		{
			displayName: 'Search In',
			name: 'searchType',
			type: 'options',
			options: [
				{ name: 'Posts', value: 'post', description: 'Published items of the public post types' },
				{ name: 'Terms', value: 'term', description: 'Terms of the public taxonomies' },
				{ name: 'Post Formats', value: 'post-format', description: 'The post formats in use' },
			],
			default: 'post',
			routing: query('type'),
		},
		...siteReturnAllFields,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Subtypes',
					name: 'subtype',
					type: 'string',
					default: 'any',
					placeholder: 'e.g. post,page or category',
					description: 'Comma-separated post types (Posts) or taxonomies (Terms) to search; any for all',
					routing: query('subtype'),
				},
				{ displayName: 'Include IDs', name: 'include', type: 'string', default: '', placeholder: 'e.g. 12,15', description: 'Comma-separated IDs to limit the results to', routing: query('include') },
				{ displayName: 'Exclude IDs', name: 'exclude', type: 'string', default: '', placeholder: 'e.g. 12,15', description: 'Comma-separated IDs to leave out', routing: query('exclude') },
			],
		},
	],
};

// ---- Post types, taxonomies, statuses ----

/** The collections answer an object keyed by slug: one item per entry. */
async function keyedItems(this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
	const [answer] = await siteResponse.call(this, items, response);
	return Object.values(answer.json).map((json) => ({ json: json as IDataObject }));
}

const keyedRouting = (path: string) => ({ ...siteRouting('GET', path), output: { postReceive: [keyedItems] } });

export const getType: Operation = {
	name: 'Get Post Type',
	value: 'getType',
	action: 'Get a post type',
	description: 'Get a post type of the site (labels, supports and capabilities in the edit context)',
	routing: siteRouting('GET', '/cms/v2/types/{postType}'),
	fields: [picker('siteType', { displayName: 'Post Type', name: 'postType', description: 'The post type: pick it from the list, or give its slug' }), contextField],
};

export const getManyTypes: Operation = {
	name: 'Get Many Post Types',
	value: 'getManyTypes',
	action: 'Get many post types',
	description: "Get the site's post types (the edit context keeps those the user may edit), one item each",
	routing: keyedRouting('/cms/v2/types'),
	fields: [contextField],
};

export const getTaxonomy: Operation = {
	name: 'Get Taxonomy',
	value: 'getTaxonomy',
	action: 'Get a taxonomy',
	description: 'Get a taxonomy of the site',
	routing: siteRouting('GET', '/cms/v2/taxonomies/{taxonomy}'),
	fields: [picker('siteTaxonomy', { displayName: 'Taxonomy', name: 'taxonomy', description: 'The taxonomy: pick it from the list, or give its slug' }), contextField],
};

export const getManyTaxonomies: Operation = {
	name: 'Get Many Taxonomies',
	value: 'getManyTaxonomies',
	action: 'Get many taxonomies',
	description: "Get the site's taxonomies, or those of one post type, one item each",
	routing: keyedRouting('/cms/v2/taxonomies'),
	fields: [
		contextField,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [picker('siteType', { displayName: 'Post Type', name: 'type', required: false, description: 'The post type whose taxonomies to list: pick it, or give its slug', routing: query('type') })],
		},
	],
};

export const getStatus: Operation = {
	name: 'Get Status',
	value: 'getStatus',
	action: 'Get a post status',
	description: 'Get a post status (publish, future, draft, pending, private, trash)',
	routing: siteRouting('GET', '/cms/v2/statuses/{status}'),
	fields: [picker('siteStatus', { displayName: 'Status', name: 'status', description: 'The status: pick it from the list, or give its slug' }), contextField],
};

export const getManyStatuses: Operation = {
	name: 'Get Many Statuses',
	value: 'getManyStatuses',
	action: 'Get many post statuses',
	description: 'Get the post statuses the user may see (all six to those who can edit posts), one item each',
	routing: keyedRouting('/cms/v2/statuses'),
	fields: [contextField],
};

export const coreOperations = [getSettings, updateSettings, search, getType, getManyTypes, getTaxonomy, getManyTaxonomies, getStatus, getManyStatuses];
