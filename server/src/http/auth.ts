import type { FastifyRequest } from 'fastify';
import type { Services } from '../services';
import type { DeviceRow, UserRow } from '../store/types';
import type { AuthScheme } from './route';
import { notFound, unauthorized } from './errors';

/** Resolves the caller of a route by its scheme; throws 401 with what is missing or wrong. */
export function authenticate(
	scheme: AuthScheme,
	request: FastifyRequest,
	services: Services,
): { user?: UserRow; device?: DeviceRow; siteUser?: UserRow | null } {
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
	if (scheme === 'site') return { siteUser: siteUser(request, services) };
	return {};
}

export type Caller = ReturnType<typeof authenticate>;

/**
 * The caller each request was authenticated as, before its body was read (the route's `onRequest` hook),
 * by scheme: a route that hands the request on to another (an engine post type's) may sign in otherwise.
 */
const callers = new WeakMap<FastifyRequest, Partial<Record<AuthScheme, Caller>>>();

/**
 * `authenticate` once per request: the route's `onRequest` hook checks the credentials before the body
 * is read, the handler reuses what it found (requests made in process, `_embed` and batch, are new each).
 */
export function authenticateOnce(scheme: AuthScheme, request: FastifyRequest, services: Services): Caller {
	let known = callers.get(request);
	if (!known) callers.set(request, (known = {}));
	return (known[scheme] ??= authenticate(scheme, request, services));
}

/**
 * The site user of `Authorization: Basic`, as WordPress signs in application passwords; null without
 * the header. Wrong credentials are a 401 even on a public route: the caller meant to be someone.
 */
function siteUser(request: FastifyRequest, services: Services): UserRow | null {
	const header = request.headers.authorization;
	if (!header) return null;
	const match = header.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
	if (!match) throw unauthorized('the Authorization header must be "Basic <base64 of user:application password>"', 'rest_invalid_authorization');
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0) throw unauthorized('the Basic credentials must be "user:application password"', 'rest_invalid_authorization');
	const { user, uuid, reason } = services.store.users.byAppPassword(decoded.slice(0, colon), decoded.slice(colon + 1), request.ip);
	if (reason === 'unknown_user') throw unauthorized('Unknown username. Check again or try your email address.', 'invalid_username');
	if (!user) throw unauthorized('The provided password is an invalid application password.', 'incorrect_password');
	signedInWith.set(request, uuid!);
	return user;
}

/** The application password each signed-in request used (WordPress's `rest_get_authenticated_app_password`). */
const signedInWith = new WeakMap<FastifyRequest, string>();

/** The uuid of the application password the request signed in with; undefined for an anonymous one. */
export const authenticatedAppPassword = (request: FastifyRequest) => signedInWith.get(request);

/** The device named in a user route: names are the user's own, so another user's device is not found. */
export function ownDevice(services: Services, user: UserRow, name: string): DeviceRow {
	const device = services.store.devices.byName(user.id, name);
	if (!device) throw notFound(`device '${name}' not found`);
	return device;
}
