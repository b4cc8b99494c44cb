import mime from 'mime-types';
import { z } from 'zod';
import { badRequest, notFound } from '../../http/errors';
import { type Route, route } from '../../http/route';
import { fileUrl } from '../../gateway/views';
import type { Services } from '../../services';
import type { ContentRow, UserRow } from '../../store/types';
import { canEdit, denied } from '../content/capabilities';
import { imageSize } from '../content/image-size';
import { MEDIA } from '../content/media';
import type { ItemBody } from '../content/params';
import { PAGE, POST, type PostType } from '../content/types';
import { uploadMime } from '../content/upload';
import { contentEnv, writeItem } from '../content/write';
import { can } from '../roles';
import { sitePostTypes } from '../registry';
import { COMPONENT } from './components';
import { contentDef } from './navigation';
import { TEMPLATE } from './templates';

/**
 * `builder/v1/documents/{id}/media/import`: the images a document's builder data points at become
 * media items of the site, and the data is rewritten to point at them (`{url, id}` of each image
 * setting). The site has no outside network: an image comes as a `data:` URI (imported as a new
 * media item, as `cms/v2/media` would store an upload) or as the URL of one of the site's own media
 * (linked to that item); other URLs are reported as skipped.
 */

/** Raster images only: scripts and SVG are not imported (WordPress keeps them to `unfiltered_html`). */
const IMPORTABLE = /^image\/(png|jpe?g|gif|webp|bmp|avif)$/;

/** The content routes' definition of a document's type; undefined for what is no document. */
function documentDef(services: Services, row: ContentRow): PostType | undefined {
	if (row.type === COMPONENT.type) return COMPONENT;
	if (row.type === TEMPLATE.type) return TEMPLATE;
	const type = sitePostTypes(services.store).find((t) => t.slug === row.type && t.slug !== 'attachment');
	return type && contentDef(services, type);
}

const importedAnswer = z.object({
	from: z.enum(['data', 'site']).meta({ description: 'A new media item from a data: URI, or one of the site\'s own media' }),
	id: z.int(),
	source_url: z.string(),
});
type Imported = z.output<typeof importedAnswer>;

const skippedAnswer = z.object({ url: z.string(), reason: z.string() });
type Skipped = z.output<typeof skippedAnswer>;

/** What an import did, and the document's builder data after it (the builder's element tree). */
const importAnswer = z.object({
	id: z.int(),
	imported: z.array(importedAnswer),
	skipped: z.array(skippedAnswer),
	elements: z.unknown().meta({ description: "The document's builder data, pointing at the media" }),
});

/** A `data:` URI's type and bytes; undefined when it is not one. */
function dataUri(url: string): { type?: string; data: Buffer } | undefined {
	const m = url.match(/^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,]*)*)(;base64)?,(.*)$/s);
	if (!m) return undefined;
	try {
		const data = m[3] ? Buffer.from(m[4], 'base64') : Buffer.from(decodeURIComponent(m[4]), 'utf8');
		return { type: m[1], data };
	} catch {
		return undefined;
	}
}

/** What media/import does for one document, in the caller's transaction. */
class Importer {
	readonly imported: Imported[] = [];
	readonly skipped: Skipped[] = [];
	/** One media item per distinct URL of the document. */
	private done = new Map<string, Imported>();
	private readonly uploads: string;

	constructor(
		private services: Services,
		private user: UserRow,
		private document: ContentRow,
	) {
		this.uploads = `${services.baseUrl}/wp-content/uploads/wdm/`;
	}

	/** Walks the builder data and rewrites every image setting it imports. */
	walk(value: unknown): void {
		if (Array.isArray(value)) return value.forEach((item) => this.walk(item));
		if (!value || typeof value !== 'object') return;
		const object = value as Record<string, unknown>;
		if (typeof object.url === 'string' && object.url !== '') {
			const media = this.mediaFor(object.url);
			if (media) {
				object.url = media.source_url;
				object.id = media.id;
				object.source = 'library';
			}
		}
		for (const [key, child] of Object.entries(object)) if (key !== 'url') this.walk(child);
	}

