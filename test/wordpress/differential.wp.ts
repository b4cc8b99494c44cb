// The WordPress differential suite (issue 25): a real WordPress 6.x (Debian's package) and the reference
// server side by side, the same corpus of requests sent to both, every answer compared. Differences the
// spec orders are listed once in spec-differences.ts; any other difference fails. `npm run test:wordpress`.
import fs from 'node:fs';
import type { App } from '../../server/src/app';
import { ADMIN_APP_PASSWORD, startServer } from '../helpers/server';
import { compareAnswers, type Difference } from './compare';
import { corpus } from './requests';
import { label, send, type Caller, type Req, type Site } from './run';
import { SPEC_DIFFERENCES, specDifference } from './spec-differences';
import { startWordPress, type Role, type WordPress } from './wordpress';

/** The same accounts on both sites: name, role, and the caller the corpus knows them as. */
const ACCOUNTS: { caller: Exclude<Caller, 'anonymous'>; name: string; role: Role }[] = [
	{ caller: 'admin', name: 'admin', role: 'administrator' },
	{ caller: 'editor', name: 'edna', role: 'editor' },
	{ caller: 'author', name: 'arthur', role: 'author' },
	{ caller: 'contributor', name: 'connie', role: 'contributor' },
];
/**
 * The names of the accounts' application passwords, alike on both sites: the reference server's
 * administrator has the one its start-up makes (`bootstrap.ts`), the suite makes the others.
 */
const ADMIN_APP_PASSWORD_NAME = 'wdm-server';
const APP_PASSWORD_NAME = 'tests';
const appPasswordName = (name: string) => (name === 'admin' ? ADMIN_APP_PASSWORD_NAME : APP_PASSWORD_NAME);
// The reference server's defaults; WordPress is installed with the same, so that settings compare.
const TITLE = 'WDM reference site';
const DESCRIPTION = 'Reference server for the WDM gateway';

interface Finding {
	req: Req;
	diff: Difference;
}

let wordpress: WordPress | undefined;
let reference: App | undefined;
const sites: { wp?: Site; ref?: Site } = {};
let setupMs = 0;

beforeAll(async () => {
	const started = Date.now();
	// Both at once; whichever started is stopped in afterAll even if the other failed.
	const [wpStart, refStart] = await Promise.allSettled([
		startWordPress({ title: TITLE, description: DESCRIPTION, users: ACCOUNTS.map(({ name, role }) => ({ name, role, appPassword: appPasswordName(name) })) }),
		startServer(),
	]);
	if (wpStart.status === 'fulfilled') wordpress = wpStart.value;
	if (refStart.status === 'fulfilled') reference = refStart.value;
	if (wpStart.status === 'rejected') throw wpStart.reason;
	if (refStart.status === 'rejected') throw refStart.reason;
	const [wp, ref] = [wpStart.value, refStart.value];
	const site = (url: string, ids: Record<string, number>, passwords: Record<string, string>): Site => ({
		url,
		accounts: Object.fromEntries(ACCOUNTS.map((a) => [a.caller, { name: a.name, password: passwords[a.name] }])),
		names: new Map(ACCOUNTS.map((a) => [`user:${a.caller}`, ids[a.name]])),
	});
	sites.wp = site(
		wp.url,
		Object.fromEntries(wp.accounts.map((a) => [a.name, a.id])),
		Object.fromEntries(wp.accounts.map((a) => [a.name, a.password])),
	);
	const ids: Record<string, number> = {};
	const passwords: Record<string, string> = { admin: ADMIN_APP_PASSWORD };
	for (const { name, role } of ACCOUNTS) {
		const store = ref.services.store.users;
		// The same email addresses as WordPress's accounts (`wordpress.ts`).
		const email = `${name}@example.com`;
		const user = name === 'admin' ? store.update(store.byName('admin')!.id, { email }) : store.create(name, undefined, role, { email }).user;
		if (name !== 'admin') passwords[name] = store.addAppPassword(user.id, appPasswordName(name));
		// The start-up's name for it is what WordPress's administrator was given.
		else expect(store.appPasswords(user.id).map((p) => p.name)).toEqual([ADMIN_APP_PASSWORD_NAME]);
		ids[name] = user.id;
	}
	sites.ref = site(ref.url, ids, passwords);
	setupMs = Date.now() - started;
}, 180_000);

afterAll(async () => {
	await Promise.all([wordpress?.stop(), reference?.close()]);
}, 60_000);

/** A difference's group: its kind and place, the index's route patterns and argument names folded. */
const groupOf = (d: Difference) =>
	`${d.kind} ${d.path.replace(/^routes\.\/.*?\.(endpoints|namespace|methods|_links)\b/, 'routes.{route}.$1').replace(/\.args\.[^.]+/, '.args.{arg}')}`;
