import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { picker } from '../shared/pickers';
import { siteRouting } from '../shared/site';
import { entriesAsItems, jsonToBody } from './designFields';

/** The site kit's global colours and typography (`/builder/v1/globals`). */

// Save may name a new one: then By ID.
const globalIdField: INodeProperties = picker('globalStyle', {
	displayName: 'Global',
	name: 'globalId',
	description: 'The global colour or typography: pick it, or give its ID (letters, digits and underscores; primary, secondary, text and accent are the system ones)',
});

const globalTitleField: INodeProperties = {
	displayName: 'Title',
	name: 'globalTitle',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Brand Blue',
	description: 'Name shown in the builder',
	routing: { send: { type: 'body', property: 'title' } },
};

const COLOR_ROUTE = '/builder/v1/globals/colors/{id}';
const TYPOGRAPHY_ROUTE = '/builder/v1/globals/typography/{id}';
const byId = { id: 'globalId' };

const operations: Operation[] = [
	{
		name: 'Get All Globals',
		value: 'getAllGlobals',
		action: 'Get all global colors and typography',
		description: "Get the kit's global colours and typography, each keyed by ID",
		routing: siteRouting('GET', '/builder/v1/globals'),
	},
	{
		name: 'Get Colors',
		value: 'getGlobalColors',
		action: 'Get the global colors',
		description: "Get the kit's global colours, one item each",
		routing: { ...siteRouting('GET', '/builder/v1/globals/colors'), output: { postReceive: [entriesAsItems] } },
	},
	{
		name: 'Get Color',
		value: 'getGlobalColor',
		action: 'Get a global color',
		description: 'Get one global colour by ID',
		routing: siteRouting('GET', COLOR_ROUTE, byId),
		fields: [globalIdField],
	},
	{
		name: 'Save Color',
		value: 'saveGlobalColor',
		action: 'Create or replace a global color',
		description: 'Create a global colour with this ID, or replace the one that has it',
		routing: siteRouting('POST', COLOR_ROUTE, byId),
		fields: [
			globalIdField,
			globalTitleField,
			{
				displayName: 'Color',
				name: 'globalColorValue',
				type: 'color',
				required: true,
				default: '',
				placeholder: 'e.g. #1E73BE',
				description: 'CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla() or transparent',
				routing: { send: { type: 'body', property: 'value' } },
			},
		],
	},
	{
		name: 'Delete Color',
		value: 'deleteGlobalColor',
		action: 'Delete a global color',
		description: 'Delete a global colour (the system ones cannot be deleted)',
		routing: siteRouting('DELETE', COLOR_ROUTE, byId),
		fields: [globalIdField],
	},
	{
		name: 'Get Typographies',
		value: 'getGlobalTypographies',
		action: 'Get the global typographies',
		description: "Get the kit's global typography, one item each",
		routing: { ...siteRouting('GET', '/builder/v1/globals/typography'), output: { postReceive: [entriesAsItems] } },
	},
	{
		name: 'Get Typography',
		value: 'getGlobalTypography',
		action: 'Get a global typography',
		description: 'Get one global typography by ID',
		routing: siteRouting('GET', TYPOGRAPHY_ROUTE, byId),
		fields: [globalIdField],
	},
	{
		name: 'Save Typography',
		value: 'saveGlobalTypography',
		action: 'Create or replace a global typography',
		description: 'Create a global typography with this ID, or replace the one that has it',
		routing: siteRouting('POST', TYPOGRAPHY_ROUTE, byId, jsonToBody('globalTypographyValue', 'Typography', 'value')),
		fields: [
			globalIdField,
			globalTitleField,
			{
				displayName: 'Typography',
				name: 'globalTypographyValue',
				type: 'json',
				required: true,
				default: '{\n  "typography_typography": "custom",\n  "typography_font_family": "Roboto",\n  "typography_font_weight": "600"\n}',
				description:
					'The typography as the builder stores it: typography_font_family, typography_font_weight, typography_font_size ({"unit": "px", "size": 16}), typography_line_height, typography_letter_spacing, typography_text_transform and more',
			},
		],
	},
	{
		name: 'Delete Typography',
		value: 'deleteGlobalTypography',
		action: 'Delete a global typography',
		description: 'Delete a global typography (the system ones cannot be deleted)',
		routing: siteRouting('DELETE', TYPOGRAPHY_ROUTE, byId),
		fields: [globalIdField],
	},
];

export const globals: Resource = { name: 'Globals', value: 'global', description: "The kit's global colours and typography", operations };
