import { z } from 'zod';
import { type Method, type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { list } from '../content/params';
import { activeTheme, PLUGIN_SLUGS, savePlugin, saveTheme, sitePlugin, siteThemes } from '../plugins';
import { can } from '../roles';
import { BUILDER, formatGmt, matches, pageOf, pagingQuery, requireCap } from './editor-common';

/**
 * `builder/v1/onboarding`: the builder's first-run wizard. Progress and choices are each user's own;
 * installing the Pro plugin and the theme change the site's plugins and themes (`site/plugins.ts`),
 * which `builder-one/v1` and the theme core read. Reading and a user's own answers need `edit_posts`;
 * installing needs the plugin and theme capabilities WordPress asks for.
 */

export const ONBOARDING_STEPS = [
	{ id: 'building_for', title: 'Who are you building for?' },
	{ id: 'site_about', title: 'What is your site about?' },
	{ id: 'experience_level', title: 'How much experience do you have?' },
	{ id: 'theme_selection', title: 'Choose a theme' },
	{ id: 'site_features', title: 'Pick the features of your site' },
] as const;
const STEP_IDS = ONBOARDING_STEPS.map((step) => step.id) as [string, ...string[]];
type StepId = (typeof ONBOARDING_STEPS)[number]['id'];

/** The themes the wizard offers (installed on demand); the first is its default. */
export const ONBOARDING_THEMES = {
	'hello-builder': { name: 'Hello Builder', version: '3.4.4' },
	'hello-biz': { name: 'Hello Biz', version: '1.1.0' },
} as const;
const THEME_SLUGS = Object.keys(ONBOARDING_THEMES) as [keyof typeof ONBOARDING_THEMES, ...(keyof typeof ONBOARDING_THEMES)[]];

/** The version the Pro plugin installs at. */
const PRO_VERSION = '3.30.0';

interface Progress {
	current_step: StepId;
	completed_steps: StepId[];
	exit_type: 'user_exit' | 'unexpected' | null;
	started_at: number;
	last_active_at: number;
}

/** A user's answers to the wizard, those given so far. */
const choicesAnswer = z.object({
	building_for: z.string().optional(),
	site_about: z.array(z.string()).optional(),
	experience_level: z.string().optional(),
	theme_selection: z.enum(THEME_SLUGS).optional(),
	site_features: z.array(z.string()).optional(),
});
type Choices = z.output<typeof choicesAnswer>;

/** A user's progress through the wizard. */
const progressAnswer = z.object({
	current_step: z.enum(STEP_IDS),
	current_step_index: z.int(),
	completed_steps: z.array(z.enum(STEP_IDS)),
	exit_type: z.enum(['user_exit', 'unexpected']).nullable(),
	started_at: z.string().nullable(),
	last_active_at: z.string().nullable(),
	is_completed: z.boolean(),
});

/** The Pro plugin as the site has it (`site/plugins.ts`), with whether it is installed and active. */
const proAnswer = z.object({
	slug: z.enum(PLUGIN_SLUGS),
	name: z.string(),
	status: z.enum(['active', 'inactive', 'not-installed']),
	version: z.string().meta({ description: "Installed version; '' while not installed" }),
	migrated: z.boolean().optional(),
	installed: z.boolean(),
	active: z.boolean(),
});

/** The wizard's theme as the site has it, and the site's active theme. */
const themeAnswer = z.object({ slug: z.enum(THEME_SLUGS), name: z.string(), installed: z.boolean(), active: z.boolean(), active_theme: z.string() });

const PROGRESS = 'onboarding-progress';
const CHOICES = 'onboarding-choices';

function progressOf(services: Services, user: UserRow): Progress | undefined {
	return services.store.objects.get<Progress>(BUILDER, PROGRESS, String(user.id))?.data;
}

function progressView(progress: Progress | undefined): z.output<typeof progressAnswer> {
	const completed = progress?.completed_steps ?? [];
	const current = progress?.current_step ?? ONBOARDING_STEPS[0].id;
	return {
		current_step: current,
		current_step_index: STEP_IDS.indexOf(current),
		completed_steps: completed,
		exit_type: progress?.exit_type ?? null,
		started_at: progress ? formatGmt(progress.started_at) : null,
		last_active_at: progress ? formatGmt(progress.last_active_at) : null,
		is_completed: STEP_IDS.every((id) => completed.includes(id as StepId)),
	};
}

const choicesOf = (services: Services, user: UserRow): Choices => services.store.objects.get<Choices>(BUILDER, CHOICES, String(user.id))?.data ?? {};

const stepParam = z.enum(STEP_IDS);
const progressBody = z.object({
	current_step: stepParam.optional(),
	/** Marks one more step completed. */
	complete_step: stepParam.optional(),
	/** Replaces the completed steps. */
	completed_steps: list(stepParam).optional(),
	exit_type: z.enum(['user_exit', 'unexpected']).nullable().optional(),
});

const choicesBody = z.object({
	building_for: z.enum(['myself', 'business', 'client']).optional(),
	site_about: list(z.string().max(100)).optional(),
	experience_level: z.enum(['beginner', 'intermediate', 'advanced']).optional(),
	theme_selection: z.enum(THEME_SLUGS).optional(),
	site_features: list(z.string().max(100)).optional(),
});

/** The theme the wizard installs: the user's choice, else its default. */
const chosenTheme = (services: Services, user: UserRow) => choicesOf(services, user).theme_selection ?? THEME_SLUGS[0];

function themeState(services: Services, slug: keyof typeof ONBOARDING_THEMES): z.output<typeof themeAnswer> {
	const installed = siteThemes(services.store).find((theme) => theme.slug === slug);
	return { slug, name: ONBOARDING_THEMES[slug].name, installed: !!installed, active: installed?.status === 'active', active_theme: activeTheme(services.store).slug };
}

function proState(services: Services): z.output<typeof proAnswer> {
	const plugin = sitePlugin(services.store, 'builder-pro');
	return { ...plugin, installed: plugin.status !== 'not-installed', active: plugin.status === 'active' };
}

const EDITABLE: Method[] = ['POST', 'PUT', 'PATCH'];

export const onboardingRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/onboarding',
		auth: 'site',
		summary: "The wizard's steps with whether the caller completed each (paged, X-WP-Total)",
		query: pagingQuery,
		answer: z.array(z.object({ id: z.enum(STEP_IDS), title: z.string(), position: z.int(), completed: z.boolean() })),
		errors: [403],
		handler: ({ services, siteUser, query, request, reply }) => {
			requireCap(siteUser, 'edit_posts');
			const completed = progressOf(services, siteUser)?.completed_steps ?? [];
			const steps = ONBOARDING_STEPS.map((step, i) => ({ ...step, position: i + 1, completed: completed.includes(step.id) })).filter((step) =>
				matches(query.search, step.id, step.title),
			);
			return pageOf(steps, query, '/builder/v1/onboarding', services, request, reply);
		},
	}),

	route({
		method: 'GET',
		path: '/builder/v1/onboarding/user-progress',
		auth: 'site',
		summary: "The caller's progress through the wizard",
		answer: progressAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			return progressView(progressOf(services, siteUser));
		},
	}),

	...EDITABLE.map((method) =>
		route({
			method,
			path: '/builder/v1/onboarding/user-progress',
			auth: 'site',
			summary: "Update the caller's progress: current step, a step completed (or the completed list), how the wizard was left",
			body: progressBody,
			answer: progressAnswer,
			errors: [403],
			handler: ({ services, siteUser, body }) => {
				requireCap(siteUser, 'edit_posts');
				const now = Date.now();
				const before = progressOf(services, siteUser);
				let completed: string[] = body.completed_steps ?? before?.completed_steps ?? [];
				if (body.complete_step && !completed.includes(body.complete_step)) completed = [...completed, body.complete_step];
				const progress: Progress = {
					current_step: (body.current_step ?? before?.current_step ?? ONBOARDING_STEPS[0].id) as StepId,
					completed_steps: STEP_IDS.filter((id) => completed.includes(id)) as StepId[],
					exit_type: body.exit_type !== undefined ? body.exit_type : (before?.exit_type ?? null),
					started_at: before?.started_at ?? now,
					last_active_at: now,
				};
				services.store.objects.put(BUILDER, PROGRESS, String(siteUser.id), progress);
				return progressView(progress);
			},
		}),
	),

	route({
		method: 'GET',
		path: '/builder/v1/onboarding/user-choices',
		auth: 'site',
		summary: "The caller's answers to the wizard",
		answer: choicesAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			return choicesOf(services, siteUser);
		},
	}),

	...EDITABLE.map((method) =>
		route({
			method,
			path: '/builder/v1/onboarding/user-choices',
			auth: 'site',
			summary: "Update the caller's answers (the ones given; the others stay)",
			body: choicesBody,
			answer: choicesAnswer,
			errors: [403],
			handler: ({ services, siteUser, body }) => {
				requireCap(siteUser, 'edit_posts');
				const given = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
				return services.store.objects.put<Choices>(BUILDER, CHOICES, String(siteUser.id), { ...choicesOf(services, siteUser), ...given }).data;
			},
		}),
	),

	route({
		method: 'GET',
		path: '/builder/v1/onboarding/pro-install-screen',
		auth: 'site',
		summary: 'Whether the wizard shows its Pro install screen: Pro is not active and the caller may install it',
		answer: z.object({ should_show: z.boolean(), can_install: z.boolean(), plugin: proAnswer }),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			const pro = proState(services);
			const canInstall = can(siteUser, 'install_plugins') && can(siteUser, 'activate_plugins');
			return { should_show: !pro.active && canInstall, can_install: canInstall, plugin: pro };
		},
	}),

	route({
		method: 'GET',
		path: '/builder/v1/onboarding/install-pro',
		auth: 'site',
		summary: 'The state of the Pro plugin (not installed, inactive or active)',
		answer: proAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			return proState(services);
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/onboarding/install-pro',
		auth: 'site',
		summary: 'Install and activate the Pro plugin (a site plugin that builder-one/v1 lists)',
		answer: z.object({ success: z.literal(true), already_active: z.boolean(), plugin: proAnswer }),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'install_plugins', 'activate_plugins');
			const before = proState(services);
			if (!before.active) savePlugin(services.store, { slug: 'builder-pro', name: before.name, status: 'active', version: before.version || PRO_VERSION });
			return { success: true as const, already_active: before.active, plugin: proState(services) };
		},
	}),

	route({
		method: 'GET',
		path: '/builder/v1/onboarding/install-theme',
		auth: 'site',
		summary: "The state of the theme the caller chose in the wizard (or its default), and the site's active theme",
		answer: themeAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			return themeState(services, chosenTheme(services, siteUser));
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/onboarding/install-theme',
		auth: 'site',
		summary: 'Install and activate the theme the caller chose in the wizard (or its default); the previous theme becomes inactive',
		answer: z.object({ success: z.literal(true), previous_theme: z.string(), theme: themeAnswer }),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'install_themes', 'switch_themes');
			const slug = chosenTheme(services, siteUser);
			const previous = activeTheme(services.store).slug;
			saveTheme(services.store, { slug, name: ONBOARDING_THEMES[slug].name, status: 'active', version: ONBOARDING_THEMES[slug].version });
			return { success: true as const, previous_theme: previous, theme: themeState(services, slug) };
		},
	}),
];
