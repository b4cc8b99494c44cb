import type { INodeProperties } from 'n8n-workflow';
import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';

/** A setting that is off until set. */
const toggle = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: false,
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
						toggle('Auto Updates', 'auto_updates', 'Whether managed plugins may be upgraded automatically'),
						toggle('Beta Releases', 'beta_releases', 'Whether the site gets beta releases'),
						toggle('Share Usage Data', 'share_usage_data', 'Whether the site shares anonymous usage data with the builder cloud'),
						{
							displayName: 'Top Bar Enabled',
							name: 'top_bar_enabled',
							type: 'boolean',
							default: true,
							description: 'Whether the top bar shows its notifications',
							routing: { send: { type: 'body', property: 'top_bar_enabled' } },
						},
					],
				},
			],
		},
	],
};
