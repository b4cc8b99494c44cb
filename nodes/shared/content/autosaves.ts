import type { Operation } from '../operations';
import { siteRouting } from '../site';
import { picker } from '../pickers';
import { type ContentType, contextField, idField, itemRouting, writableFields } from './fields';

const autosaveIdField = picker('autosave', { displayName: 'Autosave', name: 'autosaveId', description: 'The autosave: pick it from those of the item above, or give its ID' });

export const getAutosaves = (type: ContentType): Operation => ({
	name: 'Get Many Autosaves',
	value: 'getAutosaves',
	action: `Get many autosaves of a ${type.noun}`,
	description: `List the unsaved changes kept for a ${type.noun}, one per user`,
	routing: itemRouting(type, 'GET', '/autosaves'),
	fields: [idField(type), contextField],
});

export const createAutosave = (type: ContentType): Operation => ({
	name: 'Create Autosave',
	value: 'createAutosave',
	action: `Create an autosave of a ${type.noun}`,
	description: `Keep unsaved changes of a ${type.noun}: your own draft is updated, otherwise your autosave of it`,
	routing: itemRouting(type, 'POST', '/autosaves'),
	fields: [
		idField(type),
		{
			displayName: 'Fields',
			name: 'autosaveFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			description: 'Title, content and excerpt go into the autosave (the others only when it updates your own draft)',
			options: writableFields(type),
		},
	],
});

export const getAutosave = (type: ContentType): Operation => ({
	name: 'Get Autosave',
	value: 'getAutosave',
	action: `Get an autosave of a ${type.noun}`,
	description: `Get one autosave of a ${type.noun}`,
	routing: siteRouting('GET', `${type.route}/{parent}/autosaves/{id}`, { parent: type.idParam, id: 'autosaveId' }),
	fields: [idField(type), autosaveIdField, contextField],
});
