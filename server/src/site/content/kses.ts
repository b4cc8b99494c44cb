import { FilterXSS, type IFilterXSSOptions } from 'xss';
import type { UserRow } from '../../store/types';
import { can } from '../roles';

/**
 * WordPress's kses for users without `unfiltered_html` (only administrators and editors have it): the HTML
 * they send is filtered when it is saved, titles and comments with the comment tags (`wp_filter_kses`,
 * `$allowedtags`), content and excerpts with the post tags (`wp_filter_post_kses`, `$allowedposttags`).
 * As kses, a tag not allowed is dropped and its text kept (`<script>x()</script>` -> `x()`), an attribute
 * not allowed is dropped, a URL's protocol not in `wp_allowed_protocols` is cut off (`javascript:x()` ->
 * `x()`), `style` keeps the declarations `safecss_filter_attr` keeps, and HTML comments (block markup) stay.
 * The lists are WordPress 6.1's (`wp-includes/kses.php`). One filter (the `xss` package) for every place
 * that saves user HTML.
 */

/** `$allowedtags`: titles and comments. */
const COMMENT_TAGS: Record<string, string[]> = {
	a: ['href', 'title'],
	abbr: ['title'],
	acronym: ['title'],
	b: [],
	blockquote: ['cite'],
	cite: [],
	code: [],
	del: ['datetime'],
	em: [],
	i: [],
	q: ['cite'],
	s: [],
	strike: [],
	strong: [],
};

/** What every post tag also takes (`_wp_add_global_attributes`), besides `data-*`. */
const GLOBAL_ATTRIBUTES = ['aria-describedby', 'aria-details', 'aria-hidden', 'aria-label', 'aria-labelledby', 'class', 'dir', 'id', 'lang', 'role', 'style', 'title', 'xml:lang'];

/** `$allowedposttags`, each tag's own attributes (the global ones are added below), but `object` (`POST_TAGS`). */
const POST_TAG_ATTRIBUTES: Record<string, string[]> = {
	address: [],
	a: ['download', 'href', 'name', 'rel', 'rev', 'target'],
	abbr: [],
	acronym: [],
	area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
	article: ['align'],
	aside: ['align'],
	audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'],
	b: [],
	bdo: [],
	big: [],
	blockquote: ['cite'],
	br: [],
	button: ['disabled', 'name', 'type', 'value'],
	caption: ['align'],
	cite: [],
	code: [],
	col: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
	colgroup: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
	del: ['datetime'],
	dd: [],
	dfn: [],
	details: ['align', 'open'],
	div: ['align'],
	dl: [],
	dt: [],
	em: [],
	fieldset: [],
	figure: ['align'],
	figcaption: ['align'],
	font: ['color', 'face', 'size'],
	footer: ['align'],
	h1: ['align'],
	h2: ['align'],
	h3: ['align'],
	h4: ['align'],
	h5: ['align'],
	h6: ['align'],
	header: ['align'],
	hgroup: ['align'],
	hr: ['align', 'noshade', 'size', 'width'],
	i: [],
	img: ['align', 'alt', 'border', 'height', 'hspace', 'loading', 'longdesc', 'src', 'usemap', 'vspace', 'width'],
	ins: ['cite', 'datetime'],
	kbd: [],
	label: ['for'],
	legend: ['align'],
	li: ['align', 'value'],
	main: ['align'],
	map: ['name'],
	mark: [],
	menu: ['type'],
	nav: ['align'],
	p: ['align'],
	pre: ['width'],
	q: ['cite'],
	rb: [],
	rp: [],
	rt: [],
	rtc: [],
	ruby: [],
	s: [],
	samp: [],
	span: ['align'],
	section: ['align'],
	small: [],
	strike: [],
	strong: [],
	sub: [],
	summary: ['align'],
	sup: [],
	table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
	tbody: ['align', 'char', 'charoff', 'valign'],
	td: ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'],
	textarea: ['cols', 'disabled', 'name', 'readonly', 'rows'],
	tfoot: ['align', 'char', 'charoff', 'valign'],
	th: ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'],
	thead: ['align', 'char', 'charoff', 'valign'],
	title: [],
	tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
	track: ['default', 'kind', 'label', 'src', 'srclang'],
	tt: [],
	u: [],
	ul: ['type'],
	ol: ['reversed', 'start', 'type'],
	var: [],
	video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/**
 * The post tags with the global attributes. `object` is in WordPress's list with a `data` and a `type`
 * it requires, which it takes only for a PDF of the site itself (`_wp_kses_allow_pdf_objects`,
 * `application/pdf`); without them it keeps the tag bare (`<object>`: kses cannot drop the closing tag)
 * or, self-closing, drops it. The server takes no such PDF: every `<object>` is bare (`ksesFilter`).
 */
const POST_TAGS = {
	...Object.fromEntries(Object.entries(POST_TAG_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs, ...GLOBAL_ATTRIBUTES]])),
	object: [],
};

