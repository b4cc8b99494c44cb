import { isResourceLocatorValue, NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeParameterResourceLocator,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
	JsonObject,
} from 'n8n-workflow';
import { gatewayRequest as gateway } from './gateway';
import { inSiteNamespace, siteBaseUrl } from './site';

/*
 * Pickers: the fields that take the ID of something the server can list offer n8n's resource
 * locator (From List with search, By ID, and By URL where the thing has a URL).
 *
 *   fields: [picker('post', { displayName: 'Post', name: 'postId', description: '...' })]
 *   methods: pickerMethods(properties)      // in the node class: the list searches its fields use
 *
 * A locator's value is `{__rl, mode, value}`. n8n reads the ID out of it in `$parameter` (route
 * segments) and in its declarative engine; the direct runner reads fields with `extractValue` (see
 * direct.ts); a function that reads a field itself (the rows of a fixed collection) uses `pickedValue`.
 * A plain value (an older workflow, an expression, a test) is read as By ID.
 *
 * A list entry's name is what the field shows once picked: the editor stores it with the value
 * (`cachedResultName`) and never refreshes it, so a name says what the thing is (its name, title),
 * never a state that comes and goes (a device's connection status).
 */

type Search = (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) => Promise<INodeListSearchResult>;

/** One kind of thing a picker lists. */
interface Kind {
	/** In sentences: `post`, `label`. */
	noun: string;
	/** The list search, named `search<Kind>` in the node's `methods.listSearch`. */
	search: Search;
	/** By ID: what an ID looks like, and the mode's name when the ID is not called an ID (`By Number`). */
	idPlaceholder: string;
	idMode?: string;
	/** A regex the whole ID must match (n8n anchors it), with the sentence shown when it does not. */
	idPattern?: { regex: string; message: string };
	/** By URL: an example, the regex whose one group is the ID, and one the whole URL must match (n8n anchors it). */
	url?: { placeholder: string; regex: string; validation: string };
}

/**
 * The ID a stored picker value holds: a locator's value (By URL: taken out of the URL with the
 * `__regex` the editor stores, as n8n's `$parameter` does); a plain value as it is.
 */
export function pickedValue(value: unknown): unknown {
	if (!isResourceLocatorValue(value)) return value;
	const { value: id, __regex: regex } = value as INodeParameterResourceLocator & { __regex?: string };
	return regex && typeof id === 'string' ? (new RegExp(regex).exec(id)?.[1] ?? id) : id;
}

/** The ID picked in another field of the node (a list that depends on it), '' when there is none. */
const chosenId = (ctx: ILoadOptionsFunctions, parameter: string) => String(pickedValue(ctx.getCurrentNodeParameter(parameter)) ?? '').trim();

/** The ID picked in `parameter`, which the list needs first (`what`: why, shown when it is missing). */
function requiredChoice(ctx: ILoadOptionsFunctions, parameter: string, label: string, what: string) {
	const id = chosenId(ctx, parameter);
	if (!id) throw new NodeOperationError(ctx.getNode(), `Choose the ${label} first: ${what}`);
	return id;
}

/** A text cut to its first `length` characters, on one line. */
function shortened(text: string, length = 60) {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > length ? `${line.slice(0, length)}…` : line;
}

// ---- Requests of the list searches ----

/**
 * A site request (a route written `/cms/v2/...` goes to the credential's namespace): its answer and
 * total of pages. Parameters go in `qs` (a GET) or the body, never in the route (see site.ts).
 */
async function site(ctx: ILoadOptionsFunctions, route: string, qs: IDataObject, method: IHttpRequestMethods = 'GET', body?: IDataObject) {
	const credentials = await ctx.getCredentials('wdmSiteApi');
	const options: IHttpRequestOptions = {
		method,
		baseURL: siteBaseUrl(credentials),
		url: inSiteNamespace(route, credentials),
		qs,
		...(body ? { body } : {}),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'wdmSiteApi', options)) as IN8nHttpFullResponse;
	if (response.statusCode >= 400) {
		const body = (response.body ?? {}) as { message?: string };
		throw new NodeApiError(ctx.getNode(), body as JsonObject, { message: body.message ?? `The site answered HTTP ${response.statusCode}`, httpCode: String(response.statusCode) });
	}
	return { body: response.body as unknown, totalPages: Number(response.headers['x-wp-totalpages'] ?? 1) };
}

