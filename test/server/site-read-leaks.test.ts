import type { App } from '../../server/src/app';
import { namespaceOf, type Route } from '../../server/src/http/route';
import { originalOf } from '../../server/src/site/content/namespace';
import { routes } from '../../server/src/routes';
import { client } from '../helpers/server';
import { startSite, type CmsClient, type SiteUser, type SiteUsers } from '../helpers/content';

/**
 * Issue 37's class test for reads: every GET route of the site, as an anonymous caller, a subscriber and a
 * contributor, plain and with the variations WordPress's controllers take (`_embed`, `_fields`, `context`,
 * `search`, `status`, a wrong `password`), must not show protected content, another user's draft, pending or
 * private item, a held comment, or an e-mail address the caller may not see; nor may `X-WP-Total` count them.
 * The routes come from the route table, so a new GET route is covered as soon as it exists.
 */

const PROTECTED = 'SECRET-PROTECTED-7391';
const DRAFT = 'SECRET-DRAFT-4826';
const COMMENT = 'SECRET-COMMENT-5503';
/** The contributor's own pending post: theirs to see, nobody else's here. */
const OWN = 'CONNIE-OWN-1180';
/** Every secret marker has it: one search finds them all. */
const SEARCH = 'SECRET';
const MAIL_DOMAIN = 'hidden-mail-2210.test';
const PASSWORD = 'open sesame 42';
const AI_KEY = 'sk-live-HIDDEN-0123456789abcdefXYZ';

/** The gateway and its sandbox (with the dashboard's routes) are not the site's. */
const NOT_SITE = ['wdm/v1', 'sandbox/v1'];
/** Query parameters that pick the fields an answer shows, and the fields that hold secrets. */
const FIELD_PICKS: Record<string, string[]> = {
	label_field: ['post_content', 'post_excerpt', 'meta', 'user_email'],
	value_field: ['post_content', 'user_email'],
	keys_conversion_map: [JSON.stringify({ ID: 'id', post_content: 'content', post_excerpt: 'excerpt', user_email: 'email' })],
};
/** Query parameters through which routes search, besides WordPress's `search`. */
const SEARCH_KEYS = ['search', '_s', 'q', 'query', 'term'];
const ROLES = ['anonymous', 'subscriber', 'contributor'] as const;
type Role = (typeof ROLES)[number];
/** A page of this size or more may leave items to later pages; a shorter one must count exactly what it shows. */
const FULL_PAGE = 10;
const CONCURRENCY = 8;

let server: App;
let cms: CmsClient;
let u: SiteUsers;

/** Values for each path parameter, by the segment before it and its name (`posts/{id}`); given what is filled before it. */
type Fill = (filled: Record<string, string>) => (string | number)[];
const FILL: Record<string, Fill> = {};
/** Values for each required query parameter, by name. */
const QUERY_FILL: Record<string, (string | number)[]> = {};
/**
 * What no caller here may see, and what only the one named may (their own e-mail, the contributor's post);
 * the admin meets each of them somewhere (the control), but for what no route ever answers (`unread`).
 */
const secrets: { text: string; what: string; owner?: Role; unread?: true }[] = [];

// ---- the site's secrets ----

const engine = () => client(server.url, '/wp-json/engine/v2');

async function enginePost(path: string, body: unknown): Promise<number> {
	const res = await engine().post(path, body, { headers: u.admin.headers });
	if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body.item_id;
}

async function adminGet(path: string) {
	const res = await cms.get(path, u.admin, { context: 'edit', per_page: 100 });
	if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body;
}

/** A one-pixel PNG (the server reads only its header). */
function png(): Buffer {
	const ihdr = Buffer.alloc(25);
	ihdr.writeUInt32BE(13, 0);
	ihdr.write('IHDR', 4, 'latin1');
	ihdr.writeUInt32BE(1, 8);
	ihdr.writeUInt32BE(1, 12);
	ihdr.set([8, 2, 0, 0, 0], 16);
	return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.from('0000000049454e44ae426082', 'hex')]);
}

/** A post (or page, or engine item) whose content, excerpt and builder data hold `marker`. */
const secretBody = (marker: string, extra: Record<string, unknown>) => ({
	content: `<p>Body ${marker} body</p>`,
	excerpt: `Summary ${marker}`,
	meta: { _builder_data: JSON.stringify([{ id: 'e1', elType: 'widget', settings: { text: marker } }]) },
	...extra,
});

