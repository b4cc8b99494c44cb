import { z } from 'zod';
import { ApiError, badRequest, builtInIssues, invalidParams } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type AllowContext, type Method, type Route, route } from '../../http/route';
import { fileUrl } from '../../gateway/views';
import type { Services } from '../../services';
import type { Sql } from '../../store/content';
import type { ContentRow, UserRow } from '../../store/types';
import { can } from '../roles';
import { canDelete, canEdit, canRead, checkItemContext, checkListContext, denied, readableSql } from './capabilities';
import { applyEdits, editedDetails, fileDetails, type ImageCopy, type ImageEdit, ImageEditError, missingCopies, missingSizes, sizeDetails, type StoredDetails } from './media-details';
import { deletedAnswer, fieldArg } from '../item-schema';
import { captionField, descriptionField } from './post-schema';
import { DIGITS, type CollectionParams, collectionParams, contextParam, idList, type ItemBody, itemBody, list, wpBool, wpInt } from './params';
import { checkOrderby, checkStatuses, collectionWhere, inList, pagingHeaders, pathId, perTypeSql, runCollection } from './query';
import { autop, renderExcerpt } from './render';
import { ATTACHMENT_SUPPORTS, PAGE, POST, POST_CAPS, type PostType } from './types';
import { readUpload, type Upload } from './upload';
import { alternateLink, collectionUrl, contentView, inContext, itemUrl, POST_FIELDS, rawRendered, type ViewEnv, viewEnv } from './views';
import { ALL, type ContextTable, EDIT, VIEW_EDIT } from '../contexts';
import { mediaAnswer, mediaItemSchema } from './post-schema';
import { checkUpdate, contentEnv, deleteItem, getItem, type WriteEnv, writeItem } from './write';

/**
 * `cms/v2/media`: WordPress's attachments controller over the content model. A media item is a content
 * item of type `attachment` (caption in `excerpt`, description in `content`, attached post in `parent`)
 * with its stored file in `attachments`; only what differs from posts is declared here.
 */
export const MEDIA: PostType = {
	type: 'attachment',
	base: 'media',
	caps: POST_CAPS,
	hierarchical: false,
	formats: false,
	sticky: false,
	taxonomies: [],
	// WordPress without MEDIA_TRASH: DELETE needs force=true (501 otherwise).
	trash: false,
	revisions: false,
	discussion: 'open',
	permalinkKey: 'attachment_id',
	// Attachment slugs are unique across every type.
	slugTypes: ['post', 'page', 'attachment'],
	supports: ATTACHMENT_SUPPORTS,
};

/** The `media_type` filter: the first part of the MIME type. */
export const MEDIA_TYPES = ['image', 'video', 'text', 'application', 'audio'] as const;
/** The statuses media can be listed by; every media item is `inherit` (public with its post) or `private`. */
export const MEDIA_STATUSES = ['inherit', 'private', 'trash'] as const;

/** Post types a media item can be attached to. */
const PARENT_TYPES = [POST, PAGE];

/** The post fields media has (no password, content, excerpt: caption and description take their place). */
const postFields = itemBody(MEDIA).pick({
	date: true,
	date_gmt: true,
	slug: true,
	status: true,
	title: true,
	author: true,
	featured_media: true,
	comment_status: true,
	ping_status: true,
	meta: true,
	template: true,
});
/** `title`'s form (a string, or an object with `raw`), which caption and description share. */
const rawText = postFields.shape.title;

/** The writable fields of a media item; unknown fields are ignored. */
const mediaBody = postFields.extend({
	alt_text: z.string().optional(),
	caption: rawText.meta(fieldArg(captionField)),
	description: rawText.meta(fieldArg(descriptionField)),
	post: wpInt(0).optional(),
});
type MediaBody = z.output<typeof mediaBody>;

/** An upload takes the same fields, from the query string (raw body) or the form (multipart). */
const uploadFields = phpQuery(mediaBody.shape);

type MediaParams = CollectionParams & {
	parent: number[];
	parent_exclude: number[];
	media_type?: (typeof MEDIA_TYPES)[number][];
	mime_type?: string[];
};

