/**
 * The namespaces the site index lists, in its order: the spec's list (the three core namespaces for
 * site health, block editor and abilities named in the spec's neutral style, after `cms/v2`), then
 * the gateway and its sandbox, then `wp/v2`. Some have no routes yet; each still has its index (`GET /<namespace>`).
 */
export const SITE_NAMESPACES = [
	'oembed/1.0',
	'engine/v1',
	'builder-one/v1',
	'engine/v2',
	'proxyext/v1',
	'themecore/v2',
	'builder/v1/documents',
	'builder/v1',
	'builder-ai/v1',
	'builder/v1/feedback',
	'cms/v2',
	'cms-site-health/v1',
	'cms-block-editor/v1',
	'cms-abilities/v1',
	'wdm/v1',
	'sandbox/v1',
	// Stock WordPress's name for the core content: the `cms/v2` routes again (site/content/namespace.ts).
	'wp/v2',
] as const;

/** Routes of the REST server itself, in no namespace (as WordPress shows them): the index and batch. */
export const SERVER_ROUTES = ['/', '/batch/v1'];

/** Longest first, so that `/builder/v1/documents/1/media/import` is in `builder/v1/documents`, not `builder/v1`. */
export const NAMESPACES_LONGEST_FIRST = [...SITE_NAMESPACES].sort((a, b) => b.length - a.length);