async function seed() {
	// Every user's e-mail: shown only in the edit context to those who may edit the user.
	for (const [role, user] of Object.entries(u) as [keyof SiteUsers, SiteUser][]) {
		if (role === 'anonymous') continue;
		const email = `${user.name}@${MAIL_DOMAIN}`;
		server.services.store.users.update(user.id, { email });
		secrets.push({ text: email, what: `${role}'s e-mail`, owner: ROLES.includes(role as Role) ? (role as Role) : undefined });
	}
	const siteEmail = (await adminGet('/settings')).email as string;
	if (siteEmail && !secrets.some((s) => s.text === siteEmail.toLowerCase())) secrets.push({ text: siteEmail.toLowerCase(), what: "the site's admin e-mail" });
	const guestEmail = `guest@${MAIL_DOMAIN}`;
	secrets.push({ text: guestEmail, what: "a held comment's author e-mail" });
	secrets.push({ text: PROTECTED, what: 'protected content' }, { text: DRAFT, what: "another user's draft, pending or private item" });
	secrets.push({ text: COMMENT, what: 'a comment the caller may not read' }, { text: OWN, what: "the contributor's pending post", owner: 'contributor' });

	const tag = await cms.create('/tags', u.admin, { name: 'Plain tag' });
	const publicPost = await cms.create('/posts', u.admin, { title: 'Public post', content: 'Nothing to hide', status: 'publish', tags: [tag.id] });
	const protectedPost = await cms.create('/posts', u.admin, secretBody(PROTECTED, { title: 'Locked post', status: 'publish', password: PASSWORD, tags: [tag.id] }));
	const protectedPage = await cms.create('/pages', u.editor, secretBody(PROTECTED, { title: 'Locked page', status: 'publish', password: PASSWORD }));
	const draft = await cms.create('/posts', u.author2, secretBody(DRAFT, { title: `Draft ${DRAFT}`, status: 'draft', tags: [tag.id] }));
	const pending = await cms.create('/posts', u.author2, secretBody(DRAFT, { title: `Pending ${DRAFT}`, status: 'pending' }));
	const privatePost = await cms.create('/posts', u.editor, secretBody(DRAFT, { title: `Private ${DRAFT}`, status: 'private' }));
	const draftPage = await cms.create('/pages', u.editor, secretBody(DRAFT, { title: `Draft page ${DRAFT}`, status: 'draft' }));
	const own = await cms.create('/posts', u.contributor, secretBody(OWN, { title: `Own ${OWN}`, status: 'pending' }));
	// Revisions and autosaves of the protected items hold their content too.
	for (const [base, item, user] of [['posts', protectedPost, u.admin], ['pages', protectedPage, u.editor]] as const) {
		await cms.post(`/${base}/${item.id}`, user, { content: `<p>Revised ${PROTECTED}</p>` });
		const autosave = await cms.post(`/${base}/${item.id}/autosaves`, user, { content: `<p>Autosaved ${PROTECTED}</p>`, excerpt: PROTECTED });
		if (autosave.status !== 200) throw new Error(`autosave: ${autosave.status} ${JSON.stringify(autosave.body)}`);
	}
	await cms.post(`/posts/${draft.id}`, u.author2, { content: `<p>Revised ${DRAFT}</p>` });

	const onProtected = await cms.create('/comments', u.admin, { post: protectedPost.id, content: `On the locked post ${COMMENT}` });
	const held = await cms.create('/comments', u.admin, {
		post: publicPost.id,
		author: 0,
		author_name: 'Guest',
		author_email: guestEmail,
		content: `Held ${COMMENT}`,
		status: 'hold',
	});
	const approved = await cms.create('/comments', u.author2, { post: publicPost.id, content: 'A fine post' });

	// A file of the draft: an attachment reads as its parent does.
	const upload = await fetch(`${server.url}/wp-json/cms/v2/media`, {
		method: 'POST',
		headers: { ...u.author2.headers, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="draft.png"' },
		body: new Uint8Array(png()),
	});
	const media = (await upload.json()) as { id: number };
	if (upload.status !== 201) throw new Error(`media: ${upload.status} ${JSON.stringify(media)}`);
	await cms.post(`/media/${media.id}`, u.author2, { post: draft.id, title: `Media ${DRAFT}`, caption: DRAFT, description: DRAFT, alt_text: DRAFT });

	// The engine: a post type with a taxonomy and secret items, and one of each of its definitions.
	const typeId = await enginePost('/add-post-type', { general_settings: { name: 'Books', slug: 'book' } });
	const taxId = await enginePost('/add-taxonomy', { general_settings: { name: 'Genres', slug: 'genre', object_type: ['book'] } });
	const bookBase = (await adminGet('/types/book')).rest_base as string;
	const genreBase = (await adminGet('/taxonomies/genre')).rest_base as string;
	const genre = await cms.create(`/${genreBase}`, u.admin, { name: 'Plain genre' });
	const books = [
		await cms.create(`/${bookBase}`, u.admin, secretBody(PROTECTED, { title: 'Locked book', status: 'publish', password: PASSWORD, [genreBase]: [genre.id] })),
		await cms.create(`/${bookBase}`, u.author2, secretBody(DRAFT, { title: `Draft book ${DRAFT}`, status: 'draft' })),
	];
	const metaBoxId = await enginePost('/add-meta-box', { args: { name: 'Notes', allowed_post_type: ['post'], context: 'side' }, meta_fields: [{ name: 'note', title: 'Note', type: 'text' }] });
	const optionsPageId = await enginePost('/add-options-page', { general_settings: { name: 'Shop' }, meta_fields: [{ name: 'phone', type: 'text' }] });
	const relationId = await enginePost('/add-relation', { name: 'Post pages', parent_object: 'post', child_object: 'page', connections: [{ parent_id: draft.id, child_id: protectedPage.id }] });
	const itemId = await enginePost('/add-item', { name: 'Sizes', source: 'manual', fields: [{ value: 's', label: 'Small' }] });
	const queryIds = [
		await enginePost('/add-query', {
			name: 'Everything',
			query_type: 'posts',
			args: { post_type: ['post', 'page', 'book'], post_status: ['publish', 'draft', 'pending', 'private'] },
		}),
		await enginePost('/add-query', { name: 'Everyone', query_type: 'users' }),
	];

	// The builder: a component (its elements are builder data); the theme core: a draft template of the admin's.
	const components = await client(server.url, '/wp-json/builder/v1').post(
		'/components',
		{ status: 'publish', items: [{ uid: 'plain-box', title: 'Plain box', elements: [{ id: 'b1', elType: 'widget', settings: {} }] }] },
		{ headers: u.admin.headers },
	);
	if (components.status !== 201) throw new Error(`components: ${components.status} ${JSON.stringify(components.body)}`);
	const componentId: number = components.body['plain-box'];
	const tc = client(server.url, '/wp-json/themecore/v2');
	const template = await tc.post('/create-template', { name: 'Header', type: 'themecore-header', content_type: 'builder' }, { headers: u.admin.headers });
	const templateId = template.body.data.newTemplateId;
	const changed = await tc.post(
		'/update-template-data',
		{ template_id: templateId, template_data: { title: `Template ${DRAFT}`, status: 'draft', content: [{ id: 't1', settings: { text: DRAFT } }] } },
		{ headers: u.admin.headers },
	);
	if (changed.status !== 200) throw new Error(`themecore: ${changed.status} ${JSON.stringify(changed.body)}`);

	// The AI proxy: its key, and each user's conversation with the assistant.
	const ai = client(server.url, '/wp-json/proxyext/v1/ai-api-proxy');
	const nonce = (await ai.get('/settings', { headers: u.admin.headers })).body.nonce;
	expect((await ai.post('/key', { api_key: AI_KEY, nonce }, { headers: u.admin.headers })).status).toBe(200);
	secrets.push({ text: AI_KEY, what: 'the AI key', unread: true });
	for (const [user, marker] of [[u.admin, DRAFT], [u.author2, DRAFT], [u.contributor, OWN]] as const) {
		expect((await ai.post('/response', { content: `Reply ${marker}` }, { headers: user.headers })).status).toBe(200);
	}

	// ---- what fills the routes' parameters ----
	const posts = [publicPost, protectedPost, draft, pending, privatePost, own].map((p) => p.id);
	const pages = [protectedPage, draftPage].map((p) => p.id);
	const children = async (base: string, ids: number[], kind: 'revisions' | 'autosaves') => {
		const out: Record<string, number[]> = {};
		for (const id of ids) out[id] = (await adminGet(`/${base}/${id}/${kind}`)).map((r: { id: number }) => r.id);
		return out;
	};
	const revisions = { ...(await children('posts', posts, 'revisions')), ...(await children('pages', pages, 'revisions')) };
	const autosaves = { ...(await children('posts', posts, 'autosaves')), ...(await children('pages', pages, 'autosaves')) };
	const users = Object.values(u).filter((user) => user.id).map((user) => user.id);
	const appPasswords: Record<string, string[]> = {};
	for (const id of users) appPasswords[id] = (await adminGet(`/users/${id}/application-passwords`)).map((p: { uuid: string }) => p.uuid);
	const byBase: Record<string, number[]> = { [bookBase]: books.map((b) => b.id), [genreBase]: [genre.id] };
	const builder = client(server.url, '/wp-json/builder/v1');
	const globalIds = async (kind: string) => Object.keys((await builder.get(`/globals/${kind}`, { headers: u.admin.headers })).body);
	const types = Object.keys(await adminGet('/types'));
	const colorIds = await globalIds('colors');
	const typographyIds = await globalIds('typography');

	Object.assign(FILL, {
		'posts/{id}': () => posts,
		'posts/{parent}': () => posts,
		'pages/{id}': () => pages,
		'pages/{parent}': () => pages,
		'revisions/{id}': (p) => revisions[p.parent] ?? [],
		'autosaves/{id}': (p) => autosaves[p.parent] ?? [],
		'categories/{id}': () => [1],
		'tags/{id}': () => [tag.id],
		'comments/{id}': () => [onProtected.id, held.id, approved.id],
		'media/{id}': () => [media.id],
		'users/{id}': () => users,
		'users/{user_id}': () => [...users, 'me'],
		'application-passwords/{uuid}': (p) => (p.user_id === 'me' ? [] : appPasswords[p.user_id]),
		'v2/{base}': () => Object.keys(byBase),
		'{base}/{id}': (p) => byBase[p.base],
		'types/{type}': () => types,
		'taxonomies/{taxonomy}': () => ['category', 'post_tag', 'genre'],
		'statuses/{status}': () => ['publish', 'draft', 'pending', 'private', 'future'],
		'get-post-type/{id}': () => [typeId],
		'get-built-in-post-type/{post_type}': () => ['post', 'page'],
		'get-taxonomy/{id}': () => [taxId],
		'get-built-in-tax/{tax}': () => ['category', 'post_tag'],
		'get-meta-box/{id}': () => [metaBoxId],
		'get-options-page/{id}': () => [optionsPageId],
		'get-relation/{id}': () => [relationId],
		'get-item/{id}': () => [itemId],
		'get-query/{id}': () => queryIds,
		'colors/{id}': () => colorIds,
		'typography/{id}': () => typographyIds,
		'settings/{key}': () => ['cpt_support'],
		'checklist/{id}': () => [1],
		'steps/{id}': () => [1],
		'ai-api-proxy/{api_path}': () => ['models'],
	} satisfies Record<string, Fill>);
	const links = [protectedPost, protectedPage, draft, privatePost, own, books[0], books[1]].map((p) => p.link as string);
	Object.assign(QUERY_FILL, {
		url: links,
		query_id: queryIds,
		glossary_id: [itemId],
		componentId: [componentId],
		posts_per_page: [10],
		app_name: ['builder'],
		app_version: ['1.0.0'],
	});
}

// ---- the routes and their requests ----

/** The site's GET routes (the `wp/v2` twins too: they are routes of their own to a client). */
const siteReads = routes.filter((r) => r.method === 'GET' && !NOT_SITE.includes(namespaceOf(r.path)));

/** The query schema's keys, and those it requires (a PHP-style query pipes into its object). */
function queryKeys(r: Route): { all: string[]; required: string[] } {
	const schema = r.query as unknown as { def: { type: string; out?: unknown }; shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> } | undefined;
	const object = (schema?.def.type === 'pipe' ? schema.def.out : schema) as typeof schema;
	const shape = object?.shape ?? {};
	return { all: Object.keys(shape), required: Object.keys(shape).filter((k) => !shape[k].safeParse(undefined).success) };
}

/** Every concrete URL (path and query) of a route with its parameters filled, or the parameter nothing fills. */
function requestsOf(r: Route): { urls: string[] } | { missing: string } {
	let filled: { path: string; params: Record<string, string> }[] = [{ path: '', params: {} }];
	const segments = r.path.split('/').slice(1);
	for (const [i, segment] of segments.entries()) {
		const name = /^\{(\w+)\}$/.exec(segment)?.[1];
		if (!name) {
			filled = filled.map((f) => ({ ...f, path: `${f.path}/${segment}` }));
			continue;
		}
		const key = `${segments[i - 1]}/${segment}`;
		const fill = FILL[key];
		if (!fill) return { missing: `path parameter ${key}` };
		filled = filled.flatMap((f) => fill(f.params).map((v) => ({ path: `${f.path}/${encodeURIComponent(String(v))}`, params: { ...f.params, [name]: String(v) } })));
	}
	let queries = [''];
	for (const key of queryKeys(r).required) {
		const values = QUERY_FILL[key];
		if (!values) return { missing: `query parameter ${key}` };
		queries = queries.flatMap((q) => values.map((v) => `${q}&${key}=${encodeURIComponent(String(v))}`));
	}
	return { urls: filled.flatMap((f) => queries.map((q) => withQuery(f.path, q.slice(1)))) };
}

interface Variation {
	label: string;
	query: string;
	/** A search for what only secrets hold: it must find nothing. */
	search?: boolean;
}

/**
 * The variations; searches go to every search parameter the route takes. A `wp/v2` twin runs its `cms/v2`
 * route's handler (site/content/namespace.ts), which meets every variation: the twin is asked plain and in
 * the contexts, enough to tell it answers as its original.
 */
function variations(r: Route): Variation[] {
	const declared = queryKeys(r).all.filter((k) => SEARCH_KEYS.includes(k));
	// `search` always (a route may read what it does not declare); a route that declares none lists as it would.
	const keys = [...new Set(['search', ...declared])];
	const search = declared.length > 0;
	const searchFor = (text: string) => keys.map((k) => `${k}=${encodeURIComponent(text)}`).join('&');
	const all: Variation[] = [
		{ label: 'plain', query: '' },
		{ label: '_embed', query: '_embed=1' },
		{ label: '_fields', query: '_fields=content,meta,excerpt,email,author_email' },
		{ label: 'context=edit', query: 'context=edit' },
		{ label: 'context=embed', query: 'context=embed' },
		{ label: `search=${SEARCH}`, query: searchFor(SEARCH), search },
		{ label: 'search=<e-mail domain>', query: searchFor(MAIL_DOMAIN), search },
		{ label: 'status=draft', query: 'status=draft' },
		{ label: 'status=any', query: 'status=any' },
		{ label: 'status=private', query: 'status=private' },
		{ label: 'status=hold', query: 'status=hold' },
		{ label: `status=draft&search=${SEARCH}`, query: `status=draft&${searchFor(SEARCH)}`, search },
		{ label: 'password=<wrong>', query: 'password=not-the-password' },
		...queryKeys(r)
			.all.filter((k) => k in FIELD_PICKS)
			.flatMap((k) => FIELD_PICKS[k].map((value) => ({ label: `${k}=${value}`, query: `${k}=${encodeURIComponent(value)}` }))),
	];
	return originalOf(r) ? all.filter((v) => ['plain', '_embed', 'context=edit', 'context=embed'].includes(v.label)) : all;
}

/** How many items an answer lists (a WordPress collection, or the engine's `{success, data: [...]}`), if it is a list. */
function itemsShown(status: number, text: string): number | undefined {
	if (status !== 200) return undefined;
	try {
		const body = JSON.parse(text);
		if (Array.isArray(body)) return body.length;
		if (Array.isArray(body?.data)) return body.data.length;
	} catch {
		/* not JSON */
	}
	return undefined;
}

interface Answer {
	status: number;
	text: string;
	total: string | null;
}

/**
 * What an answer shows that the role may not see: a secret in its body; a total that counts more than the
 * page shows (a page shorter than a full one holds everything; `context=edit` lists only what the caller may
 * edit, of what it counts as readable: the plain list); or anything found by a search for secrets.
 */
function leaksIn(role: Role, variation: Variation, answer: Answer, plain: Answer): string[] {
	const found: string[] = [];
	const lower = answer.text.toLowerCase();
	for (const secret of secrets) if (secret.owner !== role && lower.includes(secret.text.toLowerCase())) found.push(`${secret.what} (${secret.text})`);
	const shown = itemsShown(answer.status, answer.text);
	if (answer.total !== null && shown !== undefined) {
		const readable = variation.label === 'context=edit' ? itemsShown(plain.status, plain.text) : shown;
		const counted = Number(answer.total);
		if (readable !== undefined && readable < FULL_PAGE && (variation.label === 'context=edit' ? counted > readable : counted !== readable)) {
			found.push(`X-WP-Total ${answer.total} but ${readable} readable`);
		}
	}
	if (variation.search && (shown ?? 0) > 0) found.push(`the search found ${shown} item(s)`);
	return found;
}

/** `url` with more query parameters. */
const withQuery = (url: string, extra: string) => (extra ? `${url}${url.includes('?') ? '&' : '?'}${extra}` : url);

/** Runs `jobs` `CONCURRENCY` at a time. */
async function pool<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
	const out: T[] = [];
	let next = 0;
	const worker = async () => {
		while (next < jobs.length) {
			const i = next++;
			out[i] = await jobs[i]();
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	return out;
}

beforeAll(async () => {
	({ server, cms, u } = await startSite());
	await seed();
}, 60_000);
afterAll(() => server.close());

/** The routes with their URLs filled (a route that cannot be filled fails its own test below). */
const filledRoutes = () => siteReads.flatMap((r) => {
	const made = requestsOf(r);
	return 'urls' in made ? [{ r, urls: made.urls }] : [];
});

test('the control: the admin meets every secret, and every route reaches a real object with the values it is filled with', async () => {
	const seen = new Set<string>();
	const reached = new Set<Route>();
	const jobs = filledRoutes().flatMap(({ r, urls }) =>
		urls.flatMap((url) =>
			['', 'context=edit'].map((extra) => async () => {
				const res = await fetch(`${server.url}/wp-json${withQuery(url, extra)}`, { headers: u.admin.headers });
				const text = (await res.text()).toLowerCase();
				if (res.ok) reached.add(r);
				for (const secret of secrets) if (text.includes(secret.text.toLowerCase())) seen.add(secret.text);
			}),
		),
	);
	await pool(jobs);
	expect(secrets.filter((s) => !s.unread && !seen.has(s.text)).map((s) => s.what)).toEqual([]);
	expect(filledRoutes().filter(({ r }) => !reached.has(r)).map(({ r }) => r.path)).toEqual([]);
});

test.each(siteReads.map((r) => [`${r.method} ${r.path}`, r] as const))('%s shows no secret to an anonymous caller, a subscriber or a contributor', async (_name, r) => {
	const made = requestsOf(r);
	if ('missing' in made) throw new Error(`${r.path}: no value for its ${made.missing}: seed an object and add it to FILL (or QUERY_FILL)`);
	if (!made.urls.length) throw new Error(`${r.path}: its parameters are filled with no value`);
	const ask = async (role: Role, target: string): Promise<Answer> => {
		const res = await fetch(`${server.url}/wp-json${target}`, { headers: u[role].headers });
		return { status: res.status, text: await res.text(), total: res.headers.get('x-wp-total') };
	};
	// One job per URL and role: its variations in turn, after the plain request they are compared with.
	const jobs = made.urls.flatMap((url) =>
		ROLES.map((role) => async () => {
			const plain = await ask(role, url);
			const found: string[] = [];
			for (const variation of variations(r)) {
				const target = withQuery(url, variation.query);
				const answer = variation.query ? await ask(role, target) : plain;
				found.push(...leaksIn(role, variation, answer, plain).map((what) => `${role} GET ${target} [${variation.label}] -> ${answer.status}: ${what}`));
			}
			return found;
		}),
	);
	expect((await pool(jobs)).flat()).toEqual([]);
});
