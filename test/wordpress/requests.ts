// The corpus: every request is sent to WordPress and to the reference server, in this order (later ones
// use what earlier ones made, by name). It starts by seeding the same content on both sites through the
// REST API itself, then reads and writes every route family of WordPress core as each role and anonymous,
// with good and bad input.
import zlib from 'node:zlib';
import sharp from 'sharp';
import { withIptc } from '../helpers/files';
import type { Caller, Req } from './run';

const ROLES: Caller[] = ['admin', 'editor', 'author', 'contributor', 'anonymous'];
const SIGNED_IN: Caller[] = ['admin', 'editor', 'author', 'contributor'];

type Extra = Omit<Partial<Req>, 'family' | 'as' | 'method' | 'path'>;
const req = (family: string, as: Caller, method: string, path: string, extra: Extra = {}): Req => ({ family, as, method, path, ...extra });
const get = (family: string, as: Caller, path: string, query?: Req['query'], extra: Extra = {}) => req(family, as, 'GET', path, { query, ...extra });
const post = (family: string, as: Caller, path: string, json?: unknown, extra: Extra = {}) => req(family, as, 'POST', path, { json: json ?? {}, ...extra });
const del = (family: string, as: Caller, path: string, query?: Req['query'], extra: Extra = {}) => req(family, as, 'DELETE', path, { query, ...extra });
/** The same request as each of `callers`. */
const asEach = (callers: Caller[], make: (as: Caller) => Req) => callers.map(make);

/** A 1x1 PNG. */
export const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A 320x240 JPEG made with sharp, with EXIF (camera, artist, copyright, description, f-number, exposure, ISO, focal length, date). */
const PHOTO = Buffer.from(
	'/9j/4QGERXhpZgAASUkqAAgAAAAKAA4BAgAMAAAApAAAABABAgANAAAAuAAAABIBAwABAAAAAQAAABoBBQABAAAAhgAAABsBBQABAAAAjgAAACgBAwABAAAAAgAAADsBAgANAAAAlgAAABMCAwABAAAAAQAAAJiCAgAIAAAAsAAAAGmHBAABAAAAxgAAAAAAAAA4YwAA6AMAADhjAADoAwAAQWRhIExvdmVsYWNlAABHcmVlbiBmaWVsZAAoYykgQWRhAFRlc3RjYW0gWDEwMAAACwCaggUAAQAAAFgBAACdggUAAQAAAHQBAAAniAMAAQAAAMgAAAAAkAcABAAAADAyMTAEkAIAFAAAAGABAAABkQcABAAAAAECAwAKkgUAAQAAAFABAAAAoAcABAAAADAxMDABoAMAAQAAAP//AAACoAQAAQAAAEABAAADoAQAAQAAAPAAAAAAAAAAMgAAAAEAAAABAAAA+gAAADIwMjQ6MDE6MDIgMDM6MDQ6MDUAHAAAAAoAAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCADwAUADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAL/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFgEBAQEAAAAAAAAAAAAAAAAAAAMF/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AgBJhAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP/2Q==',
	'base64',
);

/** A JPEG larger than WordPress's big-image threshold (2560): served as a scaled copy, the upload kept as `original_image`. */
const BIG_PHOTO = sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#48c' } }).jpeg({ quality: 40 }).toBuffer();
/** A JPEG with IPTC fields (headline, caption, byline, copyright, date and time with an offset, two keywords). */
const IPTC_PHOTO = sharp({ create: { width: 320, height: 240, channels: 3, background: '#258' } })
	.jpeg()
	.toBuffer()
	.then((jpeg) =>
		withIptc(jpeg, [
			[105, 'Harbour at dawn'],
			[120, 'Boats in the morning fog'],
			[80, 'Grace Hopper'],
			[116, '(c) Grace'],
			[55, '20230405'],
			[60, '061500+0200'],
			[25, 'harbour'],
			[25, 'boats'],
		]),
	);
