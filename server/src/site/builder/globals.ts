import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import { BUILDER, CAN_READ, CAN_STYLE, clearDesignCss, requireCap } from './design-common';

/**
 * `builder/v1/globals`: the site kit's global colours and typography, items `{id, title, value}`.
 * The four system items of each set (primary, secondary, text, accent) always exist: they can be
 * replaced, not deleted. Each set is one stored document (kind `kit`), in the order items were added.
 */

const KIND = 'kit';
export const GLOBAL_SETS = ['colors', 'typography'] as const;
export type GlobalSet = (typeof GLOBAL_SETS)[number];

/** The system items, which the kit starts with and which cannot be deleted. */
export const SYSTEM_GLOBAL_IDS = ['primary', 'secondary', 'text', 'accent'];

/** CSS colours the kit accepts: hex, or the rgb/hsl functions with plain numbers. */
const COLOR = /^(#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|(?:rgb|rgba|hsl|hsla)\(\s*[\d.%\s,/]+\)|transparent)$/i;
const colorValue = z.string().trim().regex(COLOR, { error: 'must be a CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla() or transparent' });

const size = (units: readonly [string, ...string[]]) => z.strictObject({ unit: z.enum(units), size: z.number().min(0).max(10000) });
const LENGTH_UNITS = ['px', 'em', 'rem', '%', 'vw', 'vh'] as const;

/** A typography value, as the builder's typography group control stores it. */
export const typographyValue = z.strictObject({
	typography_typography: z.enum(['custom']).optional(),
	typography_font_family: z
		.string()
		.regex(/^[A-Za-z0-9 _-]{1,100}$/, { error: 'must be a font family name (letters, digits, spaces, hyphens, underscores)' })
		.optional(),
	typography_font_weight: z.enum(['100', '200', '300', '400', '500', '600', '700', '800', '900', 'normal', 'bold']).optional(),
	typography_font_size: size(LENGTH_UNITS).optional(),
	typography_line_height: size([...LENGTH_UNITS, '']).optional(),
	typography_letter_spacing: size(LENGTH_UNITS).optional(),
	typography_word_spacing: size(LENGTH_UNITS).optional(),
	typography_text_transform: z.enum(['uppercase', 'lowercase', 'capitalize', 'none']).optional(),
	typography_font_style: z.enum(['normal', 'italic', 'oblique']).optional(),
	typography_text_decoration: z.enum(['underline', 'overline', 'line-through', 'none']).optional(),
});
export type Typography = z.output<typeof typographyValue>;

export interface GlobalItem<V> {
	id: string;
	title: string;
	value: V;
}

/** A global item as the routes answer it, with its set's value. */
const globalItem = <V extends z.ZodType>(value: V) => z.object({ id: z.string(), title: z.string(), value });
const colorItem = globalItem(z.string());
const typographyItem = globalItem(typographyValue);
/** A set as the editor reads it: items keyed by id. */
const keyedColors = z.record(z.string(), colorItem);
const keyedTypography = z.record(z.string(), typographyItem);

export interface BuilderGlobals {
	colors: GlobalItem<string>[];
	typography: GlobalItem<Typography>[];
}

const font = (family: string, weight: Typography['typography_font_weight']): Typography => ({
	typography_typography: 'custom',
	typography_font_family: family,
	typography_font_weight: weight,
});

const DEFAULTS: BuilderGlobals = {
	colors: [
		{ id: 'primary', title: 'Primary', value: '#6EC1E4' },
		{ id: 'secondary', title: 'Secondary', value: '#54595F' },
		{ id: 'text', title: 'Text', value: '#7A7A7A' },
		{ id: 'accent', title: 'Accent', value: '#61CE70' },
	],
	typography: [
		{ id: 'primary', title: 'Primary', value: font('Roboto', '600') },
		{ id: 'secondary', title: 'Secondary', value: font('Roboto Slab', '400') },
		{ id: 'text', title: 'Text', value: font('Roboto', '400') },
		{ id: 'accent', title: 'Accent', value: font('Roboto', '500') },
	],
};

function readSet<S extends GlobalSet>(store: Store, set: S): BuilderGlobals[S] {
	return store.objects.get<{ items: BuilderGlobals[S] }>(BUILDER, KIND, set)?.data.items ?? DEFAULTS[set];
}

function writeSet<S extends GlobalSet>(store: Store, set: S, items: BuilderGlobals[S]) {
	store.objects.put(BUILDER, KIND, set, { items });
	clearDesignCss(store);
}

/** The kit's globals, in order: what the stylesheet and other builder modules read. */
export function builderGlobals(store: Store): BuilderGlobals {
	return { colors: readSet(store, 'colors'), typography: readSet(store, 'typography') };
}

/** The answer's form: items keyed by id, as the builder's editor reads them. */
const keyed = <T extends { id: string }>(items: readonly T[]): Record<string, T> => Object.fromEntries(items.map((item) => [item.id, item]));

const NOUN: Record<GlobalSet, string> = { colors: 'color', typography: 'typography' };

const notFound = (set: GlobalSet, id: string) =>
	new ApiError(404, `There is no global ${NOUN[set]} with the id "${id}".`, 'rest_global_invalid_id');

const idParams = z.object({ id: z.string() });
/** As the builder declares the route (`(?P<id>[\w]+)`): other ids match no route. */
const ID_PATTERN = { id: '\\w{1,64}' };
const title = z.string().trim().min(1).max(100);

function setRoutes<S extends GlobalSet>(set: S, value: z.ZodType<BuilderGlobals[S][number]['value']>, item: z.ZodType<BuilderGlobals[S][number]>): Route[] {
	const base = `/builder/v1/globals/${set}`;
	const noun = NOUN[set];
	return [
		route({
			method: 'GET',
			path: base,
			auth: 'site',
			summary: `The kit's global ${set}, keyed by id`,
			answer: z.record(z.string(), item),
			errors: [403],
			handler: ({ services, siteUser }) => {
				requireCap(siteUser, CAN_READ);
				return keyed<BuilderGlobals[S][number]>(readSet(services.store, set));
			},
		}),
		route({
			method: 'GET',
			path: `${base}/{id}`,
			auth: 'site',
			summary: `One global ${noun}`,
			params: idParams,
			patterns: ID_PATTERN,
			answer: item,
			errors: [403],
			handler: ({ services, siteUser, params }) => {
				requireCap(siteUser, CAN_READ);
				const item = readSet(services.store, set).find((i) => i.id === params.id);
				if (!item) throw notFound(set, params.id);
				return item;
			},
		}),
		route({
			method: 'POST',
			path: `${base}/{id}`,
			auth: 'site',
			summary: `Create a global ${noun} with this id (201), or replace it`,
			params: idParams,
			patterns: ID_PATTERN,
			body: z.object({ title, value }),
			answer: item,
			status: [200, 201],
			errors: [403],
			handler: ({ services, siteUser, params, body, reply }) => {
				requireCap(siteUser, CAN_STYLE);
				const item = { id: params.id, title: body.title, value: body.value } as BuilderGlobals[S][number];
				const created = services.store.tx(() => {
					const items = [...readSet(services.store, set)] as GlobalItem<unknown>[];
					const at = items.findIndex((i) => i.id === params.id);
					if (at < 0) items.push(item);
					else items[at] = item;
					writeSet(services.store, set, items as BuilderGlobals[S]);
					return at < 0;
				});
				if (created) reply.code(201);
				return item;
			},
		}),
		route({
			method: 'DELETE',
			path: `${base}/{id}`,
			auth: 'site',
			summary: `Delete a global ${noun} (the system ones cannot be deleted)`,
			params: idParams,
			patterns: ID_PATTERN,
			answer: z.object({ deleted: z.literal(true), previous: item }),
			errors: [403],
			handler: ({ services, siteUser, params }) => {
				requireCap(siteUser, CAN_STYLE);
				return services.store.tx(() => {
					const items = readSet(services.store, set);
					const previous = items.find((i) => i.id === params.id);
					if (!previous) throw notFound(set, params.id);
					if (SYSTEM_GLOBAL_IDS.includes(params.id)) {
						throw new ApiError(400, `The system global ${noun} "${params.id}" cannot be deleted; replace its value instead.`, 'rest_global_system_item');
					}
					writeSet(services.store, set, items.filter((i) => i.id !== params.id) as BuilderGlobals[S]);
					return { deleted: true as const, previous };
				});
			},
		}),
	];
}

export const globalsRoutes: Route[] = [
	route({
		method: 'GET',
		path: '/builder/v1/globals',
		auth: 'site',
		summary: "The kit's global colors and typography, each keyed by id",
		answer: z.object({ colors: keyedColors, typography: keyedTypography }),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, CAN_READ);
			const globals = builderGlobals(services.store);
			return { colors: keyed(globals.colors), typography: keyed(globals.typography) };
		},
	}),
	...setRoutes('colors', colorValue, colorItem),
	...setRoutes('typography', typographyValue, typographyItem),
];
