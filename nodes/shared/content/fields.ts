import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { picker, pickerOptions, type PickerKind } from '../pickers';
import { type SiteMethod, siteRouting } from '../site';

/** What the post and page nodes differ in; every operation is declared once for both. */
export interface ContentType {
	/** In descriptions: `post`, `page`; also the picker of its items. */
	noun: PickerKind & string;
	/** In display names: `Post`, `Page`. */
	label: string;
	/** The collection route: `/cms/v2/posts`. */
	route: string;
	/** The parameter holding the item's ID: `postId`, `pageId`. */
	idParam: string;
	/** Posts: format, sticky, categories and tags. */
	postFields: boolean;
	/** Pages: parent and menu order. */
	pageFields: boolean;
}

export const POST_TYPE: ContentType = { noun: 'post', label: 'Post', route: '/cms/v2/posts', idParam: 'postId', postFields: true, pageFields: false };
export const PAGE_TYPE: ContentType = { noun: 'page', label: 'Page', route: '/cms/v2/pages', idParam: 'pageId', postFields: false, pageFields: true };

/** The item an operation works on: picked from the site's list, by ID or by its URL. */
export const idField = (type: ContentType) =>
	picker(type.noun, { displayName: type.label, name: type.idParam, description: `The ${type.noun}: pick it from the list, or give its ID or its URL` });

/** Routing of a request to `/cms/v2/posts/{id}` (or below it), `{id}` from the item's ID field. */
export const itemRouting = (type: ContentType, method: SiteMethod, suffix = '') =>
	siteRouting(method, `${type.route}/{id}${suffix}`, { id: type.idParam });

/** Routing that sends a field as the query parameter named. */
export const query = (property: string) => ({ send: { type: 'query' as const, property } });

/**
 * Routing that sends a field under `property` (a dotted path: `meta._builder_data`), reshaped by
 * `change` once it is in the request: a function, not n8n's `value` expression, which would cost an
 * expression evaluation per item.
 */
const sendAs = (type: 'query' | 'body', property: string, change: (value: unknown) => unknown) => ({
	send: {
		type,
		property,
		preSend: [
			async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
				const keys = property.split('.');
				const last = keys.pop()!;
				const parent = keys.reduce<IDataObject | undefined>((at, key) => at?.[key] as IDataObject, (type === 'query' ? options.qs : options.body) as IDataObject);
				if (parent && last in parent) parent[last] = change(parent[last]) as IDataObject[string];
				return options;
			},
		],
	},
});

/** A parameter sent as WordPress reads a list: comma-separated (a value, a typed list, or an array from an expression). */
export const asList = (type: 'query' | 'body', property: string) => sendAs(type, property, (value) => ([] as unknown[]).concat(value).join(','));

/** A list of IDs typed as `1, 2, 3`. */
export function idsField(displayName: string, name: string, description: string, send: 'query' | 'body' = 'query', property = name): INodeProperties {
	return { displayName, name, type: 'string', default: '', placeholder: 'e.g. 12, 15', description, routing: asList(send, property) };
}

export const contextField: INodeProperties = {
	displayName: 'Context',
	name: 'context',
	type: 'options',
	options: [
		{ name: 'Edit', value: 'edit', description: 'Every field, with raw texts and meta; needs the right to edit' },
		{ name: 'Embed', value: 'embed', description: 'The short form shown when embedded elsewhere' },
		{ name: 'View', value: 'view' },
	],
	default: 'view',
	description: 'Which fields the site answers with',
	routing: query('context'),
};

export const orderField: INodeProperties = {
	displayName: 'Order',
	name: 'order',
	type: 'options',
	options: [
		{ name: 'Ascending', value: 'asc' },
		{ name: 'Descending', value: 'desc' },
	],
	default: 'desc',
	routing: query('order'),
};

/** Order By of a collection route, with the orders it takes. */
export const orderByField = (options: INodePropertyOptions[], defaultOrder = 'date'): INodeProperties => ({
	displayName: 'Order By',
	name: 'orderby',
	type: 'options',
	options,
	default: defaultOrder,
	routing: query('orderby'),
});

