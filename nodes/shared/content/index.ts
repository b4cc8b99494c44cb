import type { Operation } from '../operations';
import { createAutosave, getAutosave, getAutosaves } from './autosaves';
import { create } from './create';
import { remove } from './delete';
import type { ContentType } from './fields';
import { get } from './get';
import { getMany } from './getMany';
import { deleteRevision, getRevision, getRevisions } from './revisions';
import { termOperations } from './terms';
import { update } from './update';

export { PAGE_TYPE, POST_TYPE } from './fields';

/**
 * Every operation of a content node (WDM Post, WDM Page), declared once for both: the item, its
 * revisions and autosaves; posts add the categories and tags they carry.
 */
export function contentOperations(type: ContentType): Operation[] {
	return [
		create(type),
		get(type),
		getMany(type),
		update(type),
		remove(type),
		getRevisions(type),
		getRevision(type),
		deleteRevision(type),
		getAutosaves(type),
		createAutosave(type),
		getAutosave(type),
		...(type.postFields ? termOperations : []),
	];
}
