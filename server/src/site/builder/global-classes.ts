import { z } from 'zod';
import { ApiError, badRequest } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import type { UserRow } from '../../store/types';
import { readableSql } from '../content/capabilities';
import { PAGE, POST } from '../content/types';
import { BUILDER, CAN_READ, CAN_STYLE, clearDesignCss, objectOf, requireCap } from './design-common';

/**
 * `builder/v1/global-classes`: the site's global CSS classes `{id, type: 'class', label, variants}`
 * and their order, in two contexts: `frontend` (published) and `preview` (what the editor shows
 * before publishing; it is the frontend set until a preview is saved). A PUT names its `changes`
 * (added, deleted, modified ids) and only those are applied over the stored set, as the builder
 * does, so two editors changing different classes do not undo each other.
 * `/global-classes/usage` counts where classes are applied in the builder data of posts and pages.
 */

export const CLASS_CONTEXTS = ['frontend', 'preview'] as const;
export type ClassContext = (typeof CLASS_CONTEXTS)[number];
/** Classes a site may have, at most. */
export const MAX_CLASSES = 100;

const BREAKPOINTS = ['desktop', 'tablet', 'mobile'] as const;
const STATES = ['hover', 'focus', 'active'] as const;

const classId = z
	.string()
	.regex(/^[A-Za-z_][\w-]{0,63}$/, { error: 'must be a CSS class name: a letter or underscore, then letters, digits, hyphens or underscores (at most 64)' });
const propName = z.string().regex(/^[A-Za-z][A-Za-z-]{0,63}$/, { error: 'must be a CSS property name (letters and hyphens)' });

/** A style variant: props for one breakpoint and state. Prop values are the builder's typed values (`{$$type, value}`), plain strings or numbers. */
const variant = z.object({
	meta: z.object({ breakpoint: z.enum(BREAKPOINTS).nullable().optional(), state: z.enum(STATES).nullable().optional() }).prefault({}),
	props: objectOf(propName, z.unknown()).prefault({}),
});
const classItem = z.object({
	id: classId,
	type: z.enum(['class']),
	label: z.string().trim().min(1).max(50),
	variants: z.array(variant).max(50),
});
export type GlobalClass = z.output<typeof classItem>;

export interface GlobalClasses {
	items: Record<string, GlobalClass>;
	order: string[];
}

const KIND = 'global-classes';
const EMPTY: GlobalClasses = { items: {}, order: [] };

/** The classes of a context (the preview falls back to the frontend set): what the stylesheet and components read. */
export function builderGlobalClasses(store: Store, context: ClassContext = 'frontend'): GlobalClasses {
	const stored = (key: ClassContext) => store.objects.get<GlobalClasses>(BUILDER, KIND, key)?.data;
	return (context === 'preview' ? stored('preview') : undefined) ?? stored('frontend') ?? EMPTY;
}

const contextQuery = phpQuery({ context: z.enum(CLASS_CONTEXTS).default('frontend') });

/** The answer of GET and PUT: items keyed by id, the order in `meta`. */
const classesAnswer = z.object({ data: z.record(z.string(), classItem), meta: z.object({ order: z.array(z.string()) }) });
const answer = (classes: GlobalClasses): z.output<typeof classesAnswer> => ({ data: classes.items, meta: { order: classes.order } });

const invalid = (param: string, problems: string[]) =>
	badRequest(`Invalid parameter(s): ${param}`, 'rest_invalid_param', { params: { [param]: problems.join('; ') } });

type Changes = { added: string[]; deleted: string[]; modified: string[] };

