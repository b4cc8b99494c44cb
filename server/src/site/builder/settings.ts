import { z, type ZodType } from 'zod';
import { ApiError, badRequest } from '../../http/errors';
import { parse } from '../../http/dispatch';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import { sitePostTypes } from '../registry';
import { BUILDER, CAN_CONFIGURE, CAN_READ, requireCap } from './design-common';

/**
 * `builder/v1/settings/{key}`: the builder's settings, each a known key with its type and default
 * (the builder's own option page). An unknown key is a 404; a write is validated against its key.
 * One stored object per key that was written (kind `settings`).
 */

interface SettingDef {
	schema: ZodType;
	default: unknown;
}

const bool = z.boolean();

export const BUILDER_SETTINGS: Record<string, SettingDef> = {
	/** Post types the builder may edit; checked against the site's registry on write. */
	cpt_support: { schema: z.array(z.string().min(1).max(20)).max(100), default: ['post', 'page'] },
	disable_color_schemes: { schema: bool, default: false },
	disable_typography_schemes: { schema: bool, default: false },
	css_print_method: { schema: z.enum(['external', 'internal']), default: 'external' },
	font_display: { schema: z.enum(['auto', 'block', 'swap', 'fallback', 'optional']), default: 'auto' },
	unfiltered_files_upload: { schema: bool, default: false },
	editor_break_lines: { schema: bool, default: false },
	global_image_lightbox: { schema: bool, default: true },
	container_width: { schema: z.int().min(300).max(3000), default: 1140 },
};

const KIND = 'settings';

/** A setting's value, or its default when it was never written. */
export function builderSetting(store: Store, key: string): unknown {
	const def = BUILDER_SETTINGS[key];
	return store.objects.get<{ value: unknown }>(BUILDER, KIND, key)?.data.value ?? def?.default;
}

function settingOf(key: string): SettingDef {
	if (!Object.hasOwn(BUILDER_SETTINGS, key)) {
		throw new ApiError(404, `There is no builder setting "${key}". Known settings: ${Object.keys(BUILDER_SETTINGS).join(', ')}.`, 'rest_setting_invalid_key');
	}
	return BUILDER_SETTINGS[key];
}

/** A setting as the routes answer it. */
const settingAnswer = z.object({ key: z.string(), value: z.unknown(), default: z.unknown() });

const view = (store: Store, key: string): z.output<typeof settingAnswer> => ({ key, value: builderSetting(store, key), default: BUILDER_SETTINGS[key].default });

const keyParams = z.object({ key: z.string() });
const KEY_PATTERN = { key: '[\\w-]{1,64}' };

function write(method: 'POST' | 'PUT' | 'PATCH'): Route {
	return route({
		method,
		path: '/builder/v1/settings/{key}',
		auth: 'site',
		summary: 'Change a builder setting; `value` must fit the setting',
		params: keyParams,
		patterns: KEY_PATTERN,
		body: z.object({ value: z.unknown() }),
		answer: settingAnswer,
		errors: [403],
		handler: ({ services, siteUser, params, body }) => {
			requireCap(siteUser, CAN_CONFIGURE);
			const setting = settingOf(params.key);
			if (body.value === undefined) throw badRequest('Missing parameter(s): value', 'rest_missing_callback_param', { params: ['value'] });
			const { value } = parse(z.object({ value: setting.schema }), body, 'body', false) as { value: unknown };
			if (params.key === 'cpt_support') {
				const known = sitePostTypes(services.store).filter((t) => t.slug !== 'attachment').map((t) => t.slug);
				const unknown = (value as string[]).filter((slug) => !known.includes(slug));
				if (unknown.length) {
					throw badRequest('Invalid parameter(s): value', 'rest_invalid_param', {
						params: { value: `value names post types the site does not have: ${unknown.join(', ')} (known: ${known.join(', ')})` },
					});
				}
			}
			services.store.objects.put(BUILDER, KIND, params.key, { value });
			return view(services.store, params.key);
		},
	});
}

export const settingsRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/settings/{key}',
		auth: 'site',
		summary: 'A builder setting: its value and default',
		params: keyParams,
		patterns: KEY_PATTERN,
		answer: settingAnswer,
		errors: [403],
		handler: ({ services, siteUser, params }) => {
			requireCap(siteUser, CAN_READ);
			settingOf(params.key);
			return view(services.store, params.key);
		},
	}),
	write('POST'),
	write('PUT'),
	write('PATCH'),
];
