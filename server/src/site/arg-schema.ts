import { z, type ZodType } from 'zod';

/**
 * A route argument's JSON Schema (from its zod schema) as WordPress shows it in the index and in OPTIONS
 * (`get_data_for_route`): the keywords WordPress's argument arrays carry, WordPress's descriptions of
 * the arguments its core routes share, and none of the keywords zod adds and WordPress never writes
 * (the safe-integer bounds, `propertyNames`, `maxLength`, a boolean-or-string `anyOf`).
 */

type Schema = Record<string, unknown>;

/** WordPress's descriptions of the arguments its core routes share (`get_collection_params`, item schemas). */
const DESCRIPTIONS: Record<string, string> = {
	context: 'Scope under which the request is made; determines fields present in response.',
	page: 'Current page of the collection.',
	per_page: 'Maximum number of items to be returned in result set.',
	search: 'Limit results to those matching a string.',
	after: 'Limit response to posts published after a given ISO8601 compliant date.',
	before: 'Limit response to posts published before a given ISO8601 compliant date.',
	modified_after: 'Limit response to posts modified after a given ISO8601 compliant date.',
	modified_before: 'Limit response to posts modified before a given ISO8601 compliant date.',
	exclude: 'Ensure result set excludes specific IDs.',
	include: 'Limit result set to specific IDs.',
	offset: 'Offset the result set by a specific number of items.',
	order: 'Order sort attribute ascending or descending.',
	orderby: 'Sort collection by object attribute.',
	slug: 'An alphanumeric identifier for the object unique to its type.',
	status: 'A named status for the object.',
	author: 'The ID for the author of the object.',
	author_exclude: 'Ensure result set excludes posts assigned to specific authors.',
	parent: 'The ID for the parent of the object.',
	parent_exclude: 'Limit result set to all items except those of a particular parent ID.',
	id: 'Unique identifier for the object.',
	force: 'Whether to bypass Trash and force deletion.',
	password: 'A password to protect access to the content and excerpt.',
	meta: 'Meta fields.',
	title: 'The title for the object.',
	content: 'The content for the object.',
	excerpt: 'The excerpt for the object.',
	date: "The date the object was published, in the site's timezone.",
	date_gmt: 'The date the object was published, as GMT.',
	description: 'The description for the object.',
	name: 'The name for the object.',
	type: 'Type of object.',
	post: 'The ID of the associated post object.',
	url: 'URL of the object.',
	email: 'The email address for the object.',
	username: 'Login name for the user.',
	roles: 'Roles assigned to the object.',
	locale: 'Locale for the object.',
	first_name: 'First name for the object.',
	last_name: 'Last name for the object.',
	nickname: 'The nickname for the object.',
	template: 'The theme file to use to display the object.',
	comment_status: 'Whether or not comments are open on the object.',
	ping_status: 'Whether or not the object can be pinged.',
	format: 'The format for the object.',
	sticky: 'Whether or not the object should be treated as sticky.',
	menu_order: 'The order of the object in relation to other object of its type.',
	featured_media: 'The ID of the featured media for the object.',
	categories: 'The terms assigned to the object in the category taxonomy.',
	tags: 'The terms assigned to the object in the post_tag taxonomy.',
	hide_empty: 'Whether to hide terms not assigned to any posts.',
	author_email: 'Email address for the object author.',
	author_name: 'Display name for the object author.',
	author_url: 'URL for the object author.',
	alt_text: 'Alternative text to display when attachment is not displayed.',
	caption: 'The attachment caption.',
	media_type: 'Limit result set to attachments of a particular media type.',
	mime_type: 'Limit result set to attachments of a particular MIME type.',
	reassign: 'Reassign the deleted user\'s posts and links to this user ID.',
	who: 'Limit result set to users who are considered authors.',
	has_published_posts: 'Limit result set to users who have published posts.',
};

/** Formats WordPress declares on arguments of these names. */
const FORMATS: Record<string, string> = {
	after: 'date-time',
	before: 'date-time',
	modified_after: 'date-time',
	modified_before: 'date-time',
	date: 'date-time',
	date_gmt: 'date-time',
	email: 'email',
	author_email: 'email',
	url: 'uri',
	author_url: 'uri',
};

const SAFE = Number.MAX_SAFE_INTEGER;