/** The stored set with the changes applied; 400 naming the parameter when changes, items and order disagree. */
function resolve(stored: GlobalClasses, changes: Changes, items: Record<string, GlobalClass>, order: string[]): GlobalClasses {
	const keyProblems = Object.entries(items)
		.filter(([key, item]) => item.id !== key)
		.map(([key, item]) => `items.${key}.id is "${item.id}", it must be the item's key "${key}"`);
	if (keyProblems.length) throw invalid('items', keyProblems);

	const has = (id: string) => Object.hasOwn(stored.items, id);
	const inItems = (id: string) => Object.hasOwn(items, id);
	const problems: string[] = [];
	const named = [...changes.added, ...changes.deleted, ...changes.modified];
	for (const id of new Set(named.filter((id, i) => named.indexOf(id) !== i))) problems.push(`"${id}" is listed more than once`);
	for (const id of changes.added) {
		if (!inItems(id)) problems.push(`changes.added names "${id}", which is not in items`);
		else if (has(id)) problems.push(`changes.added names "${id}", which is already a class (list it in modified)`);
	}
	for (const id of changes.modified) {
		if (!inItems(id)) problems.push(`changes.modified names "${id}", which is not in items`);
		else if (!has(id)) problems.push(`changes.modified names "${id}", which is not a class (list it in added)`);
	}
	for (const id of changes.deleted) {
		if (inItems(id)) problems.push(`changes.deleted names "${id}", which is still in items`);
		else if (!has(id)) problems.push(`changes.deleted names "${id}", which is not a class`);
	}
	if (problems.length) throw invalid('changes', problems);

	const next: Record<string, GlobalClass> = { ...stored.items };
	for (const id of changes.deleted) delete next[id];
	for (const id of [...changes.added, ...changes.modified]) next[id] = items[id];

	const orderProblems = [
		...[...new Set(order.filter((id, i) => order.indexOf(id) !== i))].map((id) => `"${id}" is listed more than once`),
		...order.filter((id) => !Object.hasOwn(next, id)).map((id) => `"${id}" is not a class`),
	];
	if (orderProblems.length) throw invalid('order', orderProblems);

	const count = Object.keys(next).length;
	if (count > MAX_CLASSES) {
		throw new ApiError(400, `Global classes limit exceeded: at most ${MAX_CLASSES} (this change leaves ${count}).`, 'rest_global_classes_limit_exceeded');
	}
	const labels = new Map<string, string>();
	for (const item of Object.values(next)) {
		const other = labels.get(item.label.toLowerCase());
		if (other) throw invalid('items', [`classes "${other}" and "${item.id}" have the same label "${item.label}"`]);
		labels.set(item.label.toLowerCase(), item.id);
	}

	// Classes the client's order does not mention keep their place before it, as the builder resolves it.
	const kept = stored.order.filter((id) => Object.hasOwn(next, id) && !order.includes(id));
	const ordered = [...kept, ...order];
	const unordered = Object.keys(next).filter((id) => !ordered.includes(id));
	return { items: next, order: [...ordered, ...unordered] };
}

// ---- usage ----

/** Where one class is applied: how often in all, and per post or page (with its elements' ids). */
const usageAnswer = z.object({
	total: z.int(),
	posts: z.array(z.object({ id: z.int(), title: z.string(), type: z.string(), status: z.string(), total: z.int(), elements: z.array(z.string()) })),
});
type Usage = z.output<typeof usageAnswer>;
const usagesAnswer = z.object({
	data: z.record(z.string(), usageAnswer),
	meta: z.object({ total: z.int(), element_types: z.record(z.string(), z.int()).meta({ description: 'How many applications per element type' }) }),
});

/** The elements of a builder document: `[{id, elType, widgetType, settings, elements}]`, walked without recursion. */
function* elementsOf(document: unknown): Generator<Record<string, unknown>> {
	const stack: unknown[] = [document];
	while (stack.length) {
		const node = stack.pop();
		if (Array.isArray(node)) stack.push(...node);
		else if (node && typeof node === 'object') {
			const element = node as Record<string, unknown>;
			yield element;
			if (Array.isArray(element.elements)) stack.push(element.elements);
		}
	}
}

/** Class ids an element applies: settings whose value is `{$$type: 'classes', value: [ids]}`. */
function appliedClasses(element: Record<string, unknown>): string[] {
	const settings = element.settings;
	if (!settings || typeof settings !== 'object') return [];
	return Object.values(settings).flatMap((setting) => {
		const typed = setting as { $$type?: unknown; value?: unknown } | null;
		return typed && typed.$$type === 'classes' && Array.isArray(typed.value) ? typed.value.filter((id): id is string => typeof id === 'string') : [];
	});
}

