import { z } from 'zod';
import type { SiteRole, UserRow } from '../store/types';

export const SITE_ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const satisfies readonly SiteRole[];
export const siteRoleSchema = z.enum(SITE_ROLES);

/** The primitive capabilities the content routes check, named as WordPress names them. */
export type Capability =
	| 'read'
	| 'read_private_posts'
	| 'read_private_pages'
	| 'edit_posts'
	| 'edit_others_posts'
	| 'edit_published_posts'
	| 'edit_private_posts'
	| 'publish_posts'
	| 'delete_posts'
	| 'delete_others_posts'
	| 'delete_published_posts'
	| 'delete_private_posts'
	| 'edit_pages'
	| 'edit_others_pages'
	| 'edit_published_pages'
	| 'edit_private_pages'
	| 'publish_pages'
	| 'delete_pages'
	| 'delete_others_pages'
	| 'delete_published_pages'
	| 'delete_private_pages'
	| 'upload_files'
	| 'unfiltered_html'
	| 'manage_categories'
	| 'moderate_comments'
	| 'list_users'
	| 'create_users'
	| 'edit_users'
	| 'delete_users'
	| 'promote_users'
	| 'remove_users'
	| 'manage_options'
	| 'edit_theme_options'
	| 'install_plugins'
	| 'activate_plugins'
	| 'update_plugins'
	| 'install_themes'
	| 'switch_themes';

const CONTRIBUTOR: Capability[] = ['read', 'edit_posts', 'delete_posts'];
const AUTHOR: Capability[] = [...CONTRIBUTOR, 'edit_published_posts', 'publish_posts', 'delete_published_posts', 'upload_files'];
const EDITOR: Capability[] = [
	...AUTHOR,
	'read_private_posts',
	'read_private_pages',
	'edit_others_posts',
	'edit_private_posts',
	'delete_others_posts',
	'delete_private_posts',
	'edit_pages',
	'edit_others_pages',
	'edit_published_pages',
	'edit_private_pages',
	'publish_pages',
	'delete_pages',
	'delete_others_pages',
	'delete_published_pages',
	'delete_private_pages',
	'unfiltered_html',
	'manage_categories',
	'moderate_comments',
];

/** WordPress's default roles, each with the capabilities it grants. */
const GRANTS: Record<SiteRole, ReadonlySet<Capability>> = {
	subscriber: new Set(['read']),
	contributor: new Set(CONTRIBUTOR),
	author: new Set(AUTHOR),
	editor: new Set(EDITOR),
	administrator: new Set([
		...EDITOR,
		// Users are the administrator's (editors cannot even list them, as in WordPress).
		'list_users',
		'create_users',
		'edit_users',
		'delete_users',
		'promote_users',
		'remove_users',
		'manage_options',
		'edit_theme_options',
		'install_plugins',
		'activate_plugins',
		'update_plugins',
		'install_themes',
		'switch_themes',
	]),
};

const levels = (top: number) => Array.from({ length: top + 1 }, (_, i) => `level_${top - i}`);

/**
 * Capabilities WordPress's default roles hold that no route here checks (user levels, links, theme and
 * plugin files, core updates, import and export): shown in a user's `capabilities` as WordPress shows
 * them (`populate_roles`), granting nothing.
 */
const SHOWN_ONLY: Record<SiteRole, readonly string[]> = {
	subscriber: levels(0),
	contributor: levels(1),
	author: levels(2),
	editor: ['manage_links', ...levels(7)],
	administrator: [
		'manage_links',
		...levels(10),
		'edit_themes',
		'edit_plugins',
		'edit_files',
		'import',
		'export',
		'unfiltered_upload',
		'edit_dashboard',
		'delete_plugins',
		'update_themes',
		'update_core',
		'delete_themes',
	],
};

/** The capabilities a role grants, as WordPress's `allcaps` shows them (each `true`, with the role itself). */
export const grantsOf = (role: SiteRole): Record<string, boolean> =>
	Object.fromEntries([...GRANTS[role], ...SHOWN_ONLY[role], role].map((cap) => [cap, true]));

/** Whether a site user (or an anonymous caller, `null`) has a capability. */
export function can(user: UserRow | null, capability: Capability): boolean {
	return user !== null && GRANTS[user.role].has(capability);
}
