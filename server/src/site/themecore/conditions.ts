import { z } from 'zod';
import type { Store } from '../../store';
import { toList, wpBool, wpInt } from '../content/params';
import { sitePostTypes, siteTaxonomies } from '../registry';
import { invalidParam } from './common';

/**
 * Where a template (or a page template) applies: a list of conditions, each including or excluding
 * a part of the site. A template applies where at least one `include` condition matches and no
 * `exclude` one does (the plugin's rule).
 *
 * `subGroup` names the part; those of a post type or taxonomy carry its slug, as the plugin's
 * `cpt-single-<type>` do, so that the engine's types are conditions as soon as the registry has them:
 *
 * | group    | subGroup                        | subGroupValue (ids; empty = all)         |
 * |----------|---------------------------------|------------------------------------------|
 * | entire   | `entire`                        | none                                     |
 * | singular | `front-page`, `page-404`        | none                                     |
 * | singular | `single-<post type>`            | items of the type                        |
 * | singular | `in-term-<taxonomy>`            | terms: items that carry one of them      |
 * | archive  | `archive-all`, `archive-search` | none                                     |
 * | archive  | `post-type-archive-<post type>` | none                                     |
 * | archive  | `taxonomy-<taxonomy>`           | terms whose archive it is                |
 */

export const GROUPS = ['entire', 'singular', 'archive'] as const;
export type Group = (typeof GROUPS)[number];

/** A condition as stored and answered. */
export const conditionAnswer = z.object({
	include: z.boolean().meta({ description: 'Whether the condition includes (true) or excludes (false) the part' }),
	group: z.enum(GROUPS),
	subGroup: z.string().meta({ description: 'The part of the site: entire, front-page, single-<post type>, taxonomy-<taxonomy>, ...' }),
	subGroupValue: z.array(z.number().int()).meta({ description: 'Ids of items or terms; empty for all' }),
});
export type Condition = z.output<typeof conditionAnswer>;

/** One condition as a client writes it: `include` also as text, ids as a list or one comma-separated string. */
export const conditionSchema = z.object({
	include: wpBool.prefault(true),
	group: z.enum(GROUPS).optional(),
	subGroup: z.string().max(200).optional(),
	subGroupValue: z.preprocess(toList, z.array(wpInt(1)).max(1000)).prefault([]),
});

export const conditionsParam = z.array(conditionSchema).max(100);
export type ConditionInput = z.output<typeof conditionSchema>;

/** A sub-group as the site understands it: its group, and what its ids must be. */
interface Target {
	group: Group;
	/** Ids allowed: items of a post type, terms of a taxonomy, or none at all. */
	ids: { postType: string } | { taxonomy: string } | null;
}

const FIXED: Record<string, Target> = {
	entire: { group: 'entire', ids: null },
	'front-page': { group: 'singular', ids: null },
	'page-404': { group: 'singular', ids: null },
	'archive-all': { group: 'archive', ids: null },
	'archive-search': { group: 'archive', ids: null },
};

/** The post types whose items have pages of their own: public ones (media items too). */
const publicTypes = (store: Store) => sitePostTypes(store).filter((type) => type.public);
const publicTaxonomies = (store: Store) => siteTaxonomies(store).filter((tax) => tax.public);

/** What a sub-group names on this site now, or a sentence saying why it names nothing. */
function resolve(store: Store, subGroup: string): Target | string {
	if (FIXED[subGroup]) return FIXED[subGroup];
	const prefixed = (prefix: string) => (subGroup.startsWith(prefix) ? subGroup.slice(prefix.length) : undefined);
	const single = prefixed('single-');
	const typeArchive = prefixed('post-type-archive-');
	const inTerm = prefixed('in-term-');
	const taxArchive = prefixed('taxonomy-');
	const slug = single ?? typeArchive ?? inTerm ?? taxArchive;
	if (slug === undefined) {
		return `names no part of the site: ${subGroup} (use entire, front-page, page-404, single-<post type>, in-term-<taxonomy>, archive-all, archive-search, post-type-archive-<post type> or taxonomy-<taxonomy>)`;
	}
	if (single !== undefined || typeArchive !== undefined) {
		if (!publicTypes(store).some((type) => type.slug === slug)) return `names no public post type of the site: ${slug}`;
		return single !== undefined ? { group: 'singular', ids: { postType: slug } } : { group: 'archive', ids: null };
	}
	if (!publicTaxonomies(store).some((tax) => tax.slug === slug)) return `names no public taxonomy of the site: ${slug}`;
	return { group: inTerm !== undefined ? 'singular' : 'archive', ids: { taxonomy: slug } };
}

/** Ids among `ids` that are not live items of the type (trashed items and revisions are not). */
function unknownItems(store: Store, postType: string, ids: number[]): number[] {
	return ids.filter((id) => {
		const row = store.content.get(id);
		return !row || row.type !== postType || row.status === 'trash';
	});
}

/** Why a condition does not fit the site as it is now, or undefined when it does; `at` is its path. */
function problem(store: Store, condition: ConditionInput, at: string): string | undefined {
	const subGroup = condition.subGroup ?? (condition.group === 'entire' ? 'entire' : undefined);
	if (subGroup === undefined) return `${at}.subGroup is required unless group is entire`;
	const target = resolve(store, subGroup);
	if (typeof target === 'string') return `${at}.subGroup ${target}`;
	if (condition.group && condition.group !== target.group) return `${at}.group must be ${target.group} for the sub-group ${subGroup}`;
	const ids = condition.subGroupValue;
	if (!target.ids) return ids.length ? `${at}.subGroupValue must be empty for the sub-group ${subGroup}` : undefined;
	const missing = 'postType' in target.ids ? unknownItems(store, target.ids.postType, ids) : store.terms.unknown(target.ids.taxonomy, ids);
	if (!missing.length) return undefined;
	const of = 'postType' in target.ids ? `items of the post type ${target.ids.postType}` : `terms of the taxonomy ${target.ids.taxonomy}`;
	return `${at}.subGroupValue has ids that are no ${of}: ${missing.join(', ')}`;
}

/**
 * The conditions as stored: each checked against the registry and the content (a 400 for `param`
 * naming the first bad one at `path`, e.g. `template_data.conditions`).
 */
export function checkConditions(store: Store, input: ConditionInput[], param: string, path = param): Condition[] {
	return input.map((condition, i) => {
		const sentence = problem(store, condition, `${path}[${i}]`);
		if (sentence) throw invalidParam(param, sentence);
		const subGroup = condition.subGroup ?? 'entire';
		const target = resolve(store, subGroup) as Target;
		return { include: condition.include, group: target.group, subGroup, subGroupValue: [...new Set(condition.subGroupValue)] };
	});
}

/** Whether a stored condition still fits the site (a type the engine removed, an item deleted since). */
export const stillValid = (store: Store, condition: Condition) => problem(store, condition, 'condition') === undefined;
