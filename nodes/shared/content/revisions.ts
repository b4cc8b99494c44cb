import type { Operation } from '../operations';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../site';
import { picker } from '../pickers';
import { type ContentType, contextField, idField, idsField, listOptions, searchFilter } from './fields';

/** `/cms/v2/posts/{parent}/revisions[/{id}]` with the parent from the item's ID field. */
const revisionsRoute = (type: ContentType, item = '') => `${type.route}/{parent}/revisions${item}`;
const revisionFields = (type: ContentType) => ({ parent: type.idParam, id: 'revisionId' });

const revisionIdField = picker('revision', { displayName: 'Revision', name: 'revisionId', description: 'The revision: pick it from those of the item above, or give its ID' });

export const getRevisions = (type: ContentType): Operation => ({
	name: 'Get Many Revisions',
	value: 'getRevisions',
	action: `Get many revisions of a ${type.noun}`,
	description: `List the earlier versions of a ${type.noun} (autosaves among them), newest first`,
	routing: siteListRouting(revisionsRoute(type), revisionFields(type)),
	fields: [
		idField(type),
		...siteReturnAllFields,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				idsField('Exclude IDs', 'exclude', 'Leave out these revisions'),
				idsField('Include IDs', 'include', 'Only these revisions'),
				searchFilter('Only revisions with every word in their title, excerpt or content'),
			],
		},
		listOptions([
			{ name: 'Date', value: 'date' },
			{ name: 'ID', value: 'id' },
			{ name: 'Include IDs', value: 'include', description: 'The order of Include IDs' },
			{ name: 'Relevance', value: 'relevance', description: 'Best matches of Search first' },
			{ name: 'Slug', value: 'slug' },
			{ name: 'Title', value: 'title' },
		]),
	],
});

export const getRevision = (type: ContentType): Operation => ({
	name: 'Get Revision',
	value: 'getRevision',
	action: `Get a revision of a ${type.noun}`,
	description: `Get one earlier version of a ${type.noun}`,
	routing: siteRouting('GET', revisionsRoute(type, '/{id}'), revisionFields(type)),
	fields: [idField(type), revisionIdField, contextField],
});

export const deleteRevision = (type: ContentType): Operation => {
	const routing = siteRouting('DELETE', revisionsRoute(type, '/{id}'), revisionFields(type));
	return {
		name: 'Delete Revision',
		value: 'deleteRevision',
		action: `Delete a revision of a ${type.noun}`,
		description: 'Ask to delete an earlier version; the site refuses it to everyone (403), as WordPress does',
		// As WordPress's client would ask; the site refuses every caller (WordPress's `do_not_allow`).
		routing: { ...routing, request: { ...routing.request, qs: { force: true } } },
		fields: [idField(type), revisionIdField],
	};
};
