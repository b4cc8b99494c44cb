/**
 * Rendering of stored text, simplified from WordPress: paragraphs and line breaks (`wpautop`), the
 * generated excerpt (`wp_trim_excerpt`), slugs (`sanitize_title`). No shortcodes, no texturizing,
 * no block rendering: block markup passes through as written.
 */

/** Elements that are blocks of their own: never wrapped in a paragraph. */
const BLOCK = /^<\/?(?:address|article|aside|blockquote|details|div|dl|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul|!--)/i;

/** Blank lines end paragraphs, single line breaks become `<br />`, as `wpautop` does. */
export function autop(text: string): string {
	const normalised = text.replace(/\r\n?/g, '\n').trim();
	if (normalised === '') return '';
	return normalised
		.split(/\n\s*\n/)
		.map((chunk) => chunk.trim())
		.filter(Boolean)
		.map((chunk) => (BLOCK.test(chunk) ? `${chunk}\n` : `<p>${chunk.replace(/\n/g, '<br />\n')}</p>\n`))
		.join('\n');
}

/** WordPress's default excerpt length in words. */
export const EXCERPT_WORDS = 55;

/** The text of some HTML: tags and block comments dropped, whitespace collapsed. */
const plainText = (html: string) =>
	html
		.replace(/<!--[\s\S]*?-->/g, ' ')
		.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();

/** The excerpt shown when none was written: the content's first words, ` [&hellip;]` when cut. */
export function generatedExcerpt(content: string, words = EXCERPT_WORDS): string {
	const all = plainText(content).split(' ').filter(Boolean);
	if (all.length <= words) return all.join(' ');
	return `${all.slice(0, words).join(' ')} [&hellip;]`;
}

/** An excerpt as `rendered`: the written one, else the generated one, in paragraphs. */
export function renderExcerpt(excerpt: string, content: string, words = EXCERPT_WORDS): string {
	return autop(excerpt.trim() !== '' ? excerpt : generatedExcerpt(content, words));
}

/** Half of a surrogate pair without the other half: no character, and percent-encoding would throw. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Slugs are at most this long (WordPress's `post_name` column). */
export const SLUG_MAX = 200;

/**
 * WordPress's `sanitize_title`: accents dropped, lower case, spaces and dots as dashes, other
 * characters dropped, except letters beyond ASCII, which are percent-encoded (and stay so when a
 * slug is sanitized again).
 */
export function sanitizeTitle(text: string): string {
	const slug = text
		.replace(LONE_SURROGATE, '')
		.replace(/<[^>]*>/g, '')
		.replace(/&[a-z0-9#]+;/gi, '')
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[.\s]+/g, '-')
		.replace(/[^a-z0-9_%\-\u0080-\uffff]/g, '')
		.replace(/%(?![0-9a-f]{2})/g, '')
		.replace(/[\u0080-\uffff]+/g, (chars) => encodeURIComponent(chars).toLowerCase())
		.replace(/-+/g, '-')
		.replace(/^-|-$/g, '');
	return slug.length > SLUG_MAX ? slug.slice(0, SLUG_MAX).replace(/%[0-9a-f]?$/, '').replace(/-$/, '') : slug;
}

/** 1 when the content is made of blocks (`<!-- wp:... -->`), else 0 (WordPress's `block_version`). */
export const blockVersion = (content: string) => (/<!--\s+wp:/.test(content) ? 1 : 0);