const { status: _postStatus, ...postParams } = collectionParams(MEDIA);
const mediaParams = phpQuery({
	...postParams,
	status: list(z.enum(MEDIA_STATUSES)).default(['inherit']).meta({ default: 'inherit' }),
	parent: idList().default([]).meta({ default: [] }),
	parent_exclude: idList().default([]).meta({ default: [] }),
	// Lists, as the spec and WordPress 6.9 declare them (6.1 declared one type): clients read from the
	// declaration whether the site takes two (WDM Media's Get Many, nodes/shared/newerWordPress.ts).
	media_type: list(z.enum(MEDIA_TYPES)).optional().meta({ default: null }),
	mime_type: list(z.string()).optional().meta({ default: null }),
});

/** WordPress's `sanitize_text_field` for `alt_text`: no tags, no line breaks, whitespace collapsed. */
const textField = (text: string) =>
	text
		.replace(/<[^>]*>/g, '')
		.replace(/\s+/g, ' ')
		.trim();

/** Attachments are `inherit` or `private`: WordPress turns every other written status into `inherit`. */
const storedStatus = (status: string | undefined) => (status === undefined ? undefined : status === 'private' ? 'private' : 'inherit');

/** The media fields as the content write path names them (description is `content`, caption `excerpt`). */
function asItemBody(body: MediaBody): ItemBody {
	const { alt_text: _alt, caption, description, post: _post, status, ...rest } = body;
	// `inherit` is no status a post may be given: the write path stores it as it is.
	return { ...rest, content: description, excerpt: caption, status: storedStatus(status) as ItemBody['status'] };
}

/** The post or page a media item is attached to (`post`): it must be one, and be editable by the caller. */
function checkAttachTo(env: WriteEnv, id: number, uploading: boolean) {
	const parent = env.services.store.content.get(id);
	if (!parent) {
		// As WordPress: no one may edit a post that does not exist, so an upload to it is refused; an
		// update stores the id as given (the item reads as unattached until such a post exists).
		if (uploading) throw denied(env.user, 'rest_cannot_edit', 'Sorry, you are not allowed to upload media to this post.');
		return;
	}
	const def = PARENT_TYPES.find((d) => d.type === parent.type);
	if (!def) throw badRequest('Invalid parent type.', 'rest_invalid_param');
	if (!canEdit(env.user, def, parent)) throw denied(env.user, 'rest_cannot_edit', 'Sorry, you are not allowed to upload media to this post.');
}

/** WordPress's `create_item_permissions_check` for media: `upload_files`, and the rights over author and post. */
function checkUpload(env: WriteEnv, body: MediaBody) {
	const { user } = env;
	if (!can(user, 'upload_files')) throw denied(user, 'rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.');
	if (body.author && body.author !== user?.id && !can(user, MEDIA.caps.edit_others_posts)) {
		throw denied(user, 'rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.');
	}
	if (body.post) checkAttachTo(env, body.post, true);
}

/**
 * Types a browser runs when the site serves them (pages, scripts, SVG): as WordPress keeps HTML and
 * scripts to users with `unfiltered_html`, so that an author's upload cannot attack the site's admins.
 */
const ACTIVE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/javascript', 'application/javascript', 'application/x-javascript', 'text/xml', 'application/xml']);

/** The file extensions WordPress 6.x takes (`get_allowed_mime_types`: no `exe`, no `swf`, no SVG). */
const ALLOWED_EXTENSIONS = new Set(
	(
		'jpg jpeg jpe gif png bmp tiff tif webp ico heic asf asx wmv wmx wm avi divx flv mov qt mpeg mpg mpe mp4 m4v ogv webm mkv ' +
		'3gp 3gpp 3g2 3gp2 txt asc c cc h srt csv tsv ics rtx css vtt dfxp mp3 m4a m4b aac ra ram wav ogg oga flac mid midi wma wax ' +
		'mka rtf pdf class tar zip gz gzip rar 7z psd xcf doc pot pps ppt wri xla xls xlt xlw mdb mpp docx docm dotx dotm xlsx xlsm ' +
		'xlsb xltx xltm xlam pptx pptm ppsx ppsm potx potm ppam sldx sldm onetoc onetoc2 onetmp onepkg oxps xps odt odp ods odg odc ' +
		'odb odf wp wpd key numbers pages'
	).split(' '),
);
/** Pages and scripts: only for users with `unfiltered_html`, as WordPress. */
const UNFILTERED_EXTENSIONS = new Set(['htm', 'html', 'js']);

