import { z } from 'zod';
import { notFound } from '../../http/errors';
import { type Method, type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { wpBool, wpInt } from '../content/params';
import { siteSettings } from '../settings';
import { BUILDER, matches, pageOf, pagingQuery, requireCap } from './editor-common';

/**
 * `builder/v1/checklist`: the builder's getting-started checklist. A step is done when the site shows
 * it (`is_absolute_completed`: the pages exist, the home page is set), when an administrator marks it
 * (`is_marked_completed`), or for good (`is_immutable_completed`). Step marks are the site's; the
 * progress (when the checklist was opened, minimized, ...) is each user's own.
 */

interface StepDef {
	id: string;
	title: string;
	/** Whether the site's state already shows the step done. */
	done?: (services: Services) => boolean;
}

/** Published pages the "create pages" step asks for. */
export const PAGES_FOR_STEP = 3;

export const CHECKLIST_STEPS: StepDef[] = [
	{ id: 'add_logo', title: 'Add your logo' },
	{ id: 'set_fonts_and_colors', title: 'Set up your global fonts and colors' },
	{
		id: 'create_pages',
		title: `Create at least ${PAGES_FOR_STEP} pages`,
		done: (services) => services.store.content.find({ sql: "c.type = 'page' AND c.status = 'publish'", params: [] }, { sql: 'c.id', params: [] }, 0, 0).total >= PAGES_FOR_STEP,
	},
	{ id: 'setup_header', title: 'Set up your header' },
	{ id: 'assign_homepage', title: 'Assign a home page', done: (services) => siteSettings(services.store).show_on_front === 'page' },
];

interface StepMarks {
	is_marked_completed: boolean;
	is_immutable_completed: boolean;
}

interface UserProgress {
	last_opened_timestamp: number | null;
	first_closed_checklist_in_editor: boolean;
	is_popup_minimized: boolean;
	editor_visit_count: number;
}

const STEPS = 'checklist-step';
const PROGRESS = 'checklist-progress';

/** A checklist step with its state. */
const stepAnswer = z.object({
	id: z.string(),
	position: z.int(),
	title: z.string(),
	is_marked_completed: z.boolean(),
	is_immutable_completed: z.boolean(),
	is_absolute_completed: z.boolean().meta({ description: "Whether the site's state shows the step done" }),
	is_completed: z.boolean(),
});

/** A user's checklist progress, with how many steps are completed. */
const progressAnswer = z.object({
	last_opened_timestamp: z.int().nullable(),
	first_closed_checklist_in_editor: z.boolean(),
	is_popup_minimized: z.boolean(),
	editor_visit_count: z.int(),
	steps_completed: z.int(),
	steps_total: z.int(),
});

function stepView(services: Services, step: StepDef): z.output<typeof stepAnswer> {
	const marks = services.store.objects.get<StepMarks>(BUILDER, STEPS, step.id)?.data ?? { is_marked_completed: false, is_immutable_completed: false };
	const absolute = step.done?.(services) ?? false;
	return {
		id: step.id,
		position: CHECKLIST_STEPS.indexOf(step) + 1,
		title: step.title,
		...marks,
		is_absolute_completed: absolute,
		is_completed: absolute || marks.is_marked_completed || marks.is_immutable_completed,
	};
}

const invalidStep = () => notFound('Invalid checklist step ID.', 'rest_checklist_invalid_step');

/** A step by its position (digits, from 1) or, where the route takes it, its id (`add_logo`). */
function stepOf(key: string, byId: boolean): StepDef {
	const step = /^\d+$/.test(key) ? CHECKLIST_STEPS[Number(key) - 1] : byId ? CHECKLIST_STEPS.find((s) => s.id === key) : undefined;
	if (!step) throw invalidStep();
	return step;
}

const progressOf = (services: Services, user: UserRow): UserProgress =>
	services.store.objects.get<UserProgress>(BUILDER, PROGRESS, String(user.id))?.data ?? {
		last_opened_timestamp: null,
		first_closed_checklist_in_editor: false,
		is_popup_minimized: false,
		editor_visit_count: 0,
	};

const progressView = (services: Services, progress: UserProgress): z.output<typeof progressAnswer> => {
	const steps = CHECKLIST_STEPS.map((step) => stepView(services, step));
	return { ...progress, steps_completed: steps.filter((s) => s.is_completed).length, steps_total: steps.length };
};

const idParams = z.object({ id: z.string() });
const DIGITS = { id: '\\d+' };
const EDITABLE: Method[] = ['POST', 'PUT', 'PATCH'];

const stepBody = z.object({ is_marked_completed: wpBool.optional(), is_immutable_completed: wpBool.optional() });
const progressBody = z.object({
	last_opened_timestamp: wpInt(0).nullable().optional(),
	first_closed_checklist_in_editor: wpBool.optional(),
	is_popup_minimized: wpBool.optional(),
	editor_visit_count: wpInt(0).optional(),
});

/** GET of one step by its position, at `/checklist/{id}` and `/checklist/steps/{id}`. */
const getStep = (path: string) =>
	route({
		method: 'GET',
		path,
		auth: 'site',
		summary: 'One checklist step by its position (1, 2, ...)',
		params: idParams,
		patterns: DIGITS,
		answer: stepAnswer,
		errors: [403],
		handler: ({ services, siteUser, params }) => {
			requireCap(siteUser, 'edit_posts');
			return stepView(services, stepOf(params.id, false));
		},
	});

export const checklistRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/checklist',
		auth: 'site',
		summary: 'The checklist steps with their state (paged, X-WP-Total)',
		query: pagingQuery,
		answer: z.array(stepAnswer),
		errors: [403],
		handler: ({ services, siteUser, query, request, reply }) => {
			requireCap(siteUser, 'edit_posts');
			const steps = CHECKLIST_STEPS.map((step) => stepView(services, step)).filter((step) => matches(query.search, step.id, step.title));
			return pageOf(steps, query, '/builder/v1/checklist', services, request, reply);
		},
	}),
	getStep('/builder/v1/checklist/{id}'),
	route({
		method: 'GET',
		path: '/builder/v1/checklist/steps',
		auth: 'site',
		summary: 'Every checklist step with its state',
		answer: z.array(stepAnswer),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			return CHECKLIST_STEPS.map((step) => stepView(services, step));
		},
	}),
	getStep('/builder/v1/checklist/steps/{id}'),
	...EDITABLE.map((method) =>
		route({
			method,
			path: '/builder/v1/checklist/steps/{id}',
			auth: 'site',
			summary: 'Mark a step (by its id, e.g. add_logo, or position) completed or not; an immutable completion stays',
			params: idParams,
			body: stepBody,
			answer: stepAnswer,
			errors: [403],
			handler: ({ services, siteUser, params, body }) => {
				requireCap(siteUser, 'manage_options');
				const step = stepOf(params.id, true);
				const before = stepView(services, step);
				const marks: StepMarks = {
					is_marked_completed: body.is_marked_completed ?? before.is_marked_completed,
					// Once immutable, a completion stays.
					is_immutable_completed: before.is_immutable_completed || (body.is_immutable_completed ?? false),
				};
				services.store.objects.put(BUILDER, STEPS, step.id, marks);
				return stepView(services, step);
			},
		}),
	),
	route({
		method: 'GET',
		path: '/builder/v1/checklist/user-progress',
		auth: 'site',
		summary: "The caller's checklist progress, with how many steps are completed",
		answer: progressAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			return progressView(services, progressOf(services, siteUser));
		},
	}),
	...EDITABLE.map((method) =>
		route({
			method,
			path: '/builder/v1/checklist/user-progress',
			auth: 'site',
			summary: "Update the caller's checklist progress (the fields given)",
			body: progressBody,
			answer: progressAnswer,
			errors: [403],
			handler: ({ services, siteUser, body }) => {
				requireCap(siteUser, 'edit_posts');
				const given = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
				const progress = services.store.objects.put<UserProgress>(BUILDER, PROGRESS, String(siteUser.id), { ...progressOf(services, siteUser), ...given }).data;
				return progressView(services, progress);
			},
		}),
	),
];

