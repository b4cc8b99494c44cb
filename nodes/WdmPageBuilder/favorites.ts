import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../shared/site';

/** The signed-in user's favourites in the builder (`/builder/v1/favorites`). */

const typeField: INodeProperties = {
	displayName: 'Favorites Type',
	name: 'favoritesType',
	type: 'options',
	options: [
		{ name: 'Widgets', value: 'widgets', description: 'Widget names, e.g. heading' },
		{ name: 'Templates', value: 'templates', description: 'Template IDs' },
	],
	default: 'widgets',
	description: 'Kind of favourite',
};

const favoriteField: INodeProperties = {
	displayName: 'Favorite',
	name: 'favorite',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. heading',
	description: 'Slug of the widget, or ID of the template',
	routing: { send: { type: 'body', property: 'favorite' } },
};

const ROUTE = '/builder/v1/favorites/{id}';
const byType = { id: 'favoritesType' };

const operations: Operation[] = [
	{
		name: 'Get Favorites',
		value: 'getFavorites',
		action: 'Get the favorites',
		description: "List the user's favourites, one item per favourite",
		routing: siteListRouting('/builder/v1/favorites'),
		fields: [
			...siteReturnAllFields,
			{
				displayName: 'Search',
				name: 'favoritesSearch',
				type: 'string',
				default: '',
				placeholder: 'e.g. button',
				description: 'Only favourites whose slug contains this text',
				routing: { send: { type: 'query', property: 'search' } },
			},
		],
	},
	{
		name: 'Add Favorite',
		value: 'addFavorite',
		action: 'Add a favorite',
		description: "Add a widget or template to the user's favourites",
		routing: siteRouting('POST', ROUTE, byType),
		fields: [typeField, favoriteField],
	},
	{
		name: 'Remove Favorite',
		value: 'removeFavorite',
		action: 'Remove a favorite',
		description: "Remove a widget or template from the user's favourites",
		routing: siteRouting('DELETE', ROUTE, byType),
		fields: [typeField, favoriteField],
	},
];

export const favorites: Resource = { name: 'Favorites', value: 'favorite', description: "The user's favourite widgets and templates", operations };