/**
 * A site extension's list that comes whole (the engine's `get-post-types`, the theme core's template
 * list, the builder's components): `list` takes the entries out of the answer, `entry` names each.
 */
function wholeSiteSearch(
	request: { route: string; method?: IHttpRequestMethods; body?: IDataObject },
	list: (answer: unknown) => IDataObject[],
	entry: (row: IDataObject) => INodeListSearchItems,
): Search {
	return async function (filter) {
		const { body } = await site(this, request.route, {}, request.method, request.body);
		return filtered(list(body).map(entry), filter);
	};
}

/** A site list answered as an object keyed by slug (WordPress's types, taxonomies, statuses): each by its name and slug. */
const keyedSiteSearch = (route: string) =>
	wholeSiteSearch({ route }, (answer) => Object.values(answer as Record<string, IDataObject>), (row) => ({ name: `${String(row.name)} (${String(row.slug)})`, value: String(row.slug) }));

/** `{success, data: [...]}`, the engine's and the theme core's answers. */
const dataOf = (answer: unknown) => (answer as { data: IDataObject[] }).data;
/** A nested setting: `general_settings.name`. */
const at = (row: IDataObject, path: string) => String(path.split('.').reduce<unknown>((v, key) => (v as IDataObject | undefined)?.[key], row) ?? '');
/** An engine model list (`/engine/v2/get-post-types`): each entry by its name (at `namePath`) and ID. */
const engineSearch = (list: string, namePath: string) =>
	wholeSiteSearch({ route: `/engine/v2/${list}` }, dataOf, (row) => ({ name: at(row, namePath) || `#${row.id}`, value: String(row.id) }));

/** Entries of a list the route gives whole, narrowed to those whose name or ID contains the filter. */
function filtered(results: INodeListSearchItems[], filter?: string): INodeListSearchResult {
	const needle = filter?.trim().toLowerCase();
	return { results: needle ? results.filter((r) => `${r.name} ${r.value}`.toLowerCase().includes(needle)) : results };
}

/** A paged search of a route that does not search: each page narrowed by the filter. */
function narrowedPages(search: Search): Search {
	return async function (filter, paginationToken) {
		const page = await search.call(this, undefined, paginationToken);
		return { ...filtered(page.results, filter), ...(page.paginationToken ? { paginationToken: page.paginationToken } : {}) };
	};
}

/** Entries per page of a paged search. */
const PAGE_SIZE = 50;

/** A gateway POST of a list search: as the instance credential's device, or as another (see `asChosenDevice`). */
type GatewayPost = (ctx: ILoadOptionsFunctions, url: string, body: IDataObject) => Promise<unknown>;
const asInstance: GatewayPost = async (ctx, url, body) => await gateway(ctx, 'wdmInstanceApi', 'POST', url, body);

/**
 * As the device chosen in the node's Device field (a node with the user credential that sends as one
 * of the user's devices): with that device's instance token, from the user's list of devices.
 */
const asChosenDevice: GatewayPost = async (ctx, url, body) => {
	const device = requiredChoice(ctx, 'device', 'Device', 'the list is of its chats');
	const devices = (await gateway(ctx, 'wdmUserApi', 'GET', '/devices')) as IDataObject[];
	const token = devices.find((d) => d.name === device)?.token;
	if (!token) throw new NodeOperationError(ctx.getNode(), `No device named '${device}' among this API key's devices`);
	return await gateway(ctx, 'wdmUserApi', 'POST', url, body, String(token));
};

/**
 * A gateway list paged with `limit`/`offset` that answers `{<listKey>, nextOffset}`: the offset is the
 * pagination token. `body` may read the node's other fields; `keep` narrows a page to the rows that
 * are of the kind.
 */
