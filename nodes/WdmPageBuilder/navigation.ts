import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { picker } from '../shared/pickers';
import { siteRouting } from '../shared/site';
import { toBody, toQuery } from './editorFields';

/** The builder's site navigation: recently edited items and its Add New button. */

const operations: Operation[] = [
	{
		name: 'Add New Post',
		value: 'addNewPost',
		action: 'Add a new post for the builder',
		description: 'Create a draft of a post type, marked as edited with the builder; answers its ID and edit URL',
		routing: siteRouting('POST', '/builder/v1/site-navigation/add-new-post'),
		fields: [
			picker('siteType', {
				displayName: 'Post Type',
				name: 'newPostType',
				value: 'post',
				description: 'The post type: pick it (post, page, or one the engine added), or give its slug',
				routing: toBody('post_type'),
			}),
		],
	},
	{
		name: 'Get Recent Posts',
		value: 'getRecentPosts',
		action: 'Get recently edited posts',
		description: 'Get the items edited with the builder that the credential user may edit, most recently changed first',
		routing: siteRouting('GET', '/builder/v1/site-navigation/recent-posts'),
		fields: [
			{
				displayName: 'Limit',
				name: 'postsPerPage',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				required: true,
				default: 10,
				description: 'Max number of results to return',
				routing: toQuery('posts_per_page'),
			},
			{
				displayName: 'Options',
				name: 'recentPostsOptions',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{ displayName: 'Post Types', name: 'recentPostTypes', type: 'string', default: '', placeholder: 'e.g. page', description: 'Only these post types, separated by commas', routing: toQuery('post_type') },
					{ displayName: 'Exclude IDs', name: 'excludeIds', type: 'string', default: '', placeholder: 'e.g. 12, 15', description: 'Leave out these items', routing: toQuery('post__not_in') },
				],
			},
		],
	},
];

export const navigation: Resource = { name: 'Site Navigation', value: 'siteNavigation', operations };