const show = (v: unknown) => (v === undefined ? '-' : JSON.stringify(v));
const requestsIn = (list: Finding[]) => new Set(list.map((f) => f.req)).size;
const line = (key: string, list: Finding[]) =>
	`  ${String(requestsIn(list)).padStart(4)} req ${String(list.length).padStart(5)} x ${key}   (WordPress ${show(list[0].diff.wp)}, reference ${show(list[0].diff.ref)}; e.g. ${label(list[0].req)} ${list[0].diff.path})`;
const bySize = (a: [string, Finding[]], b: [string, Finding[]]) => requestsIn(b[1]) - requestsIn(a[1]) || b[1].length - a[1].length;

/** The groups that touch the most requests whatever the family, then every group by route family. */
function report(findings: Finding[]): string {
	const all = new Map<string, Finding[]>();
	const families = new Map<string, Map<string, Finding[]>>();
	for (const f of findings) {
		const groups = families.get(f.req.family) ?? new Map<string, Finding[]>();
		families.set(f.req.family, groups);
		const key = groupOf(f.diff);
		groups.set(key, [...(groups.get(key) ?? []), f]);
		all.set(key, [...(all.get(key) ?? []), f]);
	}
	const lines: string[] = ['\n## the 30 groups that touch the most requests (req: requests, x: occurrences)'];
	for (const [key, list] of [...all].sort(bySize).slice(0, 30)) lines.push(line(key, list));
	const byCount = [...families].sort((a, b) => requestsIn([...b[1].values()].flat()) - requestsIn([...a[1].values()].flat()));
	for (const [family, groups] of byCount) {
		const requests = requestsIn([...groups.values()].flat());
		lines.push(`\n## ${family}: ${requests} request(s) differ, ${groups.size} kind(s) of difference`);
		for (const [key, list] of [...groups].sort(bySize)) lines.push(line(key, list));
	}
	return lines.join('\n');
}

test('every request of the corpus answers as WordPress does, but for the differences the spec orders', async () => {
	const started = Date.now();
	const unlisted: Finding[] = [];
	const listed = new Map<string, number>();
	let same = 0;
	let onlyListed = 0;
	let onlyHeaders = 0;
	for (const req of corpus) {
		const [a, b] = await Promise.all([send(sites.wp!, req), send(sites.ref!, req)]);
		const diffs = compareAnswers(a.answer, b.answer);
		for (const name of b.unresolved.filter((n) => !a.unresolved.includes(n))) diffs.push({ kind: 'name', path: `{${name}}`, wp: 'made', ref: 'not made' });
		for (const name of a.unresolved.filter((n) => !b.unresolved.includes(n))) diffs.push({ kind: 'name', path: `{${name}}`, wp: 'not made', ref: 'made' });
		let own = 0;
		for (const diff of diffs) {
			const spec = specDifference(diff, req);
			if (spec) listed.set(spec.id, (listed.get(spec.id) ?? 0) + 1);
			else {
				unlisted.push({ req, diff });
				own++;
			}
		}
		if (!diffs.length) same++;
		else if (!own) onlyListed++;
		else if (unlisted.slice(-own).every((f) => f.diff.kind === 'header')) onlyHeaders++;
	}
	const runMs = Date.now() - started;
	const different = corpus.length - same - onlyListed;
	const out = [
		`\nWordPress differential suite: ${corpus.length} requests, ${same} same, ${onlyListed} differing only as the spec orders, ${different} different`,
		`(of the different: ${onlyHeaders} differ in headers only)`,
		`setup ${(setupMs / 1000).toFixed(1)} s (MariaDB, WordPress, reference server, accounts), run ${(runMs / 1000).toFixed(1)} s`,
		`spec-ordered differences seen: ${SPEC_DIFFERENCES.map((s) => `${s.id} ${listed.get(s.id) ?? 0}`).join(', ')}`,
		unlisted.length ? `\n${unlisted.length} unlisted difference(s):${report(unlisted)}` : 'no unlisted difference',
	].join('\n');
	process.stdout.write(`${out}\n`);
	// The whole list, for whoever works through it: WP_DIFF_OUT=differences.json npm run test:wordpress
	if (process.env.WP_DIFF_OUT) {
		fs.writeFileSync(process.env.WP_DIFF_OUT, JSON.stringify(unlisted.map((f) => ({ family: f.req.family, request: label(f.req), ...f.diff })), null, 1));
	}
	expect({ different, unlisted: unlisted.length }).toEqual({ different: 0, unlisted: 0 });
}, 600_000);