function pagedGatewaySearch(
	url: string,
	listKey: string,
	body: (this: ILoadOptionsFunctions, filter?: string) => IDataObject,
	entry: (row: IDataObject) => INodeListSearchItems,
	{ keep = () => true, post = asInstance }: { keep?: (row: IDataObject) => boolean; post?: GatewayPost } = {},
): Search {
	return async function (filter, paginationToken) {
		const offset = Number(paginationToken ?? 0) || 0;
		const data = (await post(this, url, { ...body.call(this, filter), limit: PAGE_SIZE, offset })) as IDataObject;
		const next = data.nextOffset as number | null | undefined;
		return { results: (data[listKey] as IDataObject[]).filter(keep).map(entry), ...(typeof next === 'number' ? { paginationToken: String(next) } : {}) };
	};
}

/** The device's groups (communities too), searched by name or JID on the server. */
const groupSearch = (keep?: (row: IDataObject) => boolean) =>
	pagedGatewaySearch(
		'/group/list',
		'groups',
		(filter) => ({ noParticipants: true, ...(filter?.trim() ? { search: filter.trim() } : {}) }),
		(g) => ({ name: String(g.name || g.jid), value: String(g.jid) }),
		{ keep },
	);

/** The device's chats whose name or JID contains the filter; the latest conversations first, as the app lists them. */
const chatSearch = (options?: { keep?: (row: IDataObject) => boolean; post?: GatewayPost }) =>
	pagedGatewaySearch(
		'/chat/find',
		'chats',
		(filter) => ({ sort: '-wa_lastMsgTimestamp', ...(filter?.trim() ? { operator: 'OR', wa_name: `~${filter.trim()}`, wa_chatid: `~${filter.trim()}` } : {}) }),
		(c) => ({ name: c.wa_name ? `${c.wa_name} (${c.phone || c.wa_chatid})` : String(c.phone || c.wa_chatid), value: String(c.wa_chatid) }),
		options,
	);

/** A message in a list: who it is from (or, sent by the device, to) and the start of its text. */
function messageItem(m: IDataObject): INodeListSearchItems {
	const number = (jid: unknown) => String(jid).split('@')[0];
	const who = m.fromMe ? `To ${number(m.chatid)}` : `From ${String(m.senderName || number(m.sender))}`;
	return { name: `${who}: ${m.text ? shortened(String(m.text)) : `[${String(m.messageType)}]`}`, value: String(m.id) };
}

/** The chat chosen in the node's Chat field (Find: its Chat filter), if any: the messages listed are its own. */
const chosenChat = (ctx: ILoadOptionsFunctions) => chosenId(ctx, 'number') || chosenId(ctx, 'filters.chatid');

/** A site collection searched by WordPress's `search`, a page at a time: the next page number is the pagination token. */
function siteSearch(route: string, entry: (row: IDataObject) => INodeListSearchItems, qs: IDataObject = {}): Search {
	return async function (filter, paginationToken) {
		const page = Number(paginationToken ?? 1) || 1;
		const { body, totalPages } = await site(this, route, { ...qs, per_page: PAGE_SIZE, page, ...(filter?.trim() ? { search: filter.trim() } : {}) });
		return { results: (body as IDataObject[]).map(entry), ...(page < totalPages ? { paginationToken: String(page + 1) } : {}) };
	};
}

/** What a site item reads as in a list: its title as written (else as shown, or its name, slug or ID). */
const titleOf = (row: IDataObject) => {
	const title = row.title as { rendered?: string; raw?: string } | string | undefined;
	const text = typeof title === 'object' ? (title?.raw ?? title?.rendered) : title;
	return String(text || row.name || row.slug || `#${row.id}`);
};

const siteItem = (row: IDataObject): INodeListSearchItems => ({ name: titleOf(row), value: String(row.id), url: row.link as string | undefined });

/** By URL of a site item: its link (`?p=12`, `?page_id=12`, `?attachment_id=12`), its edit link (`post.php?post=12`) or its REST route. */
function siteItemUrl(collection: string) {
	const before = `(?:[?&](?:p|page_id|attachment_id|post)=|/${collection}/)`;
	return { placeholder: 'e.g. https://example.com/?p=12', regex: `${before}(\\d+)`, validation: `.*${before}\\d+(?:\\D.*)?` };
}

