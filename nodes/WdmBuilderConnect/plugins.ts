import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';
import { installPlugin, installStatus, migrationSlug, pluginSlug, sendActivate } from './fields';

const path = (action: string) => `/builder-one/v1/plugins/{slug}/${action}`;

/** The plugins the builder connection manages: list, install, activate, deactivate, upgrade, migrate. */
export const plugins: Resource = {
	name: 'Plugin',
	value: 'plugin',
	operations: [
		{
			name: 'Activate',
			value: 'activatePlugin',
			action: 'Activate a plugin',
			description: 'Activate an installed plugin',
			routing: siteRouting('POST', path('activate'), { slug: 'pluginSlug' }),
			fields: [pluginSlug],
		},
		{
			name: 'Deactivate',
			value: 'deactivatePlugin',
			action: 'Deactivate a plugin',
			description: 'Deactivate an installed plugin',
			routing: siteRouting('POST', path('deactivate'), { slug: 'pluginSlug' }),
			fields: [pluginSlug],
		},
		{
			name: 'Get Many',
			value: 'getPlugins',
			action: 'Get many plugins',
			description: 'List the managed plugins, installed or not, with their status and versions',
			routing: siteRouting('GET', '/builder-one/v1/plugins'),
			fields: [
				{
					displayName: 'Filters',
					name: 'pluginFilters',
					type: 'collection',
					placeholder: 'Add Filter',
					default: {},
					options: [
						{
							displayName: 'Context',
							name: 'context',
							type: 'options',
							options: [
								{ name: 'View', value: 'view', description: 'Status, versions and migration' },
								{ name: 'Embed', value: 'embed', description: 'Name and status only' },
								{ name: 'Edit', value: 'edit' },
							],
							default: 'view',
							description: 'Which fields each plugin has',
							routing: { send: { type: 'query', property: 'context' } },
						},
						{
							displayName: 'Search',
							name: 'search',
							type: 'string',
							default: '',
							placeholder: 'e.g. mailer',
							description: 'Only plugins whose slug or name contains this text',
							routing: { send: { type: 'query', property: 'search' } },
						},
						{
							displayName: 'Status',
							name: 'status',
							type: 'multiOptions',
							options: [
								{ name: 'Active', value: 'active' },
								{ name: 'Inactive', value: 'inactive' },
							],
							default: [],
							description: 'Only installed plugins with one of these statuses',
							routing: { send: { type: 'query', property: 'status' } },
						},
					],
				},
			],
		},
		{
			name: 'Install',
			value: 'installPlugin',
			action: 'Install a plugin',
			description: 'Install a plugin at its newest release, inactive or active',
			routing: siteRouting('POST', '/builder-one/v1/plugins'),
			fields: [installPlugin, installStatus],
		},
		{
			name: 'Roll Back Migration',
			value: 'rollbackMigration',
			action: "Roll back a plugin's connection migration",
			description: 'Undo the migration of a plugin to the builder connection',
			routing: siteRouting('POST', path('migration/rollback'), { slug: 'migrationSlug' }),
			fields: [migrationSlug],
		},
		{
			name: 'Run Migration',
			value: 'runMigration',
			action: "Migrate a plugin's connection",
			description: "Move a plugin's own cloud connection to the site's builder connection",
			routing: siteRouting('POST', path('migration/run'), { slug: 'migrationSlug' }),
			fields: [
				migrationSlug,
				{
					displayName: 'Force',
					name: 'force',
					type: 'boolean',
					default: true,
					description: 'Whether to migrate even when the site is already connected to the builder cloud',
					routing: { send: { type: 'body', property: 'force' } },
				},
			],
		},
		{
			name: 'Upgrade',
			value: 'upgradePlugin',
			action: 'Upgrade a plugin',
			description: 'Upgrade an installed plugin to its newest release',
			routing: siteRouting('POST', path('upgrade'), { slug: 'pluginSlug' }),
			fields: [
				pluginSlug,
				{
					displayName: 'Activate',
					name: 'activate',
					type: 'boolean',
					default: false,
					description: 'Whether to activate the plugin after upgrading it',
					routing: { send: { preSend: [sendActivate] } },
				},
			],
		},
	],
};
