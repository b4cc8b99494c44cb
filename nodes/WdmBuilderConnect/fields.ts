import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

/** Shared by the plugin and theme installs: how the item is left after installing. */
export const installStatus: INodeProperties = {
	displayName: 'Status',
	name: 'installStatus',
	type: 'options',
	options: [
		{ name: 'Inactive', value: 'inactive', description: 'Install only' },
		{ name: 'Active', value: 'active', description: 'Install and activate' },
	],
	default: 'inactive',
	description: 'Whether to activate it once installed',
	routing: { send: { type: 'body', property: 'status' } },
};

/** The managed plugins (the route's slug enum). */
const PLUGINS = [
	{ name: 'Accessibility', value: 'accessibility' },
	{ name: 'Builder Assistant', value: 'assistant' },
	{ name: 'Builder Manage', value: 'manage' },
	{ name: 'Image Optimization', value: 'image-optimization' },
	{ name: 'Page Builder', value: 'builder' },
	{ name: 'Page Builder Pro', value: 'builder-pro' },
	{ name: 'Site Mailer', value: 'site-mailer' },
];

const pluginOptions = (description: string, exclude: string[] = []): Omit<INodeProperties, 'name'> => ({
	displayName: 'Plugin',
	type: 'options',
	options: PLUGINS.filter((plugin) => !exclude.includes(plugin.value)),
	default: 'builder',
	required: true,
	description,
});

/** The plugin an install sends in its body. */
export const installPlugin: INodeProperties = {
	...pluginOptions('The plugin to install'),
	name: 'plugin',
	routing: { send: { type: 'body', property: 'slug' } },
};

/** The plugin of a `/plugins/{slug}/...` route. */
export const pluginSlug: INodeProperties = { ...pluginOptions('The installed plugin to act on'), name: 'pluginSlug' };

/** The plugin of a migration route (every plugin but the assistant has a connection to migrate). */
export const migrationSlug: INodeProperties = {
	...pluginOptions("The plugin whose own cloud connection is migrated to the site's builder connection", ['assistant']),
	name: 'migrationSlug',
};

/** preSend: `status: "active"` when the Activate boolean is on (the route takes no other status). */
export async function sendActivate(this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (this.getNodeParameter('activate', false) === true) options.body = { ...(options.body as object), status: 'active' };
	return options;
}
