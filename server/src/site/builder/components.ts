import { z } from 'zod';
import { ApiError, conflict, notFound } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type Route, route } from '../../http/route';
import type { Services } from '../../services';
import type { ContentRow, UserRow } from '../../store/types';
import { type ItemBody, wpInt } from '../content/params';
import { inList } from '../content/query';
import { customPostType } from '../content/types';
import { contentEnv, writeItem } from '../content/write';
import { BUILDER, formatGmt, invalidParam, requireCap } from './editor-common';

/**
 * `builder/v1/components`: the builder's reusable components. As the builder keeps them, a component
 * is a content item of its own non-public type (`_builder_template_type` `builder_component`) whose
 * elements are its `_builder_data`; its uid, settings and archive flag are meta of the item. Locks
 * (who is editing a component) are builder objects. Reading needs `edit_posts`, every write
 * `manage_options`, as the builder asks.
 */

export const COMPONENT = customPostType('builder_component', 'builder-components');

/** The builder refuses more components than this (its `MAX_COMPONENTS`). */
export const MAX_COMPONENTS = 100;
/** A lock lasts an hour unless renewed (the builder's lock manager). */
export const LOCK_TTL_MS = 60 * 60 * 1000;
const LOCKS = 'component-lock';

const STATUSES = ['publish', 'draft', 'autosave'] as const;
const statusParam = z.enum(STATUSES);
type SaveStatus = (typeof STATUSES)[number];

/** An autosave of new components stores drafts, as the builder does. */
const storedStatus = (status: SaveStatus) => (status === 'autosave' ? 'draft' : status);

/** WordPress's `sanitize_text_field`: no tags, no line breaks, whitespace collapsed. */
const textField = (text: string) =>
	text
		.replace(/<[^>]*>/g, '')
		.replace(/\s+/g, ' ')
		.trim();

/** The component title rule: 2 to 200 characters. */
const titleParam = z.string().min(2).max(200);

/** A component id, also written as text (WordPress's `number`). */
const componentIdParam = wpInt(1);

const item = z.object({
	uid: z.string().min(1),
	title: titleParam,
	elements: z.array(z.looseObject({})),
	settings: z.looseObject({ overridable_props: z.looseObject({}).optional() }).optional(),
});
type Item = z.output<typeof item>;
const itemsBody = z.object({ items: z.array(item).min(1) });

interface ComponentMeta {
	_builder_data: string;
	_builder_component_uid?: string;
	_builder_component_settings?: { overridable_props?: Record<string, unknown>; [key: string]: unknown };
	_builder_component_archived?: boolean;
}

interface Component {
	row: ContentRow;
	meta: ComponentMeta;
}

const metaOf = (row: ContentRow) => JSON.parse(row.meta) as ComponentMeta;

/** Every component (not trashed), oldest first. */
function allComponents(services: Services): Component[] {
	const where = { sql: "c.type = ? AND c.status <> 'trash'", params: [COMPONENT.type] };
	return services.store.content.find(where, { sql: 'c.id ASC', params: [] }, null, 0).rows.map((row) => ({ row, meta: metaOf(row) }));
}

/** The components with these ids, in the order given; unknown ids are left out. */
function someComponents(services: Services, ids: number[]): Component[] {
	const where = inList('c.id', ids);
	const rows = services.store.content.find({ sql: `c.type = ? AND c.status <> 'trash' AND ${where.sql}`, params: [COMPONENT.type, ...where.params] }, { sql: 'c.id', params: [] }, null, 0).rows;
	const byId = new Map(rows.map((row) => [row.id, row]));
	return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [{ row: byId.get(id)!, meta: metaOf(byId.get(id)!) }] : []));
}

const invalidId = () => notFound('Invalid component ID.', 'rest_builder_component_invalid_id');

function oneComponent(services: Services, id: number): Component {
	const [found] = someComponents(services, [id]);
	if (!found) throw invalidId();
	return found;
}

const elementsOf = (meta: ComponentMeta): unknown[] => {
	try {
		const data = JSON.parse(meta._builder_data || '[]') as unknown;
		return Array.isArray(data) ? data : [];
	} catch {
		return [];
	}
};

/** A component as the list shows it. */
const listAnswer = z.object({ id: z.int(), name: z.string(), uid: z.string(), status: z.string(), isArchived: z.boolean() });

