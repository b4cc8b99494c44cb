import type { Operation } from '../shared/operations';
import { gatewayRouting } from '../shared/gateway';

export const set: Operation = {
	name: 'Set',
	value: 'set',
	action: 'Set the proxy of the device',
	description: 'Make the device connect through a proxy, or stop using the configured one',
	routing: gatewayRouting('POST', '/proxy'),
	fields: [
		{
			displayName: 'Enable',
			name: 'enable',
			type: 'boolean',
			default: true,
			description: 'Whether to connect through the proxy below; turned off, the configured proxy is removed',
			routing: { send: { type: 'body', property: 'enable' } },
		},
		{
			displayName: 'Proxy URL',
			name: 'proxyUrl',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'e.g. http://user:password@proxy.example.com:3128',
			description:
				'One of http://user:password@host:port, http://host:port, socks5://user:password@host:port or socks5://host:port',
			displayOptions: { show: { enable: [true] } },
			routing: { send: { type: 'body', property: 'proxy_url' } },
		},
	],
};
