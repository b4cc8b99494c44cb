import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { picker } from '../shared/pickers';
import { engineRouting, modelPicker, setBody, textSetting } from './fields';

/** engine/v2 relations between two post types, and the items they connect (parent -> child pairs). */

const relationId = modelPicker('relation', 'Relation', 'relationId', 'relation');
const byId = { id: 'relationId' };

const TYPES = [
	{ name: 'One to One', value: 'one_to_one', description: 'A parent has one child, a child one parent' },
	{ name: 'One to Many', value: 'one_to_many', description: 'A parent has many children, a child one parent' },
	{ name: 'Many to Many', value: 'many_to_many', description: 'Any item with any number of others' },
];

/** A list of parent -> child pairs filled in row by row, sent as `[{parent_id, child_id}]` under `property`. */
function pairsField(displayName: string, name: string, property: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Pair',
		default: {},
		description,
		routing: {
			send: {
				preSend: [
					async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
						const rows = (this.getNodeParameter(name, {}) as { pair?: { parentId: number; childId: number }[] }).pair;
						return rows ? setBody(options, property, rows.map((row) => ({ parent_id: row.parentId, child_id: row.childId }))) : options;
					},
				],
			},
		},
		options: [
			{
				displayName: 'Pair',
				name: 'pair',
				values: [
					{ displayName: 'Parent ID', name: 'parentId', type: 'number', default: 0, description: 'ID of an item of the parent post type' },
					{ displayName: 'Child ID', name: 'childId', type: 'number', default: 0, description: 'ID of an item of the child post type' },
				],
			},
		],
	};
}

/** A side of a relation, picked from the post types (on an update, stored pairs must fit the new one). */
const sidePicker = (displayName: string, name: string, property: string, side: string, required: boolean) =>
	picker('postType', {
		displayName,
		name,
		required,
		description: `The post type of the ${side}: pick it, or give its slug${required ? '' : ' (stored pairs must fit it)'}`,
		routing: { send: { type: 'body', property } },
	});

const connections = pairsField('Connections', 'relationConnections', 'connections', 'The connected items; on an update they replace the stored ones');
const connect = pairsField('Connect', 'relationConnect', 'connect', 'Pairs to connect, besides the stored ones');
const disconnect = pairsField('Disconnect', 'relationDisconnect', 'disconnect', 'Pairs to disconnect');

const operations: Operation[] = [
	{
		name: 'Create',
		value: 'createRelation',
		action: 'Create a relation',
		description: 'Add a relation between two post types, with its first connections',
		routing: engineRouting('POST', 'add-relation'),
		fields: [
			{ displayName: 'Name', name: 'relationName', type: 'string', required: true, default: '', placeholder: 'e.g. Author books', description: 'Name of the new relation', routing: { send: { type: 'body', property: 'name' } } },
			sidePicker('Parent Post Type', 'parentObject', 'parent_object', 'parents', true),
			sidePicker('Child Post Type', 'childObject', 'child_object', 'children', true),
			{ displayName: 'Type', name: 'relationType', type: 'options', options: TYPES, default: 'one_to_many', routing: { send: { type: 'body', property: 'type' } } },
			connections,
		],
	},
	{
		name: 'Update',
		value: 'updateRelation',
		action: 'Update a relation',
		description: 'Change its settings, or connect and disconnect items',
		routing: engineRouting('POST', 'edit-relation/{id}', byId),
		fields: [
			relationId,
			{
				displayName: 'Update Fields',
				name: 'relationUpdateFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [
					textSetting('Name', 'name', 'name', 'Name of the relation', 'e.g. Author books'),
					sidePicker('Parent Post Type', 'parentObject', 'parent_object', 'parents', false),
					sidePicker('Child Post Type', 'childObject', 'child_object', 'children', false),
					{ displayName: 'Type', name: 'type', type: 'options', options: TYPES, default: 'one_to_many', routing: { send: { type: 'body', property: 'type' } } },
				],
			},
			connections,
			connect,
			disconnect,
		],
	},
	{
		name: 'Get',
		value: 'getRelation',
		action: 'Get a relation',
		description: 'Get a relation with its connected items',
		routing: engineRouting('GET', 'get-relation/{id}', byId),
		fields: [relationId],
	},
	{
		name: 'Get Many',
		value: 'getRelations',
		action: 'Get many relations',
		description: 'List the relations with their connected items',
		routing: engineRouting('GET', 'get-relations'),
	},
	{
		name: 'Delete',
		value: 'deleteRelation',
		action: 'Delete a relation',
		description: 'Delete a relation and its connections; the items stay',
		routing: engineRouting('DELETE', 'delete-relation/{id}', byId),
		fields: [relationId],
	},
];

export const relations: Resource = { name: 'Relation', value: 'relation', operations };
