import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { jsonToBody } from './designFields';

/** The builder's settings by key (`/builder/v1/settings/{key}`). */

const KEYS = [
	{ name: 'Container Width', value: 'container_width', description: 'Integer, 300 to 3000 (pixels)' },
	{ name: 'CSS Print Method', value: 'css_print_method', description: '"external" or "internal"' },
	{ name: 'Disable Color Schemes', value: 'disable_color_schemes', description: 'Boolean' },
	{ name: 'Disable Typography Schemes', value: 'disable_typography_schemes', description: 'Boolean' },
	{ name: 'Editor Break Lines', value: 'editor_break_lines', description: 'Boolean' },
	{ name: 'Font Display', value: 'font_display', description: '"auto", "block", "swap", "fallback" or "optional"' },
	{ name: 'Global Image Lightbox', value: 'global_image_lightbox', description: 'Boolean' },
	{ name: 'Post Types', value: 'cpt_support', description: 'Array of post type slugs the builder may edit' },
	{ name: 'Unfiltered Files Upload', value: 'unfiltered_files_upload', description: 'Boolean' },
];

const settingKeyField: INodeProperties = {
	displayName: 'Setting',
	name: 'settingKey',
	type: 'options',
	options: KEYS,
	default: 'font_display',
	description: 'The builder setting',
};

const ROUTE = '/builder/v1/settings/{key}';
const byKey = { key: 'settingKey' };

const operations: Operation[] = [
	{
		name: 'Get Setting',
		value: 'getBuilderSetting',
		action: 'Get a builder setting',
		description: 'Get the value and default of a builder setting',
		routing: siteRouting('GET', ROUTE, byKey),
		fields: [settingKeyField],
	},
	{
		name: 'Update Setting',
		value: 'updateBuilderSetting',
		action: 'Update a builder setting',
		description: 'Change a builder setting; the value must fit the setting',
		routing: siteRouting('POST', ROUTE, byKey, jsonToBody('settingValue', 'Value', 'value')),
		fields: [
			settingKeyField,
			{
				displayName: 'Value',
				name: 'settingValue',
				type: 'json',
				required: true,
				default: 'true',
				description: 'The new value as JSON: true, "swap", 1140, ["post", "page"]',
			},
		],
	},
];

export const settings: Resource = { name: 'Settings', value: 'settings', description: "The builder's settings", operations };