/**
 * WordPress's `wp_check_filetype_and_ext` as the upload sees it: the file's extension must be one
 * WordPress takes, and active content (by extension or type) needs `unfiltered_html`. WordPress
 * answers 500 `rest_upload_sideload_error` here.
 */
function checkFileType(user: UserRow | null, upload: Upload) {
	const ext = /\.([^.]+)$/.exec(upload.fileName)?.[1].toLowerCase() ?? '';
	const unfiltered = can(user, 'unfiltered_html');
	const allowed = ALLOWED_EXTENSIONS.has(ext) || (UNFILTERED_EXTENSIONS.has(ext) && unfiltered);
	if (!allowed || (ACTIVE_TYPES.has(upload.mimeType) && !unfiltered)) {
		throw new ApiError(500, 'Sorry, you are not allowed to upload this file type.', 'rest_upload_sideload_error');
	}
}

/** The image's own title, unless it is only a number (WordPress keeps file names such as `IMG_0001` then). */
function metaTitle(details: StoredDetails): string | undefined {
	const title = details.image_meta?.title.trim();
	return title && !/^[\d.-]+$/.test(title) ? title : undefined;
}

/** WordPress's default title: the file name without its extension. */
const titleOf = (fileName: string) => fileName.replace(/\.[^.]+$/, '').trim();

/**
 * Whether the caller may read a media item: as any content item, or, while it is `inherit`, as its
 * post may be read (one without a post, or whose post is gone, is public), as WordPress decides.
 */
function canReadMedia(services: Services, user: UserRow | null, row: ContentRow): boolean {
	if (canRead(user, MEDIA, row)) return true;
	if (row.status !== 'inherit') return false;
	const parent = row.parent ? services.store.content.get(row.parent) : undefined;
	if (!parent) return true;
	const def = PARENT_TYPES.find((d) => d.type === parent.type);
	return !!def && canRead(user, def, parent);
}

/** `canReadMedia` as SQL over `content c`: what media lists count and the engine's queries find. */
export function readableMediaSql(user: UserRow | null): Sql {
	const own = readableSql(user, MEDIA);
	const parent = (sql: string) => `SELECT 1 FROM content p WHERE p.id = c.parent${sql}`;
	const readableParent = perTypeSql(PARENT_TYPES, (def) => readableSql(user, def, 'p'), 'p');
	return {
		sql: `(${own.sql} OR (c.status = 'inherit' AND (NOT EXISTS (${parent('')}) OR EXISTS (${parent(` AND ${readableParent.sql}`)}))))`,
		params: [...own.params, ...readableParent.params],
	};
}

/** `media_type` and `mime_type` together: items of any of the named kinds or types, as WordPress merges them. */
function mimeSql(params: MediaParams): Sql | undefined {
	const parts: Sql[] = (params.media_type ?? []).map((type) => ({ sql: 'c.mime_type LIKE ?', params: [`${type}/%`] }));
	if (params.mime_type?.length) parts.push(inList('c.mime_type', params.mime_type.map((t) => t.trim().toLowerCase())));
	if (!parts.length) return undefined;
	return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
}

/** The fields a media item shares with posts, taken from the post view (and shown in the same contexts). */
const SHARED = [
	'id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'author',
	'featured_media', 'comment_status', 'ping_status', 'template', 'meta', 'permalink_template', 'generated_slug', 'class_list',
] as const;

/** Which contexts show each field of a media item (WordPress's attachment schema). */
const MEDIA_FIELDS: ContextTable = {
	...Object.fromEntries(SHARED.map((key) => [key, POST_FIELDS[key]])),
	description: rawRendered(VIEW_EDIT),
	caption: rawRendered(ALL),
	alt_text: ALL,
	media_type: ALL,
	mime_type: ALL,
	media_details: ALL,
	post: VIEW_EDIT,
	source_url: ALL,
	missing_image_sizes: EDIT,
};

/**
 * `media_details` as WordPress answers them: the stored metadata, for an image with its `file` (the path
 * below the uploads folder, as `source_url` ends) and each size's `source_url` (served beside the
 * original), then the original as `full` when there are sizes; `sizes` is `{}` otherwise.
 */