/** The Options of a collection route: the context, the order and what to order by. */
export const listOptions = (orderBy: INodePropertyOptions[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [contextField, orderField, orderByField(orderBy)],
});

/** A filter on a date of the items (`after`, `modified_before`, ...). */
export const dateFilter = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'dateTime',
	default: '',
	description,
	routing: query(name),
});

/** The Search filter of a collection route. */
export const searchFilter = (description: string): INodeProperties => ({
	displayName: 'Search',
	name: 'search',
	type: 'string',
	default: '',
	description,
	routing: query('search'),
});

const STATUSES = [
	{ name: 'Draft', value: 'draft' },
	{ name: 'Future', value: 'future', description: 'Scheduled: published when its date comes' },
	{ name: 'Pending', value: 'pending', description: 'Waiting for review' },
	{ name: 'Private', value: 'private', description: 'Only for users who may read private content' },
	{ name: 'Publish', value: 'publish' },
];

const FORMATS = ['aside', 'audio', 'chat', 'gallery', 'image', 'link', 'quote', 'standard', 'status', 'video'].map((value) => ({
	name: value[0].toUpperCase() + value.slice(1),
	value,
}));

/** The builder's template types (the spec's `_builder_template_type` values; empty is none). */
const TEMPLATE_TYPES = [
	'builder_component', 'cloud-template-preview', 'cms-page', 'cms-post', 'container', 'e-div-block', 'e-flexbox', 'engine-component',
	'engine-listing-items', 'engine-not-supported', 'engine_archive', 'engine_footer', 'engine_header', 'engine_page', 'engine_section',
	'engine_single', 'floating-buttons', 'kit', 'not-supported', 'page', 'post', 'section', 'themecore-not-supported',
];

/** Open/Closed options of the discussion fields. */
export const openClosed = (displayName: string, name: string, description: string, send: (property: string) => object): INodeProperties => ({
	displayName,
	name,
	type: 'options',
	options: [
		{ name: 'Closed', value: 'closed' },
		{ name: 'Open', value: 'open' },
	],
	default: 'open',
	description,
	routing: send(name),
});

/**
 * The writable fields of a post or page, each sent in the body under its REST name. `except` leaves
 * out those an operation shows on its own (Title and Content on Create).
 */
