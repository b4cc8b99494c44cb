import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import { BUILDER, CAN_READ, CAN_STYLE, objectOf, requireCap } from './design-common';

/**
 * `builder/v1/kit-elements-defaults`: default settings per element type, which a new element of
 * the type starts with (the site kit's "save as default"). One stored object per type (kind
 * `kit-defaults`); the type must be one the builder has.
 */

/** The element types of the builder (its elements and widgets). */
export const BUILDER_ELEMENT_TYPES = [
	'container',
	'section',
	'column',
	'heading',
	'text-editor',
	'image',
	'button',
	'divider',
	'spacer',
	'icon',
	'icon-box',
	'image-box',
	'icon-list',
	'video',
	'google_maps',
	'testimonial',
	'tabs',
	'accordion',
	'form',
	'e-heading',
	'e-paragraph',
	'e-image',
	'e-button',
	'e-svg',
	'e-divider',
	'e-div-block',
	'e-flexbox',
] as const;

const KIND = 'kit-defaults';

/** Every element type's defaults, keyed by type: what new elements (and components) start with. */
export function builderKitDefaults(store: Store): Record<string, Record<string, unknown>> {
	return Object.fromEntries(store.objects.list<Record<string, unknown>>(BUILDER, KIND).map((o) => [o.key, o.data]));
}

const typeParams = z.object({ type: z.enum(BUILDER_ELEMENT_TYPES) });
const TYPE_PATTERN = { type: '[\\w-]+' };
/** The element's settings as the builder stores them: an object of setting name to value. */
const settingsBody = z.object({ settings: objectOf(z.string().min(1).max(100), z.unknown()) });
/** The settings of an element type, as stored: free-form, the builder's controls. */
const elementSettings = z.record(z.string(), z.unknown());
const defaultsAnswer = z.object({ type: z.enum(BUILDER_ELEMENT_TYPES), settings: elementSettings });

function save(method: 'POST' | 'PUT' | 'PATCH'): Route {
	return route({
		method,
		path: '/builder/v1/kit-elements-defaults/{type}',
		auth: 'site',
		summary: "Set an element type's default settings (replacing the previous ones)",
		params: typeParams,
		patterns: TYPE_PATTERN,
		body: settingsBody,
		answer: defaultsAnswer,
		errors: [403],
		handler: ({ services, siteUser, params, body }) => {
			requireCap(siteUser, CAN_STYLE);
			services.store.objects.put(BUILDER, KIND, params.type, body.settings);
			return { type: params.type, settings: body.settings };
		},
	});
}

export const kitDefaultsRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/kit-elements-defaults',
		auth: 'site',
		summary: 'The default settings of every element type that has some, keyed by type',
		answer: z.record(z.string(), elementSettings),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, CAN_READ);
			return builderKitDefaults(services.store);
		},
	}),
	save('POST'),
	save('PUT'),
	save('PATCH'),
	route({
		method: 'DELETE',
		path: '/builder/v1/kit-elements-defaults/{type}',
		auth: 'site',
		summary: "Remove an element type's default settings",
		params: typeParams,
		patterns: TYPE_PATTERN,
		answer: z.object({ deleted: z.literal(true), previous: defaultsAnswer }),
		errors: [403],
		handler: ({ services, siteUser, params }) => {
			requireCap(siteUser, CAN_STYLE);
			return services.store.tx(() => {
				const previous = services.store.objects.get<Record<string, unknown>>(BUILDER, KIND, params.type);
				if (!previous) throw new ApiError(404, `The element type "${params.type}" has no default settings.`, 'rest_kit_defaults_not_found');
				services.store.objects.delete(BUILDER, KIND, params.type);
				return { deleted: true as const, previous: { type: params.type, settings: previous.data } };
			});
		},
	}),
];
