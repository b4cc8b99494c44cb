import ipaddr from 'ipaddr.js';

/**
 * Whether the server may connect to `address` (an IP in any form ipaddr.js reads). Only what
 * ipaddr.js calls `unicast` is public: loopback, private, link-local, CGNAT, unique-local,
 * unspecified, multicast, broadcast and reserved ranges are not, nor the IPv6 forms that embed an
 * IPv4 address (NAT64, 6to4, Teredo). An IPv4-mapped IPv6 address is judged as the IPv4 it maps.
 */
export function isPublicAddress(address: string): boolean {
	if (!ipaddr.isValid(address)) return false;
	return ipaddr.process(address).range() === 'unicast';
}

/** The host of a URL as an IP literal (IPv6 brackets stripped), or undefined for a name. */
export function ipLiteral(hostname: string): string | undefined {
	const bare = hostname.replace(/^\[(.*)\]$/, '$1');
	// WHATWG URL has already turned `2130706433`, `0x7f000001` and `127.1` into `127.0.0.1`.
	return ipaddr.isValid(bare) ? bare : undefined;
}

/**
 * Whether a URL obviously targets this machine or a private network, without asking DNS: an IP
 * literal that is not public, or `localhost` (and its subdomains, which resolvers keep on loopback).
 * Used to refuse such URLs when they are registered; every fetch still checks the resolved address.
 */
export function isObviouslyPrivate(url: string): boolean {
	const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
	const literal = ipLiteral(host);
	if (literal) return !isPublicAddress(literal);
	return host === 'localhost' || host.endsWith('.localhost');
}

/** Whether a listening address is this machine's loopback only (`127.0.0.1`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
	const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
	if (bare === 'localhost') return true;
	return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

/** Whether the server may fetch from and post to this machine and private networks, and why. */
export interface PrivateFetchPolicy {
	allowed: boolean;
	reason: string;
}

/**
 * Private targets follow where the server listens. On loopback only, nobody but processes of this machine
 * can call the server, and they reach loopback and the LAN themselves: the guard would protect nothing and
 * would break the common setup (an n8n on the same machine). On any other address, other machines can make
 * the server fetch for them: refused. An explicit setting wins, either way.
 */
export function privateFetchPolicy(setting: boolean | undefined, host: string): PrivateFetchPolicy {
	if (setting === true) return { allowed: true, reason: 'allowed by --allow-private-fetch' };
	if (setting === false) return { allowed: false, reason: 'refused by --allow-private-fetch=false' };
	return isLoopbackHost(host)
		? { allowed: true, reason: `allowed: the server listens on loopback only (${host}), so only this machine can call it` }
		: { allowed: false, reason: `refused: the server listens on ${host}, reachable from other machines (--allow-private-fetch allows it)` };
}
