import crypto from 'node:crypto';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { Services } from '../services';
import type { ContentRow } from '../store/types';
import { route } from '../http/route';
import { ApiError, unauthorized, forbidden } from '../http/errors';
import { qBool } from '../http/schema';
import { can } from './roles';
import { siteSettings } from './settings';
import { PAGE, POST, type PostType } from './content/types';
import { permalink } from './content/views';
import { fileUrl } from '../gateway/views';

/** The post types whose items can be embedded (WordPress: the public ones), by stored type. */
const EMBEDDABLE: Record<string, PostType> = { post: POST, page: PAGE };

/** WordPress's `oembed_min_max_width` defaults: the iframe is kept between these widths. */
export const MIN_WIDTH = 200;
export const MAX_WIDTH = 600;

const notFound = (url: string) => new ApiError(404, `Not Found: ${url} is not a published post or page of this site`, 'oembed_invalid_url');

/**
 * The item a URL of this site names, as WordPress's `url_to_postid` reads the plain permalinks the
 * content routes answer in `link`: `?p=<id>`, `?page_id=<id>` (also `attachment_id`), on the site's
 * own host and port, at its root or `index.php`. Undefined for anything else.
 */
export function itemForUrl(services: Services, url: string): ContentRow | undefined {
	let parsed: URL;
	let home: URL;
	try {
		parsed = new URL(url);
		home = new URL(services.baseUrl);
	} catch {
		return undefined;
	}
	if (parsed.host !== home.host) return undefined;
	const root = home.pathname.replace(/\/$/, '');
	if (parsed.pathname !== `${root}/` && parsed.pathname !== `${root}/index.php` && parsed.pathname !== root) return undefined;
	const id = ['p', 'page_id', 'attachment_id'].map((key) => parsed.searchParams.get(key)).find((value) => value !== null);
	if (!id || !/^\d{1,15}$/.test(id)) return undefined;
	return services.store.content.get(Number(id));
}

/** An oEmbed answer (`get_oembed_response_data` with its rich type's fields). */
const oembedAnswer = z.object({
	version: z.literal('1.0'),
	provider_name: z.string(),
	provider_url: z.string(),
	author_name: z.string(),
	author_url: z.string(),
	title: z.string(),
	type: z.literal('rich'),
	width: z.number(),
	height: z.number(),
	html: z.string(),
	thumbnail_url: z.string().optional(),
	thumbnail_width: z.number().optional(),
	thumbnail_height: z.number().optional(),
});
export type OembedData = z.output<typeof oembedAnswer>;

/**
 * The item's featured image as `get_oembed_response_data_rich` gives it: its file, its size kept
 * within the embed's width (`wp_get_attachment_image_src` with `[width, 99999]`); nothing without one.
 */
function thumbnail(services: Services, row: ContentRow, width: number): Pick<OembedData, 'thumbnail_url' | 'thumbnail_width' | 'thumbnail_height'> {
	const attachment = row.featured_media ? services.store.attachments.get(row.featured_media) : undefined;
	if (!attachment) return {};
	const size = JSON.parse(attachment.details) as { width?: number; height?: number };
	if (!size.width || !size.height) return {};
	const scale = Math.min(1, width / size.width);
	return {
		thumbnail_url: fileUrl(services.baseUrl, attachment.file_id, attachment.file_name),
		thumbnail_width: Math.max(1, Math.round(size.width * scale)),
		thumbnail_height: Math.max(1, Math.round(size.height * scale)),
	};
}

/** Text for HTML, escaped as WordPress's `esc_html` does. */
export const escapeHtml = (text: string) =>
	text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);

/**
 * WordPress's oEmbed answer for an item (`get_oembed_response_data` + the `rich` type): undefined
 * unless it is a published post or page. `maxwidth` is kept between 200 and 600; the height follows
 * at 16:9, at least 200.
 */
export function oembedData(services: Services, row: ContentRow | undefined, maxwidth: number): OembedData | undefined {
	const def = row && EMBEDDABLE[row.type];
	if (!row || !def || row.status !== 'publish') return undefined;
	const settings = siteSettings(services.store);
	const home = services.baseUrl;
	const width = Math.min(Math.max(maxwidth, MIN_WIDTH), MAX_WIDTH);
	const height = Math.max(Math.ceil((width / 16) * 9), MIN_WIDTH);
	const author = row.author ? services.store.users.byId(row.author) : undefined;
	const link = permalink(services, def, row.id);
	// Pairs the blockquote with its iframe on the embedding page; stable per item, as nothing else depends on it.
	const secret = crypto.createHash('sha256').update(`oembed:${row.id}`).digest('base64url').replace(/[-_]/g, '').slice(0, 10);
	const title = escapeHtml(row.title);
	const html =
		`<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escapeHtml(link)}">${title}</a></blockquote>` +
		`<iframe sandbox="allow-scripts" security="restricted" src="${escapeHtml(`${link}&embed=true`)}#?secret=${secret}" width="${width}" height="${height}" ` +
		`title="&#8220;${title}&#8221; &#8212; ${escapeHtml(settings.name)}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`;
	return {
		version: '1.0',
		provider_name: settings.name,
		provider_url: home,
		author_name: author?.name ?? settings.name,
		author_url: author ? `${home}/?author=${author.id}` : home,
		title: row.title,
		type: 'rich',
		width,
		height,
		html,
		...thumbnail(services, row, width),
	};
}

