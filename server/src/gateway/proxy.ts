import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';
import { route } from '../http/route';
import { badRequest } from '../http/errors';
import type { ProxyRow } from '../store/types';

const SHAPES = ['http://user:password@host:port', 'http://host:port', 'socks5://user:password@host:port', 'socks5://host:port'];

/** The spec's four shapes: scheme, optional `user:password@`, a host name, IPv4 or [IPv6] address, a port. */
const PROXY_URL =
	/^(http|socks5):\/\/(?:([^\s:@/?#]+):([^\s@/?#]+)@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*):(\d{1,5})$/i;

interface ProxyParts {
	protocol: string;
	username: string | null;
	password: string | null;
	host: string;
	port: number;
}

/** Parses a proxy URL. Messages never quote the URL: it may hold a password. */
function parseProxyUrl(url: string): ProxyParts {
	const match = url.trim().match(PROXY_URL);
	const host = match?.[4];
	// An address must be a real one: `[::1]` and `10.0.0.1`, not `[1:::2::]` or `999.1.1.1`.
	const badAddress = host && (host.startsWith('[') ? !isIPv6(host.slice(1, -1)) : /^[\d.]+$/.test(host) && !isIPv4(host));
	if (!match || badAddress) throw badRequest(`proxy_url must have one of the shapes ${SHAPES.join(', ')}`);
	const port = Number(match[5]);
	if (port < 1 || port > 65535) throw badRequest(`proxy_url: the port must be between 1 and 65535 (got ${match[5]})`);
	return { protocol: match[1].toLowerCase(), username: match[2] ?? null, password: match[3] ?? null, host: host!.toLowerCase(), port };
}

const userinfo = (p: ProxyParts, password: string | null) => (p.username ? `${p.username}:${password}@` : '');
const format = (p: ProxyParts, password = p.password) => `${p.protocol}://${userinfo(p, password)}${p.host}:${p.port}`;

const proxyAnswer = z.object({
	enabled: z.boolean(),
	status: z.enum(['default', 'enabled']),
	proxy_url: z.string().nullable().meta({ description: 'The password masked' }),
	protocol: z.string().nullable(),
	host: z.string().nullable(),
	port: z.number().nullable(),
	username: z.string().nullable(),
	updatedAt: z.number().nullable(),
});

/** The configuration as clients see it: the password, if any, is always masked. */
function proxyView(row: ProxyRow | undefined): z.output<typeof proxyAnswer> {
	if (!row) return { enabled: false, status: 'default', proxy_url: null, protocol: null, host: null, port: null, username: null, updatedAt: null };
	const parts = parseProxyUrl(row.url);
	return {
		enabled: true,
		status: 'enabled',
		proxy_url: format(parts, '********'),
		protocol: parts.protocol,
		host: parts.host,
		port: parts.port,
		username: parts.username,
		updatedAt: row.updated_at,
	};
}

/** The device's proxy: the network connection goes through it instead of the server's default one. */
export const proxyRoutes = [
	route({
		method: 'GET',
		path: '/wdm/v1/proxy',
		auth: 'instance',
		summary: "Get the device's proxy: enabled with its URL (password masked), or the default connection",
		answer: proxyAnswer,
		handler: ({ services, device }) => proxyView(services.store.proxies.ofDevice(device.id)),
	}),

	route({
		method: 'POST',
		path: '/wdm/v1/proxy',
		auth: 'instance',
		summary: 'Set the proxy the device connects through (enable: true), or remove it (enable: false)',
		body: z.strictObject({ enable: z.boolean(), proxy_url: z.string().max(2048).optional() }),
		answer: proxyAnswer,
		handler: ({ services, device, body }) => {
			const { proxies } = services.store;
			if (!body.enable) {
				// The URL is ignored when disabling, whatever it holds.
				proxies.remove(device.id);
				return proxyView(undefined);
			}
			if (body.proxy_url === undefined || body.proxy_url.trim() === '') throw badRequest('proxy_url is required when enable is true');
			// Stored in the canonical form the view shows (lower-case scheme and host).
			return proxyView(proxies.set(device.id, format(parseProxyUrl(body.proxy_url))));
		},
	}),

	route({
		method: 'DELETE',
		path: '/wdm/v1/proxy',
		auth: 'instance',
		summary: 'Remove the configured proxy: the device goes back to the default connection',
		answer: proxyAnswer,
		handler: ({ services, device }) => {
			services.store.proxies.remove(device.id);
			return proxyView(undefined);
		},
	}),
];