/** `wp_allowed_protocols`. */
export const ALLOWED_PROTOCOLS = ['http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn'];

/** `wp_kses_uri_attributes`: values that are URLs, whose protocol is checked. */
const URI_ATTRIBUTES = new Set(['action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction', 'href', 'icon', 'longdesc', 'manifest', 'poster', 'profile', 'src', 'usemap', 'xmlns']);

/** `safecss_filter_attr`'s properties (`safe_style_css`); custom properties (`--x`) are allowed too. */
const CSS_PROPERTIES = new Set(
	(
		'background background-color background-image background-position background-size background-attachment background-blend-mode ' +
		'border border-radius border-width border-color border-style border-right border-right-color border-right-style border-right-width ' +
		'border-bottom border-bottom-color border-bottom-left-radius border-bottom-right-radius border-bottom-style border-bottom-width ' +
		'border-left border-left-color border-left-style border-left-width border-top border-top-color border-top-left-radius ' +
		'border-top-right-radius border-top-style border-top-width border-spacing border-collapse caption-side columns column-count ' +
		'column-fill column-gap column-rule column-span column-width color filter font font-family font-size font-style font-variant ' +
		'font-weight letter-spacing line-height text-align text-decoration text-indent text-transform height min-height max-height width ' +
		'min-width max-width margin margin-right margin-bottom margin-left margin-top margin-block-start margin-block-end ' +
		'margin-inline-start margin-inline-end padding padding-right padding-bottom padding-left padding-top padding-block-start ' +
		'padding-block-end padding-inline-start padding-inline-end flex flex-basis flex-direction flex-flow flex-grow flex-shrink flex-wrap ' +
		'gap row-gap grid-template-columns grid-auto-columns grid-column-start grid-column-end grid-column-gap grid-template-rows ' +
		'grid-auto-rows grid-row-start grid-row-end grid-row-gap grid-gap justify-content justify-items justify-self align-content ' +
		'align-items align-self clear cursor direction float list-style-type object-fit object-position overflow vertical-align'
	).split(' '),
);
/** Properties whose value may hold a `url()` (of an allowed protocol) or, the first two, a gradient (`list-style` is not allowed). */
const CSS_URL_PROPERTIES = new Set(['background', 'background-image', 'cursor', 'list-style', 'list-style-image']);
const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\(([^()]|rgba?\([^()]*\))*\)$/;
/** CSS functions a value may use; anything else with `\ ( & } =` or a comment is refused. */
const CSS_FUNCTIONS = /\b(?:var|calc|min|max|minmax|clamp)\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)/g;
const UNSAFE_CSS = /[\\(&=}]|\/\*/;

/** `wp_kses_bad_protocol`: cuts off, up to 6 times, a leading protocol that is not allowed. */
export function cutBadProtocols(url: string): string {
	let value = url.replace(/\0/g, '');
	for (let i = 0; i < 6; i++) {
		const before = value;
		value = cutProtocolOnce(value, 1);
		if (value === before) break;
	}
	return value;
}

function cutProtocolOnce(url: string, count: number): string {
	const text = url.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
	const match = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(text);
	// No protocol, or the colon comes after a path or query (`/a:b`, `?x=a:b`).
	if (!match || /[/?]/.test(text.slice(0, match.index))) return text;
	let rest = text.slice(match.index + match[0].length).trim();
	const protocol = decodeEntities(text.slice(0, match.index)).replace(/\s|\0/g, '').toLowerCase();
	if (!ALLOWED_PROTOCOLS.includes(protocol)) return rest;
	if (protocol === 'feed') {
		if (count > 2) return '';
		rest = cutProtocolOnce(rest, count + 1);
		if (!rest) return rest;
	}
	return `${protocol}:${rest}`;
}

