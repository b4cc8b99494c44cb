import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { route, type Route } from '../../http/route';
import { installTheme, saveTheme, type SiteTheme, siteTheme, THEME_CATALOG } from '../plugins';
import { requireCap } from './access';

/**
 * Themes over the site's one theme state: install from the (simulated) theme directory
 * (`install_themes`), activate (`switch_themes`; one active theme at a time).
 */

const SLUG = '[\\w-]+';
const slug = z.string().regex(new RegExp(`^${SLUG}$`), { error: 'must contain only letters, digits, underscores and hyphens' });

/** A theme as WordPress's themes controller names its fields. */
export const themeAnswer = z.object({ stylesheet: z.string(), template: z.string(), name: z.string(), status: z.enum(['active', 'inactive']), version: z.string() });

const themeView = (theme: SiteTheme): z.output<typeof themeAnswer> => ({ stylesheet: theme.slug, template: theme.slug, name: theme.name, status: theme.status, version: theme.version });

const canSwitch = (user: Parameters<typeof requireCap>[0]) =>
	requireCap(user, 'switch_themes', 'rest_cannot_switch_theme', 'Sorry, you are not allowed to switch themes on this site.');

export const themeRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/builder-one/v1/themes',
		auth: 'site',
		summary: 'Install a theme of the theme directory, inactive or active (201)',
		body: z.object({ slug, status: z.enum(['inactive', 'active']).default('inactive') }),
		answer: themeAnswer,
		status: 201,
		// 404: a slug the theme directory does not have; 409: already installed.
		errors: [403, 404, 409],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'install_themes', 'rest_cannot_install_theme', 'Sorry, you are not allowed to install themes on this site.');
			if (body.status === 'active') canSwitch(siteUser);
			const store = services.store;
			const theme = store.tx(() => {
				if (!THEME_CATALOG[body.slug]) {
					throw new ApiError(404, `The theme directory has no theme ${body.slug}; known: ${Object.keys(THEME_CATALOG).join(', ')}.`, 'builder_one_theme_not_found');
				}
				const current = siteTheme(store, body.slug);
				if (current) throw new ApiError(409, `The theme ${body.slug} is already installed (${current.status}).`, 'builder_one_theme_installed', { theme_status: current.status });
				return installTheme(store, body.slug, body.status);
			});
			return themeView(theme);
		},
	}),

	route({
		method: 'POST',
		path: '/builder-one/v1/themes/{slug}/activate',
		auth: 'site',
		summary: 'Activate an installed theme; the previously active one becomes inactive',
		params: z.object({ slug }),
		patterns: { slug: SLUG },
		answer: themeAnswer,
		errors: [403],
		handler: ({ services, siteUser, params }) => {
			canSwitch(siteUser);
			const store = services.store;
			return store.tx(() => {
				const theme = siteTheme(store, params.slug);
				if (!theme) throw new ApiError(404, `The theme ${params.slug} is not installed.`, 'builder_one_theme_not_installed');
				return themeView(saveTheme(store, { ...theme, status: 'active' }));
			});
		},
	}),
];
