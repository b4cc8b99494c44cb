import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodePropertyCollection,
} from 'n8n-workflow';
import { picker, pickedValue } from '../shared/pickers';
import { siteResponse } from '../shared/site';

/** Fields and request/answer reshapers that several theme-core operations share. */

export const NS = '/themecore/v2';

/**
 * postReceive of the routes that answer `{success, message, data}`: the `data` (a list as one item per
 * entry; `key` picks a list inside it, as `list` of the page-template routes).
 */
export function dataOf(key?: string) {
	return async function (this: IExecuteSingleFunctions, items: INodeExecutionData[], response: IN8nHttpFullResponse): Promise<INodeExecutionData[]> {
		const [{ json }] = await siteResponse.call(this, items, response);
		const data = key ? (json.data as IDataObject)?.[key] : json.data;
		const list = Array.isArray(data) ? data : [data ?? {}];
		return list.map((entry) => ({ json: (entry && typeof entry === 'object' ? entry : { value: entry }) as IDataObject }));
	};
}

/** A plain POST of the namespace (every theme-core route is one), with the answer as `dataOf` gives it. */
export const themecoreRouting = (route: string, key?: string) => ({
	request: { method: 'POST' as const, url: `${NS}/${route}` },
	output: { postReceive: [dataOf(key)] },
});

/** A POST whose answer is a plain option list (`[{value, label}]`): one item per option. */
export const optionsRouting = (route: string) => ({
	request: { method: 'POST' as const, url: `${NS}/${route}` },
	output: { postReceive: [siteResponse] },
});

const fail = (ctx: IExecuteSingleFunctions, message: string) => new NodeOperationError(ctx.getNode(), message, { itemIndex: ctx.getItemIndex() });

/** Body of the request as an object, to add to. */
const bodyOf = (options: IHttpRequestOptions) => (options.body ??= {}) as IDataObject;

/** The operation being run, to tell where a shared field's value goes. */
const operationOf = (ctx: IExecuteSingleFunctions) => String(ctx.getNodeParameter('operation', ''));

/** Operations that send the page template's changes inside `template_data` (Update); others send them at the top. */
const IN_TEMPLATE_DATA = ['updatePageTemplateData'];

function place(ctx: IExecuteSingleFunctions, options: IHttpRequestOptions, key: string, value: unknown) {
	const body = bodyOf(options);
	if (IN_TEMPLATE_DATA.includes(operationOf(ctx))) body.template_data = { ...(body.template_data as IDataObject), [key]: value as IDataObject };
	else body[key] = value as IDataObject;
}

// ---- ids ----

export const templateIdField: INodeProperties = picker('template', {
	displayName: 'Template',
	name: 'templateId',
	description: 'The template (header, footer, single, ...): pick it from the list, or give its ID (Create Template and List Templates give it)',
	routing: { send: { type: 'body', property: 'template_id' } },
});

/** Copy and Delete name the page template `id`, the other routes `template_id` (as the plugin does). */
async function sendPageTemplateId(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const id = this.getNodeParameter('pageTemplateId', 0);
	const key = ['copyPageTemplate', 'deletePageTemplate'].includes(operationOf(this)) ? 'id' : 'template_id';
	bodyOf(options)[key] = id as number;
	return options;
}

export const pageTemplateIdField: INodeProperties = picker('pageTemplate', {
	displayName: 'Page Template',
	name: 'pageTemplateId',
	description: 'The page template: pick it from the list, or give its ID (Create Page Template and Get Many Page Templates give it)',
	routing: { send: { preSend: [sendPageTemplateId] } },
});

// ---- template types ----

export const TEMPLATE_TYPE_OPTIONS = [
	{ name: 'Archive', value: 'themecore-archive' },
	{ name: 'Footer', value: 'themecore-footer' },
	{ name: 'Header', value: 'themecore-header' },
	{ name: 'Page', value: 'themecore-page' },
	{ name: 'Section', value: 'themecore-section' },
	{ name: 'Single', value: 'themecore-single' },
];

// ---- conditions ----

/** Where a condition row applies, and the sub-group it becomes (`{slug}` from the row's Post Type or Taxonomy). */
const APPLIES_TO: Record<string, string> = {
	entire: 'entire',
	frontPage: 'front-page',
	page404: 'page-404',
	single: 'single-{slug}',
	inTerm: 'in-term-{slug}',
	archiveAll: 'archive-all',
	archiveSearch: 'archive-search',
	postTypeArchive: 'post-type-archive-{slug}',
	taxonomyArchive: 'taxonomy-{slug}',
};

interface ConditionRow {
	include?: string;
	appliesTo?: string;
	slug?: string;
	ids?: string | number | Array<string | number>;
}

/** `"3, 5"`, `5` or `[3, 5]` as a list of ids (text that is no number goes as it is: the site names it). */
function idList(value: ConditionRow['ids']): Array<number | string> {
	const parts = Array.isArray(value) ? value : String(value ?? '').split(/[\s,;]+/);
	return parts.map((part) => String(part).trim()).filter(Boolean).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * Sends the condition rows as the site's `conditions`: `{include, subGroup, subGroupValue}` each (the
 * site works out the group). Update Page Template sends them only when some are given (none: keep).
 */