	private mediaFor(url: string): Imported | undefined {
		const known = this.done.get(url);
		if (known) return known;
		const media = url.startsWith('data:') ? this.fromData(url) : url.startsWith(this.uploads) ? this.fromSite(url) : this.skip(url, 'not on this site (the site has no outside network)');
		if (media) {
			this.done.set(url, media);
			this.imported.push(media);
		}
		return media;
	}

	private skip(url: string, reason: string): undefined {
		// A data URI can be long: the report shows its start.
		this.skipped.push({ url: url.length > 80 ? `${url.slice(0, 77)}...` : url, reason });
		return undefined;
	}

	/** A media item of the site's own, by its file URL. */
	private fromSite(url: string): Imported | undefined {
		const fileId = decodeURIComponent(url.slice(this.uploads.length).split(/[/?#]/)[0] ?? '');
		const where = { sql: "c.type = 'attachment' AND EXISTS (SELECT 1 FROM attachments a WHERE a.content_id = c.id AND a.file_id = ?)", params: [fileId] };
		const [row] = this.services.store.content.find(where, { sql: 'c.id', params: [] }, 1, 0).rows;
		if (!row) return this.skip(url, 'no media item of the site has this URL');
		const attachment = this.services.store.attachments.get(row.id)!;
		return { from: 'site', id: row.id, source_url: fileUrl(this.services.baseUrl, attachment.file_id, attachment.file_name) };
	}

	/** A new media item from a `data:` URI, stored as an upload is (file, attachment, details). */
	private fromData(url: string): Imported | undefined {
		const decoded = dataUri(url);
		if (!decoded || decoded.data.length === 0) return this.skip(url, 'not a valid data URI');
		const n = this.imported.filter((m) => m.from === 'data').length + 1;
		const base = `builder-import-${this.document.id}-${n}`;
		const type = uploadMime(decoded.type, decoded.data, base);
		if (!IMPORTABLE.test(type)) return this.skip(url, `not an image that can be imported (${type})`);
		const fileName = `${base}.${mime.extension(type) || 'bin'}`;
		const { store } = this.services;
		const file = store.files.insert({ mimetype: type, file_name: fileName, data: decoded.data });
		// Media of a post or page are attached to it; others (templates, components) stay unattached.
		const parent = this.document.type === POST.type || this.document.type === PAGE.type ? this.document.id : 0;
		const written = writeItem(contentEnv(this.services, this.user, MEDIA), undefined, { title: base, status: 'inherit' as ItemBody['status'], ping_status: 'closed' }, { revision: false });
		const row = store.content.save({ ...written, mime_type: type, parent });
		store.attachments.insert({ content_id: row.id, file_id: file.id, alt_text: '', details: JSON.stringify({ ...imageSize(decoded.data), filesize: decoded.data.length }) });
		return { from: 'data', id: row.id, source_url: fileUrl(this.services.baseUrl, file.id, fileName) };
	}
}

export const documentRoutes: Route[] = [
	route({
		method: 'POST',
		path: '/builder/v1/documents/{id}/media/import',
		auth: 'site',
		summary: "Import the images of a document's builder data (data: URIs, the site's own media URLs) as media items and point the data at them",
		params: z.object({ id: z.string() }),
		patterns: { id: '\\d+' },
		answer: importAnswer,
		errors: [403],
		handler: ({ services, siteUser: user, params }) => {
			if (!user) throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
			const row = services.store.content.get(Number(params.id));
			const def = row && row.status !== 'trash' ? documentDef(services, row) : undefined;
			if (!row || !def) throw notFound('Invalid post ID.', 'rest_post_invalid_id');
			if (!canEdit(user, def, row)) throw denied(user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
			if (!can(user, 'upload_files')) throw denied(user, 'rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.');
			const raw = (JSON.parse(row.meta) as { _builder_data?: string })._builder_data ?? '';
			let data: unknown = [];
			if (raw.trim()) {
				try {
					data = JSON.parse(raw);
				} catch {
					throw badRequest("The document's builder data is not valid JSON.", 'rest_invalid_builder_data');
				}
			}
			return services.store.tx(() => {
				const importer = new Importer(services, user, row);
				importer.walk(data);
				if (importer.imported.length) {
					writeItem(contentEnv(services, user, def), row, { meta: { _builder_data: JSON.stringify(data) } }, { revision: false });
				}
				return { id: row.id, imported: importer.imported, skipped: importer.skipped, elements: data };
			});
		},
	}),
];

