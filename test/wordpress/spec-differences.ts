// The differences from WordPress that the spec itself orders (/work/shared/spec/site-routes.md), listed
// once each with the spec's line. Any other difference fails the differential suite.
import type { Difference } from './compare';
import type { Req } from './run';

export interface SpecDifference {
	id: string;
	/** The spec's line that orders it, quoted. */
	spec: string;
	matches: (d: Difference, req: Req) => boolean;
}

/** The namespaces the spec lists besides WordPress's own (`wp/v2` is the `cms/v2` twin, `oembed/1.0` is shared). */
const SPEC_NAMESPACES = ['engine/v1', 'builder-one/v1', 'engine/v2', 'proxyext/v1', 'themecore/v2', 'builder/v1', 'builder-ai/v1', 'cms/v2', 'cms-site-health/v1', 'cms-block-editor/v1', 'cms-abilities/v1', 'wdm/v1'];
/** WordPress's core namespaces the spec names by their neutral words. */
const RENAMED_CORE = ['wp-site-health/v1', 'wp-block-editor/v1'];
const routeIn = (path: string, namespaces: string[]) => namespaces.some((ns) => path === `routes./${ns}` || path.startsWith(`routes./${ns}/`));

const contextOf = (req: Req) => {
	const inline = /[?&]context=(\w+)/.exec(req.path)?.[1];
	return (req.query?.context as string | undefined) ?? inline ?? 'view';
};

/** Paths to a `meta` field anywhere in an answer (an item, a list's items, an embedded item, a batch answer). */
const META = /(^|\.|\])meta$/;
/** A spec meta field in an answer, or in the index's description of the `meta` argument (`args.meta.properties.footnotes`). */
const META_FIELD = /(^|\.|\])meta(\.properties)?\.(footnotes|_builder_edit_mode|_builder_template_type|_builder_data|_builder_page_settings)$/;

/**
 * WordPress core routes of the block editor, themes, plugins, widgets and menus: not part of the site the spec
 * describes (its core content routes, and the users, terms, comments, settings, search, types, taxonomies,
 * statuses and application passwords issue 25 adds), with the post types and taxonomy that live behind them.
 */
const BEYOND_SURFACE_ROUTES = /^routes\.\/wp\/v2\/(blocks|templates|template-parts|navigation|menus|menu-items|menu-locations|block-renderer|block-types|block-directory|block-patterns|pattern-directory|global-styles|themes|plugins|sidebars|widgets|widget-types)(\/|$)/;
const BEYOND_SURFACE_TYPES = ['nav_menu_item', 'wp_block', 'wp_template', 'wp_template_part', 'wp_navigation', 'nav_menu'];

/** A batch request that runs a route other than posts' and pages' collections and items. */
const batchBeyondScope = (req: Req) =>
	req.family === 'batch' &&
	Array.isArray((req.json as { requests?: unknown })?.requests) &&
	((req.json as { requests: { path?: string }[] }).requests.some((r) => !/^\/wp\/v2\/(posts|pages)(\/(\d+|\{[^}]+\}))?$/.test((r.path ?? '').split('?')[0])));

