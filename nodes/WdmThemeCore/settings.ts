import type { Resource } from '../shared/resources';
import { themecoreRouting } from './fields';

/** The theme core's settings and the syncs that rebuild its state from the site's content. */

export const settings: Resource = {
	name: 'Settings',
	value: 'settings',
	description: "The theme core's settings, and syncing it with the site's templates",
	operations: [
		{
			name: 'Get or Update Settings',
			value: 'pluginSettings',
			action: 'Get or update the settings',
			description: 'Change the settings given (none: only read them); returns them with the active theme, template counts and the conditions index',
			routing: themecoreRouting('plugin-settings'),
			fields: [
				{
					displayName: 'Settings to Update',
					name: 'settingsToUpdate',
					type: 'collection',
					placeholder: 'Add Setting',
					default: {},
					options: [
						{
							displayName: 'Hide Theme Header and Footer',
							name: 'disable_theme_parts',
							type: 'boolean',
							default: false,
							description: "Whether to hide the active theme's own header and footer where a template applies",
							routing: { send: { type: 'body', property: 'disable_theme_parts' } },
						},
						{
							displayName: 'Preview Mode',
							name: 'preview_mode',
							type: 'boolean',
							default: false,
							description: 'Whether templates apply only for signed-in editors, to check them before they go live',
							routing: { send: { type: 'body', property: 'preview_mode' } },
						},
					],
				},
			],
		},
		{
			name: 'Sync Conditions',
			value: 'syncConditions',
			action: 'Sync the conditions index',
			description: 'Rebuild the site-wide index of which template applies where; returns it',
			routing: themecoreRouting('sync-conditions-option'),
		},
		{
			name: 'Sync Templates',
			value: 'syncTemplates',
			action: 'Sync the templates',
			description: 'Re-read the templates: drop what refers to deleted or unpublished ones and rebuild the conditions index',
			routing: themecoreRouting('sync-templates'),
		},
	],
};