export function writableFields(type: ContentType, except: string[] = []): INodeProperties[] {
	const to = (property: string) => ({ send: { type: 'body' as const, property } });
	const fields: INodeProperties[] = [
		picker('author', {
			displayName: 'Author',
			name: 'author',
			required: false,
			description: `The user the ${type.noun} is by: pick them from the site's authors, or give their ID (someone else's needs the right to edit others' ${type.noun}s)`,
			routing: to('author'),
		}),
		...(type.postFields
			? [
					pickerOptions('category', {
						displayName: 'Category Names or IDs',
						name: 'categories',
						description:
							'Categories of the post (none: Uncategorized). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						routing: asList('body', 'categories'),
					}),
				]
			: []),
		openClosed('Comment Status', 'comment_status', `Whether comments on the ${type.noun} are allowed`, to),
		{
			displayName: 'Content',
			name: 'content',
			type: 'string',
			typeOptions: { rows: 6 },
			default: '',
			description: 'The text, HTML or blocks; blank lines make paragraphs',
			routing: to('content'),
		},
		{
			displayName: 'Date',
			name: 'date',
			type: 'dateTime',
			default: '',
			description: `When the ${type.noun} is (or was) published, in the site's time zone unless an offset is given; a future date schedules it`,
			routing: to('date'),
		},
		{
			displayName: 'Excerpt',
			name: 'excerpt',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: 'A summary; without one the site shows the first words of the content',
			routing: to('excerpt'),
		},
		picker('media', {
			displayName: 'Featured Media',
			name: 'featured_media',
			required: false,
			description: `The image shown with the ${type.noun}: pick it from the media library, or give its ID or URL (ID 0 for none)`,
			routing: to('featured_media'),
		}),
		...(type.postFields
			? [
					{
						displayName: 'Format',
						name: 'format',
						type: 'options',
						options: FORMATS,
						default: 'standard',
						routing: to('format'),
					} satisfies INodeProperties,
				]
			: []),
		{
			displayName: 'Meta: Builder Data',
			name: 'builderData',
			type: 'json',
			default: '',
			description: "The page builder's data of the item (JSON, kept as a string)",
			routing: sendAs('body', 'meta._builder_data', (value) => (typeof value === 'string' ? value : JSON.stringify(value))),
		},
		{
			displayName: 'Meta: Builder Edit Mode',
			name: 'builderEditMode',
			type: 'options',
			options: [
				{ name: 'Builder', value: 'builder', description: 'Edited with the page builder' },
				{ name: 'None', value: '' },
			],
			default: '',
			routing: to('meta._builder_edit_mode'),
		},
		{
			displayName: 'Meta: Builder Template Type',
			name: 'builderTemplateType',
			type: 'options',
			options: [{ name: 'None', value: '' }, ...TEMPLATE_TYPES.map((value) => ({ name: value, value }))],
			default: '',
			routing: to('meta._builder_template_type'),
		},
		{
			displayName: 'Meta: Footnotes',
			name: 'footnotes',
			type: 'string',
			default: '',
			description: 'The footnotes of the content, as the block editor keeps them (JSON as a string)',
			routing: to('meta.footnotes'),
		},
		{
			displayName: 'Meta: Hide Title',
			name: 'hideTitle',
			type: 'options',
			options: [
				{ name: 'No', value: 'no' },
				{ name: 'Yes', value: 'yes' },
			],
			default: 'no',
			description: "Whether the page builder's page settings hide the title",
			routing: to('meta._builder_page_settings.hide_title'),
		},
		...(type.pageFields
			? [
					{
						displayName: 'Menu Order',
						name: 'menu_order',
						type: 'number',
						default: 0,
						description: 'Position of the page among its siblings in menus',
						routing: to('menu_order'),
					} satisfies INodeProperties,
					picker('page', {
						displayName: 'Parent Page',
						name: 'parent',
						required: false,
						description: 'The page this page is under: pick it, or give its ID or URL (ID 0 for the top level)',
						routing: to('parent'),
					}),
				]
			: []),
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Protects content and excerpt: readers need it to see them; empty removes the protection',
			routing: to('password'),
		},
		openClosed('Ping Status', 'ping_status', `Whether pingbacks to the ${type.noun} are allowed`, to),
		{
			displayName: 'Slug',
			name: 'slug',
			type: 'string',
			default: '',
			description: `Name of the ${type.noun} in URLs; made unique by the site`,
			routing: to('slug'),
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: STATUSES,
			default: 'draft',
			description: 'Publishing (also privately or scheduled) needs the right to publish',
			routing: to('status'),
		},
		...(type.postFields
			? [
					{
						displayName: 'Sticky',
						name: 'sticky',
						type: 'boolean',
						default: false,
						description: 'Whether the post is kept at the top of the front page',
						routing: to('sticky'),
					} satisfies INodeProperties,
					pickerOptions('tag', {
						displayName: 'Tag Names or IDs',
						name: 'tags',
						description: 'Tags of the post. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						routing: asList('body', 'tags'),
					}),
				]
			: []),
		{
			displayName: 'Template',
			name: 'template',
			type: 'string',
			default: '',
			placeholder: 'e.g. full-width.php',
			description: "The theme template file to show the item with; empty for the theme's default",
			routing: to('template'),
		},
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			routing: to('title'),
		},
	];
	return fields.filter((field) => !except.includes(field.name));
}

/** One of the writable fields, by name: Create shows Title and Content on their own. */
export const writableField = (type: ContentType, name: string) => writableFields(type).find((field) => field.name === name)!;

export { STATUSES, FORMATS };
