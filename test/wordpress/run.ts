// Sends one request of the corpus to one site: names (`{post:first}`) resolved to that site's ids, the
// caller's application password, the body in the form asked (JSON, form-encoded, multipart, raw file).
import type { Answer } from './compare';

export type Caller = 'admin' | 'editor' | 'author' | 'contributor' | 'anonymous';
type QueryValue = string | number | boolean | (string | number)[] | Record<string, unknown>;

export interface Req {
	/** Route family, for the report: `posts`, `users`, `batch`... */
	family: string;
	as: Caller;
	method: string;
	/** A REST route (`/wp/v2/posts/{post:first}`), names in braces; a query string may follow. */
	path: string;
	query?: Record<string, QueryValue>;
	json?: unknown;
	/** `application/x-www-form-urlencoded`; lists as `key[]=`. */
	form?: Record<string, string | number | (string | number)[]>;
	multipart?: { fields?: Record<string, string>; file?: { name: string; type: string; data: Buffer } };
	/** A file as the whole body (WordPress's upload form); its bytes may still be in the making (an image encoded by sharp). */
	file?: { name: string; type: string; data: Buffer | Promise<Buffer> };
	/** A body sent as it is, with its content type. */
	raw?: { type: string; data: string };
	headers?: Record<string, string>;
	/** Reach it as `/index.php?rest_route=` instead of `/wp-json`. */
	plain?: boolean;
	/** Sign in with a wrong password, or as a user the site does not have. */
	auth?: 'wrong-password' | 'unknown-user';
	/** Remember a value of a successful answer under a name: `post:first` (its `id`), or `{name, from: 'path.in.body'}`. */
	save?: string | { name: string; from: string };
}

export interface Site {
	url: string;
	accounts: Partial<Record<Caller, { name: string; password: string }>>;
	/** `post:first` -> the id on this site. */
	names: Map<string, string | number>;
}

export interface Sent {
	answer: Answer;
	/** Names the request used that this site does not have (an earlier request that made them failed). */
	unresolved: string[];
}

const NAME = /\{([a-z]+:[a-z0-9_-]+)\}/gi;
/** What an unresolved name becomes: an id no site has. */
export const MISSING_ID = 987654;

function resolver(site: Site, unresolved: string[]) {
	const one = (name: string) => {
		if (site.names.has(name)) return site.names.get(name)!;
		unresolved.push(name);
		return MISSING_ID;
	};
	const text = (s: string) => s.replace(NAME, (_, name: string) => String(one(name)));
	const deep = (v: unknown): unknown => {
		if (typeof v === 'string') {
			const whole = /^\{([a-z]+:[a-z0-9_-]+)\}$/i.exec(v);
			return whole ? one(whole[1]) : text(v);
		}
		if (Array.isArray(v)) return v.map(deep);
		if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]));
		return v;
	};
	return { text, deep };
}

/** PHP's reading of a query string: lists as `a[]=1`, objects as `a[key]=1`. */
export function phpQuery(query: Record<string, unknown>): string {
	const parts: string[] = [];
	const add = (key: string, value: unknown) => {
		if (Array.isArray(value)) value.forEach((v) => add(`${key}[]`, v));
		else if (value && typeof value === 'object') Object.entries(value).forEach(([k, v]) => add(`${key}[${k}]`, v));
		else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
	};
	Object.entries(query).forEach(([k, v]) => add(k, v));
	return parts.join('&');
}

function at(body: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), body);
}

export async function send(site: Site, req: Req): Promise<Sent> {
	const unresolved: string[] = [];
	const { text, deep } = resolver(site, unresolved);
	const [route, inlineQuery] = text(req.path).split('?');
	const query = [inlineQuery, req.query && phpQuery(deep(req.query) as Record<string, unknown>)].filter(Boolean).join('&');
	const url = req.plain
		? `${site.url}/index.php?rest_route=${route}${query ? `&${query}` : ''}`
		: `${site.url}/wp-json${route}${query ? `?${query}` : ''}`;

	const headers: Record<string, string> = { ...req.headers };
	const account = req.as === 'anonymous' ? undefined : site.accounts[req.as];
	if (account || req.auth) {
		const [user, password] =
			req.auth === 'unknown-user' ? ['nobody-here', 'abcd efgh ijkl mnop qrst uvwx'] : req.auth === 'wrong-password' ? [account!.name, 'abcd efgh ijkl mnop qrst uvwx'] : [account!.name, account!.password];
		headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
	}
	let body: string | Buffer | FormData | undefined;
	if (req.json !== undefined) {
		body = JSON.stringify(deep(req.json));
		headers['content-type'] ??= 'application/json';
	} else if (req.form) {
		body = phpQuery(deep(req.form) as Record<string, unknown>);
		headers['content-type'] = 'application/x-www-form-urlencoded';
	} else if (req.multipart) {
		const form = new FormData();
		for (const [k, v] of Object.entries(req.multipart.fields ?? {})) form.append(k, text(v));
		const file = req.multipart.file;
		if (file) form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
		body = form;
	} else if (req.file) {
		body = await req.file.data;
		headers['content-type'] = req.file.type;
		headers['content-disposition'] = `attachment; filename="${req.file.name}"`;
	} else if (req.raw) {
		body = req.raw.data;
		headers['content-type'] = req.raw.type;
	}

	const res = await fetch(url, { method: req.method, headers, body, redirect: 'manual' });
	const raw = await res.text();
	let parsed: unknown = raw;
	let json = false;
	try {
		parsed = JSON.parse(raw);
		json = true;
	} catch {
		/* not JSON */
	}
	const answer: Answer = { status: res.status, headers: Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v])), body: parsed, json };
	if (req.save && res.status >= 200 && res.status < 300) {
		const { name, from } = typeof req.save === 'string' ? { name: req.save, from: 'id' } : req.save;
		const value = at(parsed, from);
		if (typeof value === 'number' || typeof value === 'string') site.names.set(name, value);
	}
	return { answer, unresolved };
}

/** How a request shows in the report: `author GET /wp/v2/posts?status=draft`. */
export function label(req: Req): string {
	const query = req.query ? `${req.path.includes('?') ? '&' : '?'}${decodeURIComponent(phpQuery(req.query))}` : '';
	const body = req.form ? ' (form)' : req.multipart ? ' (multipart)' : req.file ? ' (file)' : req.raw ? ` (${req.raw.type})` : '';
	const auth = req.auth ? ` [${req.auth}]` : '';
	return `${req.as}${auth} ${req.method} ${req.plain ? 'index.php?rest_route=' : ''}${req.path}${query}${body}`;
}