/** A comment in a list: its author and the start of its text. */
function commentItem(row: IDataObject): INodeListSearchItems {
	const rendered = String((row.content as { rendered?: string } | undefined)?.rendered ?? '');
	const short = shortened(rendered.replace(/<[^>]*>/g, ' '));
	return { name: `${String(row.author_name || 'Anonymous')}: ${short || `#${row.id}`}`, value: String(row.id), url: row.link as string | undefined };
}

const numericId = { regex: '\\s*\\d+\\s*', message: 'must be a number (the ID), e.g. 12' };

/** A site user in a list: its display name and slug. */
const userItem = (row: IDataObject): INodeListSearchItems => ({ name: `${String(row.name)} (${String(row.slug)})`, value: String(row.id), url: row.link as string | undefined });
/** By URL of a user: its author archive (`?author=12`) or its REST route (`/users/12`). */
const userUrl = { placeholder: 'e.g. https://example.com/?author=12', regex: '(?:[?&]author=|/users/)(\\d+)', validation: '.*(?:[?&]author=|/users/)\\d+(?:\\D.*)?' };

/** Any user of the site, by ID or author archive. */
const SITE_USER: Kind = { noun: 'user', idPlaceholder: 'e.g. 12', idPattern: numericId, url: userUrl, search: siteSearch('/cms/v2/users', userItem) };

/** The post or page chosen in the node's Post or Page field: its route (`/cms/v2/posts/12`), which its versions are under. */
function chosenItemRoute(ctx: ILoadOptionsFunctions) {
	const [parameter, collection, label] = ctx.getCurrentNodeParameter('pageId') === undefined ? ['postId', 'posts', 'Post'] : ['pageId', 'pages', 'Page'];
	return `/cms/v2/${collection}/${encodeURIComponent(requiredChoice(ctx, parameter, label, `the versions listed are those of the ${label.toLowerCase()}`))}`;
}

/** A revision or autosave in a list: its title and when it was saved. */
const versionItem = (row: IDataObject): INodeListSearchItems => ({ name: `${titleOf(row)} (${String(row.modified ?? row.date).replace('T', ' ').slice(0, 16)})`, value: String(row.id) });

/**
 * The builder's lists keyed by ID (`{id: {...}}`), whose route may depend on the node's fields: each
 * entry `keep` keeps, by `name`, with its key as the value.
 */
function keyedBuilderSearch(
	route: (ctx: ILoadOptionsFunctions) => string,
	list: (answer: unknown) => Record<string, IDataObject>,
	name: (row: IDataObject, key: string) => string,
	keep: (row: IDataObject, ctx: ILoadOptionsFunctions) => boolean = () => true,
): Search {
	return async function (filter) {
		const { body } = await site(this, route(this), {});
		return filtered(Object.entries(list(body)).filter(([, row]) => keep(row, this)).map(([key, row]) => ({ name: name(row, key), value: key })), filter);
	};
}

/** The operation the node is set to (a list that differs by operation). */
const operationOf = (ctx: ILoadOptionsFunctions) => String(ctx.getCurrentNodeParameter('operation') ?? '');

// ---- The kinds ----

const KINDS = {
	device: {
		noun: 'device',
		idPlaceholder: 'e.g. shop',
		idMode: 'By Name',
		// By name only: the editor keeps the name shown when picked, so a status (or a number, which
		// pairing gives or changes) would go stale in the field.
		async search(filter) {
			const devices = (await gateway(this, 'wdmUserApi', 'GET', '/devices')) as IDataObject[];
			return filtered(devices.map((d) => ({ name: String(d.name), value: String(d.name) })), filter);
		},
	},
	label: {
		noun: 'label',
		idPlaceholder: 'e.g. 3',
		async search(filter) {
			const labels = (await gateway(this, 'wdmInstanceApi', 'GET', '/labels')) as IDataObject[];
			return filtered(labels.map((l) => ({ name: String(l.name), value: String(l.id) })), filter);
		},
	},
	group: {
		noun: 'group',
		idPlaceholder: 'e.g. 120363012345678901@g.us',
		idMode: 'By JID',
		idPattern: { regex: '\\s*[^@\\s]+@g\\.us\\s*', message: 'must be a group JID, e.g. 120363012345678901@g.us' },
		search: groupSearch(),
	},
	community: {
		noun: 'community',
		idPlaceholder: 'e.g. 120363012345678901@g.us',
		idMode: 'By JID',
		idPattern: { regex: '\\s*[^@\\s]+@g\\.us\\s*', message: 'must be a community JID, e.g. 120363012345678901@g.us' },
		search: groupSearch((g) => g.isCommunity === true),
	},
	chat: {
		noun: 'chat',
		idPlaceholder: 'e.g. 5511999990001 or 120363012345678901@g.us',
		idMode: 'By Number or JID',
		search: chatSearch(),
	},
	// The people the device chosen in Device talks with (Send and Wait asks one person: no groups).
	deviceChat: {
		noun: 'chat',
		idPlaceholder: 'e.g. 5511999990001',
		idMode: 'By Number',
		search: chatSearch({ keep: (c) => c.wa_isGroup !== true, post: asChosenDevice }),
	},
	// The device's messages, newest first: those of the chat chosen in Chat when there is one.
	message: {
		noun: 'message',
		idPlaceholder: 'e.g. 5511999990001:3EB0A1B2C3D4E5F6A7B8C9',
		search: narrowedPages(
			pagedGatewaySearch(
				'/message/find',
				'messages',
				function () {
					const chatid = chosenChat(this);
					return chatid ? { chatid } : {};
				},
				messageItem,
			),
		),
	},
	contact: {
		noun: 'contact',
		idPlaceholder: 'e.g. 5511999990001',
		idMode: 'By Number',
		search: narrowedPages(pagedGatewaySearch('/contacts/list', 'contacts', () => ({}), (c) => ({ name: `${c.name || c.phone} (${c.phone})`, value: String(c.phone) }))),
	},
	post: { noun: 'post', idPlaceholder: 'e.g. 12', idPattern: numericId, url: siteItemUrl('posts'), search: siteSearch('/cms/v2/posts', siteItem, { status: 'any', context: 'edit' }) },
	page: { noun: 'page', idPlaceholder: 'e.g. 12', idPattern: numericId, url: siteItemUrl('pages'), search: siteSearch('/cms/v2/pages', siteItem, { status: 'any', context: 'edit' }) },
	media: { noun: 'media item', idPlaceholder: 'e.g. 12', idPattern: numericId, url: siteItemUrl('media'), search: siteSearch('/cms/v2/media', siteItem) },
	category: { noun: 'category', idPlaceholder: 'e.g. 3', idPattern: numericId, search: siteSearch('/cms/v2/categories', siteItem, { hide_empty: false }) },
	tag: { noun: 'tag', idPlaceholder: 'e.g. 3', idPattern: numericId, search: siteSearch('/cms/v2/tags', siteItem, { hide_empty: false }) },
	// Approved and held comments (status=all needs the right to write posts), each by its author and first words.
	comment: {
		noun: 'comment',
		idPlaceholder: 'e.g. 12',
		idPattern: numericId,
		url: { placeholder: 'e.g. https://example.com/?p=3#comment-12', regex: '(?:#comment-|/comments/)(\\d+)', validation: '.*(?:#comment-|/comments/)\\d+(?:\\D.*)?' },
		search: siteSearch('/cms/v2/comments', commentItem, { status: 'all' }),
	},

	// Site users: anyone the caller may list (administrators: all; others: authors of published posts).
	// By ID also takes `me`, the signed-in user, as the users routes do.
	user: { ...SITE_USER, idPlaceholder: 'e.g. 12 or me', idPattern: { regex: '\\s*(?:\\d+|me)\\s*', message: 'must be a number (the ID) or me, e.g. 12' } },
	// A user by number only, for a field that is not a users route (a comment's author).
	anyUser: SITE_USER,
	// Who may write content (WordPress's `who=authors`, as n8n's WordPress node lists its authors).
	author: { noun: 'author', idPlaceholder: 'e.g. 12', idPattern: numericId, url: userUrl, search: siteSearch('/cms/v2/users', userItem, { who: 'authors' }) },
	// The application passwords of the user chosen in User (the field before it), by name.
	appPassword: {
		noun: 'application password',
		idMode: 'By UUID',
		idPlaceholder: 'e.g. 6b6a1c53-3f0e-4a53-9d9a-3d7e1a3c1f2e',
		async search(filter) {
			const user = requiredChoice(this, 'userId', 'User', 'the passwords listed are theirs');
			const { body } = await site(this, `/cms/v2/users/${encodeURIComponent(user)}/application-passwords`, {});
			return filtered((body as IDataObject[]).map((row) => ({ name: `${String(row.name)} (${String(row.uuid).slice(0, 8)}…)`, value: String(row.uuid) })), filter);
		},
	},

	// The earlier versions of the post or page chosen in the field before (newest first), and its autosaves.
	revision: {
		noun: 'revision',
		idPlaceholder: 'e.g. 12',
		idPattern: numericId,
		async search(filter, paginationToken) {
			return await siteSearch(`${chosenItemRoute(this)}/revisions`, versionItem, { context: 'edit' }).call(this, filter, paginationToken);
		},
	},
	autosave: {
		noun: 'autosave',
		idPlaceholder: 'e.g. 12',
		idPattern: numericId,
		async search(filter) {
			const { body } = await site(this, `${chosenItemRoute(this)}/autosaves`, { context: 'edit' });
			return filtered((body as IDataObject[]).map(versionItem), filter);
		},
	},

	// The dynamic-content engine's model (`engine/v2`).
	enginePostType: { noun: 'post type', idPlaceholder: 'e.g. 3', idPattern: numericId, search: engineSearch('get-post-types', 'general_settings.name') },
	engineTaxonomy: { noun: 'taxonomy', idPlaceholder: 'e.g. 3', idPattern: numericId, search: engineSearch('get-taxonomies', 'general_settings.name') },
	metaBox: { noun: 'meta box', idPlaceholder: 'e.g. 3', idPattern: numericId, search: engineSearch('get-meta-boxes', 'args.name') },
	relation: { noun: 'relation', idPlaceholder: 'e.g. 3', idPattern: numericId, search: engineSearch('get-relations', 'name') },
	optionsPage: { noun: 'options page', idPlaceholder: 'e.g. 3', idPattern: numericId, search: engineSearch('get-options-pages', 'general_settings.name') },
	glossary: { noun: 'item', idPlaceholder: 'e.g. 3', idPattern: numericId, search: engineSearch('get-items', 'name') },
	// A post type of the site by its slug (built-in or added; public ones are listed).
	postType: {
		noun: 'post type',
		idMode: 'By Slug',
		idPlaceholder: 'e.g. book',
		search: wholeSiteSearch({ route: '/themecore/v2/get-post-types', method: 'POST', body: {} }, (answer) => answer as IDataObject[], (row) => ({
			name: `${String(row.label)} (${String(row.value)})`,
			value: String(row.value),
		})),
	},
	// The site's post types, taxonomies and post statuses by slug (`cms/v2/types`, `/taxonomies`, `/statuses`: objects keyed by slug).
	siteType: { noun: 'post type', idMode: 'By Slug', idPlaceholder: 'e.g. post', search: keyedSiteSearch('/cms/v2/types') },
	siteTaxonomy: { noun: 'taxonomy', idMode: 'By Slug', idPlaceholder: 'e.g. category', search: keyedSiteSearch('/cms/v2/taxonomies') },
	siteStatus: { noun: 'status', idMode: 'By Slug', idPlaceholder: 'e.g. draft', search: keyedSiteSearch('/cms/v2/statuses') },
	// The collections the engine adds under cms/v2 (its post types' and taxonomies' REST bases), and their items.
	collection: {
		noun: 'collection',
		idMode: 'By REST Base',
		idPlaceholder: 'e.g. books',
		async search(filter) {
			const lists = await Promise.all(
				(['post type', 'taxonomy'] as const).map(async (what) => {
					const { body } = await site(this, what === 'post type' ? '/engine/v2/get-post-types' : '/engine/v2/get-taxonomies', {});
					return dataOf(body).map((row) => ({ name: `${at(row, 'general_settings.name')} (${what})`, value: at(row, 'advanced_settings.rest_base') }));
				}),
			);
			return filtered(lists.flat(), filter);
		},
	},
	contentItem: {
		noun: 'item',
		idPlaceholder: 'e.g. 12',
		idPattern: numericId,
		// The items of the collection chosen in REST Base (the field before it).
		async search(filter, paginationToken) {
			const base = requiredChoice(this, 'restBase', 'REST Base', 'the items listed are those of its collection');
			return await siteSearch(`/cms/v2/${encodeURIComponent(base)}`, siteItem, { status: 'any', context: 'edit' }).call(this, filter, paginationToken);
		},
	},
	// A stored query is named by its ID or its slug.
	query: { noun: 'query', idMode: 'By ID or Slug', idPlaceholder: 'e.g. 3 or latest-news', search: engineSearch('get-queries', 'name') },

	// The theme core (`themecore/v2`).
	template: {
		noun: 'template',
		idPlaceholder: 'e.g. 12',
		idPattern: numericId,
		search: wholeSiteSearch({ route: '/themecore/v2/get-structure-template-list', method: 'POST', body: {} }, dataOf, (row) => ({
			name: `${String(row.title || `#${row.id}`)} (${String(row.type).replace(/^themecore-/, '')})`,
			value: String(row.id),
		})),
	},
	pageTemplate: {
		noun: 'page template',
		idPlaceholder: 'e.g. 12',
		idPattern: numericId,
		search: wholeSiteSearch(
			{ route: '/themecore/v2/get-page-template-list', method: 'POST', body: { orderBy: 'name' } },
			(answer) => (answer as { data: { list: IDataObject[] } }).data.list,
			(row) => ({ name: String(row.templateName || `#${row.id}`), value: String(row.id) }),
		),
	},

	// The page builder (`builder/v1`).
	component: {
		noun: 'component',
		idPlaceholder: 'e.g. 12',
		idPattern: numericId,
		search: wholeSiteSearch({ route: '/builder/v1/components' }, (answer) => answer as IDataObject[], (row) => ({ name: String(row.name || `#${row.id}`), value: String(row.id) })),
	},
	// The kit's global colours or typography, as the operation is about one or the other.
	globalStyle: {
		noun: 'global',
		idPlaceholder: 'e.g. primary',
		search: keyedBuilderSearch(
			(ctx) => `/builder/v1/globals/${/Typograph/.test(operationOf(ctx)) ? 'typography' : 'colors'}`,
			(answer) => answer as Record<string, IDataObject>,
			(row, key) => `${String(row.title || key)} (${key})`,
		),
	},
	// The design system's variables: the deleted ones for Restore, the others for the rest.
	variable: {
		noun: 'variable',
		idPlaceholder: 'e.g. gv-3',
		search: keyedBuilderSearch(
			() => '/builder/v1/variables/list',
			(answer) => (answer as { variables: Record<string, IDataObject> }).variables,
			(row) => `${String(row.label)} (${String(row.type).replace(/^global-|-variable$/g, '')})`,
			(row, ctx) => (row.deleted === true) === (operationOf(ctx) === 'restoreVariable'),
		),
	},
	// The element types that have kit defaults.
	kitDefault: {
		noun: 'element type',
		idMode: 'By Type',
		idPlaceholder: 'e.g. e-heading',
		search: keyedBuilderSearch(() => '/builder/v1/kit-elements-defaults', (answer) => answer as Record<string, IDataObject>, (_row, key) => key),
	},

	// The models of the AI service behind the proxy (OpenAI's list: `{data: [{id}]}`).
	model: {
		noun: 'model',
		idPlaceholder: 'e.g. gpt-4o-mini',
		search: wholeSiteSearch({ route: '/proxyext/v1/ai-api-proxy/models' }, dataOf, (row) => ({ name: String(row.id), value: String(row.id) })),
	},
} satisfies Record<string, Kind>;

export type PickerKind = keyof typeof KINDS;

const capitalized = (kind: PickerKind) => `${kind[0].toUpperCase()}${kind.slice(1)}`;
/** The list search of a kind, named after it: `searchPost`. */
const methodName = (kind: PickerKind) => `search${capitalized(kind)}`;
/** The options list (every entry) of a kind: `listCategory`. */
const optionsMethodName = (kind: PickerKind) => `list${capitalized(kind)}`;

/** Every entry of a kind as options: each page of its list search in turn. */
function allOf(search: Search) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const options: INodePropertyOptions[] = [];
		let token: string | undefined;
		do {
			const page = await search.call(this, undefined, token);
			options.push(...page.results.map(({ name, value }) => ({ name, value })));
			token = page.paginationToken as string | undefined;
		} while (token);
		return options;
	};
}

