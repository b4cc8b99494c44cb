import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { installStatus } from './fields';

/** Themes: install from the theme directory, activate (one active theme at a time). */
export const themes: Resource = {
	name: 'Theme',
	value: 'theme',
	operations: [
		{
			name: 'Activate',
			value: 'activateTheme',
			action: 'Activate a theme',
			description: 'Activate an installed theme; the active one becomes inactive',
			routing: siteRouting('POST', '/builder-one/v1/themes/{slug}/activate', { slug: 'themeSlug' }),
			fields: [
				{
					displayName: 'Theme Slug',
					name: 'themeSlug',
					type: 'string',
					required: true,
					default: '',
					placeholder: 'e.g. hello-theme',
					description: 'Slug of the installed theme (letters, digits, underscores and hyphens)',
				},
			],
		},
		{
			name: 'Install',
			value: 'installTheme',
			action: 'Install a theme',
			description: 'Install a theme of the theme directory, inactive or active',
			routing: siteRouting('POST', '/builder-one/v1/themes'),
			fields: [
				{
					displayName: 'Theme Slug',
					name: 'theme',
					type: 'string',
					required: true,
					default: '',
					placeholder: 'e.g. hello-theme',
					description: 'Slug of the theme in the directory (letters, digits, underscores and hyphens)',
					routing: { send: { type: 'body', property: 'slug' } },
				},
				installStatus,
			],
		},
	],
};
