// Compares WordPress's answer to a request with the reference server's answer to the same request: the
// status, the WordPress error code, the headers clients read and the JSON's shape, recursively. Values
// that differ between two sites by nature (ids, dates, hashes, URLs, rendered HTML, human messages) are
// compared by type only; every other value must be equal. docs/decisions/site-wordpress.md, "WordPress
// differential suite".

export interface Answer {
	status: number;
	/** Lower-case names. */
	headers: Record<string, string>;
	/** Parsed JSON, or the text when it is not JSON. */
	body: unknown;
	json: boolean;
}

export type Kind =
	| 'status'
	| 'code'
	| 'header'
	| 'body'
	| 'missing key' // in WordPress's answer, not in the reference's
	| 'extra key' // in the reference's answer, not in WordPress's
	| 'type'
	| 'value'
	| 'length'
	| 'name'; // a name (`{post:first}`) one site made and the other did not

export interface Difference {
	kind: Kind;
	/** Where: a header name, or a JSON path with array positions as `[]` (`[].title.raw`). */
	path: string;
	wp?: unknown;
	ref?: unknown;
}

/** Keys whose values are ids of the site (numbers, or lists of them): each site numbers its own things. */
const ID_KEYS = new Set([
	'id',
	'author',
	'parent',
	'post',
	'featured_media',
	'categories',
	'tags',
	'term_id',
	'page_on_front',
	'page_for_posts',
	'default_category',
	'wp_id',
	// an edited image's source (`media_details.parent_image`)
	'attachment_id',
]);

/** Keys whose values (the whole subtree's values) are compared by type only. */
const TYPE_ONLY_KEYS = new Set([
	// dates
	'date',
	'date_gmt',
	'modified',
	'modified_gmt',
	'registered_date',
	'created',
	'last_used',
	// URLs and HTML made from them
	'link',
	'guid',
	'source_url',
	'href',
	'url',
	'home',
	'preview_link',
	'permalink_template',
	'avatar_urls',
	'author_avatar_urls',
	'rendered',
	// secrets and generated names
	'password',
	'uuid',
	'app_id',
	'last_ip',
	'file',
	'data-secret',
	// human text: WordPress's wording is not the contract, the code is
	'message',
	'description',
	'params',
]);

const DATE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
const URL_LIKE = /^(https?:)?\/\//i;
const HTML = /<[a-z!/][^>]*>/i;
const ID_SLUG = /^\d+(-(revision|autosave)-v\d+)$/;

// A media item's `description` is an object with its own `raw`; elsewhere a description is human text.
const typeOnlyKey = (key: string, value: unknown) => ID_KEYS.has(key) || (TYPE_ONLY_KEYS.has(key) && (key !== 'description' || typeof value === 'string'));
/**
 * The bytes of an image's resized copy depend on the encoder (WordPress's GD, the reference's libvips),
 * not on the contract: a size's `filesize`, and the served file's when it is a scaled, upright or edited copy.
 */
const ENCODED_SIZE = /(^|\.)sizes\.[^.]+\.filesize$/;
const encodedSize = (path: string, key: string, parent: Record<string, unknown>) => ENCODED_SIZE.test(path) || (key === 'filesize' && ('original_image' in parent || 'parent_image' in parent));

