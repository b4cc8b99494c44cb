import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authenticatedAppPassword } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type AllowContext, type Method, type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { AppPasswordRow, UserRow } from '../../store/types';
import { contextParam } from '../content/params';
import { canEditUser, denied, signedIn, userById } from './access';
import { appPasswordItem, appPasswordUrl, appPasswordView } from './views';
import { deletedAnswer, itemAnswer, wpItemSchema } from '../item-schema';

/**
 * WordPress's application passwords controller (`/cms/v2/users/{user_id}/application-passwords`,
 * `me` for the signed-in user): list, create (the password is shown once), rename, delete one or all,
 * and introspect the one the request signed in with. Every action on a user's passwords is for that
 * user, or for whoever may edit users (WordPress maps its `*_app_password(s)` capabilities to `edit_user`).
 */

const USER_ID = '(?:[\\d]+|me)';
// The path's segments, which WordPress does not declare as arguments of these routes.
const segment = z.string().meta({ argument: false });
const userParams = z.object({ user_id: segment });
const itemParams = z.object({ user_id: segment, uuid: segment });
const contextQuery = phpQuery({ context: contextParam });

/** A name with something else than white space (WordPress's `.*\S.*`). */
const name = z
	.string()
	.min(1)
	.regex(/.*\S.*/, { error: 'must not be empty or blank' })
	.meta({ description: 'The name of the application password.' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const appId = z
	.string()
	.refine((id) => id === '' || UUID.test(id), { error: 'must be a UUID (or empty)' })
	.meta({ format: 'uuid', description: 'A UUID provided by the application to uniquely identify it.' })
	.optional();
const createBody = z.object({ app_id: appId, name });
// As in WordPress, an update takes `app_id` too and keeps the one given at creation.
const updateBody = z.object({ app_id: appId, name: name.optional() });

/** The user the path names (`me`: the caller), after the capability check of the action. */
function userOf(services: Services, caller: UserRow | null, userId: string, refusal: [string, string]): UserRow {
	const user = userId === 'me' ? signedIn(caller) : userById(services, Number(userId));
	if (!canEditUser(caller, user)) throw denied(caller, refusal[0], refusal[1]);
	return user;
}

function passwordOf(services: Services, user: UserRow, uuid: string): AppPasswordRow {
	const row = services.store.users.appPassword(user.id, uuid);
	if (!row) throw new ApiError(404, 'Application password not found.', 'rest_application_password_not_found');
	return row;
}

function checkNameFree(services: Services, user: UserRow, name: string, exceptUuid = '') {
	if (services.store.users.appPasswordNameTaken(user.id, name, exceptUuid)) {
		throw new ApiError(409, 'Each application name should be unique.', 'application_password_duplicate_name');
	}
}

const READ: [string, string] = ['rest_cannot_read_application_password', 'Sorry, you are not allowed to read this application password.'];
const EDIT: [string, string] = ['rest_cannot_edit_application_password', 'Sorry, you are not allowed to edit this application password.'];

/** Introspection is of one's own passwords only. */
function introspected(services: Services, caller: UserRow | null, userId: string, request: FastifyRequest): AppPasswordRow {
	const user = userId === 'me' ? signedIn(caller) : userById(services, Number(userId));
	if (caller?.id !== user.id) {
		throw denied(
			caller,
			'rest_cannot_introspect_app_password_for_non_authenticated_user',
			'The authenticated Application Password can only be introspected for the current user.',
		);
	}
	const uuid = authenticatedAppPassword(request);
	const row = uuid ? services.store.users.appPassword(user.id, uuid) : undefined;
	if (!row) throw new ApiError(404, 'Cannot introspect Application Password.', 'rest_no_authenticated_app_password');
	return row;
}

/** The permission callbacks, for `Allow`: the user's passwords are the caller's to use (a throw is a no); WordPress's look at the user only. */
const mayUse = ({ services, siteUser, params }: AllowContext) => userOf(services, siteUser, params.user_id, READ) !== undefined;

/** What the application password routes answer (the contract). */
const APP_PASSWORD_ANSWER = itemAnswer(appPasswordItem);
const appPasswordSchema = () => wpItemSchema('application-password', appPasswordItem);

export function appPasswordRoutes(): Route[] {
	const base = '/cms/v2/users/{user_id}/application-passwords';
	const update = (method: Method) =>
		route({
			method,
			path: `${base}/{uuid}`,
			auth: 'site',
			summary: 'Rename an application password',
			params: itemParams,
			patterns: { user_id: USER_ID, uuid: '[\\w\\-]+' },
			allowed: mayUse,
			body: updateBody,
			answer: APP_PASSWORD_ANSWER,
			// 409: another of the user's application passwords has the name.
			errors: [403, 409],
			handler: ({ services, siteUser: caller, params, body }) => {
				const row = services.store.tx(() => {
					const user = userOf(services, caller, params.user_id, EDIT);
					const before = passwordOf(services, user, params.uuid);
					if (body.name === undefined || body.name === before.name) return before;
					checkNameFree(services, user, body.name, before.uuid);
					return services.store.users.renameAppPassword(user.id, before.uuid, body.name);
				});
				return appPasswordView(services, row, 'edit');
			},
		});

	return [
		route({
			method: 'GET',
			path: base,
			auth: 'site',
			summary: "List a user's application passwords (never the passwords themselves)",
			params: userParams,
			patterns: { user_id: USER_ID },
			allowed: mayUse,
			query: contextQuery,
			schema: appPasswordSchema,
			answer: z.array(APP_PASSWORD_ANSWER),
			errors: [403],
			handler: ({ services, siteUser: caller, params, query }) => {
				const user = userOf(services, caller, params.user_id, [
					'rest_cannot_list_application_passwords',
					'Sorry, you are not allowed to list application passwords for this user.',
				]);
				return services.store.users.appPasswords(user.id).map((row) => appPasswordView(services, row, query.context));
			},
		}),
		route({
			method: 'POST',
			path: base,
			auth: 'site',
			summary: 'Create an application password (201, Location); the password is in this answer only',
			params: userParams,
			patterns: { user_id: USER_ID },
			allowed: mayUse,
			body: createBody,
			answer: APP_PASSWORD_ANSWER,
			status: 201,
			// 409: the user has an application password of that name.
			errors: [403, 409],
			handler: ({ services, siteUser: caller, params, body, reply }) => {
				const { row, password } = services.store.tx(() => {
					const user = userOf(services, caller, params.user_id, [
						'rest_cannot_create_application_passwords',
						'Sorry, you are not allowed to create application passwords for this user.',
					]);
					checkNameFree(services, user, body.name);
					return services.store.users.createAppPassword(user.id, body.name, body.app_id ?? '');
				});
				reply.header('Location', appPasswordUrl(services, row.user_id, row.uuid));
				return appPasswordView(services, row, 'edit', password);
			},
		}),
		route({
			method: 'DELETE',
			path: base,
			auth: 'site',
			summary: "Delete all of a user's application passwords ({deleted, count})",
			params: userParams,
			patterns: { user_id: USER_ID },
			allowed: mayUse,
			answer: z.object({ deleted: z.literal(true), count: z.int().meta({ description: 'How many were deleted.' }) }),
			errors: [403],
			handler: ({ services, siteUser: caller, params }) =>
				services.store.tx(() => {
					const user = userOf(services, caller, params.user_id, [
						'rest_cannot_delete_application_passwords',
						'Sorry, you are not allowed to delete application passwords for this user.',
					]);
					return { deleted: true as const, count: services.store.users.deleteAppPasswords(user.id) };
				}),
		}),
		route({
			method: 'GET',
			path: `${base}/introspect`,
			auth: 'site',
			summary: 'Get the application password this request signed in with',
			params: userParams,
			patterns: { user_id: USER_ID },
			allowed: ({ services, siteUser, params, request }) => introspected(services, siteUser, params.user_id, request) !== undefined,
			query: contextQuery,
			schema: appPasswordSchema,
			answer: APP_PASSWORD_ANSWER,
			errors: [403],
			handler: ({ services, siteUser: caller, params, query, request }) =>
				appPasswordView(services, introspected(services, caller, params.user_id, request), query.context),
		}),
		route({
			method: 'GET',
			path: `${base}/{uuid}`,
			auth: 'site',
			summary: 'Get an application password',
			params: itemParams,
			patterns: { user_id: USER_ID, uuid: '[\\w\\-]+' },
			allowed: mayUse,
			query: contextQuery,
			schema: appPasswordSchema,
			answer: APP_PASSWORD_ANSWER,
			errors: [403],
			handler: ({ services, siteUser: caller, params, query }) => {
				const user = userOf(services, caller, params.user_id, READ);
				return appPasswordView(services, passwordOf(services, user, params.uuid), query.context);
			},
		}),
		update('POST'),
		update('PUT'),
		update('PATCH'),
		route({
			method: 'DELETE',
			path: `${base}/{uuid}`,
			auth: 'site',
			summary: 'Delete an application password ({deleted, previous})',
			params: itemParams,
			patterns: { user_id: USER_ID, uuid: '[\\w\\-]+' },
			allowed: mayUse,
			answer: deletedAnswer(APP_PASSWORD_ANSWER),
			errors: [403],
			handler: ({ services, siteUser: caller, params }) =>
				services.store.tx(() => {
					const user = userOf(services, caller, params.user_id, [
						'rest_cannot_delete_application_password',
						'Sorry, you are not allowed to delete this application password.',
					]);
					const row = passwordOf(services, user, params.uuid);
					services.store.users.deleteAppPassword(user.id, row.uuid);
					return { deleted: true as const, previous: appPasswordView(services, row, 'edit') };
				}),
		}),
	];
}