export const SPEC_DIFFERENCES: SpecDifference[] = [
	{
		id: 'beyond-site-surface',
		spec:
			'"### Core content routes (cms/v2)" lists posts, pages, their revisions and autosaves, and media; issue 25 adds users, categories and tags, comments, settings, search, types, taxonomies, statuses and application passwords. WordPress\'s block-editor, theme, plugin, widget and menu routes (and the types and taxonomy behind them: reusable blocks, templates, navigation, menu items, menus) are not part of the site (docs/decisions/site-wordpress.md, "Site: WordPress fidelity, from the differential suite")',
		matches: (d, req) =>
			d.kind === 'missing key' &&
			(BEYOND_SURFACE_ROUTES.test(d.path) ||
				(req.family === 'index' && d.path === '_links.wp:active-theme') ||
				(['types', 'taxonomies'].includes(req.family) && BEYOND_SURFACE_TYPES.includes(d.path)) ||
				// A post type of theirs in an argument's enum (`has_published_posts`).
				(['index', 'OPTIONS'].includes(req.family) && /\.enum\.[a-z_]+$/.test(d.path) && BEYOND_SURFACE_TYPES.includes(d.path.split('.').pop()!))),
	},
	{
		id: 'index-namespaces',
		spec:
			'"Namespaces listed: `oembed/1.0`, `engine/v1`, `builder-one/v1`, `engine/v2`, `proxyext/v1`, `themecore/v2`, `builder/v1/documents`, `builder/v1`, `builder-ai/v1`, `builder/v1/feedback`, `cms/v2`, and three further core namespaces for site health, block editor and abilities." and "Vendor names inside identifiers are replaced by neutral words: ... `cms` (core content namespace)."; the gateway (`wdm/v1`) "is covered by the first document", and DESIGN.md adds "A `sandbox/v1` namespace"',
		matches: (d, req) =>
			(req.family === 'index' || req.path.split('?')[0] === '/') &&
			((d.kind === 'value' && d.path === 'namespaces[]') ||
				(d.kind === 'extra key' && routeIn(d.path, [...SPEC_NAMESPACES, 'sandbox/v1'])) ||
				(d.kind === 'missing key' && routeIn(d.path, RENAMED_CORE))),
	},
	{
		id: 'index-site-fields',
		spec: '"GET `/` returns site data: `name`, `description`, `url`, `home`, `gmt_offset` (integer hours), `timezone_string`, `page_for_posts`, `page_on_front`, `show_on_front`, `namespaces` (array of strings), `authentication` and `routes`" (WordPress 6.1 predates the last three site fields)',
		matches: (d, req) => d.kind === 'extra key' && ['page_for_posts', 'page_on_front', 'show_on_front'].includes(d.path) && req.path.split('?')[0] === '/',
	},
	{
		id: 'meta-edit-context-only',
		spec: '"### Meta fields (edit context only)" with the table `footnotes`, `_builder_edit_mode`, `_builder_template_type`, `_builder_data`, `_builder_page_settings`',
		matches: (d, req) =>
			(d.kind === 'missing key' && META.test(d.path) && contextOf(req) !== 'edit') || (d.kind === 'extra key' && META_FIELD.test(d.path)),
	},
	{
		id: 'batch-scope',
		spec: '"Routes marked batch-capable: posts, pages collections and items (GET, POST, DELETE)."',
		matches: (d, req) => batchBeyondScope(req) && d.path.startsWith('responses[]'),
	},
	{
		id: 'media-featured-media',
		spec: 'Media: "Fields: `date`, `date_gmt`, `slug`, `status` (same enum as Post), `title` (object), `author`, `featured_media`, `comment_status`, ..." (WordPress gives attachments no `featured_media`: they do not support `thumbnail`)',
		matches: (d, req) =>
			d.kind === 'extra key' &&
			/(^|\.|\])featured_media$/.test(d.path) &&
			(req.family === 'media' || req.path.includes('/media') || d.path.includes('wp:featuredmedia[]') || d.path.startsWith('routes./wp/v2/media')),
	},
	{
		id: 'wordpress-6.5-class-list',
		spec:
			'not the spec: WordPress 6.1 predates it. WordPress 6.5 added `class_list` (the post\'s `get_post_class()`, read-only, view and edit contexts) to `WP_REST_Posts_Controller`\'s answers and item schema, which the attachments controller inherits; the server answers as 6.x does (docs/decisions/site-wordpress.md, "Site: WordPress fidelity, from the differential suite")',
		matches: (d) => d.kind === 'extra key' && /(^|\.|\])class_list$/.test(d.path),
	},
	{
		id: 'wrong-credentials-401',
		spec:
			'not the spec (it is silent): issue 25 orders that n8n\'s WordPress credential test "fails with a clear 401 for a wrong one", and n8n tests the credential on a public route; WordPress 6.1 answers a wrong application password, an unknown user or an Authorization header in another scheme there as anonymous (200). Decision: docs/decisions/site-wordpress.md, "Site: WordPress fidelity, from the differential suite"',
		matches: (d, req) => {
			// A wrong password, an unknown user, or an Authorization header in another scheme.
			const credential = req.auth !== undefined || req.headers?.authorization !== undefined;
			const refused = ['incorrect_password', 'invalid_username', 'rest_invalid_authorization'];
			return credential && ((d.kind === 'status' && d.wp === 200 && d.ref === 401) || (d.kind === 'code' && refused.includes(d.ref as string)));
		},
	},
	{
		id: 'wordpress-6.x-revision-parent',
		spec:
			'not the spec: WordPress 6.1\'s revisions controller answers a revision through any parent; later 6.x checks it (`WP_REST_Revisions_Controller::get_item`: 404 `rest_revision_parent_id_mismatch`, "The revision does not belong to the specified parent", core\'s `test_get_item_invalid_parent_id`), as the server does',
		matches: (d, req) => {
			const named = /\/\{(?:post|page):([\w-]+)\}\/revisions\/\{revision:([\w-]+)\}$/.exec(req.path);
			const otherParent = req.method === 'GET' && named !== null && named[1] !== named[2];
			return otherParent && ((d.kind === 'status' && d.wp === 200 && d.ref === 404) || (d.kind === 'code' && d.ref === 'rest_revision_parent_id_mismatch'));
		},
	},
	{
		id: 'taken-login-or-email-400',
		spec:
			'not the spec (it is silent): the project\'s bar, "bad input gets a clear error that names the field and the rule, the right HTTP status". WordPress 6.1 answers a user created with a login or an email already taken with 500 (`wp_insert_user` returns `existing_user_login`/`existing_user_email` without a status, and `create_item` adds 500); the server answers 400 with the same code and message (docs/decisions/site-wordpress.md, "Site: WordPress 6.1\'s answers, from the differential suite")',
		matches: (d, req) => {
			// The corpus's second `newbie`, and a new login with `newbie`'s email.
			const body = req.json as { username?: string; email?: string; password?: string } | undefined;
			const taken = req.family === 'users' && req.method === 'POST' && body?.password === 'x' && (body.username === 'newbie' || body.email === 'newbie@example.com');
			return taken && d.kind === 'status' && d.wp === 500 && d.ref === 400;
		},
	},
	{
		id: 'any-page-template',
		spec:
			'not the spec (it is silent on which templates a site has): WordPress 6.1 takes a `template` that is empty, the item\'s own, or one of the active theme\'s page templates (`check_template`), so the suite\'s WordPress, which has no theme, refuses any other with 400 `rest_invalid_param`. The server has no theme and keeps the template a client names, so that clients written for a theme\'s or the builder plugin\'s templates work (n8n\'s WordPress node sends `elementor_header_footer`; test/e2e/wordpress.test.ts) (docs/decisions/site-wordpress.md, issue 40)',
		matches: (d, req) => {
			const template = (req.json as { template?: unknown } | undefined)?.template;
			const named = ['posts', 'pages'].includes(req.family) && typeof template === 'string' && template !== '';
			return named && ((d.kind === 'status' && d.wp === 400 && [200, 201].includes(d.ref as number)) || (d.kind === 'code' && d.wp === 'rest_invalid_param' && d.ref === undefined));
		},
	},
	{
		id: 'newer-collection-parameters',
		spec:
			'"`search_semantics` | enum `exact`", "`search_columns` | array enum `post_title`, `post_content`, `post_excerpt`", "`ignore_sticky` | boolean | true", "`format` | array of format enum values | | posts" (collection GET parameters) and "GET takes `context`, `excerpt_length` (integer), `password`" (posts and pages items); WordPress 6.1 predates them',
		matches: (d) => d.kind === 'extra key' && /(^|\.)args\.(search_semantics|search_columns|ignore_sticky|format|excerpt_length)$/.test(d.path) && (!d.path.endsWith('format') || /(^routes\.\/wp\/v2\/posts\.|^endpoints)/.test(d.path)),
	},
	{
		id: 'wordpress-6.9-media-type-lists',
		spec:
			'"`media_type` | array enum `image`, `video`, `text`, `application`, `audio`" and "`mime_type` | array of string" (media collection GET parameters); WordPress 6.1 declares each as one string, 6.9 as a list (`type: array` with `items`), as the server takes them. WDM Media reads the declaration to tell whether a site takes two (nodes/shared/newerWordPress.ts; docs/decisions.md, issue 40)',
		matches: (d) => ['value', 'missing key', 'extra key'].includes(d.kind) && /(^|\.)args\.(media_type|mime_type)\.(type|enum|items)$/.test(d.path),
	},
	{
		id: 'comment-counts-readable',
		spec:
			'not the spec (it is silent): issue 37 orders that "X-WP-Total counts comments the caller cannot read" be fixed. WordPress 6.1\'s comments `get_items` answers `found_comments`, which counts the comments it then hides (a contributor asking for `status=hold` counts the held comments of others); the server counts only those the caller may read, so its totals are never higher (docs/decisions/security.md, issue 37)',
		matches: (d, req) => req.family === 'comments' && d.kind === 'header' && ['x-wp-total', 'x-wp-totalpages'].includes(d.path) && Number(d.ref) < Number(d.wp),
	},
	{
		id: 'content-counts-readable',
		spec:
			'not the spec (it is silent): issue 37 orders that "a contributor\'s `posts?status=draft&search=` counts other users\' drafts" be fixed ("Search and counts see only what the caller may read"). WordPress 6.1\'s posts and attachments `get_items` answer `found_posts`, which counts the items they then hide (another user\'s drafts, private posts); the server counts only those the caller may read, so its totals are never higher (docs/decisions/security.md, issue 37)',
		matches: (d, req) => ['posts', 'pages', 'media'].includes(req.family) && d.kind === 'header' && ['x-wp-total', 'x-wp-totalpages'].includes(d.path) && Number(d.ref) < Number(d.wp),
	},
];

/** The spec difference that accounts for `d`, if any. */
export const specDifference = (d: Difference, req: Req) => SPEC_DIFFERENCES.find((s) => s.matches(d, req));