function answerDetails(baseUrl: string, fileId: string, fileName: string, mimeType: string, stored: StoredDetails) {
	const { width, height, filesize, sizes: made = {}, image_meta, original_image, parent_image } = stored;
	const image = width !== undefined && height !== undefined;
	const entries = Object.entries(made);
	const sizes: Record<string, unknown> = Object.fromEntries(entries.map(([name, size]) => [name, { ...size, source_url: fileUrl(baseUrl, fileId, size.file) }]));
	if (image && entries.length) sizes.full = { file: fileName, width, height, mime_type: mimeType, source_url: fileUrl(baseUrl, fileId, fileName) };
	return {
		...(image ? { width, height, file: `wdm/${fileId}/${fileName}` } : {}),
		filesize,
		sizes,
		...(image_meta ? { image_meta } : {}),
		...(original_image ? { original_image } : {}),
		...(parent_image ? { parent_image } : {}),
	};
}

/** A media item as the routes answer it, in the env's context. */
export function mediaView(env: ViewEnv, row: ContentRow): Record<string, unknown> {
	const { services } = env;
	const post = contentView({ ...env, context: 'edit' }, row);
	// The post view was made in the edit context for its fields; the action links are for that context only.
	const actionsShown = env.context === 'edit';
	const attachment = services.store.attachments.get(row.id);
	const source = attachment ? fileUrl(services.baseUrl, attachment.file_id, attachment.file_name) : null;
	const details = attachment ? (JSON.parse(attachment.details) as StoredDetails) : undefined;
	const { curies, ...all } = post._links as Record<string, unknown>;
	const links: Record<string, unknown> = Object.fromEntries(Object.entries(all).filter(([rel]) => actionsShown || !rel.startsWith('wp:action-')));
	// As WordPress compacts them: the `wp` curie only beside a `wp:` link.
	if (Object.keys(links).some((rel) => rel.startsWith('wp:'))) links.curies = curies;
	const full: Record<string, unknown> = {
		...Object.fromEntries(SHARED.map((key) => [key, post[key]])),
		guid: { rendered: source, raw: source },
		description: { raw: row.content, rendered: autop(row.content) },
		caption: { raw: row.excerpt, rendered: renderExcerpt(row.excerpt, row.content) },
		alt_text: attachment?.alt_text ?? '',
		// WordPress's response field says image or not; the `media_type` filter takes the MIME kinds.
		media_type: row.mime_type.startsWith('image/') ? 'image' : 'file',
		mime_type: row.mime_type,
		media_details: attachment && details ? answerDetails(services.baseUrl, attachment.file_id, attachment.file_name, row.mime_type, details) : {},
		post: row.parent || null,
		source_url: source,
		missing_image_sizes: details ? missingSizes(details) : [],
		_links: links,
	};
	return inContext(full, MEDIA_FIELDS, env.context);
}

const idParams = z.object({ id: z.string() });

/** Stores an image's resized copies (and its kept original) beside it. */
function storeCopies(services: Services, contentId: number, copies: ImageCopy[]) {
	for (const copy of copies) {
		const file = services.store.files.insert({ mimetype: copy.mimeType, file_name: copy.fileName, data: copy.data });
		services.store.attachments.addSize(contentId, copy.name, file.id);
	}
}

/** The image types WordPress's `/edit` takes. */
const EDITABLE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** A number, also written as text (a form's fields are text). */
const wpNumber = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v), z.number());
const percent = wpNumber.pipe(z.number().min(0).max(100));

