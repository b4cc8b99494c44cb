import type { FastifyRequest } from 'fastify';
import type { Services } from '../services';
import type { DeviceRow, UserRow } from '../store/types';
import type { AuthScheme } from './route';
import { forbidden, notFound, unauthorized } from './errors';

/** Resolves the caller of a route by its scheme; throws 401 with what is missing or wrong. */
export function authenticate(scheme: AuthScheme, request: FastifyRequest, services: Services): { user?: UserRow; device?: DeviceRow } {
	if (scheme === 'user') {
		const header = request.headers.authorization;
		const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
		if (!match) throw unauthorized('missing API key: send the header "Authorization: Bearer <API key>"');
		const user = services.store.users.byApiKey(match[1]);
		if (!user) throw unauthorized('invalid API key');
		return { user };
	}
	if (scheme === 'instance') {
		const token = request.headers.token;
		if (typeof token !== 'string' || token === '') throw unauthorized('missing instance token: send the header "token: <instance token>"');
		const device = services.store.devices.byToken(token);
		if (!device) throw unauthorized('invalid instance token');
		return { device };
	}
	return {};
}

/** The device named in a user route, which must belong to that user. */
export function ownDevice(services: Services, user: UserRow, name: string): DeviceRow {
	const device = services.store.devices.byName(name);
	if (!device) throw notFound(`device '${name}' not found`);
	if (device.user_id !== user.id) throw forbidden(`device '${name}' belongs to another user`);
	return device;
}