/**
 * Where the classes of `context` are applied: published posts and pages (frontend), or all but trashed
 * ones (preview), of those the caller may read (the content routes' rule: others' drafts and private
 * items are not even named, nor counted).
 */
export function globalClassesUsage(store: Store, user: UserRow, context: ClassContext): z.output<typeof usagesAnswer> {
	const classes = builderGlobalClasses(store, context);
	const usage: Record<string, Usage> = Object.fromEntries(Object.keys(classes.items).map((id) => [id, { total: 0, posts: [] }]));
	const elementTypes: Record<string, number> = {};
	const statuses = context === 'frontend' ? "c.status = 'publish'" : "c.status NOT IN ('trash', 'auto-draft')";
	const posts = readableSql(user, POST);
	const pages = readableSql(user, PAGE);
	const { rows } = store.content.find(
		{
			sql: `((c.type = 'post' AND ${posts.sql}) OR (c.type = 'page' AND ${pages.sql})) AND ${statuses} AND c.meta LIKE '%"_builder_data"%'`,
			params: [...posts.params, ...pages.params],
		},
		{ sql: 'c.id', params: [] },
		null,
		0,
	);
	let total = 0;
	for (const row of rows) {
		let document: unknown;
		try {
			const data = (JSON.parse(row.meta) as { _builder_data?: unknown })._builder_data;
			if (typeof data !== 'string' || !data) continue;
			document = JSON.parse(data);
		} catch {
			continue; // builder data that is not JSON applies no class
		}
		const perClass = new Map<string, string[]>();
		for (const element of elementsOf(document)) {
			const applied = appliedClasses(element).filter((id) => Object.hasOwn(usage, id));
			if (!applied.length) continue;
			const type = String(element.elType === 'widget' ? element.widgetType : element.elType);
			elementTypes[type] = (elementTypes[type] ?? 0) + applied.length;
			for (const id of applied) perClass.set(id, [...(perClass.get(id) ?? []), String(element.id ?? '')]);
		}
		for (const [id, elements] of perClass) {
			usage[id].total += elements.length;
			usage[id].posts.push({ id: row.id, title: row.title, type: row.type, status: row.status, total: elements.length, elements });
			total += elements.length;
		}
	}
	return { data: usage, meta: { total, element_types: elementTypes } };
}

export const globalClassesRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/global-classes',
		auth: 'site',
		summary: 'The global classes keyed by id, with their order in `meta.order`',
		query: contextQuery,
		answer: classesAnswer,
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, CAN_READ);
			return answer(builderGlobalClasses(services.store, query.context));
		},
	}),
	route({
		method: 'PUT',
		path: '/builder/v1/global-classes',
		auth: 'site',
		summary: 'Apply the added, deleted and modified classes (which `items` must agree with) and the order',
		query: contextQuery,
		body: z.object({
			changes: z.strictObject({ added: z.array(z.string()), deleted: z.array(z.string()), modified: z.array(z.string()) }),
			items: objectOf(z.string(), classItem),
			order: z.array(z.string()),
		}),
		answer: classesAnswer,
		errors: [403],
		handler: ({ services, siteUser, query, body }) => {
			requireCap(siteUser, CAN_STYLE);
			const store = services.store;
			return store.tx(() => {
				const next = resolve(builderGlobalClasses(store, query.context), body.changes, body.items, body.order);
				store.objects.put(BUILDER, KIND, query.context, next);
				// Publishing makes the preview the published set again.
				if (query.context === 'frontend') {
					store.objects.delete(BUILDER, KIND, 'preview');
					clearDesignCss(store);
				}
				return answer(next);
			});
		},
	}),
	route({
		method: 'GET',
		path: '/builder/v1/global-classes/usage',
		auth: 'site',
		summary: 'How often each class is applied, per post and page, from their builder data',
		query: contextQuery,
		answer: usagesAnswer,
		errors: [403],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, CAN_READ);
			return globalClassesUsage(services.store, siteUser, query.context);
		},
	}),
];