/** `/media/{id}/edit`'s arguments (WordPress's `get_edit_media_item_args`): `modifiers`, or the older rotation and crop. */
const number = (description: string) => ({ description, type: 'number' });
const DEPRECATED = 'DEPRECATED: Use `modifiers` instead.';
const cropPercent = (what: string) => percent.optional().meta({ description: `As a percentage of the image, ${what}. ${DEPRECATED}`, minimum: 0, maximum: 100 });
const editBody = z.object({
	src: z.url().meta({ description: 'URL to the edited image file.' }),
	modifiers: z
		.array(
			z.discriminatedUnion('type', [
				z.object({ type: z.literal('rotate'), args: z.object({ angle: wpNumber }) }),
				z.object({ type: z.literal('crop'), args: z.object({ left: wpNumber, top: wpNumber, width: wpNumber, height: wpNumber }) }),
			]),
		)
		.min(1)
		.optional()
		// The edits as WordPress declares them: one object of two forms.
		.meta({
			description: 'Array of image edits.',
			items: {
				description: 'Image edit.',
				type: 'object',
				required: ['type', 'args'],
				oneOf: [
					{
						title: 'Rotation',
						properties: {
							type: { description: 'Rotation type.', type: 'string', enum: ['rotate'] },
							args: { description: 'Rotation arguments.', type: 'object', required: ['angle'], properties: { angle: number('Angle to rotate clockwise in degrees.') } },
						},
					},
					{
						title: 'Crop',
						properties: {
							type: { description: 'Crop type.', type: 'string', enum: ['crop'] },
							args: {
								description: 'Crop arguments.',
								type: 'object',
								required: ['left', 'top', 'width', 'height'],
								properties: {
									left: number('Horizontal position from the left to begin the crop as a percentage of the image width.'),
									top: number('Vertical position from the top to begin the crop as a percentage of the image height.'),
									width: number('Width of the crop as a percentage of the image width.'),
									height: number('Height of the crop as a percentage of the image height.'),
								},
							},
						},
					},
				],
			},
		}),
	// 1 to 359 are WordPress's "between 0 and 360, both excluded".
	rotation: wpInt(1, 359)
		.optional()
		.meta({ description: `The amount to rotate the image clockwise in degrees. ${DEPRECATED}`, minimum: 0, exclusiveMinimum: true, maximum: 360, exclusiveMaximum: true }),
	x: cropPercent('the x position to start the crop from'),
	y: cropPercent('the y position to start the crop from'),
	width: cropPercent('the width to crop the image to'),
	height: cropPercent('the height to crop the image to'),
});

/** The edits asked for: `modifiers` win over the older fields. */
function editsOf(body: z.output<typeof editBody>): ImageEdit[] {
	if (body.modifiers) return body.modifiers.map((m) => (m.type === 'rotate' ? { type: 'rotate', angle: m.args.angle } : { type: 'crop', ...m.args }));
	const edits: ImageEdit[] = [];
	if (body.rotation) edits.push({ type: 'rotate', angle: body.rotation });
	if (body.x !== undefined && body.y !== undefined && body.width !== undefined && body.height !== undefined) {
		edits.push({ type: 'crop', left: body.x, top: body.y, width: body.width, height: body.height });
	}
	return edits;
}

/** `photo.jpg` -> `photo-edited.jpg`; an edited image's edit keeps one `-edited`. */
function editedName(fileName: string): string {
	const dot = fileName.lastIndexOf('.');
	const [base, ext] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ''];
	return `${base.replace(/-edited(-\d+)?$/, '')}-edited${ext}`;
}

/** The last segment of a URL's path, decoded. */
function baseName(url: string): string {
	const last = new URL(url).pathname.split('/').pop() ?? '';
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}

/** What `post-process` can do: WordPress 6.x knows one action. */
const POST_PROCESS_ACTIONS = ['create-image-subsizes'] as const;

const BASE = `/cms/v2/${MEDIA.base}`;

/** For the `Allow` header: what the caller may do to the media item (WordPress's permission callbacks). */
const onItem =
	(may: (services: Services, user: UserRow | null, row: ContentRow) => boolean) =>
	({ services, siteUser, params, request }: AllowContext) =>
		may(services, siteUser, getItem(services, MEDIA, pathId(request, params.id)));

/** What a media route answers (the contract). */
const MEDIA_ANSWER = mediaAnswer(MEDIA);

const update = (method: Method) =>
	route({
		method,
		path: `${BASE}/{id}`,
		auth: 'site',
		summary: 'Update a media item: title, caption, description, alt text, attached post, status and the other writable fields',
		allowed: onItem((_, user, row) => canEdit(user, MEDIA, row)),
		params: idParams,
		patterns: { id: DIGITS },
		body: mediaBody,
		answer: MEDIA_ANSWER,
		errors: [403],
		handler: ({ services, siteUser: user, params, body, request }) => {
			const id = pathId(request, params.id);
			const env = contentEnv(services, user, MEDIA);
			const { store } = services;
			const row = store.tx(() => {
				const before = getItem(services, MEDIA, id);
				const item = asItemBody(body);
				checkUpdate(env, before, item);
				if (body.post) checkAttachTo(env, body.post, false);
				let saved = writeItem(env, before, item, { revision: false });
				if (body.post !== undefined) saved = store.content.save({ ...saved, parent: body.post });
				if (body.alt_text !== undefined) store.attachments.setAltText(id, textField(body.alt_text));
				return saved;
			});
			return mediaView(viewEnv(services, user, MEDIA, 'edit'), row);
		},
	});

