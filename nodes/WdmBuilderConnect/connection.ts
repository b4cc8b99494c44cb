import type { Resource } from '../shared/resources';
import { siteRouting } from '../shared/site';

/**
 * The site's connection to the builder cloud. Every answer is the connection's state (`status`:
 * disconnected, authorizing, connected, deactivated); an action its state does not allow fails with
 * the state in the message.
 */
export const connection: Resource = {
	name: 'Connection',
	value: 'connection',
	operations: [
		{
			name: 'Authorize',
			value: 'authorizeConnection',
			action: 'Authorize the connection to the builder cloud',
			description: 'Start connecting the site (the answer has the authorize URL), or complete a pending authorization',
			routing: siteRouting('POST', '/builder-one/v1/connect/authorize'),
			fields: [
				{
					displayName: 'Clear Session',
					name: 'clearSession',
					type: 'boolean',
					default: false,
					description: 'Whether to start over, dropping a pending authorization or a live connection',
					routing: { send: { type: 'body', property: 'clearSession' } },
				},
			],
		},
		{
			name: 'Deactivate',
			value: 'deactivateConnection',
			action: 'Deactivate the connection on this site',
			description: 'Deactivate a live connection on this site; Authorize reconnects it',
			routing: siteRouting('POST', '/builder-one/v1/connect/deactivate'),
		},
		{
			name: 'Disconnect',
			value: 'disconnect',
			action: 'Disconnect the site from the builder cloud',
			description: 'Drop the connection, or cancel a pending authorization',
			routing: siteRouting('POST', '/builder-one/v1/connect/disconnect'),
		},
		{
			name: 'Switch Domain',
			value: 'switchDomain',
			action: "Move the connection to the site's current address",
			description: 'Register the live connection for the address the site has now (after a domain change)',
			routing: siteRouting('POST', '/builder-one/v1/connect/switch-domain'),
		},
	],
};
