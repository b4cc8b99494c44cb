import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { phpQuery } from '../../http/query';
import { type AllowContext, type Method, type Route, requestContext, route, setAnswerContext } from '../../http/route';
import { hashSecret, sameDigest } from '../../security';
import type { Services } from '../../services';
import type { Sql } from '../../store/content';
import type { CommentRow, ContentRow, UserRow } from '../../store/types';
import { sitePostTypes } from '../registry';
import { can } from '../roles';
import { authCode, canEdit, canRead, denied, editableSql, readableSql } from './capabilities';
import { formatGmt, formatLocal, parseDateTime, wholeSeconds } from './dates';
import { itemAnswer, rawTextArg, trashOrDeleteAnswer, wpItemSchema } from '../item-schema';
import { DIGITS, contextParam, dateTime, idList, searchParam, wpBool, wpInt } from './params';
import { ALL, type Context, type ContextTable, EDIT, VIEW_EDIT } from '../contexts';
import { inList, pagingHeaders, pathId, checkPage, Where } from './query';
import { filterComment } from './kses';
import { autop } from './render';
import { customPostType, PAGE, POST, type PostType } from './types';
import { contentBase, inContext, permalink, rawRendered } from './views';
import { contentEnv } from './write';

/**
 * `/cms/v2/comments` and `/cms/v2/comments/{id}`, WordPress's comments controller: GET lists (what the
 * caller may read) and reads, POST creates (signed-in users only: WordPress's `rest_allow_anonymous_comments`
 * is false by default), POST/PUT/PATCH update and moderate (`status`), DELETE trashes or, with `force`,
 * deletes. A comment is on a content item, which takes its comments along when deleted for good.
 */

const COMMENT_FIELDS: ContextTable = {
	id: ALL,
	author: ALL,
	author_email: EDIT,
	author_ip: EDIT,
	author_name: ALL,
	author_url: ALL,
	author_user_agent: EDIT,
	content: rawRendered(ALL),
	date: ALL,
	date_gmt: VIEW_EDIT,
	link: ALL,
	parent: ALL,
	post: VIEW_EDIT,
	status: VIEW_EDIT,
	type: ALL,
	author_avatar_urls: ALL,
	meta: VIEW_EDIT,
};

/** Stored statuses; `approve`/`1`, `hold`/`0` and the un- actions are the moderation verbs a client writes. */
const WRITE_STATUSES = ['approved', 'approve', '1', 'hold', '0', 'spam', 'unspam', 'trash', 'untrash'] as const;
/** The list's `status` filter, as WP_Comment_Query reads it (`all`/`any`: approved and held). */
const LIST_STATUSES = ['approve', 'hold', 'spam', 'trash', 'all', 'any'] as const;
const ORDERBY = ['date', 'date_gmt', 'id', 'include', 'post', 'parent', 'type'] as const;

/** The post type of a content item, for its capabilities and links. */
function typeOf(services: Services, post: ContentRow): PostType {
	if (post.type === POST.type) return POST;
	if (post.type === PAGE.type) return PAGE;
	if (post.type === 'attachment') return customPostType('attachment', 'media', { permalinkKey: 'attachment_id' });
	const engine = sitePostTypes(services.store).find((t) => t.slug === post.type);
	return customPostType(post.type, engine?.rest_base ?? post.type);
}

const commentUrl = (services: Services, id: number) => `${contentBase(services)}/comments/${id}`;

/** Gravatar's addresses for an email, in WordPress's avatar sizes (SHA-256 of the trimmed, lower-case address, as WordPress 6.8). */
export function avatarUrls(email: string): Record<string, string> {
	const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
	return Object.fromEntries([24, 48, 96].map((s) => [String(s), `https://secure.gravatar.com/avatar/${hash}?s=${s}&d=mm&r=g`]));
}