const listView = ({ row, meta }: Component): z.output<typeof listAnswer> => ({
	id: row.id,
	name: row.title,
	uid: meta._builder_component_uid ?? '',
	status: row.status,
	isArchived: meta._builder_component_archived === true,
});

/**
 * The styles of a component: every `styles` map of its elements and their children, merged (the
 * builder renders a component's styles from them).
 */
function stylesOf(elements: unknown[]): Record<string, unknown> {
	const styles: Record<string, unknown> = {};
	const walk = (list: unknown[]) => {
		for (const element of list) {
			if (!element || typeof element !== 'object') continue;
			const { styles: own, elements: children } = element as { styles?: unknown; elements?: unknown };
			if (own && typeof own === 'object' && !Array.isArray(own)) Object.assign(styles, own);
			if (Array.isArray(children)) walk(children);
		}
	};
	walk(elements);
	return styles;
}

// ---- locks ----

interface Lock {
	user_id: number;
	locked_at: number;
}

/** The component's lock while it lasts. */
function lockOf(services: Services, id: number): Lock | undefined {
	const lock = services.store.objects.get<Lock>(BUILDER, LOCKS, String(id))?.data;
	return lock && Date.now() - lock.locked_at < LOCK_TTL_MS ? lock : undefined;
}

const displayName = (services: Services, userId: number) => {
	const user = services.store.users.byId(userId);
	return user ? (user.display_name ?? user.name) : null;
};

/** Another user's lock refuses every change of the component: 409. */
function checkUnlocked(services: Services, user: UserRow, ids: number[]) {
	for (const id of ids) {
		const lock = lockOf(services, id);
		if (lock && lock.user_id !== user.id) {
			throw conflict(`Component ${id} is locked by ${displayName(services, lock.user_id) ?? 'another user'}.`, 'builder_component_locked');
		}
	}
}

// ---- validation (create and create-validate) ----

/** The builder's save validation: the count limit, and no title or uid twice (among existing components or in the request). */
function validateItems(services: Services, items: Item[]) {
	const existing = allComponents(services);
	const problems: string[] = [];
	if (existing.length + items.length > MAX_COMPONENTS) problems.push(`Maximum number of components exceeded (${MAX_COMPONENTS}).`);
	const titles = new Set(existing.map(({ row }) => row.title));
	const uids = new Set(existing.map(({ meta }) => meta._builder_component_uid));
	for (const { title, uid } of items) {
		const name = textField(title);
		if (titles.has(name)) problems.push(`Component name '${name}' is duplicated.`);
		else if (uids.has(uid)) problems.push(`Component uid '${uid}' is duplicated.`);
		titles.add(name);
		uids.add(uid);
	}
	if (problems.length) throw new ApiError(422, `Validation failed: ${problems.join(', ')}`, 'components_validation_failed', { problems });
}

/** A sanitized title must still have 2 characters (`<b></b>` is no title). */
function checkTitle(param: string, title: string) {
	if (textField(title).length < 2) throw invalidParam(param, `${param} must have at least 2 characters of text (tags and surrounding spaces do not count)`);
}

/**
 * Writes a component through the content write path (status, dates, slug as `cms/v2` would), then its
 * builder meta (uid, settings, archive flag), which the write path leaves to the builder.
 */
function saveComponent(services: Services, user: UserRow, before: ContentRow | undefined, body: ItemBody, builderMeta: Partial<ComponentMeta> = {}): ContentRow {
	const row = writeItem(contentEnv(services, user, COMPONENT), before, body, { revision: false });
	if (!Object.keys(builderMeta).length) return row;
	return services.store.content.save({ ...row, meta: JSON.stringify({ ...metaOf(row), ...builderMeta }) });
}

/** What a change of several components did: the ids changed, and those that are no component. */
const idsAnswer = z.object({ successIds: z.array(z.int()), failedIds: z.array(z.int()) });
const idsOutcome = (): z.output<typeof idsAnswer> => ({ successIds: [], failedIds: [] });

/** A lock's holder (display name) and when it was taken; null while unlocked. */
const lockedBy = z.string().nullable();
const lockedAt = z.string().meta({ description: 'GMT, as WordPress writes dates' });

