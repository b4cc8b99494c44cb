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