/** A comment as the routes answer it, in a context. */
function commentView(services: Services, row: CommentRow, context: Context, zone: string): Record<string, unknown> {
	const post = services.store.content.get(row.post);
	const def = post ? typeOf(services, post) : POST;
	const rest = contentBase(services);
	const links: Record<string, object[]> = {
		self: [{ href: commentUrl(services, row.id) }],
		collection: [{ href: `${rest}/comments` }],
	};
	if (row.author) links.author = [{ embeddable: true, href: `${rest}/users/${row.author}` }];
	if (post) links.up = [{ embeddable: true, post_type: post.type, href: `${rest}/${def.base}/${post.id}` }];
	if (row.parent) links['in-reply-to'] = [{ embeddable: true, href: commentUrl(services, row.parent) }];
	if (services.store.comments.hasChildren(row.id)) links.children = [{ embeddable: true, href: `${rest}/comments?parent=${row.id}` }];
	const full: Record<string, unknown> = {
		id: row.id,
		post: row.post,
		parent: row.parent,
		author: row.author,
		author_name: row.author_name,
		author_email: row.author_email,
		author_url: row.author_url,
		author_ip: row.author_ip,
		author_user_agent: row.author_user_agent,
		date: formatLocal(row.date_gmt, zone),
		date_gmt: formatGmt(row.date_gmt),
		content: { rendered: autop(row.content), raw: row.content },
		link: `${permalink(services, def, row.post)}#comment-${row.id}`,
		status: row.status,
		type: row.type,
		author_avatar_urls: avatarUrls(row.author_email),
		meta: [],
	};
	return { ...inContext(full, COMMENT_FIELDS, context), _links: links };
}

/** `edit_comment`: moderators, or whoever may edit the comment's item. */
function canEditComment(services: Services, user: UserRow | null, post: ContentRow): boolean {
	if (!user) return false;
	return can(user, 'moderate_comments') || canEdit(user, typeOf(services, post), post);
}

/** Whether `given` is the post's password (WordPress's `can_access_password_content`). */
const opens = (post: ContentRow, given: string | undefined) => !!given && post.password !== '' && sameDigest(hashSecret(given), hashSecret(post.password));

/**
 * WordPress's `check_read_post_permission`: a readable post, and behind a password only with the password
 * (given for the one post or comment asked for) or the right to edit it.
 */
function canReadPost(services: Services, user: UserRow | null, post: ContentRow, password?: string): boolean {
	const def = typeOf(services, post);
	return canRead(user, def, post) && (post.password === '' || opens(post, password) || canEdit(user, def, post));
}

/** WordPress's `check_read_permission` for one comment. */
function canReadComment(services: Services, user: UserRow | null, row: CommentRow, post: ContentRow, password?: string): boolean {
	if (row.status === 'approved' && canReadPost(services, user, post, password)) return true;
	if (!user) return false;
	if (row.author && row.author === user.id) return true;
	return canEditComment(services, user, post);
}

/** A condition on the item's capabilities over `content c`: `typeOf` gives pages theirs, every other type the posts'. */
function byCaps(condition: (def: PostType) => Sql): Sql {
	const page = condition(PAGE);
	const other = condition(POST);
	return { sql: `(CASE WHEN c.type = 'page' THEN ${page.sql} ELSE ${other.sql} END)`, params: [...page.params, ...other.params] };
}

/**
 * `canReadComment` as SQL over `comments cm JOIN content c`, so that the list's filters, search, total and
 * paging see only what the caller may read (WordPress's `found_comments` counts the comments `get_items`
 * then hides; issue 37). `opened`: the post whose password was given.
 */
function readableCommentSql(user: UserRow | null, opened: number): Sql {
	if (can(user, 'moderate_comments')) return { sql: '1', params: [] };
	const post = byCaps((def) => {
		const [read, edit] = [readableSql(user, def), editableSql(user, def)];
		return { sql: `(${read.sql} AND (c.password = '' OR c.id = ? OR ${edit.sql}))`, params: [...read.params, opened, ...edit.params] };
	});
	const approved = { sql: `(cm.status = 'approved' AND ${post.sql})`, params: post.params };
	if (!user) return approved;
	const edit = byCaps((def) => editableSql(user, def));
	return { sql: `(${approved.sql} OR (cm.author = ? AND cm.author <> 0) OR ${edit.sql})`, params: [...approved.params, user.id, ...edit.params] };
}

/** A `password` the request carries (WordPress reads it from the query or the body, declared or not). */
function passwordOf(request: { query: unknown; body: unknown }): string | undefined {
	const given = (request.query as { password?: unknown } | undefined)?.password ?? (request.body as { password?: unknown } | undefined)?.password;
	return typeof given === 'string' ? given : undefined;
}

/** The comment with this id and its item, or WordPress's 404. */
function findComment(services: Services, id: number): { row: CommentRow; post: ContentRow } {
	const row = id > 0 ? services.store.comments.get(id) : undefined;
	if (!row) throw notFound('Invalid comment ID.', 'rest_comment_invalid_id');
	const post = services.store.content.get(row.post);
	if (!post) throw notFound('Invalid post ID.', 'rest_post_invalid_id');
	return { row, post };
}

