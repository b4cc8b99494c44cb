import type { Store } from '../../store';
import type { Field } from './fields';

/**
 * How the engine keeps its content model: site objects of namespace `engine`, one kind per thing,
 * keyed by numeric id (built-in overrides by the built-in's slug). The registry and `cms/v2` read
 * them through the functions below; only the engine's routes write them.
 */
export const ENGINE = 'engine';

export const KINDS = {
	postType: 'post_type',
	builtInPostType: 'built_in_post_type',
	taxonomy: 'taxonomy',
	builtInTax: 'built_in_tax',
	metaBox: 'meta_box',
	relation: 'relation',
	optionsPage: 'options_page',
	/** An options page's values, keyed by the page's slug (they outlive the page unless deleted with it). */
	optionsValues: 'options_values',
	item: 'item',
} as const;

/** Settings a client may add beyond the known ones are kept as given (the plugin has many). */
type Open = Record<string, unknown>;

/** An added post type, as JetEngine describes one. */
export interface PostTypeDoc {
	general_settings: Open & { name: string; slug: string };
	labels: Record<string, string>;
	advanced_settings: Open & { public: boolean; hierarchical: boolean; rest_base: string; supports: string[] };
	meta_fields: Field[];
}

export interface TaxonomyDoc {
	general_settings: Open & { name: string; slug: string; object_type: string[] };
	labels: Record<string, string>;
	advanced_settings: Open & { public: boolean; hierarchical: boolean; rest_base: string };
	meta_fields: Field[];
}

/** What the engine changed of a built-in post type or taxonomy: labels, visibility, fields. */
export interface BuiltInDoc {
	labels: Record<string, string>;
	advanced_settings: Open;
	meta_fields: Field[];
}

export interface MetaBoxDoc {
	args: Open & { name: string; object_type: 'post' | 'taxonomy'; allowed_post_type: string[]; allowed_tax: string[] };
	meta_fields: Field[];
}

/** An options page; its values are a document of their own (`optionsValues`, keyed by the slug). */
export interface OptionsPageDoc {
	general_settings: Open & { name: string; slug: string; menu_name: string };
	meta_fields: Field[];
}

export const RELATION_TYPES = ['one_to_one', 'one_to_many', 'many_to_many'] as const;

/** Two connected items: an item of the parent post type and one of the child post type. */
export interface Connection {
	parent_id: number;
	child_id: number;
}

/** A relation between two post types (by slug), with the items it connects. */
export interface RelationDoc extends Open {
	name: string;
	parent_object: string;
	child_object: string;
	type: (typeof RELATION_TYPES)[number];
	connections: Connection[];
}

export const engineDocs = <T>(store: Store, kind: string) => store.objects.list<T>(ENGINE, kind);
export const engineDoc = <T>(store: Store, kind: string, key: string | number) => store.objects.get<T>(ENGINE, kind, String(key));

/**
 * The fields items of a post type (or terms of a taxonomy) carry: the type's own `meta_fields`, then
 * those of every meta box attached to it. A name declared twice keeps its first declaration.
 */
export function metaFieldsOf(store: Store, objectType: 'post' | 'taxonomy', slug: string): Field[] {
	const own =
		objectType === 'post'
			? (engineDocs<PostTypeDoc>(store, KINDS.postType).find((d) => d.data.general_settings.slug === slug)?.data.meta_fields ??
				engineDoc<BuiltInDoc>(store, KINDS.builtInPostType, slug)?.data.meta_fields)
			: (engineDocs<TaxonomyDoc>(store, KINDS.taxonomy).find((d) => d.data.general_settings.slug === slug)?.data.meta_fields ??
				engineDoc<BuiltInDoc>(store, KINDS.builtInTax, slug)?.data.meta_fields);
	const boxes = engineDocs<MetaBoxDoc>(store, KINDS.metaBox)
		.map((d) => d.data)
		.filter((box) => box.args.object_type === objectType && (objectType === 'post' ? box.args.allowed_post_type : box.args.allowed_tax).includes(slug));
	const out: Field[] = [];
	for (const field of [...(own ?? []), ...boxes.flatMap((box) => box.meta_fields)]) {
		if (!out.some((f) => f.name === field.name)) out.push(field);
	}
	return out;
}