/** The field of a picker: what `picker` adds to n8n's resource locator. */
export type PickerField = Pick<INodeProperties, 'displayName' | 'name' | 'description'> &
	Partial<Pick<INodeProperties, 'required' | 'routing' | 'displayOptions' | 'hint'>> & {
		/** The mode a new node starts in: From List unless typing the value is the usual way (`id`). */
		mode?: 'list' | 'id';
		/** The value it starts with: a field's default from before it was a picker (a workflow that left it out keeps it). */
		value?: string;
	};

/** A resource locator for a kind: From List (searchable), By ID, and By URL when the kind has URLs. */
export function picker(kind: PickerKind, { mode = 'list', value = '', ...field }: PickerField): INodeProperties {
	const { noun, idPlaceholder, idMode, idPattern, url } = KINDS[kind] as Kind;
	const validation = (regex: string, errorMessage: string) => [{ type: 'regex' as const, properties: { regex, errorMessage } }];
	return {
		required: true,
		...field,
		type: 'resourceLocator',
		default: { mode, value },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${noun}...`,
				typeOptions: { searchListMethod: methodName(kind), searchable: true },
			},
			{
				displayName: idMode ?? 'By ID',
				name: 'id',
				type: 'string',
				placeholder: idPlaceholder,
				...(idPattern ? { validation: validation(idPattern.regex, `The ID ${idPattern.message}`) } : {}),
			},
			...(url
				? [
						{
							displayName: 'By URL',
							name: 'url',
							type: 'string' as const,
							placeholder: url.placeholder,
							extractValue: { type: 'regex' as const, regex: url.regex },
							validation: validation(url.validation, `Not a URL of a ${noun}: its link, edit link or REST URL`),
						},
					]
				: []),
		],
	};
}

/**
 * A multi-select of entries of a kind (`Category Names or IDs`), its options loaded from the server.
 * Its value is a list of IDs (an expression may give them as a list or as comma-separated text).
 */
export function pickerOptions(kind: PickerKind, field: Pick<INodeProperties, 'displayName' | 'name' | 'description' | 'routing'>): INodeProperties {
	return { ...field, type: 'multiOptions', typeOptions: { loadOptionsMethod: optionsMethodName(kind) }, default: [] };
}

type LoadOptions = ReturnType<typeof allOf>;

/** The list searches and options lists a node's properties use, for its `methods`. */
export function pickerMethods(properties: INodeProperties[]): { listSearch: Record<string, Search>; loadOptions: Record<string, LoadOptions> } {
	const used = new Set<string>();
	const visit = (property: INodeProperties) => {
		if (property.typeOptions?.loadOptionsMethod) used.add(property.typeOptions.loadOptionsMethod);
		for (const mode of property.modes ?? []) if (mode.typeOptions?.searchListMethod) used.add(mode.typeOptions.searchListMethod);
		for (const option of (property.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>) {
			if ('type' in option && option.type) visit(option as INodeProperties);
			else for (const value of (option as { values?: INodeProperties[] }).values ?? []) visit(value);
		}
	};
	properties.forEach(visit);
	const listSearch: Record<string, Search> = {};
	const loadOptions: Record<string, LoadOptions> = {};
	for (const kind of Object.keys(KINDS) as PickerKind[]) {
		const { search } = KINDS[kind] as Kind;
		if (used.has(methodName(kind))) listSearch[methodName(kind)] = search;
		if (used.has(optionsMethodName(kind))) loadOptions[optionsMethodName(kind)] = allOf(search);
	}
	return { listSearch, loadOptions };
}