export const componentRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/components',
		auth: 'site',
		summary: 'List the components: id, name, uid, status, whether archived',
		answer: z.array(listAnswer),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			return allComponents(services).map(listView);
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/components',
		auth: 'site',
		summary: 'Create components from their elements (201): answers each uid with its new id',
		body: itemsBody.extend({ status: statusParam }),
		answer: z.record(z.string(), z.int()).meta({ description: 'The new id of each component, keyed by its uid' }),
		status: 201,
		errors: [403, 422],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'manage_options');
			body.items.forEach((entry, i) => checkTitle(`items[${i}].title`, entry.title));
			const created = services.store.tx(() => {
				validateItems(services, body.items);
				return Object.fromEntries(
					body.items.map((entry) => {
						const meta = { _builder_edit_mode: 'builder', _builder_template_type: 'builder_component', _builder_data: JSON.stringify(entry.elements) } as const;
						const row = saveComponent(
							services,
							siteUser,
							undefined,
							{ title: textField(entry.title), status: storedStatus(body.status), meta },
							{ _builder_component_uid: entry.uid, _builder_component_settings: entry.settings ?? {}, _builder_component_archived: false },
						);
						return [entry.uid, row.id];
					}),
				);
			});
			return created;
		},
	}),

	route({
		method: 'GET',
		path: '/builder/v1/components/styles',
		auth: 'site',
		summary: "Every component's styles, by component id",
		answer: z.record(z.string(), z.record(z.string(), z.unknown())),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, 'edit_posts');
			return Object.fromEntries(allComponents(services).map(({ row, meta }) => [String(row.id), stylesOf(elementsOf(meta))]));
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/components/create-validate',
		auth: 'site',
		summary: 'Check components as a create would (titles, duplicates, limit) without storing anything',
		body: itemsBody,
		answer: z.object({ valid: z.literal(true), count: z.int() }),
		errors: [403, 422],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'manage_options');
			body.items.forEach((entry, i) => checkTitle(`items[${i}].title`, entry.title));
			validateItems(services, body.items);
			return { valid: true as const, count: body.items.length };
		},
	}),

	route({
		method: 'GET',
		path: '/builder/v1/components/overridable-props',
		auth: 'site',
		summary: "A component's overridable properties (its settings' overridable_props), or null",
		query: phpQuery({ componentId: componentIdParam }),
		answer: z.object({ componentId: z.int(), overridable_props: z.record(z.string(), z.unknown()).nullable() }),
		errors: [403, 404],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, 'edit_posts');
			const { row, meta } = oneComponent(services, query.componentId);
			const props = meta._builder_component_settings?.overridable_props;
			return { componentId: row.id, overridable_props: props && Object.keys(props).length ? props : null };
		},
	}),

	route({
		method: 'PUT',
		path: '/builder/v1/components/status',
		auth: 'site',
		summary: 'Publish components: answers the ids published (success) and those that are no component (failed)',
		body: z.object({ status: z.enum(['publish']), ids: z.array(componentIdParam) }),
		answer: z.object({ success: z.array(z.int()), failed: z.array(z.int()) }),
		errors: [403, 409],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'manage_options');
			return services.store.tx(() => {
				const found = someComponents(services, body.ids);
				checkUnlocked(services, siteUser, found.map(({ row }) => row.id));
				const known = new Set(found.map(({ row }) => row.id));
				for (const { row } of found) saveComponent(services, siteUser, row, { status: body.status });
				return { success: body.ids.filter((id) => known.has(id)), failed: body.ids.filter((id) => !known.has(id)) };
			});
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/components/lock',
		auth: 'site',
		summary: 'Lock a component for the caller for an hour (again to renew); 409 while another user holds it',
		body: z.object({ componentId: componentIdParam }),
		answer: z.object({ locked: z.literal(true), componentId: z.int(), locked_by: lockedBy, locked_at: lockedAt }),
		errors: [403, 404, 409],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'manage_options');
			return services.store.tx(() => {
				const { row } = oneComponent(services, body.componentId);
				checkUnlocked(services, siteUser, [row.id]);
				const lock = services.store.objects.put<Lock>(BUILDER, LOCKS, String(row.id), { user_id: siteUser.id, locked_at: Date.now() }).data;
				return { locked: true as const, componentId: row.id, locked_by: displayName(services, siteUser.id), locked_at: formatGmt(lock.locked_at) };
			});
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/components/unlock',
		auth: 'site',
		summary: "Release the caller's lock of a component; 409 while another user holds it",
		body: z.object({ componentId: componentIdParam }),
		answer: z.object({ unlocked: z.literal(true), componentId: z.int(), was_locked: z.boolean() }),
		errors: [403, 404, 409],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'manage_options');
			return services.store.tx(() => {
				const { row } = oneComponent(services, body.componentId);
				checkUnlocked(services, siteUser, [row.id]);
				const held = services.store.objects.delete(BUILDER, LOCKS, String(row.id));
				return { unlocked: true as const, componentId: row.id, was_locked: held };
			});
		},
	}),

	route({
		method: 'GET',
		path: '/builder/v1/components/lock-status',
		auth: 'site',
		summary: 'Who holds the lock of a component, and whether the caller may edit it',
		query: phpQuery({ componentId: z.string() }),
		answer: z.object({ componentId: z.int(), is_current_user_allow_to_edit: z.boolean(), locked_by: lockedBy, locked_at: lockedAt.nullable() }),
		errors: [403, 404],
		handler: ({ services, siteUser, query }) => {
			requireCap(siteUser, 'edit_posts');
			if (!/^\d{1,15}$/.test(query.componentId.trim())) throw invalidParam('componentId', 'componentId must be a component ID (digits)');
			const { row } = oneComponent(services, Number(query.componentId));
			const lock = lockOf(services, row.id);
			return {
				componentId: row.id,
				is_current_user_allow_to_edit: !lock || lock.user_id === siteUser.id,
				locked_by: lock ? displayName(services, lock.user_id) : null,
				locked_at: lock ? formatGmt(lock.locked_at) : null,
			};
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/components/archive',
		auth: 'site',
		summary: 'Archive components (they stay listed, marked archived), saved with the status given',
		body: z.object({ componentIds: z.array(componentIdParam), status: statusParam }),
		answer: idsAnswer,
		errors: [403, 409],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'manage_options');
			return services.store.tx(() => {
				const found = someComponents(services, body.componentIds);
				checkUnlocked(services, siteUser, found.map(({ row }) => row.id));
				const outcome = idsOutcome();
				const known = new Set(found.map(({ row }) => row.id));
				for (const { row } of found) {
					saveComponent(services, siteUser, row, { status: storedStatus(body.status) }, { _builder_component_archived: true });
				}
				for (const id of body.componentIds) outcome[known.has(id) ? 'successIds' : 'failedIds'].push(id);
				return outcome;
			});
		},
	}),

	route({
		method: 'POST',
		path: '/builder/v1/components/update-titles',
		auth: 'site',
		summary: 'Rename components (titles of 2 to 200 characters, not used by another component), saved with the status given',
		body: z.object({ components: z.array(z.object({ componentId: componentIdParam, title: titleParam })).min(1), status: statusParam }),
		answer: idsAnswer,
		errors: [403, 409, 422],
		handler: ({ services, siteUser, body }) => {
			requireCap(siteUser, 'manage_options');
			body.components.forEach((entry, i) => checkTitle(`components[${i}].title`, entry.title));
			return services.store.tx(() => {
				const found = someComponents(services, body.components.map((entry) => entry.componentId));
				checkUnlocked(services, siteUser, found.map(({ row }) => row.id));
				const byId = new Map(found.map((component) => [component.row.id, component]));
				// The titles after the renames must all differ.
				const titles = new Map(allComponents(services).map(({ row }) => [row.id, row.title]));
				for (const entry of body.components) if (byId.has(entry.componentId)) titles.set(entry.componentId, textField(entry.title));
				const taken = [...titles.values()].filter((title, i, all) => all.indexOf(title) !== i);
				if (taken.length) {
					const problems = [...new Set(taken)].map((title) => `Component name '${title}' is duplicated.`);
					throw new ApiError(422, `Validation failed: ${problems.join(', ')}`, 'components_validation_failed', { problems });
				}
				const outcome = idsOutcome();
				for (const entry of body.components) {
					const component = byId.get(entry.componentId);
					if (!component) outcome.failedIds.push(entry.componentId);
					else {
						saveComponent(services, siteUser, component.row, { title: textField(entry.title), status: storedStatus(body.status) });
						outcome.successIds.push(entry.componentId);
					}
				}
				return outcome;
			});
		},
	}),
];
