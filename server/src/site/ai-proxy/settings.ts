import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { type Method, route, type Route } from '../../http/route';
import { canConfigure } from './access';
import { aiModel, apiKey, createNonce, saveAiModel, saveApiKey, SETTINGS_ACTION, verifyNonce } from './state';

/**
 * The proxy's configuration (`manage_options`): GET `settings` tells whether a key is set, the model,
 * and a nonce for the changes; `key` and `model` change them with that nonce. The key is write-only.
 */

const base = '/proxyext/v1/ai-api-proxy';

/** A text parameter whose messages never repeat the value (it may be the key). */
const secretText = (max: number) => z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters long` });

const nonce = secretText(64);

/** What the settings read answers; the key only as whether there is one. */
const settingsAnswer = z.object({
	key_set: z.boolean().meta({ description: 'Whether an API key is set (the key itself is never answered)' }),
	model: z.string().meta({ description: 'The model used when a request names none; empty for none' }),
	nonce: z.string().meta({ description: 'For changing the key or the model: valid 12 to 24 hours, for this user' }),
});

function settingsView(store: Parameters<typeof apiKey>[0], userId: number): z.output<typeof settingsAnswer> {
	return { key_set: apiKey(store) !== '', model: aiModel(store), nonce: createNonce(store, userId, SETTINGS_ACTION) };
}

const invalidNonce = () =>
	new ApiError(403, 'The nonce is invalid or has expired; get a new one from GET /proxyext/v1/ai-api-proxy/settings.', 'proxyext_invalid_nonce');

/** key and model at POST, PUT and PATCH alike: capability, nonce, then the change; answers the settings. */
function change<S extends z.ZodObject<{ nonce: typeof nonce }>>(name: string, summary: string, body: S, apply: (store: Parameters<typeof apiKey>[0], value: z.output<S>) => void) {
	return (['POST', 'PUT', 'PATCH'] as Method[]).map((method) =>
		route({
			method,
			path: `${base}/${name}`,
			auth: 'site',
			summary,
			body,
			answer: settingsAnswer,
			errors: [403],
			handler: ({ services, siteUser, body }) => {
				canConfigure(siteUser);
				const store = services.store;
				if (!verifyNonce(store, siteUser.id, SETTINGS_ACTION, (body as { nonce: string }).nonce)) throw invalidNonce();
				return store.tx(() => {
					apply(store, body as z.output<S>);
					return settingsView(store, siteUser.id);
				});
			},
		}),
	);
}

export const settingsRoutes: Route[] = [
	route({
		method: 'GET',
		path: `${base}/settings`,
		auth: 'site',
		summary: 'Whether an API key is set (never the key), the model, and a nonce for changing them (valid 12 to 24 hours, for this user)',
		answer: settingsAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			canConfigure(siteUser);
			return settingsView(services.store, siteUser.id);
		},
	}),
	...change('key', 'Store the API key of the AI service (write-only; an empty key removes it); needs a nonce', z.object({ api_key: secretText(512), nonce }), (store, body) =>
		saveApiKey(store, body.api_key.trim()),
	),
	...change(
		'model',
		'Choose the model used when a request names none; needs a nonce',
		z.object({
			model: z
				.string()
				.trim()
				.min(1)
				.max(200)
				.regex(/^[\w.:/@-]+$/, { error: 'must be a model id such as gpt-4o-mini (letters, digits and . _ - : / @)' }),
			nonce,
		}),
		(store, body) => saveAiModel(store, body.model),
	),
];
