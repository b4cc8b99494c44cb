import { z } from 'zod';
import { type Route, route } from '../../http/route';
import type { Store } from '../../store';
import type { Sql } from '../../store/content';
import { idList, searchParam } from '../content/params';
import { activeTheme } from '../plugins';
import { sitePostTypes, siteTaxonomies } from '../registry';
import { siteSettings } from '../settings';
import { checkAccess, invalidParam, NS, need } from './common';

/**
 * The reads the template conditions are built from, answered as the plugin's option lists
 * (`[{value, label}]`): posts of a type, terms of a taxonomy, post types, static pages, the theme's
 * page templates, and the reading options. Post types and taxonomies come from the site registry
 * (the engine's included), items from the content, so a condition can name whatever the site has.
 */

/** One option of a select, as the plugin answers them. */
const optionAnswer = z.object({ value: z.union([z.number().int(), z.string()]).meta({ description: 'An id, or a slug' }), label: z.string() });
type Option = z.output<typeof optionAnswer>;
const optionsAnswer = z.array(optionAnswer);

/** At most this many options per answer without `values` (the plugin pages its search selects alike). */
const MAX_OPTIONS = 100;

const LIKE_ESCAPE = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Published items of a type: those named by `values`, else those whose title contains `query`. */
function itemOptions(store: Store, postType: string, query: string, values: number[]): Option[] {
	const where: Sql = { sql: "c.type = ? AND c.status = 'publish'", params: [postType] };
	if (values.length) {
		where.sql += ' AND c.id IN (SELECT value FROM json_each(?))';
		where.params.push(JSON.stringify(values));
	}
	if (query) {
		where.sql += " AND c.title LIKE ? ESCAPE '\\'";
		where.params.push(LIKE_ESCAPE(query));
	}
	const { rows } = store.content.find(where, { sql: 'c.date_gmt DESC, c.id DESC', params: [] }, values.length ? null : MAX_OPTIONS, 0);
	return rows.map((row) => ({ value: row.id, label: row.title }));
}

/** Terms of a taxonomy: those named by `values`, else those whose name contains `query`, by name. */
function termOptions(store: Store, taxonomy: string, query = '', values: number[] = []): Option[] {
	const where: Sql = { sql: 't.taxonomy = ?', params: [taxonomy] };
	if (values.length) {
		where.sql += ' AND t.id IN (SELECT value FROM json_each(?))';
		where.params.push(JSON.stringify(values));
	}
	if (query) {
		where.sql += " AND t.name LIKE ? ESCAPE '\\'";
		where.params.push(LIKE_ESCAPE(query));
	}
	const { rows } = store.terms.find(where, { sql: 't.name COLLATE NOCASE, t.id', params: [] }, values.length ? -1 : MAX_OPTIONS, 0);
	return rows.map((term) => ({ value: term.id, label: term.name }));
}

/**
 * The page templates of the active theme (a page's `template`): `default` on every theme, plus those
 * of the theme a fresh site has. Another theme (installed through the builder connection) has only
 * the default.
 */
const THEME_PAGE_TEMPLATES: Record<string, Option[]> = {
	twentytwentyfive: [
		{ value: 'page-no-title', label: 'Page No Title' },
		{ value: 'page-with-wide-image', label: 'Page With Wide Image' },
		{ value: 'page-no-header-footer', label: 'Page Without Header and Footer' },
	],
};

/** A read of a list of options, with nothing to ask. */
const readRoute = (name: string, summary: string, read: (store: Store) => Option[]) =>
	route({
		method: 'POST',
		path: `${NS}/${name}`,
		auth: 'site',
		summary,
		answer: optionsAnswer,
		errors: [403],
		handler: ({ services, siteUser }) => {
			checkAccess(siteUser, 'read');
			return read(services.store);
		},
	});

const optionsBody = { query: searchParam.prefault(''), values: idList().prefault([]) };

export const siteDataRoutes: Route[] = [
	route({
		method: 'POST',
		path: `${NS}/get-posts`,
		auth: 'site',
		summary: 'Published items of a post type as options: those of `values`, else those whose title contains `query` (at most 100)',
		body: z.object({ post_type: z.string().max(100).prefault('post'), ...optionsBody }),
		answer: optionsAnswer,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'read');
			const types = sitePostTypes(services.store).map((type) => type.slug);
			if (!types.includes(body.post_type)) throw invalidParam('post_type', `post_type must be a post type of the site: ${types.join(', ')}`);
			return itemOptions(services.store, body.post_type, body.query, body.values);
		},
	}),

	route({
		method: 'POST',
		path: `${NS}/get-tax-terms`,
		auth: 'site',
		summary: 'Terms of a taxonomy as options: those of `values`, else those whose name contains `query` (at most 100)',
		body: z.object({ tax_name: z.string().max(100).optional(), ...optionsBody }),
		answer: optionsAnswer,
		errors: [403],
		handler: ({ services, siteUser, body }) => {
			checkAccess(siteUser, 'read');
			const taxonomies = siteTaxonomies(services.store).map((tax) => tax.slug);
			const taxonomy = need(body.tax_name, 'tax_name');
			if (!taxonomies.includes(taxonomy)) throw invalidParam('tax_name', `tax_name must be a taxonomy of the site: ${taxonomies.join(', ')}`);
			return termOptions(services.store, taxonomy, body.query, body.values);
		},
	}),

	readRoute('get-post-categories', 'Every category as an option', (store) => termOptions(store, 'category')),
	readRoute('get-post-tags', 'Every tag as an option', (store) => termOptions(store, 'post_tag')),

	// Media items have no archive or template of their own to choose: left out, as the plugin does.
	readRoute('get-post-types', 'The public post types of the site (the engine\'s included) as options', (store) =>
		sitePostTypes(store)
			.filter((type) => type.public && type.slug !== 'attachment')
			.map((type): Option => ({ value: type.slug, label: type.name })),
	),

	readRoute('get-static-pages', 'Every published page as an option', (store) => itemOptions(store, 'page', '', [])),

	readRoute('get-page-templates', "The active theme's page templates as options", (store) => [
		{ value: 'default', label: 'Default template' },
		...(THEME_PAGE_TEMPLATES[activeTheme(store).slug] ?? []),
	]),

	route({
		method: 'POST',
		path: `${NS}/get-wp-options`,
		auth: 'site',
		summary: "The site's reading options: what the front page shows, and its pages",
		answer: z.object({
			blogname: z.string(),
			blogdescription: z.string(),
			show_on_front: z.enum(['posts', 'page']),
			page_on_front: z.number().int().meta({ description: 'The page shown as the front page; 0 for none' }),
			page_for_posts: z.number().int().meta({ description: 'The page that lists the posts; 0 for none' }),
		}),
		errors: [403],
		handler: ({ services, siteUser }) => {
			checkAccess(siteUser, 'read');
			const { name, description, show_on_front, page_on_front, page_for_posts } = siteSettings(services.store);
			return { blogname: name, blogdescription: description, show_on_front, page_on_front, page_for_posts };
		},
	}),
];