/** The stored status after a moderation verb (`handle_status_param`); trash keeps what it was for `untrash`. */
function moderated(row: Pick<CommentRow, 'status' | 'trashed_status'>, verb: string): Pick<CommentRow, 'status' | 'trashed_status'> {
	switch (verb) {
		case 'approved':
		case 'approve':
		case '1':
			return { status: 'approved', trashed_status: null };
		case 'hold':
		case '0':
			return { status: 'hold', trashed_status: null };
		case 'spam':
			return { status: 'spam', trashed_status: null };
		case 'unspam':
			return { status: row.status === 'spam' ? 'hold' : row.status, trashed_status: row.trashed_status };
		case 'trash':
			return row.status === 'trash' ? row : { status: 'trash', trashed_status: row.status };
		default: // untrash
			return row.status === 'trash' ? { status: row.trashed_status ?? 'hold', trashed_status: null } : row;
	}
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const emailParam = z.string().max(100).refine((v) => v === '' || EMAIL.test(v), { error: 'must be an email address' });
/** An author's link: http(s) only (WordPress's `esc_url_raw` keeps no `javascript:`; `data:` and the like have no place under a name either). */
const urlParam = z.string().refine((v) => v === '' || (URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol)), { error: 'must be an http(s) URL' });

/**
 * A comment author's name as WordPress stores it (`pre_comment_author_name`: `sanitize_text_field`, then
 * `_wp_specialchars`): a `<` that opens no tag is text, tags go (script and style with their text), white
 * space is folded, and `&`, `<`, `>` are entities (an entity already written stays).
 */
