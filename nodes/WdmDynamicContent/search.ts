import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { picker } from '../shared/pickers';
import { siteRouting } from '../shared/site';
import { toQuery } from './fields';

/** The engine's lookups: posts or terms, and glossary options, as value and label pairs (one item each). */

const searchPosts: Operation = {
	name: 'Search Posts',
	value: 'searchPosts',
	action: 'Search posts or terms',
	description: 'Find published posts by title (or terms of a taxonomy by name) as value and label options',
	routing: siteRouting('GET', '/engine/v2/search-posts'),
	fields: [
		{ displayName: 'Search', name: 'searchQuery', type: 'string', default: '', placeholder: 'e.g. apple', description: 'Text the titles (or term names) contain', routing: toQuery('query') },
		{
			displayName: 'Options',
			name: 'searchPostsOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{ displayName: 'IDs', name: 'ids', type: 'string', default: '', placeholder: 'e.g. 12, 15', description: 'Only these posts (or terms); Search is then ignored for terms', routing: toQuery('ids') },
				{ displayName: 'Post Types', name: 'post_type', type: 'string', default: 'any', placeholder: 'e.g. post, page', description: 'Slugs of the post types to search, or "any"', routing: toQuery('post_type') },
				{ displayName: 'Query Context', name: 'query_context', type: 'string', default: '', placeholder: 'e.g. relation', description: 'Where the search is made from, as the engine’s controls send it', routing: toQuery('query_context') },
				{ displayName: 'Search Terms', name: 'search_terms', type: 'boolean', default: false, description: 'Whether to search the terms of Taxonomy instead of posts', routing: toQuery('search_terms') },
				{ displayName: 'Taxonomy', name: 'tax', type: 'string', default: '', placeholder: 'e.g. category', description: 'The taxonomy whose terms Search Terms searches', routing: toQuery('tax') },
			],
		},
	],
};

const searchGlossary: Operation = {
	name: 'Search Glossary',
	value: 'searchGlossaryFields',
	action: 'Search a glossary',
	description: "Get a glossary's options, searched by text or picked by value",
	routing: siteRouting('GET', '/engine/v2/search-glossary-fields'),
	fields: [
		picker('glossary', { displayName: 'Glossary', name: 'glossaryId', description: 'The glossary (a stored list of options) to search: pick it, or give its ID', routing: toQuery('glossary_id') }),
		{
			displayName: 'Options',
			name: 'searchGlossaryOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{ displayName: 'Search', name: 'query', type: 'string', default: '', placeholder: 'e.g. red', description: 'Only options whose value or label contains this text', routing: toQuery('query') },
				{ displayName: 'Values', name: 'values', type: 'string', default: '', placeholder: 'e.g. red, blue', description: 'Only the options with these values (Search is then ignored)', routing: toQuery('values') },
			],
		},
	],
};

export const search: Resource = {
	name: 'Search',
	value: 'search',
	description: 'Look up posts, terms and glossary options',
	operations: [searchPosts, searchGlossary],
};
