import crypto from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { route, type Route } from '../../http/route';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { wpBool } from '../content/params';
import { type ConnectionStatus, type SiteConnection, saveConnection, siteConnection } from '../plugins';
import { requireCap } from './access';
import { notify } from './notifications';

/**
 * The site's connection to the builder cloud account, a state machine every route reads:
 *   disconnected --authorize--> authorizing --authorize--> connected --deactivate--> deactivated
 *   any state but disconnected --disconnect--> disconnected; connected --switch-domain--> connected (new domain)
 *   authorize with clearSession starts over from any state (a pending or live connection is dropped).
 * An action the current state does not allow is a 409 that names the state.
 */

/** The states of the connection. */
export const connectionStatusSchema = z.enum(['disconnected', 'authorizing', 'connected', 'deactivated'] satisfies ConnectionStatus[]);

/** What a connection route answers: the state, and where to authorize while a session is pending. */
export const connectionAnswer = z.object({
	status: connectionStatusSchema,
	domain: z.string().nullable().meta({ description: 'The site address the connection is registered for' }),
	client_id: z.string().nullable().meta({ description: "The cloud's id of this site, once connected" }),
	user: z.number().int().nullable().meta({ description: 'The site user who connected it' }),
	connected_at: z.string().nullable(),
	updated_at: z.string().nullable(),
	authorize_url: z.string().nullable().meta({ description: 'Where to authorize the pending session (null without one)' }),
});

function view(services: Services, connection: SiteConnection): z.output<typeof connectionAnswer> {
	const { session, ...rest } = connection;
	const authorizeUrl = session ? `${services.baseUrl}/wp-admin/admin.php?page=builder-one-connect&action=authorize&state=${session}` : null;
	return { ...rest, authorize_url: authorizeUrl };
}

const refused = (action: string, status: ConnectionStatus, allowed: ConnectionStatus[]) =>
	new ApiError(409, `Cannot ${action} while the connection is ${status}; it must be ${allowed.join(' or ')}.`, 'builder_one_invalid_connection_state', { connection_status: status });

/** Checks the capability and the current state, then writes the next one; answers it. */
function transition(
	services: Services,
	user: UserRow | null,
	action: string,
	allowed: ConnectionStatus[],
	next: (current: SiteConnection, user: UserRow) => SiteConnection,
) {
	requireCap(user, 'manage_options', 'builder_one_cannot_connect', 'Sorry, you are not allowed to manage the connection to the builder cloud.');
	const store = services.store;
	return store.tx(() => {
		const current = siteConnection(store);
		if (!allowed.includes(current.status)) throw refused(action, current.status, allowed);
		return view(services, saveConnection(store, next(current, user)));
	});
}

const newSession = () => crypto.randomBytes(16).toString('hex');

const startAuthorizing = (user: UserRow): SiteConnection => ({
	status: 'authorizing',
	domain: null,
	client_id: null,
	session: newSession(),
	user: user.id,
	connected_at: null,
	updated_at: null,
});

const ALL: ConnectionStatus[] = ['disconnected', 'authorizing', 'connected', 'deactivated'];

export const connectionRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/builder-one/v1/connect/authorize',
		auth: 'site',
		summary: 'Start connecting the site to the builder cloud (authorizing), or complete a pending authorization (connected); clearSession starts over',
		body: z.object({ clearSession: wpBool.prefault(false) }),
		answer: connectionAnswer,
		errors: [403, 409],
		handler: ({ services, siteUser, body }) => {
			const clear = body.clearSession;
			// Without clearSession a live connection stays: starting over must be asked for.
			const allowed: ConnectionStatus[] = clear ? ALL : ['disconnected', 'authorizing', 'deactivated'];
			return transition(services, siteUser, 'authorize', allowed, (current, user) => {
				if (clear || current.status !== 'authorizing') return startAuthorizing(user);
				const connected: SiteConnection = {
					...current,
					status: 'connected',
					session: null,
					domain: services.baseUrl,
					client_id: `site_${crypto.randomBytes(8).toString('hex')}`,
					connected_at: new Date().toISOString(),
				};
				notify(services.store, { app_name: 'builder-one', app_version: '1.0.0', title: 'Connected to the builder cloud', description: `The site ${services.baseUrl} is connected.` });
				return connected;
			});
		},
	}),

	route({
		method: 'POST',
		path: '/builder-one/v1/connect/disconnect',
		auth: 'site',
		summary: 'Disconnect the site from the builder cloud (also cancels a pending authorization)',
		answer: connectionAnswer,
		errors: [403, 409],
		handler: ({ services, siteUser }) =>
			transition(services, siteUser, 'disconnect', ['authorizing', 'connected', 'deactivated'], () => ({
				status: 'disconnected',
				domain: null,
				client_id: null,
				session: null,
				user: null,
				connected_at: null,
				updated_at: null,
			})),
	}),

	route({
		method: 'POST',
		path: '/builder-one/v1/connect/switch-domain',
		auth: 'site',
		summary: "Move the connection to the site's current address (after the site changed domain)",
		answer: connectionAnswer,
		errors: [403, 409],
		handler: ({ services, siteUser }) =>
			transition(services, siteUser, 'switch domain', ['connected'], (current) => {
				if (current.domain === services.baseUrl) {
					throw new ApiError(409, `The connection is already registered for ${current.domain}.`, 'builder_one_same_domain', { connection_status: current.status });
				}
				return { ...current, domain: services.baseUrl };
			}),
	}),

	route({
		method: 'POST',
		path: '/builder-one/v1/connect/deactivate',
		auth: 'site',
		summary: 'Deactivate the connection on this site (the cloud account keeps it; authorize reconnects)',
		answer: connectionAnswer,
		errors: [403, 409],
		handler: ({ services, siteUser }) => transition(services, siteUser, 'deactivate', ['connected'], (current) => ({ ...current, status: 'deactivated' })),
	}),
];
