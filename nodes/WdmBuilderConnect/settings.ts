import type { INodeProperties } from 'n8n-workflow';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';

const toggle = (displayName: string, name: string, description: string, value: boolean): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: value,
	description,
	routing: { send: { type: 'body', property: name } },
});

/** The builder connection's settings; reading them also gives the connection's state. */
export const settings: Resource = {
	name: 'Settings',
	value: 'settings',
	operations: [
		{
			name: 'Get',
			value: 'getSettings',
			action: 'Get the builder connection settings',
			description: "Get the builder connection's settings and the connection's state",
			routing: siteRouting('GET', '/builder-one/v1/settings'),
		},
		{
			name: 'Update',
			value: 'updateSettings',
			action: 'Update the builder connection settings',
			description: 'Change the settings given; the others keep their values',
			routing: siteRouting('POST', '/builder-one/v1/settings'),
			fields: [
				{
					displayName: 'Settings',
					name: 'builderOneSettings',
					type: 'collection',
					placeholder: 'Add Setting',
					default: {},
					options: [
						toggle('Auto Updates', 'auto_updates', 'Whether managed plugins may be upgraded automatically', false),
						toggle('Beta Releases', 'beta_releases', 'Whether the site gets beta releases', false),
						toggle('Share Usage Data', 'share_usage_data', 'Whether the site shares anonymous usage data with the builder cloud', false),
						toggle('Top Bar Enabled', 'top_bar_enabled', 'Whether the top bar shows its notifications', true),
					],
				},
			],
		},
	],
};