function authorName(text: string): string {
	return text
		.replace(/<[^<>]*(?=<|$)/g, (lone) => `&lt;${lone.slice(1)}`)
		.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
		.replace(/<[^>]*>/g, '')
		.replace(/\s+/g, ' ')
		.trim()
		.replace(/&(?!(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);)/gi, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;');
}

const ipParam = z.string().refine((v) => isIP(v) !== 0, { error: 'must be an IP address' });

/** The comment's `content` (WordPress's comments item schema). */
const contentField = z
	.object({
		raw: z.string().optional().meta({ description: 'Content for the comment, as it exists in the database.', context: ['edit'] }),
		rendered: z.string().meta({ description: 'HTML content for the comment, transformed for display.', context: ['view', 'edit', 'embed'], readonly: true }),
	})
	.meta({ description: 'The content for the comment.', context: ['view', 'edit', 'embed'] });

const ALL_CONTEXTS = ['view', 'edit', 'embed'];
const VIEW_EDIT_CONTEXTS = ['view', 'edit'];
const EDIT_CONTEXT = ['edit'];

/** A comment as it is answered (WordPress's comments `get_item_schema`), for the routes' `schema`. */
const commentItem = z.object({
	id: z.int().meta({ description: 'Unique identifier for the comment.', context: ALL_CONTEXTS, readonly: true }),
	author: z.int().meta({ description: 'The ID of the user object, if author was a user.', context: ALL_CONTEXTS }),
	author_email: z.string().meta({ description: 'Email address for the comment author.', format: 'email', context: EDIT_CONTEXT }),
	author_ip: z.string().meta({ description: 'IP address for the comment author.', format: 'ip', context: EDIT_CONTEXT }),
	author_name: z.string().meta({ description: 'Display name for the comment author.', context: ALL_CONTEXTS }),
	author_url: z.string().meta({ description: 'URL for the comment author.', format: 'uri', context: ALL_CONTEXTS }),
	author_user_agent: z.string().meta({ description: 'User agent for the comment author.', context: EDIT_CONTEXT }),
	content: contentField,
	date: z.string().meta({ description: "The date the comment was published, in the site's timezone.", format: 'date-time', context: ALL_CONTEXTS }),
	date_gmt: z.string().meta({ description: 'The date the comment was published, as GMT.', format: 'date-time', context: VIEW_EDIT_CONTEXTS }),
	link: z.string().meta({ description: 'URL to the comment.', format: 'uri', context: ALL_CONTEXTS, readonly: true }),
	parent: z.int().meta({ description: 'The ID for the parent of the comment.', context: ALL_CONTEXTS, default: 0 }),
	post: z.int().meta({ description: 'The ID of the associated post object.', context: VIEW_EDIT_CONTEXTS, default: 0 }),
	status: z.string().meta({ description: 'State of the comment.', context: VIEW_EDIT_CONTEXTS }),
	type: z.string().meta({ description: 'Type of the comment.', context: ALL_CONTEXTS, readonly: true }),
	author_avatar_urls: z
		.object(
			Object.fromEntries(
				['24', '48', '96'].map((size) => [size, z.string().meta({ description: `Avatar URL with image size of ${size} pixels.`, format: 'uri', context: ['embed', 'view', 'edit'] })]),
			),
		)
		.meta({ description: 'Avatar URLs for the comment author.', context: ALL_CONTEXTS, readonly: true }),
	// WordPress's meta of no registered field: PHP's empty array, which is `[]` in JSON (as the answer's `meta`).
	meta: z.array(z.never()).meta({ description: 'Meta fields.', type: 'object', items: undefined, context: VIEW_EDIT_CONTEXTS, properties: [] }),
});
let commentSchema: Record<string, unknown> | undefined;
const commentItemSchema = () => (commentSchema ??= wpItemSchema('comment', commentItem));

/** What the comment routes answer (the contract). */
const COMMENT_ANSWER = itemAnswer(commentItem);

const commentBody = z.object({
	author: wpInt(0).optional(),
	author_email: emailParam.optional(),
	author_ip: ipParam.optional().meta({ description: 'IP address for the comment author.', format: 'ip' }),
	author_name: z.string().max(245).transform(authorName).optional(),
	author_url: urlParam.max(200).optional(),
	author_user_agent: z.string().max(254).optional().meta({ description: 'User agent for the comment author.' }),
	content: rawTextArg(contentField, { stringRaw: true }),
	date: dateTime.optional(),
	date_gmt: dateTime.optional(),
	parent: wpInt(0).optional(),
	post: wpInt(0).optional(),
	// WordPress checks the status in its handler: the argument is any string.
	status: z.enum(WRITE_STATUSES).optional().meta({ enum: undefined }),
	// Read by the handler (only `comment` may be created), not an argument WordPress declares.
	type: z.string().optional().meta({ argument: false }),
	// WordPress's comment meta registers no field: an object with no properties.
	meta: z.record(z.string(), z.unknown()).optional().meta({ properties: {} }),
});
type CommentBody = z.output<typeof commentBody>;

/** Creating takes the same fields; WordPress declares `parent` and `post` with their default there. */
const createBody = commentBody.extend({ parent: commentBody.shape.parent.meta({ default: 0 }), post: commentBody.shape.post.meta({ default: 0 }) });

const contentOf = (body: CommentBody) => body.content?.trim();

/** The body's date as stored (ms GMT), when given. */
function dateOf(body: CommentBody, zone: string): number | undefined {
	if (body.date) return wholeSeconds(parseDateTime(body.date, zone));
	if (body.date_gmt) return wholeSeconds(parseDateTime(body.date_gmt, zone, true));
	return undefined;
}

/** WordPress's refusal of a field only moderators write. */
const notAllowed = (user: UserRow | null, field: string, code: string) => denied(user, code, `Sorry, you are not allowed to edit '${field}' for comments.`);

const cannotReadPost = (user: UserRow | null) => denied(user, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.');

/**
 * WordPress's `create_item_permissions_check` for a comment: signed in (anonymous comments are off by
 * default), moderator-only fields, and an existing post the caller may read, neither draft nor trash,
 * open to comments. The caller, the post and whether the caller moderates; throws WordPress's refusal.
 */
function createPermission(services: Services, user: UserRow | null, body: z.output<typeof commentBody>, request: { ip: string; query: unknown; body: unknown }) {
	// WordPress's `rest_allow_anonymous_comments` filter is false by default.
	if (!user) throw new ApiError(401, 'Sorry, you must be logged in to comment.', 'rest_comment_login_required');
	const moderator = can(user, 'moderate_comments');
	if (body.author !== undefined && body.author !== user.id && !moderator) throw notAllowed(user, 'author', 'rest_comment_invalid_author');
	if (body.author_ip !== undefined && !moderator && body.author_ip !== request.ip) throw notAllowed(user, 'author_ip', 'rest_comment_invalid_author_ip');
	if (body.status !== undefined && !moderator) throw notAllowed(user, 'status', 'rest_comment_invalid_status');
	const noPost = () => new ApiError(403, 'Sorry, you are not allowed to create this comment without a post.', 'rest_comment_invalid_post_id');
	if (!body.post) throw noPost();
	const post = services.store.content.get(body.post);
	if (!post || post.type === 'revision') throw noPost();
	if (post.status === 'draft') throw new ApiError(403, 'Sorry, you are not allowed to create a comment on this post.', 'rest_comment_draft_post');
	if (post.status === 'trash') throw new ApiError(403, 'Sorry, you are not allowed to create a comment on this post.', 'rest_comment_trash_post');
	if (!canReadPost(services, user, post, passwordOf(request))) throw cannotReadPost(user);
	if (post.comment_status !== 'open') throw new ApiError(403, 'Sorry, comments are closed for this item.', 'rest_comment_closed');
	return { user, post, moderator };
}

/** WordPress's comment length limits (`wp_check_comment_data_max_lengths`). */
function checkLengths(content: string) {
	if (content.length > 65525) throw badRequest('Comment field exceeds maximum length allowed.', 'comment_content_column_length');
}

/** The parent must be a comment on the same item. */
function checkParent(services: Services, parent: number, post: number, self?: number) {
	if (!parent) return;
	const row = services.store.comments.get(parent);
	if (!row || row.post !== post || parent === self) throw badRequest('Invalid comment parent ID: it must be a comment on the same post.', 'rest_comment_invalid_parent');
}

/** The author fields a user id stands for (`prepare_item_for_database`). */
function authorFields(services: Services, id: number) {
	const user = services.store.users.byId(id);
	if (!user) throw badRequest('Invalid comment author ID.', 'rest_comment_author_invalid');
	return { author: user.id, author_name: authorName(user.display_name ?? user.name), author_email: user.email ?? '', author_url: '' };
}

export function commentRoutes(): Route[] {
	const path = '/cms/v2/comments';
	const idParams = z.object({ id: z.string() });

	// The item routes' permission callbacks, for `Allow`: the comment must exist (a throw is a no).
	const onComment = (may: (user: UserRow | null, found: { row: CommentRow; post: ContentRow }, ctx: AllowContext) => boolean) => (ctx: AllowContext) =>
		may(ctx.siteUser, findComment(ctx.services, pathId(ctx.request, ctx.params.id)), ctx);
	const mayEdit = onComment((user, { post }, ctx) => canEditComment(ctx.services, user, post));
	const update = (method: Method) =>
		route({
			method,
			path: `${path}/{id}`,
			auth: 'site',
			allowed: mayEdit,
			summary: 'Update a comment; `status` moderates it (approve, hold, spam, unspam, trash, untrash)',
			params: idParams,
			patterns: { id: DIGITS },
			body: commentBody,
			answer: COMMENT_ANSWER,
			errors: [403],
			handler: ({ services, siteUser: user, params, body, request }) => {
				const { zone } = contentEnv(services, user, POST);
				const id = pathId(request, params.id);
				const row = services.store.tx(() => {
					const { row: before, post } = findComment(services, id);
					if (!canEditComment(services, user, post)) throw denied(user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.');
					// Editing a comment on one's own post does not make it another user's, nor moves it to another
					// post: only moderators change `author` and `post` (WordPress lets whoever may edit it; issue 37).
					if (!can(user, 'moderate_comments')) {
						if (body.author !== undefined && body.author !== before.author) throw notAllowed(user, 'author', 'rest_comment_invalid_author');
						if (body.post !== undefined && body.post !== before.post) throw notAllowed(user, 'post', 'rest_comment_invalid_post_id');
					}
					if (body.type !== undefined && body.type !== before.type) {
						throw new ApiError(404, 'Sorry, you are not allowed to change the comment type.', 'rest_comment_invalid_type');
					}
					const next: CommentRow = { ...before };
					if (body.post !== undefined && body.post !== before.post) {
						if (!body.post || !services.store.content.get(body.post)) throw new ApiError(403, 'Invalid post ID.', 'rest_comment_invalid_post_id');
						next.post = body.post;
					}
					if (body.author !== undefined) Object.assign(next, body.author ? authorFields(services, body.author) : { author: 0 });
					if (body.author_name !== undefined) next.author_name = body.author_name;
					if (body.author_email !== undefined) next.author_email = body.author_email;
					if (body.author_url !== undefined) next.author_url = body.author_url;
					if (body.author_ip !== undefined && can(user, 'moderate_comments')) next.author_ip = body.author_ip;
					if (body.author_user_agent !== undefined) next.author_user_agent = body.author_user_agent;
					const content = contentOf(body);
					if (content !== undefined) {
						if (content === '') throw badRequest('Invalid comment content.', 'rest_comment_content_invalid');
						checkLengths(content);
						next.content = filterComment(user, content, services.baseUrl);
					}
					const date = dateOf(body, zone);
					if (date !== undefined) next.date_gmt = date;
					if (body.parent !== undefined) next.parent = body.parent;
					checkParent(services, next.parent, next.post, before.id);
					if (body.status !== undefined) Object.assign(next, moderated(before, body.status));
					return services.store.comments.save(next);
				});
				return commentView(services, row, 'edit', zone);
			},
		});

	return [
		route({
			method: 'GET',
			path,
			auth: 'site',
			summary: 'List comments the caller may read, filtered, searched and paged (X-WP-Total, X-WP-TotalPages, Link)',
			schema: commentItemSchema,
			// WordPress's `get_items_permissions_check`: the edit context is for moderators; without
			// `edit_posts`, no filter by author, email, type or a status other than approved (only a GET
			// has the route's defaults, so another request's missing status is one).
			allowed: ({ siteUser, request }) => {
				if (requestContext(request) === 'edit' && !can(siteUser, 'moderate_comments')) return false;
				if (can(siteUser, 'edit_posts')) return true;
				const q = request.query as Record<string, unknown>;
				const given = (name: string) => Object.keys(q).some((key) => (key === name || key.startsWith(`${name}[`)) && q[key] !== '');
				const status = q.status ?? (request.method === 'GET' ? 'approve' : undefined);
				const type = q.type ?? (request.method === 'GET' ? 'comment' : undefined);
				return status === 'approve' && type === 'comment' && !['author', 'author_exclude', 'author_email'].some(given);
			},
			query: phpQuery({
				context: contextParam,
				page: wpInt(1).prefault(1),
				per_page: wpInt(1, 100).prefault(10),
				search: searchParam.optional(),
				after: dateTime.optional(),
				before: dateTime.optional(),
				// WordPress declares these without a default (an empty list is none), and `author_email`'s as null.
				author: idList().prefault([]).meta({ default: undefined }),
				author_exclude: idList().prefault([]).meta({ default: undefined }),
				author_email: emailParam.optional().meta({ default: null }),
				exclude: idList().prefault([]),
				include: idList().prefault([]),
				offset: wpInt().optional(),
				order: z.enum(['asc', 'desc']).default('desc'),
				orderby: z.enum(ORDERBY).default('date_gmt'),
				parent: idList().prefault([]),
				parent_exclude: idList().prefault([]),
				post: idList().prefault([]),
				status: z.enum(LIST_STATUSES).default('approve').meta({ enum: undefined }),
				type: z.string().default('comment'),
				password: z.string().optional(),
			}),
			answer: z.array(COMMENT_ANSWER),
			errors: [403],
			handler: ({ services, siteUser: user, query: q, request, reply }) => {
				const { zone } = contentEnv(services, user, POST);
				// The password opens the one post asked for alone, as in WordPress.
				const opened = q.post.length === 1 ? services.store.content.get(q.post[0]) : undefined;
				const openedId = opened && opens(opened, q.password) ? opened.id : 0;
				for (const id of q.post) {
					const post = id ? services.store.content.get(id) : undefined;
					if (post && !canReadPost(services, user, post, id === openedId ? q.password : undefined)) throw cannotReadPost(user);
					if (id === 0 && !can(user, 'moderate_comments')) throw denied(user, 'rest_cannot_read', 'Sorry, you are not allowed to read comments without a post.');
				}
				if (q.context === 'edit' && !can(user, 'moderate_comments')) throw denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
				if (!can(user, 'edit_posts')) {
					const forbidden = [
						q.author.length ? 'author' : '',
						q.author_exclude.length ? 'author_exclude' : '',
						q.author_email ? 'author_email' : '',
						q.type !== 'comment' ? 'type' : '',
						q.status !== 'approve' ? 'status' : '',
					].filter(Boolean);
					if (forbidden.length) throw new ApiError(authCode(user), `Query parameter not permitted: ${forbidden.join(', ')}`, 'rest_forbidden_param');
				}
				// Every filter, the search and the counts see only the comments the caller may read.
				const where = new Where().addSql(readableCommentSql(user, openedId));
				if (q.status === 'all' || q.status === 'any') where.add("cm.status IN ('approved', 'hold')");
				else where.add('cm.status = ?', q.status === 'approve' ? 'approved' : q.status);
				if (q.type !== 'all') where.add('cm.type = ?', q.type);
				if (q.post.length) where.addSql(inList('cm.post', q.post));
				if (q.parent.length) where.addSql(inList('cm.parent', q.parent));
				if (q.parent_exclude.length) where.addSql(inList('cm.parent', q.parent_exclude, true));
				if (q.author.length) where.addSql(inList('cm.author', q.author));
				if (q.author_exclude.length) where.addSql(inList('cm.author', q.author_exclude, true));
				if (q.author_email) where.add('cm.author_email = ? COLLATE NOCASE', q.author_email);
				if (q.include.length) where.addSql(inList('cm.id', q.include));
				if (q.exclude.length) where.addSql(inList('cm.id', q.exclude, true));
				if (q.after) where.add('cm.date_gmt > ?', parseDateTime(q.after, zone));
				if (q.before) where.add('cm.date_gmt < ?', parseDateTime(q.before, zone));
				if (q.search?.trim()) {
					// WP_Comment_Query searches the whole text in the author fields and the content; the e-mail and
					// IP only for moderators, who alone are shown them (else a search reads them out letter by letter).
					const like = `%${q.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
					const shown = can(user, 'moderate_comments') ? ['cm.author_email', 'cm.author_ip'] : [];
					const columns = ['cm.author_name', 'cm.author_url', ...shown, 'cm.content'];
					where.add(`(${columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`, ...columns.map(() => like));
				}
				const dir = q.order === 'asc' ? 'ASC' : 'DESC';
				const column = { date: 'cm.date_gmt', date_gmt: 'cm.date_gmt', id: 'cm.id', post: 'cm.post', parent: 'cm.parent', type: 'cm.type', include: 'cm.id' }[q.orderby];
				const order: Sql =
					q.orderby === 'include' && q.include.length
						? { sql: '(SELECT key FROM json_each(?) WHERE value = cm.id), cm.id', params: [JSON.stringify(q.include)] }
						: { sql: `${column} ${dir}, cm.id ${dir}`, params: [] };
				const offset = q.offset ? Math.abs(q.offset) : (q.page - 1) * q.per_page;
				const { rows, total } = services.store.comments.find(where.sql(), order, q.per_page, offset);
				const totalPages = Math.ceil(total / q.per_page);
				checkPage(q.page, totalPages, total, 'rest_comment_invalid_page_number');
				pagingHeaders(reply, request, `${contentBase(services)}/comments`, q.page, total, totalPages);
				return rows.map((row) => commentView(services, row, q.context, zone));
			},
		}),

		route({
			method: 'POST',
			path,
			auth: 'site',
			summary: 'Create a comment on an item whose comments are open (201, Location); signed-in users only',
			// WordPress's permission callback, run on the request as it came (a throw is a no).
			allowed: ({ services, siteUser, request }) => {
				const body = createBody.safeParse(request.body ?? {});
				return body.success && !!createPermission(services, siteUser, body.data, request);
			},
			body: createBody,
			answer: COMMENT_ANSWER,
			status: 201,
			// 409: the same comment again.
			errors: [403, 409],
			handler: ({ services, siteUser, body, request, reply }) => {
				const { zone } = contentEnv(services, siteUser, POST);
				const { user, post, moderator } = createPermission(services, siteUser, body, request);
				// WordPress answers a new comment in the view context to who does not moderate.
				if (!moderator) setAnswerContext(request, 'view');

				const raw = request.body as { id?: unknown } | undefined;
				if (raw?.id) throw badRequest('Cannot create existing comment.', 'rest_comment_exists');
				if (body.type && body.type !== 'comment') throw badRequest('Cannot create a comment with that type.', 'rest_invalid_comment_type');
				const content = contentOf(body) ?? '';
				if (content === '') throw badRequest('Invalid comment content.', 'rest_comment_content_invalid');
				checkLengths(content);
				const row = services.store.tx(() => {
					const comments = services.store.comments;
					let author = { author: 0, author_name: body.author_name ?? '', author_email: body.author_email ?? '', author_url: body.author_url ?? '' };
					if (body.author) author = { ...author, ...authorFields(services, body.author) };
					// Signed in and naming no author: the comment is the user's.
					if (!author.author && !author.author_name && !author.author_email && !author.author_url) author = authorFields(services, user.id);
					// WordPress's default `require_name_email`; a user's comment carries the account's email, which may be unset here.
					if (!author.author_name || (!author.author && !author.author_email)) {
						throw badRequest('Creating a comment requires valid author name and email values.', 'rest_comment_author_data_required');
					}
					const parent = body.parent ?? 0;
					checkParent(services, parent, post.id);
					const text = filterComment(user, content, services.baseUrl);
					if (comments.duplicate({ post: post.id, parent, author_name: author.author_name, author_email: author.author_email, content: text })) {
						throw new ApiError(409, 'Duplicate comment detected; it looks as though you’ve already said that!', 'comment_duplicate');
					}
					// `wp_allow_comment`: the item's author and moderators are approved; others once they have an approved comment.
					const trusted = moderator || (author.author !== 0 && author.author === post.author) || comments.previouslyApproved(author.author, author.author_name, author.author_email);
					let status: Pick<CommentRow, 'status' | 'trashed_status'> = { status: trusted ? 'approved' : 'hold', trashed_status: null };
					if (body.status) status = moderated(status, body.status);
					return comments.insert({
						post: post.id,
						parent,
						...author,
						author_ip: body.author_ip ?? request.ip,
						author_user_agent: body.author_user_agent ?? String(request.headers['user-agent'] ?? ''),
						date_gmt: dateOf(body, zone) ?? wholeSeconds(Date.now()),
						content: text,
						...status,
						type: 'comment',
						meta: '{}',
					});
				});
				reply.header('Location', commentUrl(services, row.id));
				return commentView(services, row, moderator ? 'edit' : 'view', zone);
			},
		}),

		route({
			method: 'GET',
			path: `${path}/{id}`,
			auth: 'site',
			summary: 'Get a comment',
			schema: commentItemSchema,
			allowed: onComment((user, { row, post }, ctx) => {
				const password = passwordOf(ctx.request);
				return (requestContext(ctx.request) !== 'edit' || can(user, 'moderate_comments')) && canReadComment(ctx.services, user, row, post, password) && canReadPost(ctx.services, user, post, password);
			}),
			params: idParams,
			patterns: { id: DIGITS },
			query: phpQuery({ context: contextParam, password: z.string().optional() }),
			answer: COMMENT_ANSWER,
			errors: [403],
			handler: ({ services, siteUser: user, params, query, request }) => {
				const { zone } = contentEnv(services, user, POST);
				const { row, post } = findComment(services, pathId(request, params.id));
				if (query.context === 'edit' && !can(user, 'moderate_comments')) throw denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
				if (!canReadComment(services, user, row, post, query.password)) throw denied(user, 'rest_cannot_read', 'Sorry, you are not allowed to read this comment.');
				if (!canReadPost(services, user, post, query.password)) throw cannotReadPost(user);
				return commentView(services, row, query.context, zone);
			},
		}),

		update('POST'),
		update('PUT'),
		update('PATCH'),

		route({
			method: 'DELETE',
			path: `${path}/{id}`,
			auth: 'site',
			summary: 'Move a comment to the trash, or with force=true delete it for good (its replies move up)',
			allowed: mayEdit,
			params: idParams,
			patterns: { id: DIGITS },
			query: phpQuery({ force: wpBool.prefault(false), password: z.string().optional() }),
			// WordPress reads parameters from the body too.
			body: z.object({ force: wpBool.optional() }),
			answer: trashOrDeleteAnswer(COMMENT_ANSWER),
			// 410: already in the trash.
			errors: [403, 410],
			handler: ({ services, siteUser: user, params, query, body, request }) => {
				const { zone } = contentEnv(services, user, POST);
				const id = pathId(request, params.id);
				return services.store.tx(() => {
					const { row, post } = findComment(services, id);
					if (!canEditComment(services, user, post)) throw denied(user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this comment.');
					if (query.force || body.force === true) {
						const previous = commentView(services, row, 'edit', zone);
						services.store.comments.delete(row);
						return { deleted: true as const, previous };
					}
					if (row.status === 'trash') throw new ApiError(410, 'The comment has already been trashed.', 'rest_already_trashed');
					return commentView(services, services.store.comments.save({ ...row, ...moderated(row, 'trash') }), 'edit', zone);
				});
			},
		}),
	];
}

export const commentsRoutes = commentRoutes();
