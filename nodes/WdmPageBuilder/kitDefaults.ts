import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { picker } from '../shared/pickers';
import { siteRouting } from '../shared/site';
import { jsonToBody } from './designFields';

/** Default settings per element type (`/builder/v1/kit-elements-defaults`). */

// Save may name a type that has no defaults yet: then By Type.
const elementTypeField: INodeProperties = picker('kitDefault', {
	displayName: 'Element Type',
	name: 'elementType',
	description: 'Element or widget type of the builder: pick one that has defaults, or give it (such as container, heading, button, e-heading or e-button)',
});

const ROUTE = '/builder/v1/kit-elements-defaults/{type}';
const byType = { type: 'elementType' };

const operations: Operation[] = [
	{
		name: 'Get Element Defaults',
		value: 'getKitDefaults',
		action: 'Get the element defaults',
		description: 'Get the default settings of every element type that has some, keyed by type',
		routing: siteRouting('GET', '/builder/v1/kit-elements-defaults'),
	},
	{
		name: 'Save Element Defaults',
		value: 'saveKitDefaults',
		action: 'Save the defaults of an element type',
		description: 'Set the settings new elements of a type start with, replacing the previous ones',
		routing: siteRouting('POST', ROUTE, byType, jsonToBody('elementSettings', 'Settings', 'settings')),
		fields: [
			elementTypeField,
			{
				displayName: 'Settings',
				name: 'elementSettings',
				type: 'json',
				required: true,
				default: '{}',
				placeholder: 'e.g. {"title_color": "#333333"}',
				description: "The element's settings as the builder stores them (a JSON object)",
			},
		],
	},
	{
		name: 'Delete Element Defaults',
		value: 'deleteKitDefaults',
		action: 'Delete the defaults of an element type',
		description: "Remove an element type's default settings",
		routing: siteRouting('DELETE', ROUTE, byType),
		fields: [elementTypeField],
	},
];

export const kitDefaults: Resource = { name: 'Kit Defaults', value: 'kitDefault', description: 'Default settings of element types', operations };