/** A 320x240 JPEG whose EXIF says to turn it a quarter clockwise (orientation 6): served upright as `-rotated`. */
const TURNED_PHOTO = sharp({ create: { width: 320, height: 240, channels: 3, background: '#c84' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();

/** A 400x300 RGB PNG, to edit. */
const SMALL_RGB = sharp({ create: { width: 400, height: 300, channels: 3, background: '#a52' } }).png().toBuffer();

/** A PNG of one colour, `width` x `height` (8-bit grey), large enough for WordPress to make its sizes of it. */
function greyPng(width: number, height: number): Buffer {
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
		const out = Buffer.alloc(12 + data.length);
		out.writeUInt32BE(data.length, 0);
		body.copy(out, 4);
		out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
		return out;
	};
	const head = Buffer.alloc(13);
	head.writeUInt32BE(width, 0);
	head.writeUInt32BE(height, 4);
	head.set([8, 0, 0, 0, 0], 8);
	// Each row: filter byte 0, then the pixels.
	const rows = Buffer.alloc((width + 1) * height, 0x80);
	for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
	return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', head), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const W = '/wp/v2';

const seed: Req[] = [
	post('categories', 'admin', `${W}/categories`, { name: 'News', description: 'What is new' }, { save: 'cat:news' }),
	post('categories', 'admin', `${W}/categories`, { name: 'Tech' }, { save: 'cat:tech' }),
	post('categories', 'admin', `${W}/categories`, { name: 'Gadgets', parent: '{cat:tech}' }, { save: 'cat:gadgets' }),
	post('tags', 'admin', `${W}/tags`, { name: 'alpha' }, { save: 'tag:alpha' }),
	post('tags', 'editor', `${W}/tags`, { name: 'beta', description: 'Second tag' }, { save: 'tag:beta' }),
	req('media', 'admin', 'POST', `${W}/media`, { file: { name: 'pixel.png', type: 'image/png', data: PIXEL }, query: { title: 'Pixel', alt_text: 'A dot' }, save: 'media:pixel' }),
	post(
		'posts',
		'admin',
		`${W}/posts`,
		{
			title: 'First post',
			content: 'Hello world.\n\nSecond paragraph.',
			excerpt: 'The first',
			status: 'publish',
			date: '2024-01-01T10:00:00',
			categories: ['{cat:news}'],
			tags: ['{tag:alpha}'],
			featured_media: '{media:pixel}',
		},
		{ save: 'post:first' },
	),
	post(
		'posts',
		'admin',
		`${W}/posts`,
		{ title: 'Second post', content: 'More news.', status: 'publish', date: '2024-01-02T10:00:00', categories: ['{cat:tech}', '{cat:gadgets}'], tags: ['{tag:alpha}', '{tag:beta}'], sticky: true },
		{ save: 'post:second' },
	),
	post('posts', 'author', `${W}/posts`, { title: 'Author post', content: 'By the author.', status: 'publish', date: '2024-01-03T10:00:00' }, { save: 'post:authored' }),
	post('posts', 'author', `${W}/posts`, { title: 'Author draft', content: 'Not yet.', status: 'draft' }, { save: 'post:author-draft' }),
	post('posts', 'contributor', `${W}/posts`, { title: 'Contributor pending', content: 'Please review.', status: 'pending' }, { save: 'post:pending' }),
	post('posts', 'editor', `${W}/posts`, { title: 'Private notes', content: 'Eyes only.', status: 'private', date: '2024-01-04T10:00:00' }, { save: 'post:private' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Protected', content: 'Behind a password.', password: 'secret', status: 'publish', date: '2024-01-05T10:00:00' }, { save: 'post:protected' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Scheduled', content: 'Later.', status: 'publish', date: '2030-01-01T00:00:00' }, { save: 'post:future' }),
	post('posts', 'admin', `${W}/posts`, { title: 'To trash', content: 'Bye.', status: 'publish', date: '2024-01-06T10:00:00' }, { save: 'post:trash-me' }),
	post('pages', 'admin', `${W}/pages`, { title: 'About', content: 'About us.', status: 'publish', date: '2024-02-01T10:00:00' }, { save: 'page:about' }),
	post('pages', 'admin', `${W}/pages`, { title: 'Team', content: 'The team.', status: 'publish', parent: '{page:about}', menu_order: 2, date: '2024-02-02T10:00:00' }, { save: 'page:team' }),
	post('pages', 'editor', `${W}/pages`, { title: 'Draft page', content: 'Soon.', status: 'draft' }, { save: 'page:draft' }),
	post('comments', 'admin', `${W}/comments`, { post: '{post:first}', content: 'Nice post', date: '2024-03-01T10:00:00' }, { save: 'comment:first' }),
	post('comments', 'author', `${W}/comments`, { post: '{post:first}', content: 'Thanks, agreed', date: '2024-03-02T10:00:00' }, { save: 'comment:author' }),
	post('comments', 'admin', `${W}/comments`, { post: '{post:first}', parent: '{comment:first}', content: 'A reply', date: '2024-03-03T10:00:00' }, { save: 'comment:reply' }),
	// Two saves that change the text: revisions of the first post.
	post('posts', 'admin', `${W}/posts/{post:first}`, { title: 'First post (edited)', content: 'Hello again.' }),
	post('posts', 'editor', `${W}/posts/{post:first}`, { excerpt: 'The first, edited' }),
	get('revisions', 'admin', `${W}/posts/{post:first}/revisions`, undefined, { save: { name: 'revision:first', from: '0.id' } }),
	post('pages', 'admin', `${W}/pages/{page:about}`, { content: 'About us, edited.' }),
	get('revisions', 'admin', `${W}/pages/{page:about}/revisions`, undefined, { save: { name: 'revision:about', from: '0.id' } }),
];

const index: Req[] = [
	...asEach(['admin', 'anonymous'], (as) => get('index', as, '/')),
	get('index', 'anonymous', '/', undefined, { plain: true }),
	get('index', 'admin', '/', { context: 'help' }),
	...asEach(['admin', 'anonymous'], (as) => get('index', as, W)),
	get('index', 'anonymous', W, { context: 'edit' }),
	get('index', 'anonymous', '/oembed/1.0'),
	get('index', 'anonymous', '/no-such/v1'),
	get('index', 'anonymous', `${W}/no-such-route`),
	req('index', 'anonymous', 'PATCH', `${W}/categories`),
	get('index', 'admin', `${W}/posts`, undefined, { auth: 'wrong-password' }),
	get('index', 'admin', `${W}/posts`, undefined, { auth: 'unknown-user' }),
	get('index', 'anonymous', `${W}/posts`, undefined, { headers: { authorization: 'Bearer nonsense' } }),
];

const postsRead: Req[] = [
	...asEach(ROLES, (as) => get('posts', as, `${W}/posts`)),
	...asEach(ROLES, (as) => get('posts', as, `${W}/posts`, { status: 'draft' })),
	...asEach(ROLES, (as) => get('posts', as, `${W}/posts`, { status: ['publish', 'private'] })),
	...asEach(ROLES, (as) => get('posts', as, `${W}/posts`, { context: 'edit' })),
	// Ordered by id: by date, drafts made in the same second on one site and not on the other tie differently.
	get('posts', 'admin', `${W}/posts`, { status: 'any', orderby: 'id', order: 'asc' }),
	get('posts', 'admin', `${W}/posts`, { status: 'future' }),
	get('posts', 'anonymous', `${W}/posts`, { context: 'embed' }),
	get('posts', 'anonymous', `${W}/posts`, { context: 'nonsense' }),
	get('posts', 'anonymous', `${W}/posts`, { per_page: 2, page: 2 }),
	get('posts', 'anonymous', `${W}/posts`, { per_page: 2, offset: 1 }),
	get('posts', 'anonymous', `${W}/posts`, { page: 99 }),
	get('posts', 'anonymous', `${W}/posts`, { per_page: 0 }),
	get('posts', 'anonymous', `${W}/posts`, { per_page: 101 }),
	get('posts', 'anonymous', `${W}/posts`, { page: 'x' }),
	get('posts', 'anonymous', `${W}/posts`, { search: 'news' }),
	get('posts', 'anonymous', `${W}/posts`, { search: 'hello', orderby: 'relevance' }),
	get('posts', 'anonymous', `${W}/posts`, { orderby: 'relevance' }),
	get('posts', 'anonymous', `${W}/posts`, { orderby: 'title', order: 'asc' }),
	get('posts', 'anonymous', `${W}/posts`, { orderby: 'nonsense' }),
	get('posts', 'anonymous', `${W}/posts`, { include: ['{post:second}', '{post:first}'], orderby: 'include' }),
	get('posts', 'anonymous', `${W}/posts`, { exclude: ['{post:first}'] }),
	get('posts', 'anonymous', `${W}/posts`, { categories: ['{cat:tech}'] }),
	get('posts', 'anonymous', `${W}/posts`, { categories_exclude: ['{cat:tech}'] }),
	get('posts', 'anonymous', `${W}/posts`, { tags: ['{tag:alpha}', '{tag:beta}'] }),
	get('posts', 'anonymous', `${W}/posts`, { categories: { terms: ['{cat:tech}'], include_children: true, operator: 'AND' } }),
	get('posts', 'anonymous', `${W}/posts`, { tags: ['{tag:alpha}'], categories: ['{cat:news}'], tax_relation: 'OR' }),
	get('posts', 'anonymous', `${W}/posts`, { sticky: true }),
	get('posts', 'anonymous', `${W}/posts`, { sticky: false }),
	get('posts', 'anonymous', `${W}/posts`, { author: ['{user:author}'] }),
	get('posts', 'anonymous', `${W}/posts`, { author_exclude: ['{user:admin}'] }),
	get('posts', 'anonymous', `${W}/posts`, { slug: 'second-post' }),
	get('posts', 'anonymous', `${W}/posts`, { after: '2024-01-02T00:00:00', before: '2024-01-04T00:00:00' }),
	get('posts', 'anonymous', `${W}/posts`, { after: 'yesterday' }),
	get('posts', 'anonymous', `${W}/posts`, { format: ['standard'] }),
	get('posts', 'anonymous', `${W}/posts`, { include: 'x,y' }),
	...asEach(ROLES, (as) => get('posts', as, `${W}/posts/{post:first}`)),
	...asEach(ROLES, (as) => get('posts', as, `${W}/posts/{post:author-draft}`)),
	...asEach(ROLES, (as) => get('posts', as, `${W}/posts/{post:private}`)),
	...asEach(ROLES, (as) => get('posts', as, `${W}/posts/{post:first}`, { context: 'edit' })),
	get('posts', 'anonymous', `${W}/posts/{post:protected}`),
	get('posts', 'anonymous', `${W}/posts/{post:protected}`, { password: 'wrong' }),
	get('posts', 'anonymous', `${W}/posts/{post:protected}`, { password: 'secret' }),
	get('posts', 'anonymous', `${W}/posts/{post:future}`),
	get('posts', 'admin', `${W}/posts/{post:future}`),
	get('posts', 'anonymous', `${W}/posts/{post:first}`, { excerpt_length: 3 }),
	get('posts', 'anonymous', `${W}/posts/999999`),
	get('posts', 'anonymous', `${W}/posts/{page:about}`),
	get('posts', 'anonymous', `${W}/posts/abc`),
];

const postsWrite: Req[] = [
	...asEach(ROLES, (as) => post('posts', as, `${W}/posts`, { title: `Draft by ${as}`, status: 'draft' }, { save: `post:draft-${as}` })),
	post('posts', 'contributor', `${W}/posts`, { title: 'Contributor publish', status: 'publish' }),
	post('posts', 'author', `${W}/posts`, { title: 'Author private', status: 'private' }),
	post('posts', 'author', `${W}/posts`, { title: 'Author as admin', author: '{user:admin}' }),
	post('posts', 'author', `${W}/posts`, { title: 'Author sticky', status: 'publish', sticky: true, date: '2024-01-07T10:00:00' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Bad status', status: 'nonsense' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Bad date', date: 'not a date' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Unknown category', categories: [999999] }),
	post('posts', 'admin', `${W}/posts`, { title: 'Unknown author', author: 999999 }),
	post('posts', 'admin', `${W}/posts`, { title: 'Bad format', format: 'poem' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Bad comment status', comment_status: 'maybe' }),
	post('posts', 'admin', `${W}/posts`, { title: { raw: 'Raw title' }, content: { raw: 'Raw content' }, status: 'publish', date: '2024-01-08T10:00:00', format: 'aside' }, { save: 'post:raw' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Sticky with password', sticky: true, password: 'x' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Bad media', featured_media: 999999 }),
	post('posts', 'admin', `${W}/posts`, { id: 5, title: 'With id' }),
	post('posts', 'admin', `${W}/posts`, { slug: 'custom-slug', title: 'Slugged', status: 'publish', date: '2024-01-09T10:00:00' }),
	post('posts', 'admin', `${W}/posts`, { slug: 'custom-slug', title: 'Slugged again', status: 'publish', date: '2024-01-10T10:00:00' }),
	post('posts', 'admin', `${W}/posts`, { meta: { nothing_registered: 'x' }, title: 'Meta', status: 'draft' }),
	...asEach(ROLES, (as) => post('posts', as, `${W}/posts/{post:authored}`, { excerpt: `Touched by ${as}` })),
	post('posts', 'contributor', `${W}/posts/{post:pending}`, { title: 'Contributor pending (edited)' }),
	post('posts', 'contributor', `${W}/posts/{post:pending}`, { status: 'publish' }),
	req('posts', 'admin', 'PUT', `${W}/posts/{post:raw}`, { json: { title: 'Put title' } }),
	req('posts', 'admin', 'PATCH', `${W}/posts/{post:raw}`, { json: { categories: ['{cat:news}', '{cat:tech}'], tags: ['{tag:beta}'] } }),
	req('posts', 'admin', 'PATCH', `${W}/posts/{post:raw}`, { json: { date: null } }),
	req('posts', 'admin', 'PATCH', `${W}/posts/{post:raw}`, { json: { status: 'bogus' } }),
	req('posts', 'admin', 'PATCH', `${W}/posts/999999`, { json: { title: 'Nothing' } }),
	req('posts', 'admin', 'PATCH', `${W}/posts/{post:raw}`, { json: { sticky: true } }),
	req('posts', 'admin', 'PATCH', `${W}/posts/{post:raw}`, { json: { sticky: false, parent: 5 } }),
	...asEach(['anonymous', 'contributor', 'author'], (as) => del('posts', as, `${W}/posts/{post:trash-me}`)),
	del('posts', 'editor', `${W}/posts/{post:trash-me}`),
	del('posts', 'editor', `${W}/posts/{post:trash-me}`),
	get('posts', 'admin', `${W}/posts`, { status: 'trash' }),
	get('posts', 'admin', `${W}/posts/{post:trash-me}`),
	get('posts', 'anonymous', `${W}/posts/{post:trash-me}`),
	req('posts', 'admin', 'PATCH', `${W}/posts/{post:trash-me}`, { json: { status: 'draft' } }),
	del('posts', 'admin', `${W}/posts/{post:trash-me}`, { force: true }),
	del('posts', 'admin', `${W}/posts/{post:trash-me}`, { force: true }),
	del('posts', 'author', `${W}/posts/{post:draft-author}`, { force: 'yes' }),
	del('posts', 'author', `${W}/posts/{post:draft-author}`, { force: true }),
	del('posts', 'contributor', `${W}/posts/{post:draft-contributor}`),
];

const pages: Req[] = [
	...asEach(ROLES, (as) => get('pages', as, `${W}/pages`)),
	...asEach(ROLES, (as) => get('pages', as, `${W}/pages/{page:draft}`)),
	...asEach(ROLES, (as) => get('pages', as, `${W}/pages/{page:about}`, { context: 'edit' })),
	get('pages', 'anonymous', `${W}/pages`, { parent: ['{page:about}'] }),
	get('pages', 'anonymous', `${W}/pages`, { parent_exclude: ['{page:about}'] }),
	get('pages', 'anonymous', `${W}/pages`, { orderby: 'menu_order', order: 'asc' }),
	get('pages', 'anonymous', `${W}/pages`, { menu_order: 2 }),
	get('pages', 'anonymous', `${W}/pages`, { categories: [1] }),
	get('pages', 'editor', `${W}/pages`, { status: ['draft', 'publish'], context: 'edit' }),
	get('pages', 'anonymous', `${W}/pages/{post:first}`),
	...asEach(ROLES, (as) => post('pages', as, `${W}/pages`, { title: `Page by ${as}`, status: 'draft' }, { save: `page:by-${as}` })),
	post('pages', 'admin', `${W}/pages`, { title: 'Own parent', parent: 999999 }),
	post('pages', 'admin', `${W}/pages`, { title: 'Bad order', menu_order: 'first' }),
	post('pages', 'admin', `${W}/pages`, { title: 'Sticky page', sticky: true, status: 'draft' }),
	post('pages', 'editor', `${W}/pages/{page:team}`, { menu_order: 5, parent: 0 }),
	post('pages', 'author', `${W}/pages/{page:team}`, { title: 'Not mine' }),
	req('pages', 'admin', 'PATCH', `${W}/pages/{page:team}`, { json: { parent: '{page:team}' } }),
	del('pages', 'author', `${W}/pages/{page:draft}`),
	del('pages', 'editor', `${W}/pages/{page:by-admin}`),
	del('pages', 'admin', `${W}/pages/{page:by-admin}`, { force: true }),
	get('pages', 'anonymous', `${W}/pages/999999`),
];

const media: Req[] = [
	...asEach(ROLES, (as) => get('media', as, `${W}/media`)),
	...asEach(ROLES, (as) => get('media', as, `${W}/media/{media:pixel}`)),
	get('media', 'admin', `${W}/media/{media:pixel}`, { context: 'edit' }),
	get('media', 'anonymous', `${W}/media`, { media_type: 'image' }),
	get('media', 'anonymous', `${W}/media`, { media_type: 'video' }),
	get('media', 'anonymous', `${W}/media`, { media_type: 'sculpture' }),
	get('media', 'anonymous', `${W}/media`, { mime_type: 'image/png' }),
	get('media', 'admin', `${W}/media`, { status: 'private' }),
	get('media', 'anonymous', `${W}/media`, { status: 'private' }),
	get('media', 'anonymous', `${W}/media`, { parent: [0] }),
	...asEach(['author', 'contributor', 'anonymous'], (as) =>
		req('media', as, 'POST', `${W}/media`, { file: { name: 'dot.png', type: 'image/png', data: PIXEL }, save: `media:by-${as}` }),
	),
	req('media', 'editor', 'POST', `${W}/media`, {
		multipart: { fields: { title: 'Notes', caption: 'A text file', post: '{post:first}' }, file: { name: 'notes.txt', type: 'text/plain', data: Buffer.from('Some notes.\n') } },
		save: 'media:notes',
	}),
	post('media', 'admin', `${W}/media`, { title: 'JSON is no upload' }),
	req('media', 'admin', 'POST', `${W}/media`, { raw: { type: 'image/png', data: 'no disposition' } }),
	req('media', 'admin', 'POST', `${W}/media`, { file: { name: 'empty.png', type: 'image/png', data: Buffer.alloc(0) } }),
	req('media', 'admin', 'POST', `${W}/media`, { file: { name: 'dot.png', type: 'image/png', data: PIXEL }, query: { post: 999999 } }),
	post('media', 'admin', `${W}/media/{media:pixel}`, { alt_text: 'A single dot', caption: 'Tiny', description: 'One pixel' }),
	post('media', 'author', `${W}/media/{media:pixel}`, { alt_text: 'Not mine' }),
	post('media', 'admin', `${W}/media/{media:pixel}`, { post: 999999 }),
	del('media', 'admin', `${W}/media/{media:by-author}`),
	del('media', 'contributor', `${W}/media/{media:by-author}`, { force: true }),
	del('media', 'author', `${W}/media/{media:by-author}`, { force: true }),
	get('media', 'anonymous', `${W}/media/999999`),
	// Images with sizes: WordPress makes its default sizes smaller than the original, and reads EXIF from JPEGs.
	req('media', 'author', 'POST', `${W}/media`, { file: { name: 'wide.png', type: 'image/png', data: greyPng(1600, 1200) }, save: 'media:wide' }),
	// An RGB image: PHP's GD crashes rotating the grey one by 180° (a segmentation fault in imagerotate).
	req('media', 'author', 'POST', `${W}/media`, { file: { name: 'small.png', type: 'image/png', data: SMALL_RGB }, save: 'media:small' }),
	get('media', 'author', `${W}/media/{media:small}`, undefined, { save: { name: 'media:small-url', from: 'source_url' } }),
	req('media', 'editor', 'POST', `${W}/media`, { file: { name: 'photo.jpg', type: 'image/jpeg', data: PHOTO }, save: 'media:photo' }),
	req('media', 'admin', 'POST', `${W}/media`, { file: { name: 'titled.jpg', type: 'image/jpeg', data: PHOTO }, query: { title: 'Given title', caption: 'Given caption' } }),
	...asEach(['anonymous', 'admin'] as Caller[], (as) => get('media', as, `${W}/media/{media:wide}`)),
	get('media', 'author', `${W}/media/{media:wide}`, { context: 'edit' }),
	get('media', 'anonymous', `${W}/media/{media:photo}`),
	get('media', 'editor', `${W}/media/{media:photo}`, { context: 'edit' }),
	get('media', 'anonymous', `${W}/media`, { media_type: 'image', per_page: 3 }),
	get('media', 'admin', `${W}/media/{media:notes}`, { context: 'edit' }),
	req('media', 'admin', 'POST', `${W}/media`, { file: { name: 'tool.xyz', type: 'application/octet-stream', data: Buffer.from('not a known type') } }),
	req('media', 'author', 'POST', `${W}/media`, { file: { name: 'big.jpg', type: 'image/jpeg', data: BIG_PHOTO }, save: 'media:big' }),
	req('media', 'author', 'POST', `${W}/media`, { file: { name: 'turned.jpg', type: 'image/jpeg', data: TURNED_PHOTO }, save: 'media:turned' }),
	req('media', 'author', 'POST', `${W}/media`, { file: { name: 'harbour.jpg', type: 'image/jpeg', data: IPTC_PHOTO } }),
	get('media', 'author', `${W}/media/{media:big}`, { context: 'edit' }),
	post('media', 'author', `${W}/media/{media:wide}/post-process`, { action: 'create-image-subsizes' }),
	post('media', 'author', `${W}/media/{media:wide}/post-process`, {}),
	post('media', 'author', `${W}/media/{media:wide}/post-process`, { action: 'make-coffee' }),
	post('media', 'contributor', `${W}/media/{media:wide}/post-process`, { action: 'create-image-subsizes' }),
	post('media', 'anonymous', `${W}/media/{media:wide}/post-process`, { action: 'create-image-subsizes' }),
	post('media', 'admin', `${W}/media/999999/post-process`, { action: 'create-image-subsizes' }),
	// Edits make a new item from the image; `src` is one of its files (its URL, saved from the upload).
	post('media', 'author', `${W}/media/{media:small}/edit`, { src: '{media:small-url}', modifiers: [{ type: 'rotate', args: { angle: 90 } }, { type: 'crop', args: { left: 10, top: 10, width: 50, height: 50 } }] }),
	post('media', 'author', `${W}/media/{media:small}/edit`, { src: '{media:small-url}', rotation: 180 }),
	post('media', 'author', `${W}/media/{media:small}/edit`, { src: '{media:small-url}' }),
	post('media', 'author', `${W}/media/{media:small}/edit`, { rotation: 90 }),
	post('media', 'author', `${W}/media/{media:small}/edit`, { src: '{media:small-url}', rotation: 360 }),
	post('media', 'contributor', `${W}/media/{media:small}/edit`, { src: '{media:small-url}', rotation: 90 }),
	post('media', 'anonymous', `${W}/media/{media:small}/edit`, { src: '{media:small-url}', rotation: 90 }),
	post('media', 'editor', `${W}/media/{media:notes}/edit`, { src: 'http://example.com/notes.txt', rotation: 90 }),
	get('media', 'anonymous', `${W}/media/{media:turned}`),
	del('media', 'admin', `${W}/media/{media:big}`, { force: true }),
	del('media', 'author', `${W}/media/{media:wide}`, { force: true }),
	del('media', 'editor', `${W}/media/{media:photo}`, { force: true }),
];

const revisions: Req[] = [
	...asEach(ROLES, (as) => get('revisions', as, `${W}/posts/{post:first}/revisions`)),
	get('revisions', 'admin', `${W}/posts/{post:first}/revisions`, { per_page: 1 }),
	get('revisions', 'admin', `${W}/posts/{post:first}/revisions`, { page: 9, per_page: 1 }),
	get('revisions', 'admin', `${W}/posts/{post:first}/revisions`, { context: 'embed' }),
	...asEach(['admin', 'author', 'anonymous'], (as) => get('revisions', as, `${W}/posts/{post:first}/revisions/{revision:first}`)),
	get('revisions', 'admin', `${W}/posts/{post:second}/revisions/{revision:first}`),
	get('revisions', 'admin', `${W}/posts/{post:first}/revisions/999999`),
	get('revisions', 'admin', `${W}/posts/999999/revisions`),
	get('revisions', 'admin', `${W}/pages/{page:about}/revisions`),
	get('revisions', 'admin', `${W}/pages/{page:about}/revisions/{revision:about}`),
	del('revisions', 'admin', `${W}/posts/{post:first}/revisions/{revision:first}`),
	del('revisions', 'editor', `${W}/posts/{post:first}/revisions/{revision:first}`, { force: true }),
	get('revisions', 'admin', `${W}/posts/{post:first}/revisions/{revision:first}`),
];

const autosaves: Req[] = [
	post('autosaves', 'admin', `${W}/posts/{post:first}/autosaves`, { title: 'First post (autosaved)', content: 'Typing...' }, { save: 'autosave:first' }),
	post('autosaves', 'author', `${W}/posts/{post:author-draft}/autosaves`, { content: 'Draft typing' }),
	post('autosaves', 'contributor', `${W}/posts/{post:first}/autosaves`, { content: 'Not mine' }),
	post('autosaves', 'anonymous', `${W}/posts/{post:first}/autosaves`, { content: 'Who?' }),
	post('autosaves', 'admin', `${W}/posts/999999/autosaves`, { content: 'Nothing' }),
	post('autosaves', 'editor', `${W}/pages/{page:about}/autosaves`, { title: 'About (autosaved)' }),
	...asEach(['admin', 'author', 'anonymous'], (as) => get('autosaves', as, `${W}/posts/{post:first}/autosaves`)),
	get('autosaves', 'admin', `${W}/posts/{post:first}/autosaves/{autosave:first}`),
	get('autosaves', 'admin', `${W}/posts/{post:first}/autosaves/999999`),
	get('autosaves', 'editor', `${W}/pages/{page:about}/autosaves`),
];

const terms = (family: 'categories' | 'tags', first: string): Req[] => [
	...asEach(ROLES, (as) => get(family, as, `${W}/${family}`)),
	get(family, 'anonymous', `${W}/${family}/${first}`),
	get(family, 'admin', `${W}/${family}/${first}`, { context: 'edit' }),
	get(family, 'anonymous', `${W}/${family}/${first}`, { context: 'edit' }),
	get(family, 'anonymous', `${W}/${family}/999999`),
	get(family, 'anonymous', `${W}/${family}`, { hide_empty: true }),
	get(family, 'anonymous', `${W}/${family}`, { search: 'a', orderby: 'count', order: 'desc' }),
	get(family, 'anonymous', `${W}/${family}`, { post: '{post:second}' }),
	get(family, 'anonymous', `${W}/${family}`, { slug: ['news', 'alpha'] }),
	get(family, 'anonymous', `${W}/${family}`, { orderby: 'nonsense' }),
	get(family, 'anonymous', `${W}/${family}`, { per_page: 1, page: 2 }),
	...asEach(ROLES, (as) => post(family, as, `${W}/${family}`, { name: `${family} by ${as}` }, { save: `${family}:by-${as}` })),
	post(family, 'admin', `${W}/${family}`, { name: family === 'categories' ? 'News' : 'alpha' }),
	post(family, 'admin', `${W}/${family}`, { name: 'Slug taken', slug: family === 'categories' ? 'news' : 'alpha' }),
	post(family, 'admin', `${W}/${family}`, {}),
	post(family, 'admin', `${W}/${family}`, { name: 'Meta term', meta: { nothing: 1 } }),
	post(family, 'admin', `${W}/${family}/${first}`, { description: 'Updated' }),
	post(family, 'author', `${W}/${family}/${first}`, { description: 'Not allowed' }),
	req(family, 'editor', 'PATCH', `${W}/${family}/{${family}:by-admin}`, { json: { name: 'Renamed', slug: 'renamed' } }),
	req(family, 'admin', 'PATCH', `${W}/${family}/999999`, { json: { name: 'Nothing' } }),
	del(family, 'admin', `${W}/${family}/{${family}:by-admin}`),
	del(family, 'author', `${W}/${family}/{${family}:by-admin}`, { force: true }),
	del(family, 'admin', `${W}/${family}/{${family}:by-admin}`, { force: true }),
	del(family, 'admin', `${W}/${family}/{${family}:by-admin}`, { force: true }),
];

const categoriesOnly: Req[] = [
	get('categories', 'anonymous', `${W}/categories`, { parent: '{cat:tech}' }),
	post('categories', 'admin', `${W}/categories`, { name: 'Orphan', parent: 999999 }),
	del('categories', 'admin', `${W}/categories/1`, { force: true }),
];

const users: Req[] = [
	...asEach(ROLES, (as) => get('users', as, `${W}/users/me`)),
	...asEach(ROLES, (as) => get('users', as, `${W}/users`)),
	...asEach(ROLES, (as) => get('users', as, `${W}/users/{user:author}`)),
	...asEach(ROLES, (as) => get('users', as, `${W}/users/{user:editor}`, { context: 'edit' })),
	get('users', 'author', `${W}/users/me`, { context: 'edit' }),
	get('users', 'admin', `${W}/users`, { context: 'edit' }),
	get('users', 'admin', `${W}/users`, { roles: ['author'] }),
	get('users', 'author', `${W}/users`, { roles: ['author'] }),
	get('users', 'anonymous', `${W}/users`, { who: 'authors' }),
	get('users', 'author', `${W}/users`, { who: 'authors' }),
	get('users', 'admin', `${W}/users`, { search: 'edn' }),
	get('users', 'admin', `${W}/users`, { slug: ['arthur'] }),
	get('users', 'admin', `${W}/users`, { orderby: 'name', order: 'asc' }),
	get('users', 'admin', `${W}/users`, { orderby: 'email' }),
	get('users', 'author', `${W}/users`, { orderby: 'email' }),
	get('users', 'admin', `${W}/users`, { has_published_posts: true }),
	get('users', 'admin', `${W}/users`, { per_page: 2, page: 2 }),
	get('users', 'anonymous', `${W}/users/999999`),
	get('users', 'anonymous', `${W}/users/{user:contributor}`),
	post('users', 'admin', `${W}/users`, { username: 'newbie', email: 'newbie@example.com', password: 'a long pass phrase 1', roles: ['subscriber'], name: 'New Bie' }, { save: 'user:newbie' }),
	post('users', 'admin', `${W}/users`, { username: 'writer', email: 'writer@example.com', password: 'a long pass phrase 2', roles: ['author'] }, { save: 'user:writer' }),
	post('users', 'admin', `${W}/users`, { username: 'newbie', email: 'other@example.com', password: 'x' }),
	post('users', 'admin', `${W}/users`, { username: 'another', email: 'newbie@example.com', password: 'x' }),
	post('users', 'admin', `${W}/users`, { username: 'bademail', email: 'not-an-email', password: 'x' }),
	post('users', 'admin', `${W}/users`, { email: 'nouser@example.com', password: 'x' }),
	post('users', 'admin', `${W}/users`, { username: 'badrole', email: 'badrole@example.com', password: 'x', roles: ['overlord'] }),
	...asEach(['editor', 'author', 'anonymous'], (as) => post('users', as, `${W}/users`, { username: `by${as}`, email: `by${as}@example.com`, password: 'x' })),
	post('users', 'author', `${W}/users/me`, { description: 'I write.', first_name: 'Arthur' }),
	post('users', 'author', `${W}/users/{user:editor}`, { description: 'Not allowed' }),
	post('users', 'author', `${W}/users/me`, { roles: ['administrator'] }),
	post('users', 'admin', `${W}/users/{user:newbie}`, { roles: ['editor'], nickname: 'Newbie' }),
	post('users', 'admin', `${W}/users/{user:newbie}`, { email: 'edna@example.com' }),
	post('users', 'admin', `${W}/users/{user:newbie}`, { username: 'renamed' }),
	req('users', 'admin', 'PATCH', `${W}/users/999999`, { json: { name: 'Nobody' } }),
	del('users', 'admin', `${W}/users/{user:newbie}`),
	del('users', 'admin', `${W}/users/{user:newbie}`, { force: true }),
	del('users', 'editor', `${W}/users/{user:newbie}`, { force: true, reassign: '{user:admin}' }),
	del('users', 'admin', `${W}/users/{user:newbie}`, { force: true, reassign: 999999 }),
	del('users', 'admin', `${W}/users/{user:newbie}`, { force: true, reassign: '{user:newbie}' }),
	del('users', 'admin', `${W}/users/{user:newbie}`, { force: true, reassign: '{user:admin}' }),
	get('users', 'admin', `${W}/users/{user:newbie}`),
	post('posts', 'admin', `${W}/posts`, { title: 'Written for writer', author: '{user:writer}', status: 'publish', date: '2024-01-11T10:00:00' }, { save: 'post:writers' }),
	del('users', 'admin', `${W}/users/{user:writer}`, { force: true, reassign: '{user:editor}' }),
	get('posts', 'admin', `${W}/posts/{post:writers}`, { _fields: 'author' }),
	del('users', 'contributor', `${W}/users/me`, { force: true, reassign: '{user:admin}' }),
];

const comments: Req[] = [
	...asEach(ROLES, (as) => get('comments', as, `${W}/comments`)),
	...asEach(ROLES, (as) => get('comments', as, `${W}/comments/{comment:first}`)),
	...asEach(ROLES, (as) => get('comments', as, `${W}/comments`, { status: 'hold' })),
	get('comments', 'admin', `${W}/comments`, { context: 'edit' }),
	get('comments', 'anonymous', `${W}/comments`, { post: ['{post:first}'] }),
	get('comments', 'anonymous', `${W}/comments`, { parent: ['{comment:first}'] }),
	get('comments', 'anonymous', `${W}/comments`, { search: 'reply' }),
	get('comments', 'anonymous', `${W}/comments`, { order: 'asc', orderby: 'date' }),
	get('comments', 'anonymous', `${W}/comments`, { author: ['{user:author}'] }),
	get('comments', 'anonymous', `${W}/comments`, { orderby: 'karma' }),
	get('comments', 'anonymous', `${W}/comments/999999`),
	post('comments', 'anonymous', `${W}/comments`, { post: '{post:first}', content: 'Anonymous says hi', author_name: 'Guest', author_email: 'guest@example.com' }),
	post('comments', 'contributor', `${W}/comments`, { post: '{post:second}', content: 'Contributor comment', date: '2024-03-04T10:00:00' }, { save: 'comment:contributor' }),
	post('comments', 'admin', `${W}/comments`, { post: 999999, content: 'No post' }),
	post('comments', 'admin', `${W}/comments`, { post: '{post:first}' }),
	post('comments', 'admin', `${W}/comments`, { post: '{post:author-draft}', content: 'On a draft' }),
	post('comments', 'author', `${W}/comments`, { post: '{post:first}', content: 'Held', status: 'hold' }),
	post('comments', 'editor', `${W}/comments`, { post: '{post:first}', content: 'Held by editor', status: 'hold', date: '2024-03-05T10:00:00' }, { save: 'comment:held' }),
	get('comments', 'anonymous', `${W}/comments/{comment:held}`),
	post('comments', 'admin', `${W}/comments/{comment:held}`, { status: 'approved' }),
	post('comments', 'author', `${W}/comments/{comment:author}`, { content: 'Thanks, edited' }),
	post('comments', 'contributor', `${W}/comments/{comment:author}`, { content: 'Not mine' }),
	req('comments', 'admin', 'PATCH', `${W}/comments/{comment:contributor}`, { json: { post: 999999 } }),
	del('comments', 'contributor', `${W}/comments/{comment:first}`),
	del('comments', 'editor', `${W}/comments/{comment:contributor}`),
	del('comments', 'editor', `${W}/comments/{comment:contributor}`),
	del('comments', 'admin', `${W}/comments/{comment:contributor}`, { force: true }),
	get('comments', 'admin', `${W}/comments`, { status: 'trash' }),
];

const settings: Req[] = [
	...asEach(ROLES, (as) => get('settings', as, `${W}/settings`)),
	post('settings', 'admin', `${W}/settings`, { title: 'WDM reference site', posts_per_page: 10 }),
	post('settings', 'admin', `${W}/settings`, { posts_per_page: 'many' }),
	post('settings', 'admin', `${W}/settings`, { default_comment_status: 'sometimes' }),
	post('settings', 'admin', `${W}/settings`, { no_such_setting: 1 }),
	post('settings', 'admin', `${W}/settings`, { email: 'not-an-email' }),
	post('settings', 'editor', `${W}/settings`, { title: 'Mine now' }),
	req('settings', 'admin', 'PATCH', `${W}/settings`, { json: { description: 'Reference server for the WDM gateway' } }),
];

const search: Req[] = [
	...asEach(['admin', 'anonymous'], (as) => get('search', as, `${W}/search`, { search: 'post' })),
	get('search', 'anonymous', `${W}/search`),
	get('search', 'anonymous', `${W}/search`, { type: 'post', subtype: 'page' }),
	get('search', 'anonymous', `${W}/search`, { type: 'term', search: 'tech' }),
	get('search', 'anonymous', `${W}/search`, { type: 'term', subtype: 'category' }),
	get('search', 'anonymous', `${W}/search`, { type: 'post-format' }),
	get('search', 'anonymous', `${W}/search`, { type: 'user' }),
	get('search', 'anonymous', `${W}/search`, { subtype: 'nonsense' }),
	get('search', 'anonymous', `${W}/search`, { per_page: 1, page: 2, _embed: 'self' }),
	get('search', 'admin', `${W}/search`, { search: 'draft' }),
];

const types: Req[] = [
	...asEach(['admin', 'author', 'anonymous'], (as) => get('types', as, `${W}/types`)),
	get('types', 'anonymous', `${W}/types/post`),
	get('types', 'anonymous', `${W}/types/page`),
	get('types', 'anonymous', `${W}/types/attachment`),
	get('types', 'anonymous', `${W}/types/nonsense`),
	get('types', 'admin', `${W}/types/post`, { context: 'edit' }),
	get('types', 'contributor', `${W}/types/post`, { context: 'edit' }),
	get('types', 'anonymous', `${W}/types`, { context: 'edit' }),
];

const taxonomies: Req[] = [
	...asEach(['admin', 'anonymous'], (as) => get('taxonomies', as, `${W}/taxonomies`)),
	get('taxonomies', 'anonymous', `${W}/taxonomies/category`),
	get('taxonomies', 'anonymous', `${W}/taxonomies/post_tag`),
	get('taxonomies', 'anonymous', `${W}/taxonomies/nonsense`),
	get('taxonomies', 'anonymous', `${W}/taxonomies`, { type: 'post' }),
	get('taxonomies', 'anonymous', `${W}/taxonomies`, { type: 'page' }),
	get('taxonomies', 'admin', `${W}/taxonomies/category`, { context: 'edit' }),
	get('taxonomies', 'author', `${W}/taxonomies`, { context: 'edit' }),
];

const statuses: Req[] = [
	...asEach(ROLES, (as) => get('statuses', as, `${W}/statuses`)),
	get('statuses', 'anonymous', `${W}/statuses/publish`),
	get('statuses', 'anonymous', `${W}/statuses/draft`),
	get('statuses', 'admin', `${W}/statuses/draft`),
	get('statuses', 'anonymous', `${W}/statuses/nonsense`),
	get('statuses', 'admin', `${W}/statuses`, { context: 'edit' }),
];

const AP = (user: string) => `${W}/users/${user}/application-passwords`;
const appPasswords: Req[] = [
	...asEach(ROLES, (as) => get('application-passwords', as, AP('me'))),
	get('application-passwords', 'admin', AP('{user:author}')),
	get('application-passwords', 'editor', AP('{user:author}')),
	post('application-passwords', 'author', AP('me'), { name: 'Second' }, { save: { name: 'app:author', from: 'uuid' } }),
	post('application-passwords', 'author', AP('me'), {}),
	post('application-passwords', 'admin', AP('{user:author}'), { name: 'From the admin' }, { save: { name: 'app:admin-made', from: 'uuid' } }),
	post('application-passwords', 'editor', AP('{user:author}'), { name: 'Not allowed' }),
	post('application-passwords', 'anonymous', AP('me'), { name: 'Who' }),
	post('application-passwords', 'author', AP('me'), { name: 'Bad app id', app_id: 'not-a-uuid' }),
	get('application-passwords', 'author', `${AP('me')}/{app:author}`),
	get('application-passwords', 'author', `${AP('me')}/00000000-0000-4000-8000-000000000000`),
	get('application-passwords', 'author', `${AP('me')}/introspect`),
	get('application-passwords', 'anonymous', `${AP('me')}/introspect`),
	post('application-passwords', 'author', `${AP('me')}/{app:author}`, { name: 'Renamed' }),
	post('application-passwords', 'editor', `${AP('{user:author}')}/{app:author}`, { name: 'Not mine' }),
	del('application-passwords', 'author', `${AP('me')}/{app:author}`),
	del('application-passwords', 'author', `${AP('me')}/{app:author}`),
	del('application-passwords', 'editor', AP('{user:author}')),
	del('application-passwords', 'admin', `${AP('{user:author}')}/{app:admin-made}`),
	get('application-passwords', 'author', AP('me')),
	get('application-passwords', 'admin', AP('999999')),
];

const methodOverride: Req[] = [
	post('method override', 'admin', `${W}/posts`, { title: 'Override target', status: 'publish', date: '2024-01-12T10:00:00' }, { save: 'post:override' }),
	post('method override', 'admin', `${W}/posts/{post:override}`, { title: 'Patched by header' }, { headers: { 'x-http-method-override': 'PATCH' } }),
	post('method override', 'admin', `${W}/posts/{post:override}?_method=PUT`, { excerpt: 'Put by _method' }),
	post('method override', 'author', `${W}/posts/{post:override}`, undefined, { headers: { 'x-http-method-override': 'DELETE' } }),
	post('method override', 'admin', `${W}/posts/{post:override}?_method=DELETE`),
	get('method override', 'admin', `${W}/posts/{post:override}`, { _method: 'DELETE' }),
	req('method override', 'admin', 'GET', `${W}/posts/{post:override}`, { headers: { 'x-http-method-override': 'DELETE' } }),
	post('method override', 'admin', `${W}/posts/{post:override}?_method=DELETE&force=true`),
	post('method override', 'admin', `${W}/posts?_method=BREW`),
];

const bodies: Req[] = [
	req('bodies', 'admin', 'POST', `${W}/posts`, { form: { title: 'Form post', content: 'Sent as a form', status: 'publish', date: '2024-01-13T10:00:00', 'categories[]': ['{cat:news}', '{cat:tech}'] }, save: 'post:form' }),
	req('bodies', 'admin', 'POST', `${W}/posts/{post:form}`, { form: { 'title[raw]': 'Form title raw', sticky: 'true' } }),
	req('bodies', 'author', 'POST', `${W}/posts`, { multipart: { fields: { title: 'Multipart post', status: 'draft', 'tags[0]': '{tag:alpha}' } } }),
	req('bodies', 'admin', 'POST', `${W}/categories`, { form: { name: 'Form category', parent: '{cat:news}' } }),
	req('bodies', 'admin', 'POST', `${W}/posts`, { raw: { type: 'application/json', data: '{"title": "broken' } }),
	req('bodies', 'admin', 'POST', `${W}/posts`, { raw: { type: 'application/json', data: '' } }),
	req('bodies', 'admin', 'POST', `${W}/posts`, { raw: { type: 'text/plain', data: 'title=Plain' } }),
	req('bodies', 'admin', 'POST', `${W}/posts`, { json: { title: 'Query and body', status: 'draft' }, query: { status: 'pending' } }),
	req('bodies', 'admin', 'POST', `${W}/posts`, { json: ['not', 'an', 'object'] }),
];

const options: Req[] = [
	...[`${W}/posts`, `${W}/posts/{post:first}`, `${W}/pages`, `${W}/media`, `${W}/categories`, `${W}/tags/{tag:alpha}`, `${W}/users`, `${W}/users/me`, `${W}/comments`, `${W}/settings`, `${W}/posts/{post:first}/revisions`, '/batch/v1', '/'].map((path) =>
		req('OPTIONS', 'anonymous', 'OPTIONS', path),
	),
	req('OPTIONS', 'admin', 'OPTIONS', `${W}/posts`),
	req('OPTIONS', 'anonymous', 'OPTIONS', `${W}/no-such-route`),
	// The other routes issue 25 describes: their arguments and item schemas.
	...[`${W}/search`, `${W}/types`, `${W}/types/post`, `${W}/taxonomies/category`, `${W}/statuses`, `${W}/statuses/publish`, '/oembed/1.0/embed', '/oembed/1.0/proxy', `${W}`].map((path) =>
		req('OPTIONS', 'anonymous', 'OPTIONS', path),
	),
	...[`${W}/users/me/application-passwords`, `${W}/users/me/application-passwords/introspect`, `${W}/users/{user:admin}`, `${W}/categories/{cat:news}`].map((path) => req('OPTIONS', 'admin', 'OPTIONS', path)),
];

const fields: Req[] = [
	get('_fields', 'anonymous', `${W}/posts`, { _fields: 'id,title' }),
	get('_fields', 'anonymous', `${W}/posts/{post:first}`, { _fields: ['title.rendered', 'categories'] }),
	get('_fields', 'anonymous', `${W}/posts/{post:first}`, { _fields: 'id,_links' }),
	get('_fields', 'anonymous', `${W}/posts/{post:first}`, { _fields: 'nonsense' }),
	get('_fields', 'admin', `${W}/users/me`, { _fields: 'id,name,roles' }),
	get('_fields', 'anonymous', `${W}/categories`, { _fields: 'name,count' }),
	get('_fields', 'anonymous', '/', { _fields: 'name,namespaces' }),
];

const embed: Req[] = [
	get('_embed', 'anonymous', `${W}/posts`, { _embed: 1, per_page: 2 }),
	get('_embed', 'anonymous', `${W}/posts/{post:first}`, { _embed: 'author' }),
	get('_embed', 'anonymous', `${W}/posts/{post:first}`, { _embed: 'wp:term,wp:featuredmedia' }),
	get('_embed', 'admin', `${W}/posts/{post:first}`, { _embed: 1, context: 'edit' }),
	get('_embed', 'anonymous', `${W}/pages/{page:team}`, { _embed: 'up' }),
	get('_embed', 'anonymous', `${W}/comments/{comment:reply}`, { _embed: 1 }),
	get('_embed', 'anonymous', `${W}/posts/{post:first}`, { _embed: 1, _fields: 'id,_links,_embedded' }),
];

const envelope: Req[] = [
	get('_envelope', 'anonymous', `${W}/posts/{post:first}`, { _envelope: 1 }),
	get('_envelope', 'anonymous', `${W}/posts`, { _envelope: 1, per_page: 1 }),
	get('_envelope', 'anonymous', `${W}/posts/999999`, { _envelope: 1 }),
	get('_envelope', 'anonymous', `${W}/users/me`, { _envelope: 1 }),
	post('_envelope', 'admin', `${W}/posts?_envelope=1`, { title: 'Enveloped', status: 'draft' }),
	get('_envelope', 'anonymous', `${W}/posts/{post:first}`, { _envelope: 1, _embed: 'author', _fields: 'id,title' }),
];

const O = '/oembed/1.0';
const oembed: Req[] = [
	get('oembed', 'anonymous', `${W}/posts/{post:first}`, { _fields: 'link' }, { save: { name: 'link:first', from: 'link' } }),
	get('oembed', 'anonymous', `${O}/embed`, { url: '{link:first}' }),
	get('oembed', 'anonymous', `${O}/embed`, { url: '{link:first}', format: 'xml' }),
	get('oembed', 'anonymous', `${O}/embed`, { url: '{link:first}', maxwidth: 300 }),
	get('oembed', 'anonymous', `${O}/embed`, { url: '{link:first}', format: 'yaml' }),
	get('oembed', 'anonymous', `${O}/embed`, { url: 'http://elsewhere.invalid/post', format: 'yaml' }),
	get('oembed', 'anonymous', `${O}/embed`, { url: 'http://elsewhere.invalid/post' }),
	get('oembed', 'anonymous', `${O}/embed`),
	...asEach(['anonymous', 'contributor', 'editor'], (as) => get('oembed', as, `${O}/proxy`, { url: '{link:first}' })),
	get('oembed', 'admin', `${O}/proxy`, { url: 'not a url' }),
];

/**
 * Issue 40's wider corpus: scalars where a string is declared (`rest_sanitize_value_from_schema` casts them
 * to text only where the schema lets them through), and validation WordPress does in its handlers.
 */
const coercion: Req[] = [
	post('posts', 'admin', `${W}/posts`, { title: 123, content: 'A numbered title.', status: 'draft' }),
	post('posts', 'admin', `${W}/posts`, { title: 123 }),
	post('posts', 'admin', `${W}/posts`, { title: true, content: 'A boolean title.', status: 'draft' }),
	post('posts', 'admin', `${W}/posts`, { title: { raw: 123 }, content: { raw: 456 }, excerpt: null, status: 'draft' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Numbered slug', slug: 42, status: 'draft' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Numbered password', password: 1234, status: 'draft' }),
	post('tags', 'admin', `${W}/tags`, { name: 42 }),
	post('comments', 'admin', `${W}/comments`, { post: '{post:second}', content: 7 }),
	post('comments', 'admin', `${W}/comments`, { post: '{post:second}', content: { raw: 7 } }),
	post('users', 'admin', `${W}/users/me`, { first_name: 5 }),
	post('pages', 'admin', `${W}/pages`, { title: 'Bad template', template: 'no-such-template.php' }),
	post('pages', 'admin', `${W}/pages`, { title: 'No template', template: '', status: 'draft' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Bad post template', template: 'no-such-template.php' }),
	post('pages', 'admin', `${W}/pages/{page:about}`, { template: 'no-such-template.php' }),
	post('posts', 'admin', `${W}/posts`, { title: 'Text featured', featured_media: '{media:notes}', status: 'draft' }, { save: 'post:text-featured' }),
	post('posts', 'admin', `${W}/posts/{post:text-featured}`, { featured_media: '{media:notes}' }),
	// An unknown id leaves the featured image; another item that is no image removes it (the answer's `wp:featuredmedia` link).
	post('posts', 'admin', `${W}/posts`, { title: 'Featured', featured_media: '{media:pixel}', status: 'draft' }, { save: 'post:featured' }),
	post('posts', 'admin', `${W}/posts/{post:featured}`, { featured_media: 999999 }),
	post('posts', 'admin', `${W}/posts/{post:featured}`, { featured_media: '{media:notes}' }),
];

const B = '/batch/v1';
const batch: Req[] = [
	post('batch', 'admin', B, {
		requests: [
			{ method: 'POST', path: `${W}/posts`, body: { title: 'Batched one', status: 'publish', date: '2024-01-14T10:00:00' } },
			{ method: 'POST', path: `${W}/posts`, body: { title: 'Batched two', status: 'draft' } },
			{ method: 'PATCH', path: `${W}/posts/{post:second}`, body: { excerpt: 'Batched edit' } },
		],
	}),
	post('batch', 'admin', B, {
		validation: 'require-all-validate',
		requests: [
			{ path: `${W}/posts`, body: { title: 'Never made', status: 'publish' } },
			{ path: `${W}/posts`, body: { status: 'nonsense' } },
		],
	}),
	post('batch', 'author', B, {
		requests: [
			{ method: 'DELETE', path: `${W}/posts/{post:first}` },
			{ method: 'POST', path: `${W}/posts`, body: { title: 'Author batch', status: 'draft' } },
		],
	}),
	post('batch', 'admin', B, { requests: [{ method: 'GET', path: `${W}/posts` }] }),
	post('batch', 'admin', B, { requests: [{ path: `${W}/no-such-route` }] }),
	post('batch', 'admin', B, { requests: [{ path: `${W}/categories`, body: { name: 'Batched category' } }] }),
	post('batch', 'admin', B, { requests: [{ path: `${W}/comments`, body: { post: '{post:second}', content: 'Batched comment' } }] }),
	post('batch', 'admin', B, { requests: [{ method: 'POST', path: `${W}/users/me`, body: { description: 'Batched' } }] }),
	post('batch', 'admin', B, { requests: Array.from({ length: 26 }, () => ({ path: `${W}/posts`, body: { title: 'Too many' } })) }),
	post('batch', 'admin', B, {}),
	post('batch', 'admin', B, { requests: 'nope' }),
	post('batch', 'anonymous', B, { requests: [{ path: `${W}/posts`, body: { title: 'Anonymous batch' } }] }),
	post('batch', 'admin', B, { validation: 'sometimes', requests: [{ path: `${W}/posts`, body: { title: 'x' } }] }),
	get('batch', 'admin', B),
	// A force delete answers `previous` without `_links`; a request refused before it runs answers PHP's empty `headers`, `[]`.
	post('batch', 'admin', `${W}/posts`, { title: 'Batch deletes me', status: 'draft' }, { save: 'post:batch-delete' }),
	post('batch', 'admin', B, {
		requests: [
			{ method: 'DELETE', path: `${W}/posts/{post:batch-delete}?force=true` },
			{ path: `${W}/posts`, body: { status: 'nonsense' } },
		],
	}),
];

const plain: Req[] = [
	get('index', 'anonymous', `${W}/posts`, { per_page: 1 }, { plain: true }),
	get('index', 'admin', `${W}/posts/{post:first}`, { context: 'edit' }, { plain: true }),
	get('index', 'anonymous', `${W}/users/me`, undefined, { plain: true }),
	post('index', 'admin', `${W}/tags`, { name: 'plain tag' }, { plain: true }),
];

/**
 * HTML from users without `unfiltered_html` is filtered by kses when saved (titles with the comment
 * tags, content and excerpt with the post tags, comments with the comment tags); an editor's is kept.
 * compare.ts does not compare HTML values: test/server/kses.test.ts asserts what WordPress saved.
 */
const HOSTILE_HTML =
	'<!-- wp:paragraph --><p class="lead" onclick="alert(1)" style="color: red; position: fixed" data-x="1">Hi <b>bold</b> <a href="javascript:alert(1)" target="_blank">js</a> ' +
	'<a href="https://example.com/" title="t" onmouseover="x()">ok</a> <a href="mailto:a@example.com">mail</a></p><!-- /wp:paragraph -->' +
	'<script>alert(1)</script><iframe src="https://evil.example/"></iframe><style>body { display: none }</style>' +
	'<img src="x.png" onerror="alert(1)" alt="a"><div id="d" foo="bar">div</div><form action="/x"><input name="q"></form>';
const HOSTILE_TITLE = 'Title <b>bold</b> <em onclick="x()">em</em> <script>alert(1)</script><a href="javascript:x()">a</a>';
const kses: Req[] = [
	...asEach(['editor', 'author', 'contributor'], (as) =>
		post('kses', as, `${W}/posts`, { title: HOSTILE_TITLE, content: HOSTILE_HTML, excerpt: HOSTILE_HTML, status: 'draft' }, { save: `post:kses-${as}` }),
	),
	post('kses', 'author', `${W}/posts/{post:kses-author}`, { content: '<p>Edited <script>x()</script><span style="font-weight: bold" onclick="y()">s</span></p>' }),
	post('kses', 'author', `${W}/posts/{post:kses-author}/autosaves`, { content: '<p>Autosaved <iframe src="https://evil.example/"></iframe></p>' }),
	...asEach(['editor', 'author', 'contributor'], (as) => post('kses', as, `${W}/comments`, { post: '{post:second}', content: HOSTILE_HTML })),
	// Term and user descriptions are filtered for everyone, administrators included.
	post('kses', 'admin', `${W}/tags`, { name: 'kses tag', description: HOSTILE_HTML }),
	post('kses', 'author', `${W}/users/me`, { description: HOSTILE_HTML + '<a href="https://example.com/" rel="me">me</a>' }),
	post('kses', 'admin', `${W}/users/me`, { description: HOSTILE_HTML }),
];

/** Every request, in the order they run. */
export const corpus: Req[] = [
	...seed,
	...index,
	...postsRead,
	...postsWrite,
	...pages,
	...media,
	...revisions,
	...autosaves,
	...terms('categories', '{cat:news}'),
	...categoriesOnly,
	...terms('tags', '{tag:alpha}'),
	...comments,
	...settings,
	...search,
	...types,
	...taxonomies,
	...statuses,
	...appPasswords,
	...users,
	...methodOverride,
	...bodies,
	...options,
	...fields,
	...embed,
	...envelope,
	...coercion,
	...oembed,
	...batch,
	...plain,
	...kses,
];

/** Callers with an account on both sites (the anonymous caller has none). */
export const ACCOUNTS = SIGNED_IN;
