import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import { listOperationRouting, returnAllFields } from '../shared/gateway';

/** Chat attributes, as /chat/find names them. */
const ATTRIBUTES = [
	{ name: 'Chat ID (JID)', value: 'wa_chatid' },
	{ name: 'ID', value: 'id' },
	{ name: 'Is Archived', value: 'wa_archived' },
	{ name: 'Is Group', value: 'wa_isGroup' },
	{ name: 'Is Pinned', value: 'wa_isPinned' },
	{ name: 'Label ID', value: 'wa_label' },
	{ name: 'Last Message Time', value: 'wa_lastMsgTimestamp' },
	{ name: 'Last Message Type', value: 'wa_lastMessageType' },
	{ name: 'Mute End Time', value: 'wa_muteEndTime' },
	{ name: 'Name', value: 'wa_name' },
	{ name: 'Phone', value: 'phone' },
	{ name: 'Unread Count', value: 'wa_unreadCount' },
];

/**
 * The route's value prefix of each operator. The options carry names, not the prefixes: n8n would read
 * a parameter value starting with "=" as an expression. Equality is written out, so that a value that
 * itself starts with an operator character is taken as it is.
 */
const PREFIXES: Record<string, string> = {
	equals: '=',
	notEquals: '!=',
	contains: '~',
	gt: '>',
	gte: '>=',
	lt: '<',
	lte: '<=',
};

interface FilterRow {
	attribute: string;
	operator: string;
	value: string | number | boolean;
}

/**
 * Sends the Filters rows as the route's attribute filters, the operator as the value's prefix
 * (`Name contains ana` -> `wa_name: "~ana"`); several rows on one attribute become a list.
 */
async function filtersToBody(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const rows = (this.getNodeParameter('filters', {}) as { conditions?: FilterRow[] }).conditions ?? [];
	const filters: Record<string, string[]> = {};
	for (const row of rows) (filters[row.attribute] ??= []).push(`${PREFIXES[row.operator] ?? '='}${row.value}`);
	const body = Object.fromEntries(Object.entries(filters).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
	options.body = { ...(options.body as IDataObject), ...body };
	return options;
}

/** Sort By in the Sort Order: the gateway's `sort` is the attribute, with a leading minus for descending. */
async function sortToBody(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const { sortBy, sortOrder } = this.getNodeParameter('options', {}) as { sortBy?: string; sortOrder?: string };
	if (sortBy) options.body = { ...(options.body as IDataObject), sort: `${sortOrder === 'asc' ? '' : '-'}${sortBy}` };
	return options;
}

export const find: Operation = {
	name: 'Find',
	value: 'find',
	action: 'Find chats',
	description: 'Find chats by any attribute, sorted, newest message first by default',
	routing: listOperationRouting('POST', '/chat/find', 'chats'),
	fields: [
		...returnAllFields,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Filter',
					name: 'conditions',
					values: [
						{ displayName: 'Attribute', name: 'attribute', type: 'options', options: ATTRIBUTES, default: 'wa_name' },
						{
							displayName: 'Operator',
							name: 'operator',
							type: 'options',
							default: 'equals',
							options: [
								{ name: 'Contains', value: 'contains', description: 'Text contains the value, ignoring case' },
								{ name: 'Equals', value: 'equals' },
								{ name: 'Greater Than', value: 'gt' },
								{ name: 'Greater Than or Equal', value: 'gte' },
								{ name: 'Less Than', value: 'lt' },
								{ name: 'Less Than or Equal', value: 'lte' },
								{ name: 'Not Equals', value: 'notEquals' },
							],
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							description: 'True or false for the "Is" attributes, a label ID for Label ID, milliseconds since 1970 for times',
						},
					],
				},
			],
			routing: { send: { preSend: [filtersToBody] } },
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Match',
					name: 'operator',
					type: 'options',
					default: 'AND',
					options: [
						{ name: 'All Filters', value: 'AND' },
						{ name: 'Any Filter', value: 'OR' },
					],
					description: 'Whether a chat must match every filter or at least one',
					routing: { send: { type: 'body', property: 'operator' } },
				},
				{
					displayName: 'Sort By',
					name: 'sortBy',
					type: 'options',
					options: ATTRIBUTES.filter((a) => a.value !== 'wa_label'),
					default: 'wa_lastMsgTimestamp',
					description: 'Attribute to sort the chats by (in the Sort Order)',
					routing: { send: { preSend: [sortToBody] } },
				},
				{
					displayName: 'Sort Order',
					name: 'sortOrder',
					type: 'options',
					default: 'desc',
					options: [
						{ name: 'Ascending', value: 'asc' },
						{ name: 'Descending', value: 'desc' },
					],
					description: 'Order of Sort By (newest message first when Sort By is not set)',
				},
			],
		},
	],
};
