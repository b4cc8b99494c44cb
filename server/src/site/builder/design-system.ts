import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import { BUILDER, CAN_CONFIGURE, CAN_READ, clearDesignCss, requireCap } from './design-common';
import { builderGlobalClasses, type GlobalClass } from './global-classes';
import { builderGlobals, type Typography } from './globals';
import { builderVariables, type VariablesState } from './variables';

/**
 * The design-system stylesheet: the kit's globals and the variables as CSS custom properties on
 * `:root`, the published global classes as rules. It is generated once and kept (kind `css`) until a
 * global, variable or class changes or `DELETE /builder/v1/cache` clears it; the next
 * `POST /design-system-sync/stylesheet` then generates it again (a new `generation`).
 */

const KIND = 'css';
const KEY = 'design-system';

const stylesheet = z.object({
	css: z.string(),
	etag: z.string().meta({ description: 'sha1 of the CSS: equal stylesheets have equal etags' }),
	generation: z.int().meta({ description: 'Counts the stylesheets generated on this site: a regenerated one has a higher number' }),
	generated_at: z.string(),
});
export type DesignStylesheet = z.output<typeof stylesheet>;
/** The stylesheet as the route answers it: whether this request generated it. */
const stylesheetAnswer = stylesheet.extend({ regenerated: z.boolean() });

const TYPOGRAPHY_PROPERTIES: Record<string, keyof Typography> = {
	'font-family': 'typography_font_family',
	'font-weight': 'typography_font_weight',
	'font-size': 'typography_font_size',
	'line-height': 'typography_line_height',
	'letter-spacing': 'typography_letter_spacing',
	'word-spacing': 'typography_word_spacing',
	'text-transform': 'typography_text_transform',
	'font-style': 'typography_font_style',
	'text-decoration': 'typography_text_decoration',
};

function typographyValue(property: string, value: Typography[keyof Typography]): string | undefined {
	if (value === undefined) return undefined;
	if (typeof value === 'object') return `${value.size}${value.unit}`;
	return property === 'font-family' ? `"${value}"` : value;
}

const MEDIA: Record<string, string> = { tablet: '(max-width: 1024px)', mobile: '(max-width: 767px)' };
/** Values rendered into CSS as they are: anything that could end a declaration is left out. */
const SAFE = /^[^;{}<>\\]*$/;
const UNITS = /^(px|em|rem|%|vw|vh|deg|s|ms|fr|)$/;

/**
 * A class prop as CSS: plain strings and numbers, the builder's typed values whose `value` is one,
 * sizes `{size, unit}`, and variable references as `var(--label)`. Other values (nested structures
 * the stylesheet does not render) are left out.
 */
function propCss(value: unknown, variables: VariablesState, depth = 0): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string') return value.trim() && SAFE.test(value) && !value.includes('/*') ? value.trim() : undefined;
	if (!value || typeof value !== 'object' || depth > 4) return undefined;
	const typed = value as { $$type?: unknown; value?: unknown };
	if (typeof typed.$$type === 'string' && typed.$$type.endsWith('-variable') && typeof typed.value === 'string') {
		const variable = Object.hasOwn(variables.data, typed.value) ? variables.data[typed.value] : undefined;
		return variable && !variable.deleted ? `var(--${variable.label})` : undefined;
	}
	const inner = typed.value as { size?: unknown; unit?: unknown } | undefined;
	if (inner && typeof inner === 'object' && typeof inner.size === 'number' && typeof inner.unit === 'string' && UNITS.test(inner.unit)) {
		return `${inner.size}${inner.unit}`;
	}
	return 'value' in typed ? propCss(typed.value, variables, depth + 1) : undefined;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function classRules(item: GlobalClass, variables: VariablesState): string[] {
	return item.variants.flatMap((variant) => {
		const declarations = Object.entries(variant.props).flatMap(([name, value]) => {
			const css = propCss(value, variables);
			return css === undefined ? [] : [`${kebab(name)}: ${css};`];
		});
		if (!declarations.length) return [];
		const selector = `.${item.id}${variant.meta.state ? `:${variant.meta.state}` : ''}`;
		const rule = `${selector} { ${declarations.join(' ')} }`;
		const media = variant.meta.breakpoint ? MEDIA[variant.meta.breakpoint] : undefined;
		return [media ? `@media ${media} { ${rule} }` : rule];
	});
}

/** The stylesheet of the current globals, variables and published classes. */
export function designSystemCss(store: Store): string {
	const globals = builderGlobals(store);
	const variables = builderVariables(store);
	const classes = builderGlobalClasses(store, 'frontend');
	const root = [
		...globals.colors.map((c) => `--builder-global-color-${c.id}: ${c.value};`),
		...globals.typography.flatMap((t) =>
			Object.entries(TYPOGRAPHY_PROPERTIES).flatMap(([property, key]) => {
				const value = typographyValue(property, t.value[key]);
				return value === undefined ? [] : [`--builder-global-typography-${t.id}-${property}: ${value};`];
			}),
		),
		...Object.values(variables.data)
			.filter((v) => !v.deleted)
			.sort((a, b) => a.order - b.order)
			.map((v) => `--${v.label}: ${v.value};`),
	];
	const rules = classes.order.filter((id) => Object.hasOwn(classes.items, id)).flatMap((id) => classRules(classes.items[id], variables));
	return [`:root {\n${root.map((line) => `\t${line}`).join('\n')}\n}`, ...rules].join('\n') + '\n';
}

/** The kept stylesheet, generated first if there is none. */
export function designStylesheet(store: Store): z.output<typeof stylesheetAnswer> {
	const kept = store.objects.get<DesignStylesheet>(BUILDER, KIND, KEY);
	if (kept) return { ...kept.data, regenerated: false };
	return store.tx(() => {
		const css = designSystemCss(store);
		const sheet: DesignStylesheet = {
			css,
			etag: createHash('sha1').update(css).digest('hex'),
			generation: store.objects.nextId(BUILDER, KIND),
			generated_at: new Date().toISOString(),
		};
		store.objects.put(BUILDER, KIND, KEY, sheet);
		return { ...sheet, regenerated: true };
	});
}

export const designSystemRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/builder/v1/design-system-sync/stylesheet',
		auth: 'site',
		summary: 'The design-system stylesheet (globals, variables, classes), generated if the cache has none',
		answer: stylesheetAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, CAN_READ);
			return designStylesheet(services.store);
		},
	}),
	route({
		method: 'DELETE',
		path: '/builder/v1/cache',
		auth: 'site',
		summary: 'Clear the generated CSS; the next stylesheet request generates it again',
		answer: z.object({ deleted: z.literal(true), cleared: z.int().meta({ description: 'How many generated stylesheets were removed' }) }),
		errors: [403],
		handler: ({ services, siteUser }) => {
			requireCap(siteUser, CAN_CONFIGURE);
			return { deleted: true as const, cleared: clearDesignCss(services.store) };
		},
	}),
];