export function typeName(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

const isScalar = (v: unknown) => v === null || typeof v !== 'object';

/**
 * PHP encodes an empty map as `[]`, so an empty array and an object are the same shape, except when both
 * are empty: then the reference must write what PHP writes (`[]`, or `{}` for an object PHP keeps one).
 */
const asObject = (v: unknown): Record<string, unknown> | undefined =>
	Array.isArray(v) && v.length === 0 ? {} : v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

const isEmpty = (v: unknown) => v !== null && typeof v === 'object' && Object.keys(v).length === 0;

function compareValues(wp: unknown, ref: unknown, path: string, typeOnly: boolean, out: Difference[]) {
	if (isEmpty(wp) && isEmpty(ref) && Array.isArray(wp) !== Array.isArray(ref)) {
		out.push({ kind: 'type', path, wp: Array.isArray(wp) ? '[]' : '{}', ref: Array.isArray(ref) ? '[]' : '{}' });
		return;
	}
	const wpObj = asObject(wp);
	const refObj = asObject(ref);
	if (wpObj && refObj && !(Array.isArray(wp) && Array.isArray(ref))) {
		for (const key of Object.keys(wpObj)) {
			const at = path ? `${path}.${key}` : key;
			if (!(key in refObj)) out.push({ kind: 'missing key', path: at, wp: sample(wpObj[key]) });
			else compareValues(wpObj[key], refObj[key], at, typeOnly || typeOnlyKey(key, wpObj[key]) || encodedSize(at, key, wpObj), out);
		}
		for (const key of Object.keys(refObj)) {
			if (!(key in wpObj)) out.push({ kind: 'extra key', path: path ? `${path}.${key}` : key, ref: sample(refObj[key]) });
		}
		return;
	}
	const wt = typeName(wp);
	const rt = typeName(ref);
	if (wt !== rt) {
		out.push({ kind: 'type', path, wp: wt, ref: rt });
		return;
	}
	if (Array.isArray(wp) && Array.isArray(ref)) {
		const at = `${path}[]`;
		if (wp.every(isScalar) && ref.every(isScalar) && (wp.length || ref.length)) {
			// Lists of values (methods, roles, enums, namespaces) are sets to a client; lists of ids only count.
			if (typeOnly) {
				if (wp.length !== ref.length) out.push({ kind: 'length', path: at, wp: wp.length, ref: ref.length });
				const types = (a: unknown[]) => [...new Set(a.map(typeName))].sort().join('|');
				if (wp.length && ref.length && types(wp) !== types(ref)) out.push({ kind: 'type', path: at, wp: types(wp), ref: types(ref) });
				return;
			}
			const key = (a: unknown[]) => JSON.stringify([...a].map((v) => JSON.stringify(v)).sort());
			if (key(wp) !== key(ref)) out.push({ kind: 'value', path: at, wp: sample(wp), ref: sample(ref) });
			return;
		}
		if (wp.length !== ref.length) out.push({ kind: 'length', path: at, wp: wp.length, ref: ref.length });
		for (let i = 0; i < Math.min(wp.length, ref.length); i++) compareValues(wp[i], ref[i], at, typeOnly, out);
		return;
	}
	if (typeOnly || wp === ref) return;
	if (typeof wp === 'string' && typeof ref === 'string') {
		if ([DATE, URL_LIKE, HTML].some((re) => re.test(wp) || re.test(ref))) return;
		// A revision's or autosave's slug is its post's id: `12-revision-v1`.
		const [w, r] = [wp, ref].map((s) => s.replace(ID_SLUG, '#$1'));
		if (w === r && w !== wp) return;
		// An untitled item's `generated_slug` is its id.
		if (/(^|\.)generated_slug$/.test(path) && [wp, ref].every((s) => /^\d+$/.test(s))) return;
	}
	out.push({ kind: 'value', path, wp, ref });
}

/** A short form of a value for the report. */
function sample(value: unknown): unknown {
	const text = JSON.stringify(value);
	return text !== undefined && text.length > 80 ? `${text.slice(0, 77)}...` : value;
}

/** The `rel` values of a `Link` header, sorted. */
export function linkRels(header: string | undefined): string[] {
	if (!header) return [];
	return [...header.matchAll(/rel="?([^";,]+)"?/g)].map((m) => m[1]).sort();
}

const methodSet = (header: string | undefined) =>
	header === undefined
		? undefined
		: header
				.split(',')
				.map((m) => m.trim().toUpperCase())
				.filter(Boolean)
				.sort()
				.join(', ');

const mediaType = (header: string | undefined) => header?.toLowerCase().replace(/\s+/g, '');

/** A WordPress error body's code (`{code, message, data}`), or undefined. */
export function errorCode(body: unknown): string | undefined {
	const b = body as { code?: unknown; message?: unknown } | null;
	return b && typeof b === 'object' && typeof b.code === 'string' && typeof b.message === 'string' ? b.code : undefined;
}

/**
 * Everything that differs between the two answers. When the statuses differ, only the status and the
 * error code are reported: the rest of two different outcomes differs by nature.
 */
export function compareAnswers(wp: Answer, ref: Answer): Difference[] {
	const out: Difference[] = [];
	const wpCode = errorCode(wp.body);
	const refCode = errorCode(ref.body);
	if (wp.status !== ref.status) out.push({ kind: 'status', path: 'status', wp: wp.status, ref: ref.status });
	if (wpCode !== refCode) out.push({ kind: 'code', path: 'code', wp: wpCode, ref: refCode });
	if (out.some((d) => d.kind === 'status')) return out;

	for (const name of ['x-wp-total', 'x-wp-totalpages']) {
		if (wp.headers[name] !== ref.headers[name]) out.push({ kind: 'header', path: name, wp: wp.headers[name], ref: ref.headers[name] });
	}
	const allow = [methodSet(wp.headers.allow), methodSet(ref.headers.allow)];
	if (allow[0] !== allow[1]) out.push({ kind: 'header', path: 'allow', wp: allow[0], ref: allow[1] });
	const wpRels = linkRels(wp.headers.link);
	const refRels = linkRels(ref.headers.link);
	for (const rel of wpRels.filter((r) => !refRels.includes(r))) out.push({ kind: 'header', path: `link rel=${rel}`, wp: 'present', ref: 'absent' });
	for (const rel of refRels.filter((r) => !wpRels.includes(r))) out.push({ kind: 'header', path: `link rel=${rel}`, wp: 'absent', ref: 'present' });
	if ('location' in wp.headers !== 'location' in ref.headers) {
		out.push({ kind: 'header', path: 'location', wp: 'location' in wp.headers ? 'present' : 'absent', ref: 'location' in ref.headers ? 'present' : 'absent' });
	}
	const types = [mediaType(wp.headers['content-type']), mediaType(ref.headers['content-type'])];
	if (types[0] !== types[1]) out.push({ kind: 'header', path: 'content-type', wp: types[0], ref: types[1] });

	if (wp.json !== ref.json) out.push({ kind: 'body', path: 'body', wp: wp.json ? 'JSON' : 'text', ref: ref.json ? 'JSON' : 'text' });
	else if (wp.json) compareValues(wp.body, ref.body, '', false, out);
	return out;
}
