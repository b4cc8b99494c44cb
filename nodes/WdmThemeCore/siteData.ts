import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { optionsRouting } from './fields';
import { picker } from '../shared/pickers';

/** The site state conditions are built from, read as option lists (`{value, label}` per item). */

const searchField: INodeProperties = {
	displayName: 'Search',
	name: 'optionSearch',
	type: 'string',
	default: '',
	placeholder: 'e.g. news',
	description: 'Only those whose title or name contains this text (at most 100 are returned)',
	routing: { send: { type: 'body', property: 'query' } },
};

const idsField: INodeProperties = {
	displayName: 'IDs',
	name: 'optionIds',
	type: 'string',
	default: '',
	placeholder: 'e.g. 12, 15',
	description: 'Only these IDs, separated by commas (e.g. to show the labels of a condition)',
	routing: { send: { type: 'body', property: 'values' } },
};

/** An operation without fields: one POST, one item per option. */
const read = (name: string, value: string, route: string, action: string, description: string): Operation => ({
	name,
	value,
	action,
	description,
	routing: optionsRouting(route),
});

export const siteData: Resource = {
	name: 'Site Data',
	value: 'siteData',
	description: 'Posts, terms, post types, pages and options of the site, to build conditions from',
	operations: [
		read('Get Categories', 'getPostCategories', 'get-post-categories', 'Get the categories', 'Get every category as a value and label'),
		read('Get Page Templates', 'getPageTemplates', 'get-page-templates', "Get the theme's page templates", "Get the active theme's page templates (a page's template)"),
		read('Get Post Types', 'getPostTypes', 'get-post-types', 'Get the post types', "Get the site's public post types, those the engine added included"),
		{
			name: 'Get Posts',
			value: 'getPosts',
			action: 'Get posts of a post type',
			description: 'Get published items of a post type as a value and label',
			routing: optionsRouting('get-posts'),
			fields: [
				{
					...picker('postType', {
						displayName: 'Post Type',
						name: 'postType',
						description: 'The post type whose items are listed: pick it, or give its slug',
						routing: { send: { type: 'body', property: 'post_type' } },
					}),
					default: { mode: 'id', value: 'post' },
				},
				searchField,
				idsField,
			],
		},
		read('Get Reading Options', 'getWpOptions', 'get-wp-options', 'Get the reading options', 'Get what the front page shows, the front page and the posts page'),
		read('Get Static Pages', 'getStaticPages', 'get-static-pages', 'Get the static pages', 'Get the published pages as a value and label'),
		read('Get Tags', 'getPostTags', 'get-post-tags', 'Get the tags', 'Get every tag as a value and label'),
		{
			name: 'Get Terms',
			value: 'getTaxTerms',
			action: 'Get terms of a taxonomy',
			description: 'Get terms of a taxonomy as a value and label',
			routing: optionsRouting('get-tax-terms'),
			fields: [
				picker('siteTaxonomy', {
					displayName: 'Taxonomy',
					name: 'taxonomy',
					value: 'category',
					description: 'The taxonomy: pick it (category, post_tag, or one the engine added), or give its slug',
					routing: { send: { type: 'body', property: 'tax_name' } },
				}),
				searchField,
				idsField,
			],
		},
	],
};