const escapeXml = (text: string) =>
	text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** WordPress's `_oembed_create_xml`: one element per field inside `<oembed>`, nested for objects. */
export function oembedXml(data: Record<string, unknown>): string {
	const element = (key: string, value: unknown): string =>
		value && typeof value === 'object'
			? `<${key}>${Object.entries(value).map(([k, v]) => element(/^\d/.test(k) ? 'oembed' : k, v)).join('')}</${key}>`
			: `<${key}>${escapeXml(String(value ?? ''))}</${key}>`;
	return `<?xml version="1.0"?>\n${element('oembed', data)}\n`;
}

function sendXml(reply: FastifyReply, status: number, data: Record<string, unknown>) {
	return reply.code(status).type('text/xml; charset=UTF-8').send(oembedXml(data));
}

const maxwidth = z.coerce.number().int().min(0).default(MAX_WIDTH);

export const oembedRoutes = [
	route({
		method: 'GET',
		path: '/oembed/1.0/embed',
		auth: 'site',
		summary: 'oEmbed data of a published post or page of this site, as JSON or XML',
		// WordPress declares `format` and `maxwidth` with a default only: untyped, as the index shows them.
		query: z.object({
			url: z.url(),
			// `wp_oembed_ensure_format`: any other format is JSON.
			format: z
				.unknown()
				.default('json')
				.transform((format) => (format === 'xml' ? 'xml' : 'json')),
			maxwidth: z.unknown().default(MAX_WIDTH).pipe(maxwidth),
		}),
		// JSON, or with `format=xml` the same fields as XML (its errors too).
		answer: oembedAnswer,
		produces: 'text/xml',
		errors: [404],
		handler: ({ services, query, reply }) => {
			const data = oembedData(services, itemForUrl(services, query.url), query.maxwidth);
			if (query.format !== 'xml') {
				if (!data) throw notFound(query.url);
				return data;
			}
			// As WordPress: in XML, a failure is an XML document too.
			if (!data) {
				const error = notFound(query.url);
				return sendXml(reply, error.status, { code: error.code, message: error.message, data: { status: error.status } });
			}
			return sendXml(reply, 200, data as unknown as Record<string, unknown>);
		},
	}),
	route({
		method: 'GET',
		path: '/oembed/1.0/proxy',
		auth: 'site',
		summary: "oEmbed data of a URL, fetched by the site for an editor; this site's own posts and pages only (no outside network)",
		allowed: ({ siteUser }) => can(siteUser, 'edit_posts'),
		query: z.object({
			// WordPress's `format: uri` takes what `esc_url_raw` can make a URL of (`not a url` too): what resolves to
			// nothing is its 404 `oembed_invalid_url`.
			url: z
				.string()
				.refine((url) => url !== '', { error: 'must not be empty' })
				.meta({ format: 'uri' }),
			// Accepted as in WordPress, where only the embed route answers XML: this one is always JSON.
			format: z.enum(['json', 'xml']).default('json').meta({ description: 'The oEmbed format to use.' }),
			maxwidth: maxwidth.meta({ description: 'The maximum width of the embed frame in pixels.' }),
			maxheight: z.coerce.number().int().min(0).optional().meta({ description: 'The maximum height of the embed frame in pixels.' }),
			discover: qBool.prefault(true).meta({ description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.' }),
		}),
		answer: oembedAnswer,
		errors: [403, 404],
		handler: ({ services, siteUser, query }) => {
			const message = 'Sorry, you are not allowed to make proxied oEmbed requests.';
			if (!siteUser) throw unauthorized(message, 'rest_forbidden');
			if (!can(siteUser, 'edit_posts')) throw forbidden(message, 'rest_forbidden');
			// Outside URLs would need discovery over the network, which this server has not: only its own resolve.
			const data = oembedData(services, itemForUrl(services, query.url), query.maxwidth);
			if (!data) throw notFound(query.url);
			return data;
		},
	}),
];