async function sendConditions(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const rows = (this.getNodeParameter('conditions', {}) as { condition?: ConditionRow[] }).condition ?? [];
	if (!rows.length && IN_TEMPLATE_DATA.includes(operationOf(this))) return options;
	const conditions = rows.map((row, i) => {
		const pattern = APPLIES_TO[row.appliesTo ?? 'entire'] ?? String(row.appliesTo);
		const slug = String(row.slug ?? '').trim();
		if (pattern.includes('{slug}') && !slug) throw fail(this, `Condition ${i + 1}: Post Type or Taxonomy is required where it applies to ${row.appliesTo}`);
		return { include: row.include !== 'exclude', subGroup: pattern.replace('{slug}', slug), subGroupValue: idList(row.ids) };
	});
	place(this, options, 'conditions', conditions);
	return options;
}

export const conditionsField: INodeProperties = {
	displayName: 'Conditions',
	name: 'conditions',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Condition',
	default: {},
	description: 'Where it applies: wherever an Include condition matches and no Exclude one does. On Update Page Template, leave empty to keep the current ones.',
	options: [
		{
			displayName: 'Condition',
			name: 'condition',
			values: [
				{
					displayName: 'Include or Exclude',
					name: 'include',
					type: 'options',
					options: [
						{ name: 'Include', value: 'include' },
						{ name: 'Exclude', value: 'exclude' },
					],
					default: 'include',
				},
				{
					displayName: 'Applies To',
					name: 'appliesTo',
					type: 'options',
					options: [
						{ name: '404 Page', value: 'page404' },
						{ name: 'All Archives', value: 'archiveAll' },
						{ name: 'Entire Site', value: 'entire' },
						{ name: 'Front Page', value: 'frontPage' },
						{ name: 'Items in Terms of a Taxonomy', value: 'inTerm', description: 'Single items that carry one of the terms given (any term when none)' },
						{ name: 'Post Type Archive', value: 'postTypeArchive' },
						{ name: 'Search Results', value: 'archiveSearch' },
						{ name: 'Single Items of a Post Type', value: 'single', description: 'The items given by ID, or every item of the type when none' },
						{ name: 'Taxonomy Archive', value: 'taxonomyArchive', description: 'The archives of the terms given by ID, or of every term when none' },
					],
					default: 'entire',
				},
				{
					displayName: 'Post Type or Taxonomy',
					name: 'slug',
					type: 'string',
					default: '',
					placeholder: 'e.g. post',
					description: 'Slug of the post type (Single Items, Post Type Archive) or taxonomy (Items in Terms, Taxonomy Archive); Get Post Types lists them',
				},
				{
					displayName: 'IDs',
					name: 'ids',
					type: 'string',
					default: '',
					placeholder: 'e.g. 12, 15',
					description: 'Item or term IDs, separated by commas; empty for all',
				},
			],
		},
	],
	routing: { send: { preSend: [sendConditions] } },
};

export const relationTypeField: INodeProperties = {
	displayName: 'Relation Type',
	name: 'relationType',
	type: 'options',
	options: [
		{ name: 'Or', value: 'or', description: 'Applies where any include condition matches' },
		{ name: 'And', value: 'and', description: 'Applies where every include condition matches' },
	],
	default: 'or',
	description: 'How the conditions combine',
	routing: { send: { type: 'body', property: 'relationType' } },
};

// ---- layout of a page template ----

interface LayoutPart {
	/** A picker's value (a number in older workflows). */
	templateId?: unknown;
	enabled?: boolean;
	override?: boolean;
}

/** Sends the parts given as the site's `layout` (`{header: {id, enabled, override}, ...}`); none: nothing. */
async function sendLayout(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const parts = this.getNodeParameter('layout', {}) as Record<string, LayoutPart | undefined>;
	const layout: IDataObject = {};
	for (const part of ['header', 'body', 'footer']) {
		const given = parts[part];
		if (given) layout[part] = { id: Number(pickedValue(given.templateId)) || null, enabled: given.enabled ?? true, override: given.override ?? true };
	}
	if (Object.keys(layout).length) place(this, options, 'layout', layout);
	return options;
}

const layoutPart = (displayName: string, name: string, kind: string): INodePropertyCollection => ({
		displayName,
		name,
		values: [
			picker('template', {
				displayName: 'Template',
				name: 'templateId',
				required: false,
				description: `A published ${kind} template: pick it, or give its ID (0 for none: the theme's own)`,
			}),
			{ displayName: 'Enabled', name: 'enabled', type: 'boolean', default: true, description: 'Whether the part is shown' },
			{
				displayName: 'Override',
				name: 'override',
				type: 'boolean',
				default: true,
				description: "Whether the template replaces the theme's own part (else it is added to it)",
			},
		],
	});

export const layoutField: INodeProperties = {
	displayName: 'Layout',
	name: 'layout',
	type: 'fixedCollection',
	placeholder: 'Add Part',
	default: {},
	description: 'The templates that make up the page. On Update Page Template, only the parts given change.',
	options: [layoutPart('Header', 'header', 'header'), layoutPart('Body', 'body', 'single, archive or page'), layoutPart('Footer', 'footer', 'footer')],
	routing: { send: { preSend: [sendLayout] } },
};

// ---- JSON ----

/** A JSON field's value as sent: n8n gives an object from an expression, a string when typed in. */
export function parseJson(ctx: IExecuteSingleFunctions, value: unknown, field: string): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw fail(ctx, `${field} is not valid JSON: ${(error as Error).message}`);
	}
}