export const mediaRoutes: Route[] = [
	route({
		method: 'GET',
		path: BASE,
		auth: 'site',
		schema: (services) => mediaItemSchema(MEDIA, services),
		summary: 'List media, filtered (media_type, mime_type, parent, ...), searched and paged (X-WP-Total, X-WP-TotalPages, Link)',
		query: mediaParams,
		answer: z.array(MEDIA_ANSWER),
		errors: [403],
		handler: ({ services, siteUser: user, query, request, reply }) => {
			const params = query as MediaParams;
			const env = contentEnv(services, user, MEDIA);
			checkStatuses(user, MEDIA, params.status, 'inherit');
			checkListContext(user, MEDIA, params.context);
			checkOrderby(params);
			const where = collectionWhere(services, user, MEDIA, params, env.zone, readableMediaSql(user));
			if (params.parent.length) where.addSql(inList('c.parent', params.parent));
			if (params.parent_exclude.length) where.addSql(inList('c.parent', params.parent_exclude, true));
			const types = mimeSql(params);
			if (types) where.addSql(types);
			const visible = (row: ContentRow) => (params.context === 'edit' ? canEdit(user, MEDIA, row) : canReadMedia(services, user, row));
			const page = runCollection(services, MEDIA, where, params, visible);
			pagingHeaders(reply, request, collectionUrl(services, MEDIA), page.page, page.total, page.totalPages);
			const view = viewEnv(services, user, MEDIA, params.context);
			return page.items.map((row) => mediaView(view, row));
		},
	}),

	route({
		method: 'POST',
		path: BASE,
		auth: 'site',
		rawBody: true,
		summary:
			'Upload a file (201, Location): the raw body with its Content-Type and Content-Disposition: attachment; filename=..., ' +
			'or multipart/form-data with the file in `file`; the other fields in the query string or the form',
		// WordPress's check on the request: `upload_files`, and the rights over the author and post it names.
		allowed: ({ services, siteUser, request }) => {
			const query = request.query as { post?: unknown; author?: unknown };
			checkUpload(contentEnv(services, siteUser, MEDIA), { post: Number(query.post) || undefined, author: Number(query.author) || undefined } as MediaBody);
			return true;
		},
		query: uploadFields,
		answer: MEDIA_ANSWER,
		status: 201,
		// 412: the file is not the one its Content-MD5 names.
		errors: [403, 412],
		handler: async ({ services, siteUser: user, request, reply }) => {
			const { fields, file } = readUpload(request);
			const input = { ...(request.query as object), ...fields };
			const parsed = uploadFields.safeParse(input, builtInIssues);
			if (!parsed.success) throw invalidParams(parsed.error, input, 'query');
			const body = parsed.data as MediaBody;
			const env = contentEnv(services, user, MEDIA);
			checkUpload(env, body);
			const upload = file();
			checkFileType(user, upload);
			// Sizes and metadata first (sharp works off the event loop), then everything is written at once.
			const { details, main, copies } = await fileDetails(upload.data, upload.fileName, upload.mimeType);
			const { store } = services;
			const row = store.tx(() => {
				// Checked again: the attached post may have changed while the image was resized.
				checkUpload(env, body);
				const stored = store.files.insert({ mimetype: upload.mimeType, file_name: main.fileName, data: main.data });
				const item: ItemBody = {
					...asItemBody(body),
					// As WordPress: the image's own title and caption (IPTC, EXIF) unless the request gives them.
					title: body.title || metaTitle(details) || titleOf(upload.originalName) || titleOf(upload.fileName),
					excerpt: body.caption || details.image_meta?.caption || undefined,
					status: (storedStatus(body.status) ?? 'inherit') as ItemBody['status'],
					// Attachments take comments but no pings (WordPress's defaults for the type).
					ping_status: body.ping_status ?? 'closed',
				};
				const written = writeItem(env, undefined, item, { revision: false });
				const saved = store.content.save({ ...written, mime_type: upload.mimeType, parent: body.post ?? 0 });
				store.attachments.insert({ content_id: saved.id, file_id: stored.id, alt_text: textField(body.alt_text ?? ''), details: JSON.stringify(details) });
				storeCopies(services, saved.id, copies);
				return saved;
			});
			reply.header('Location', itemUrl(services, MEDIA, row.id)).header('X-WP-Upload-Attachment-ID', String(row.id));
			return mediaView(viewEnv(services, user, MEDIA, 'edit'), row);
		},
	}),

	route({
		method: 'GET',
		path: `${BASE}/{id}`,
		auth: 'site',
		schema: (services) => mediaItemSchema(MEDIA, services),
		summary: 'Get a media item with its file URL (source_url) and details',
		allowed: onItem(canReadMedia),
		params: idParams,
		patterns: { id: DIGITS },
		query: phpQuery({ context: contextParam }),
		answer: MEDIA_ANSWER,
		errors: [403],
		handler: ({ services, siteUser: user, params, query, request, reply }) => {
			const id = pathId(request, params.id);
			contentEnv(services, user, MEDIA);
			const row = getItem(services, MEDIA, id);
			checkItemContext(user, MEDIA, row, query.context);
			if (!canReadMedia(services, user, row)) throw denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
			reply.header('Link', alternateLink(services, MEDIA, row.id));
			return mediaView(viewEnv(services, user, MEDIA, query.context), row);
		},
	}),

	update('POST'),
	update('PUT'),
	update('PATCH'),

	route({
		method: 'POST',
		path: `${BASE}/{id}/edit`,
		auth: 'site',
		summary: 'Edit an image (rotate, crop) into a new media item (201, Location): the original stays as it is',
		// WordPress's edit route declares no `id` argument (the pattern carries it).
		params: z.object({ id: z.string().meta({ argument: false }) }),
		// `edit_media_item_permissions_check`: `upload_files`, then the item's update check.
		allowed: onItem((_, user, row) => can(user, 'upload_files') && canEdit(user, MEDIA, row)),
		patterns: { id: DIGITS },
		body: editBody,
		answer: MEDIA_ANSWER,
		status: 201,
		errors: [403],
		handler: async ({ services, siteUser: user, params, body, request, reply }) => {
			const id = pathId(request, params.id);
			const env = contentEnv(services, user, MEDIA);
			const { store } = services;
			if (!can(user, 'upload_files')) throw denied(user, 'rest_cannot_edit_image', 'Sorry, you are not allowed to upload media on this site.');
			const row = getItem(services, MEDIA, id);
			checkUpdate(env, row, {});
			const attachment = store.attachments.get(id);
			const details = attachment ? (JSON.parse(attachment.details) as StoredDetails) : undefined;
			// `src` must be one of the image's files (`wp_image_file_matches_image_meta`).
			const files = new Set([attachment?.file_name, details?.original_image, ...Object.values(details?.sizes ?? {}).map((size) => size.file)]);
			if (!attachment || !details || details.width === undefined || !files.has(baseName(body.src))) {
				throw new ApiError(404, 'Unable to get meta information for file.', 'rest_unknown_attachment');
			}
			if (!EDITABLE.has(row.mime_type)) throw badRequest('This type of file cannot be edited.', 'rest_cannot_edit_file_type');
			const edits = editsOf(body);
			if (!edits.length) throw badRequest('The image was not edited. Edit the image before applying the changes.', 'rest_image_not_edited');
			// Edits start from the upload: the kept original when a scaled or upright copy is served.
			const originalId = store.attachments.sizeFiles(id).get('original_image') ?? attachment.file_id;
			const original = store.files.byId(originalId)!;
			let edited: Buffer;
			try {
				edited = await applyEdits(original.data, row.mime_type, edits);
			} catch (error) {
				if (error instanceof ImageEditError) throw new ApiError(500, error.message, error.code);
				throw error;
			}
			const fileName = editedName(original.file_name);
			const made = await fileDetails(edited, fileName, row.mime_type);
			const saved = store.tx(() => {
				// Still there and still the caller's to edit, after the image work.
				const source = getItem(services, MEDIA, id);
				checkUpdate(env, source, {});
				const stored = store.files.insert({ mimetype: row.mime_type, file_name: made.main.fileName, data: made.main.data });
				// WordPress copies the title, description and caption; the new item is attached to nothing.
				const item: ItemBody = { title: source.title, content: source.content, excerpt: source.excerpt, status: 'inherit' as ItemBody['status'], ping_status: 'closed' };
				const written = writeItem(env, undefined, item, { revision: false });
				const created = store.content.save({ ...written, mime_type: row.mime_type, parent: 0 });
				const parent = { attachment_id: String(id), file: `wdm/${originalId}/${original.file_name}` };
				const alt = store.attachments.get(id)?.alt_text ?? '';
				store.attachments.insert({ content_id: created.id, file_id: stored.id, alt_text: alt, details: JSON.stringify(editedDetails(made.details, details, parent)) });
				storeCopies(services, created.id, made.copies);
				return created;
			});
			reply.header('Location', itemUrl(services, MEDIA, saved.id)).header('X-WP-Upload-Attachment-ID', String(saved.id));
			// WordPress answers in the request's context, which this route leaves as `view`.
			return mediaView(viewEnv(services, user, MEDIA, 'view'), saved);
		},
	}),

	route({
		method: 'POST',
		path: `${BASE}/{id}/post-process`,
		auth: 'site',
		summary: 'Make the sizes an image is missing (action create-image-subsizes), as after an upload; answers the item',
		params: idParams,
		// `post_process_item_permissions_check` is the item's update check.
		allowed: onItem((_, user, row) => canEdit(user, MEDIA, row)),
		patterns: { id: DIGITS },
		// WordPress reads `action` from the body or the query string.
		// Required of the query or the body, as WordPress declares it.
		query: phpQuery({ action: z.enum(POST_PROCESS_ACTIONS).optional().meta({ required: true }) }),
		body: z.object({ action: z.enum(POST_PROCESS_ACTIONS).optional() }),
		answer: MEDIA_ANSWER,
		errors: [403],
		handler: async ({ services, siteUser: user, params, query, body, request }) => {
			const id = pathId(request, params.id);
			const env = contentEnv(services, user, MEDIA);
			const { store } = services;
			// Required, as WordPress's route declares it (checked before the rights, as WordPress does).
			if (!(body.action ?? query.action)) throw badRequest('Missing parameter(s): action', 'rest_missing_callback_param', { params: ['action'] });
			const row = getItem(services, MEDIA, id);
			// WordPress's `update_item_permissions_check`.
			checkUpdate(env, row, {});
			const attachment = store.attachments.get(id);
			if (attachment) {
				const details = JSON.parse(attachment.details) as StoredDetails;
				// The sizes are made from the upload: the kept original when a scaled or upright copy is served.
				const originalId = store.attachments.sizeFiles(id).get('original_image') ?? attachment.file_id;
				const original = store.files.byId(originalId);
				const copies = original ? await missingCopies(details, { data: original.data, fileName: original.file_name }, row.mime_type) : [];
				if (copies.length) {
					store.tx(() => {
						// Read again: another request may have made some of them meanwhile.
						const now = store.attachments.get(id);
						if (!now) return;
						const fresh = JSON.parse(now.details) as StoredDetails;
						const made = store.attachments.sizeFiles(id);
						const sizes = { ...fresh.sizes };
						for (const copy of copies.filter((c) => !made.has(c.name))) {
							const file = store.files.insert({ mimetype: copy.mimeType, file_name: copy.fileName, data: copy.data });
							store.attachments.addSize(id, copy.name, file.id);
							sizes[copy.name] = sizeDetails(copy);
						}
						store.attachments.setDetails(id, JSON.stringify({ ...fresh, sizes }));
					});
				}
			}
			return mediaView(viewEnv(services, user, MEDIA, 'edit'), getItem(services, MEDIA, id));
		},
	}),

	route({
		method: 'DELETE',
		path: `${BASE}/{id}`,
		auth: 'site',
		summary: 'Delete a media item and its file (force=true is required: media has no trash)',
		allowed: onItem((_, user, row) => canDelete(user, MEDIA, row)),
		params: idParams,
		patterns: { id: DIGITS },
		query: phpQuery({ force: wpBool.default(false).meta({ default: false }) }),
		// WordPress reads parameters from the body too.
		body: z.object({ force: wpBool.optional() }),
		answer: deletedAnswer(MEDIA_ANSWER),
		errors: [403],
		handler: ({ services, siteUser: user, params, query, body, request }) => {
			const id = pathId(request, params.id);
			const env = contentEnv(services, user, MEDIA);
			const view = viewEnv(services, user, MEDIA, 'edit');
			return services.store.tx(() => {
				const row = getItem(services, MEDIA, id);
				// WordPress's `previous` is the item's data without its links.
				const { _links: _gone, ...previous } = mediaView(view, row);
				deleteItem(env, row, query.force || body.force === true);
				return { deleted: true as const, previous };
			});
		},
	}),
];
