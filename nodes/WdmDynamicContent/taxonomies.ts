import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { booleanSetting, engineRouting, metaFieldsField, modelPicker, publicSetting, textSetting, toQuery } from './fields';

/** engine/v2 taxonomies: added ones (a cms/v2 term collection each) and the built-in categories and tags. */

const taxonomyId = modelPicker('engineTaxonomy', 'Taxonomy', 'taxonomyId', 'taxonomy');
const byId = { id: 'taxonomyId' };

/** Post type slugs typed as `book, film`, sent as a list. */
const postTypesSetting: INodeProperties = {
	displayName: 'Post Types',
	name: 'objectType',
	type: 'string',
	default: '',
	placeholder: 'e.g. book, film',
	description: 'Slugs of the added post types whose items carry its terms, separated by commas',
	routing: {
		send: {
			type: 'body',
			property: 'general_settings.object_type',
			preSend: [
				async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
					const general = (options.body as { general_settings?: { object_type?: unknown } }).general_settings;
					if (general && typeof general.object_type === 'string') {
						general.object_type = general.object_type.split(',').map((s) => s.trim()).filter(Boolean);
					}
					return options;
				},
			],
		},
	},
};

const settings = (withName: boolean): INodeProperties => ({
	displayName: withName ? 'Update Fields' : 'Additional Fields',
	name: withName ? 'taxonomyUpdateFields' : 'taxonomyFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		...(withName ? [textSetting('Name', 'name', 'general_settings.name', 'Plural name shown in the admin', 'e.g. Genres')] : []),
		textSetting('Slug', 'slug', 'general_settings.slug', 'The taxonomy stored on its terms: up to 32 lowercase letters, digits, hyphens or underscores; by default made from the name', 'e.g. genre'),
		textSetting('REST Base', 'restBase', 'advanced_settings.rest_base', 'Its term collection under cms/v2 (cms/v2/genres); by default the slug', 'e.g. genres'),
		textSetting('Singular Label', 'singularLabel', 'labels.singular_name', 'Name of one term', 'e.g. Genre'),
		postTypesSetting,
		publicSetting('taxonomy'),
		booleanSetting('Hierarchical', 'hierarchical', 'advanced_settings.hierarchical', 'Whether its terms have parents, as categories do'),
	],
});

const builtInTaxonomy: INodeProperties = {
	displayName: 'Built-In Taxonomy',
	name: 'builtInTaxonomy',
	type: 'options',
	options: [
		{ name: 'Category', value: 'category' },
		{ name: 'Tag', value: 'post_tag' },
	],
	default: 'category',
};
const builtIn = { tax: 'builtInTaxonomy' };

const operations: Operation[] = [
	{
		name: 'Create',
		value: 'createTaxonomy',
		action: 'Create a taxonomy',
		description: 'Add a taxonomy; its terms are served at cms/v2/&lt;REST base&gt;',
		routing: engineRouting('POST', 'add-taxonomy'),
		fields: [
			{ displayName: 'Name', name: 'taxonomyName', type: 'string', required: true, default: '', placeholder: 'e.g. Genres', description: 'Plural name of the new taxonomy', routing: { send: { type: 'body', property: 'general_settings.name' } } },
			settings(false),
			metaFieldsField,
		],
	},
	{
		name: 'Update',
		value: 'updateTaxonomy',
		action: 'Update a taxonomy',
		description: 'Change the settings given; a new slug moves its terms along',
		routing: engineRouting('POST', 'edit-taxonomy/{id}', byId),
		fields: [taxonomyId, settings(true), metaFieldsField],
	},
	{
		name: 'Get',
		value: 'getTaxonomy',
		action: 'Get a taxonomy',
		description: 'Get a taxonomy with its settings, labels and fields',
		routing: engineRouting('GET', 'get-taxonomy/{id}', byId),
		fields: [taxonomyId],
	},
	{
		name: 'Get Many',
		value: 'getTaxonomies',
		action: 'Get many taxonomies',
		description: 'List the added taxonomies',
		routing: engineRouting('GET', 'get-taxonomies'),
	},
	{
		name: 'Delete',
		value: 'deleteTaxonomy',
		action: 'Delete a taxonomy',
		description: 'Delete a taxonomy and say what becomes of its terms',
		routing: engineRouting('DELETE', 'delete-taxonomy/{id}', byId),
		fields: [
			taxonomyId,
			{
				displayName: 'Terms',
				name: 'taxonomyDeleteAction',
				type: 'options',
				options: [
					{ name: 'Keep', value: 'none', description: 'They stay stored, unreachable until a taxonomy of the same slug is added' },
					{ name: 'Delete', value: 'delete', description: 'They are deleted, and taken off the items' },
				],
				default: 'none',
				routing: toQuery('action'),
			},
		],
	},
	{
		name: 'Copy',
		value: 'copyTaxonomy',
		action: 'Copy a taxonomy',
		description: 'Add a copy of a taxonomy (slug and REST base end in -copy), without its terms',
		routing: engineRouting('POST', 'copy-taxonomy/{id}', byId),
		fields: [taxonomyId],
	},
	{
		name: 'Get Built-In',
		value: 'getBuiltInTaxonomy',
		action: 'Get a built-in taxonomy',
		description: 'Get categories or tags as the engine shows them',
		routing: engineRouting('GET', 'get-built-in-tax/{tax}', builtIn),
		fields: [builtInTaxonomy],
	},
	{
		name: 'Update Built-In',
		value: 'updateBuiltInTaxonomy',
		action: 'Update a built-in taxonomy',
		description: 'Relabel categories or tags, show or hide them, or give them fields',
		routing: engineRouting('POST', 'edit-built-in-tax/{tax}', builtIn),
		fields: [
			builtInTaxonomy,
			{
				displayName: 'Update Fields',
				name: 'builtInTaxonomyFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [
					textSetting('Plural Label', 'pluralLabel', 'labels.name', 'Name of the taxonomy', 'e.g. Topics'),
					textSetting('Singular Label', 'singularLabel', 'labels.singular_name', 'Name of one term', 'e.g. Topic'),
					publicSetting('taxonomy'),
				],
			},
			metaFieldsField,
		],
	},
	{
		name: 'Reset Built-In',
		value: 'resetBuiltInTaxonomy',
		action: 'Reset a built-in taxonomy',
		description: "Give categories or tags back WordPress's own labels, without the engine's fields",
		routing: engineRouting('DELETE', 'reset-built-in-tax/{tax}', builtIn),
		fields: [builtInTaxonomy],
	},
];

export const taxonomies: Resource = { name: 'Taxonomy', value: 'taxonomy', operations };