/** `wp_kses_decode_entities`: numeric entities only, as kses reads a protocol. */
const decodeEntities = (text: string) =>
	text.replace(/&#0*([0-9]+);/g, (_, n: string) => String.fromCodePoint(Number(n) % 0x110000)).replace(/&#[Xx]0*([0-9A-Fa-f]+);/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16) % 0x110000));

/**
 * `safecss_filter_attr`: the declarations of an inline style that WordPress keeps, joined by `;` as it
 * joins them (a declaration of blanks is kept empty: `a; ;` -> `a;`).
 */
export function filterStyle(style: string): string {
	let kept = '';
	for (const raw of style.replace(/[\r\n\t]/g, '').trim().split(';')) {
		if (!raw) continue;
		const item = raw.trim();
		let test = item;
		const colon = item.indexOf(':');
		if (colon >= 0) {
			const property = item.slice(0, colon).trim();
			const value = item.slice(colon + 1).trim();
			const custom = /^--[a-zA-Z0-9-_]+$/.test(property);
			if (!custom && !CSS_PROPERTIES.has(property)) continue;
			const urls = custom ? value.startsWith('url(') : CSS_URL_PROPERTIES.has(property);
			const gradients = custom ? value.includes('-gradient(') : property === 'background' || property === 'background-image';
			if (urls) {
				let bad = false;
				for (const found of value.match(/url\([^)]+\)/g) ?? []) {
					const url = /^url\(\s*(['"]?)(.*)\1\s*\)$/.exec(found)?.[2]?.trim();
					if (!url || cutBadProtocols(url) !== url) bad = true;
					else test = test.replace(found, '');
				}
				if (bad) continue;
			}
			if (gradients && GRADIENT.test(value)) test = test.replace(value, '');
		}
		if (!UNSAFE_CSS.test(test.replace(CSS_FUNCTIONS, ''))) kept += kept ? `;${item}` : item;
	}
	return kept;
}

function ksesFilter(tags: Record<string, string[]>, dataAttributes: boolean): FilterXSS {
	const attribute = (name: string, value: string): string | undefined => {
		let clean = value;
		if (name === 'style') {
			clean = filterStyle(value);
			if (!clean) return '';
		}
		if (URI_ATTRIBUTES.has(name)) clean = cutBadProtocols(value);
		// `a download` is valueless only (`'valueless' => 'y'`): a file name given with it goes.
		if (name === 'download') return value === '' ? name : '';
		return `${name}="${clean.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}"`;
	};
	const options: IFilterXSSOptions = {
		whiteList: tags,
		// Tags not allowed go, their text stays (kses has no list of tags whose body goes with them).
		stripIgnoreTag: true,
		// `<object>` is bare, or gone when self-closing (see POST_TAGS).
		onTag: (tag, html, { isClosing, isWhite }) => (tag === 'object' && isWhite && !isClosing ? (/\/\s*>$/.test(html) ? '' : '<object>') : undefined),
		onTagAttr: (_tag, name, value, isWhite) => (isWhite ? attribute(name, value) : undefined),
		// `data-*` on post tags (`_wp_add_global_attributes`).
		onIgnoreTagAttr: (_tag, name, value) => (dataAttributes && /^data-[a-z0-9_-]+$/.test(name) ? attribute(name, value) : ''),
		// Text is kept as written (kses does not escape it); a lone `<` or `>` is escaped.
		escapeHtml: (html) => html.replace(/</g, '&lt;').replace(/>/g, '&gt;'),
	};
	return new FilterXSS(options);
}

/**
 * HTML comments (block markup such as `<!-- wp:paragraph -->`) stay, as in kses: their text is filtered
 * too, until nothing changes, with `--` runs folded so that it cannot close the comment early.
 */
function withComments(filter: FilterXSS) {
	const run = (html: string): string =>
		html
			.split(/(<!--[\s\S]*?(?:-->|$))/)
			.map((part, i) => {
				if (i % 2 === 0) return part && filter.process(part);
				let text = part.replace(/<!--|-->/g, '');
				for (let n = 0, next = run(text); next !== text && n < 10; n++, next = run(text)) text = next;
				if (text === '') return '';
				return `<!--${text.replace(/--+/g, '-').replace(/-$/, '')}-->`;
			})
			.join('');
	return run;
}

const postFilter = withComments(ksesFilter(POST_TAGS, true));
const commentFilter = withComments(ksesFilter(COMMENT_TAGS, false));

/** Titles and comments (`wp_filter_kses`), for a user without `unfiltered_html`. */
export const filterCommentHtml = (user: UserRow | null, html: string) => (can(user, 'unfiltered_html') ? html : commentFilter(html));

/** Post content and excerpts (`wp_filter_post_kses`), for a user without `unfiltered_html`. */
export const filterPostHtml = (user: UserRow | null, html: string) => (can(user, 'unfiltered_html') ? html : postFilter(html));

const descriptionFilters = { term: withComments(ksesFilter(COMMENT_TAGS, false)), user: withComments(ksesFilter({ ...COMMENT_TAGS, a: ['href', 'title', 'rel'] }, false)) };

/**
 * A term's or a user's description as WordPress saves it, for every user, administrators included
 * (`pre_term_description`, `pre_user_description`: `wp_filter_kses` with the comment tags, a user's
 * links may also have `rel`; then `wp_targeted_link_rel`).
 */
export const filterDescription = (of: 'term' | 'user', html: string) => targetedLinkRel(descriptionFilters[of](html));

/** An item's title, content and excerpt as WordPress saves them for the user (those given), links with a target marked. */
export function filterItemText<T extends { title?: string; content?: string; excerpt?: string }>(user: UserRow | null, body: T): T {
	const out = { ...body };
	if (body.title !== undefined) out.title = targetedLinkRel(filterCommentHtml(user, body.title));
	if (body.content !== undefined) out.content = targetedLinkRel(filterPostHtml(user, body.content));
	if (body.excerpt !== undefined) out.excerpt = targetedLinkRel(filterPostHtml(user, body.excerpt));
	return out;
}

/** A comment's text as WordPress saves it for the user: kses, links with a target marked, other sites' links `nofollow ugc`. */
export const filterComment = (user: UserRow | null, html: string, homeUrl: string) => relUgc(targetedLinkRel(filterCommentHtml(user, html)), homeUrl);

/*
 * Two filters WordPress runs on saved text for every user, editors included (not kses, but on the same
 * hooks): `wp_targeted_link_rel` and, on comments, `wp_rel_ugc`. Both read a link's attributes as
 * `wp_kses_hair` does, which also cuts bad protocols from its URLs.
 */

interface Attribute {
	name: string;
	value: string;
	/** As written back: `name="value"`, `name='value'` (single quotes kept) or `name`. */
	whole: string;
	valueless: boolean;
}

/** `wp_kses_hair`: a tag's attributes, the first of each name, URL values without bad protocols. */
function attributesOf(text: string): Map<string, Attribute> {
	const out = new Map<string, Attribute>();
	for (const m of text.matchAll(/([_a-zA-Z][-_a-zA-Z0-9:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+)))?/g)) {
		const name = m[1];
		if (out.has(name)) continue;
		let value = m[2] ?? m[3] ?? m[4];
		if (value === undefined) {
			out.set(name, { name, value: '', whole: name, valueless: true });
			continue;
		}
		if (URI_ATTRIBUTES.has(name.toLowerCase())) value = cutBadProtocols(value);
		out.set(name, { name, value, whole: m[3] !== undefined ? `${name}='${value}'` : `${name}="${value}"`, valueless: false });
	}
	return out;
}

/** `esc_attr`: entities already written stay. */
const escAttr = (text: string) =>
	text.replace(/&(?!#?[a-zA-Z0-9]+;)/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');

const relValues = (...values: string[]) => [...new Set(values.join(' ').split(/\s+/).filter(Boolean))].join(' ');

/**
 * The text's `<a` tags (`start` matches a tag's opening, up to its attributes), each up to its first `>`,
 * replaced by `edit` (undefined: kept). By scanning, not by one regular expression, so that it stays
 * linear in the text (`<a\s[^>]*...>` over many unclosed tags is quadratic). With `oneLine`, a tag
 * broken by a newline is no link (PHP's `.` stops there).
 */
function replaceLinks(html: string, start: RegExp, edit: (inner: string) => string | undefined, oneLine = false): string {
	let out = '';
	let copied = 0;
	let gt = -1;
	let newline = -1;
	start.lastIndex = 0;
	for (let m = start.exec(html); m; m = start.exec(html)) {
		const from = m.index + m[0].length;
		if (gt < from) gt = html.indexOf('>', from);
		// No `>` left: no tag after this one can be complete either.
		if (gt < 0) break;
		if (oneLine) {
			if (newline !== Infinity && newline < from) newline = html.indexOf('\n', from) < 0 ? Infinity : html.indexOf('\n', from);
			if (newline < gt || gt === from) continue;
		}
		const replaced = edit(html.slice(from, gt));
		if (replaced !== undefined) {
			out += html.slice(copied, m.index) + replaced;
			copied = gt + 1;
		}
		start.lastIndex = gt + 1;
	}
	return out + html.slice(copied);
}

/** The text outside `<script>` and `<style>` elements (as `wp_targeted_link_rel` leaves those), edited; linear. */
function outsideScripts(html: string, edit: (text: string) => string): string {
	const lower = html.toLowerCase();
	const closes: Record<string, number> = { script: -1, style: -1 };
	const open = /<(script|style)/gi;
	let out = '';
	let copied = 0;
	for (let m = open.exec(html); m; m = open.exec(html)) {
		const tag = m[1].toLowerCase();
		const from = m.index + m[0].length;
		if (closes[tag] !== Infinity && closes[tag] < from) {
			const at = lower.indexOf(`</${tag}>`, from);
			closes[tag] = at < 0 ? Infinity : at;
		}
		if (closes[tag] === Infinity) continue;
		const end = closes[tag] + tag.length + 3;
		out += edit(html.slice(copied, m.index)) + html.slice(m.index, end);
		copied = end;
		open.lastIndex = end;
	}
	return out + edit(html.slice(copied));
}

/** `wp_targeted_link_rel`: a link with a `target` gets `rel="noopener"` (outside scripts and styles). */
export function targetedLinkRel(html: string): string {
	if (!/target/i.test(html) || !/<a /i.test(html)) return html;
	return outsideScripts(html, (text) =>
		replaceLinks(text, /<a\s/gi, (inner) => {
			if (!/target\s*=/i.test(inner)) return undefined;
			const attrs = attributesOf(inner);
			if (!attrs.has('target')) return undefined;
			const rel = relValues(attrs.get('rel')?.value ?? '', 'noopener');
			attrs.set('rel', { name: 'rel', value: rel, whole: `rel="${escAttr(rel)}"`, valueless: false });
			return `<a ${[...attrs.values()].map((a) => a.whole).join(' ')}>`;
		}),
	);
}

/** `wp_rel_ugc`: a comment's links to other sites are `rel="nofollow ugc"`. */
export function relUgc(html: string, homeUrl: string): string {
	const home = URL.canParse(homeUrl) ? new URL(homeUrl).hostname.toLowerCase() : '';
	return replaceLinks(
		html,
		/<a /gi,
		(inner) => {
			const attrs = attributesOf(inner);
			const href = attrs.get('href')?.value;
			if (href && URL.canParse(href)) {
				const url = new URL(href);
				if (['http:', 'https:'].includes(url.protocol) && url.hostname.toLowerCase() === home) return undefined;
			}
			const rel = attrs.get('rel');
			if (!rel) return `<a ${inner} rel="nofollow ugc">`;
			attrs.delete('rel');
			const rest = [...attrs.values()].map((a) => (a.valueless ? a.name : `${a.name}="${escAttr(a.value)}"`)).join(' ');
			return `<a ${rest} rel="${escAttr(relValues(rel.value, 'nofollow ugc'))}">`;
		},
		true,
	);
}
