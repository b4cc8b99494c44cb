import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../operations';
import { picker } from '../pickers';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../site';
import { asList, contextField, idsField, orderByField, orderField, query, searchFilter } from './fields';

/** Categories and tags of posts (`/cms/v2/categories`, `/cms/v2/tags`): list, get, create, update, delete. */
interface Taxonomy {
	/** `category`, `tag`; also the picker of its terms. */
	noun: 'category' | 'tag';
	label: string;
	route: string;
	idParam: string;
	hierarchical: boolean;
}

const CATEGORY: Taxonomy = { noun: 'category', label: 'Category', route: '/cms/v2/categories', idParam: 'categoryId', hierarchical: true };
const TAG: Taxonomy = { noun: 'tag', label: 'Tag', route: '/cms/v2/tags', idParam: 'tagId', hierarchical: false };

const plural = (tax: Taxonomy) => (tax.hierarchical ? 'categories' : 'tags');
const Plural = (tax: Taxonomy) => (tax.hierarchical ? 'Categories' : 'Tags');

const termPicker = (tax: Taxonomy) => picker(tax.noun, { displayName: tax.label, name: tax.idParam, description: `The ${tax.noun}: pick it from the list, or give its ID` });

const getManyTerms = (tax: Taxonomy): Operation => ({
	name: `Get Many ${Plural(tax)}`,
	value: `getMany${Plural(tax)}`,
	action: `Get many ${plural(tax)}`,
	description: `List the ${plural(tax)} posts can carry, with their IDs`,
	routing: siteListRouting(tax.route),
	fields: [
		...siteReturnAllFields,
		{
			displayName: 'Filters',
			name: 'termFilters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				idsField('Exclude IDs', 'exclude', `Leave out these ${plural(tax)}`),
				{
					displayName: 'Hide Empty',
					name: 'hide_empty',
					type: 'boolean',
					default: false,
					description: `Whether to leave out ${plural(tax)} no published post has`,
					routing: query('hide_empty'),
				},
				idsField('Include IDs', 'include', `Only these ${plural(tax)}`),
				...(tax.hierarchical
					? [
							picker('category', {
								displayName: 'Parent',
								name: 'parent',
								required: false,
								description: 'Only the categories directly under this one: pick it, or give its ID (0 for top-level ones)',
								routing: query('parent'),
							}),
						]
					: []),
				picker('post', {
					displayName: 'Post',
					name: 'post',
					required: false,
					description: `Only the ${plural(tax)} of this post: pick it, or give its ID or URL`,
					routing: query('post'),
				}),
				searchFilter('Only those whose name or slug contains these words'),
				{
					displayName: 'Slugs',
					name: 'slug',
					type: 'string',
					default: '',
					placeholder: 'e.g. news, events',
					description: `Only the ${plural(tax)} with these slugs`,
					routing: asList('query', 'slug'),
				},
			],
		},
		{
			displayName: 'Options',
			name: 'termOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				contextField,
				{ ...orderField, default: 'asc' },
				orderByField(
					[
						{ name: 'Count', value: 'count', description: 'How many published posts have it' },
						{ name: 'Description', value: 'description' },
						{ name: 'ID', value: 'id' },
						{ name: 'Include IDs', value: 'include', description: 'The order of Include IDs' },
						{ name: 'Name', value: 'name' },
						{ name: 'Slug', value: 'slug' },
						{ name: 'Slugs', value: 'include_slugs', description: 'The order of Slugs' },
					],
					'name',
				),
			],
		},
	],
});

const getTerm = (tax: Taxonomy): Operation => ({
	name: `Get ${tax.label}`,
	value: `get${tax.label}`,
	action: `Get a ${tax.noun}`,
	description: `Get a ${tax.noun} by ID`,
	routing: siteRouting('GET', `${tax.route}/{id}`, { id: tax.idParam }),
	fields: [termPicker(tax), contextField],
});

/** The optional fields a term is created and updated with (the same on both). */
const descriptionOption: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	routing: { send: { type: 'body', property: 'description' } },
};

/** Only a hierarchical taxonomy (categories) has parents. */
const parentOption = (tax: Taxonomy): INodeProperties[] =>
	tax.hierarchical
		? [
				picker('category', {
					displayName: 'Parent',
					name: 'parent',
					required: false,
					description: 'The category this one is under: pick it, or give its ID (0 for the top level)',
					routing: { send: { type: 'body', property: 'parent' } },
				}),
			]
		: [];

const createTerm = (tax: Taxonomy): Operation => ({
	name: `Create ${tax.label}`,
	value: `create${tax.label}`,
	action: `Create a ${tax.noun}`,
	description: tax.hierarchical ? 'Create a category (editors and administrators)' : 'Create a tag (whoever can write posts)',
	routing: siteRouting('POST', tax.route),
	fields: [
		{
			displayName: 'Name',
			name: 'termName',
			type: 'string',
			required: true,
			default: '',
			// One declaration for categories and tags (see fieldProperties).
			description: 'Name of the category (unique under its parent) or tag (unique)',
			routing: { send: { type: 'body', property: 'name' } },
		},
		{
			displayName: 'Additional Fields',
			name: 'termFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				descriptionOption,
				...parentOption(tax),
				{
					displayName: 'Slug',
					name: 'slug',
					type: 'string',
					default: '',
					description: `Name of the ${tax.noun} in URLs (from the name by default)`,
					routing: { send: { type: 'body', property: 'slug' } },
				},
			],
		},
	],
});

const updateTerm = (tax: Taxonomy): Operation => ({
	name: `Update ${tax.label}`,
	value: `update${tax.label}`,
	action: `Update a ${tax.noun}`,
	description: `Rename a ${tax.noun} or change its description, slug${tax.hierarchical ? ' or parent' : ''} (editors and administrators)`,
	routing: siteRouting('POST', `${tax.route}/{id}`, { id: tax.idParam }),
	fields: [
		termPicker(tax),
		{
			displayName: 'Update Fields',
			name: 'termUpdateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				descriptionOption,
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					routing: { send: { type: 'body', property: 'name' } },
				},
				...parentOption(tax),
				{
					displayName: 'Slug',
					name: 'slug',
					type: 'string',
					default: '',
					description: `Name of the ${tax.noun} in URLs; empty to make it from the name again`,
					routing: { send: { type: 'body', property: 'slug' } },
				},
			],
		},
	],
});

/** Terms have no trash: the request always says `force=true`, as WordPress requires. */
const deleteTerm = (tax: Taxonomy): Operation => {
	const routing = siteRouting('DELETE', `${tax.route}/{id}`, { id: tax.idParam });
	return {
		name: `Delete ${tax.label}`,
		value: `delete${tax.label}`,
		action: `Delete a ${tax.noun}`,
		description: tax.hierarchical
			? 'Delete a category for good; its posts left without one go to the default category, which cannot be deleted'
			: 'Delete a tag for good; its posts keep their other tags',
		routing: { ...routing, request: { ...routing.request, qs: { force: true } } },
		fields: [termPicker(tax)],
	};
};

/** The category and tag operations of the post node. */
export const termOperations: Operation[] = [CATEGORY, TAG].flatMap((tax) => [getManyTerms(tax), getTerm(tax), createTerm(tax), updateTerm(tax), deleteTerm(tax)]);