/** A boolean that also takes its words (`"true"`, `"0"`...) is WordPress's plain `boolean`. */
function booleanWords(schema: Schema): boolean {
	const any = schema.anyOf as Schema[] | undefined;
	return Array.isArray(any) && any.length === 2 && any.some((s) => s.type === 'boolean') && any.some((s) => s.type === 'string' && Array.isArray(s.enum));
}

/**
 * The types of an `anyOf` whose branches are plain types (`{type}`, maybe with a `format` or an array's
 * `items`, one of each at most), else undefined: WordPress's `{"type": ["string", "array"], "items": ...}`.
 */
function typeList(any: Schema[]): Schema | undefined {
	if (!any.every((s) => typeof s.type === 'string' && Object.keys(s).every((k) => k === 'type' || k === 'format' || k === 'items'))) return undefined;
	const out: Schema = { type: any.map((s) => s.type) };
	for (const key of ['format', 'items']) {
		const values = any.map((s) => s[key]).filter((v) => v !== undefined);
		if (values.length > 1) return undefined;
		if (values.length) out[key] = values[0];
	}
	return out;
}

/**
 * The schema without zod's own keywords, recursively (items, properties), in WordPress's form: a
 * `type` the schema names itself (meta) wins over zod's `anyOf`, and an `anyOf` of plain types is
 * WordPress's type list (`["string", "null"]`).
 */
export function clean(schema: Schema): Schema {
	// A keyword the meta sets to undefined is one WordPress does not write (media_type's `items`).
	const out: Schema = Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined));
	// A schema that lists its forms (`oneOf`, from its meta) carries nothing else of zod's form.
	if (Array.isArray(out.oneOf)) {
		delete out.properties;
		delete out.anyOf;
	}
	if (booleanWords(out)) {
		delete out.anyOf;
		out.type = 'boolean';
	}
	if (Array.isArray(out.anyOf)) {
		out.anyOf = (out.anyOf as Schema[]).map(clean);
		const list = typeList(out.anyOf as Schema[]);
		if (out.type !== undefined) delete out.anyOf;
		else if (list) {
			delete out.anyOf;
			Object.assign(out, list);
		}
	}
	if (out.maximum === SAFE) delete out.maximum;
	// zod's "nonnegative integer" (0 up to the safe limit), which WordPress writes as no bound; a real range (0..19) stays.
	if (out.minimum === -SAFE || (out.minimum === 0 && out.maximum === undefined)) delete out.minimum;
	delete out.propertyNames;
	delete out.maxLength;
	// A nested object's list of required fields: WordPress marks each field itself (`required: true`),
	// but for a schema it writes out with its forms (`oneOf`, media edit's `modifiers`).
	if (Array.isArray(out.required) && !Array.isArray(out.oneOf)) delete out.required;
	if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = clean(out.items as Schema);
	if (out.additionalProperties && typeof out.additionalProperties === 'object') out.additionalProperties = clean(out.additionalProperties as Schema);
	if (out.properties && typeof out.properties === 'object' && !Array.isArray(out.properties)) {
		out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Schema>).map(([k, v]) => [k, clean(v)]));
	}
	return out;
}

/** One argument as the index shows it: WordPress's description and format first, then the schema. */
export function wpArg(name: string, schema: Schema): Schema {
	const out = clean(schema);
	// An argument without a type is one WordPress declares bare (the indexes' `context`), undescribed.
	const described = out.description === undefined && out.type !== undefined && DESCRIPTIONS[name] ? { description: DESCRIPTIONS[name] } : {};
	const stringy = out.type === undefined || out.type === 'string' || (Array.isArray(out.type) && out.type.includes('string'));
	if (out.format === undefined && FORMATS[name] && stringy) out.format = FORMATS[name];
	return { ...described, ...out };
}

/**
 * How an argument's zod schema becomes JSON Schema: as the client sends it, and a `default` its meta
 * gives is the one shown (zod writes a list's own default over it; WordPress's `status` defaults to one status).
 */
export const ARG_JSON = {
	io: 'input',
	unrepresentable: 'any',
	override: ({ zodSchema, jsonSchema }) => {
		const meta = z.globalRegistry.get(zodSchema as unknown as ZodType);
		if (meta && 'default' in meta) jsonSchema.default = meta.default;
	},
} satisfies Parameters<typeof z.toJSONSchema>[1];
