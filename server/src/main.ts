#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ZodType } from 'zod';
import { configSchema, envName, kebab, loadConfig, readConfigFile, settingsHelp, type Config } from './config';
import { startApp, type App } from './app';
import { packageVersion } from './version';
import { Store } from './store';
import type { AdminAccess } from './bootstrap';
import { SITE_ROLES, siteRoleSchema } from './site/roles';

const USAGE = `wdm-server: reference server for the WDM gateway and its host site

Usage:
  wdm-server [options]                start the server
  wdm-server users create NAME [--role ROLE]
                                      create a user (site role, default editor) and print its API key
                                      and site application password (works while a server runs)
  wdm-server users password NAME      issue another site application password for a user
  wdm-server --version                print the version

  The data directory defaults to ./data; inside the repository the server was built in, to the
  repository root's data/, wherever the command runs. Users commands print the store they changed.
  wdm-server users key NAME           issue a new gateway API key for a user (the old one stops working;
                                      a user created through the site's users route has none until then)

  --config FILE
      a JSON file of settings, keyed by the flags' names: {"port": 8081, "pair-delay-ms": 500}
      (a flag wins over the environment, the environment over the file)

Options (each also an environment variable and a key of the config file):
${settingsHelp()}
`;

function printAccess(server: App, config: Config) {
	const { url, admin, services } = server;
	const lines = [
		`WDM reference server listening on ${url}`,
		`  gateway base URL: ${url}/wp-json/wdm/v1  (or ${url}/index.php?rest_route=/wdm/v1)`,
		`  site URL:         ${url}`,
		`  API docs:         ${url}/docs`,
		`  dashboard:        ${url}/dashboard`,
		`  metrics:          ${url}/metrics  (health: /healthz, /readyz)`,
		`  data:             ${config.data === ':memory:' ? ':memory: (gone when the server stops)' : path.resolve(config.data)}`,
		`  private targets:  ${services.privateFetch.reason}`,
	];
	if (admin) {
		// Only what the server generated is printed: a secret the operator gave (flag, environment or config
		// file) stays out of logs that may be kept or shared.
		const given = (setting: 'adminKey' | 'adminAppPassword') => `as given by --${kebab(setting)}, ${envName(setting)} or the config file; not shown`;
		const shown = {
			apiKey: config.adminKey ? given('adminKey') : admin.apiKey,
			appPassword: config.adminAppPassword ? given('adminAppPassword') : admin.appPassword,
		};
		lines.push('', 'First start: created user "admin". Its credentials are shown only now:', ...credentialLines('admin', shown));
	}
	console.log(lines.join('\n'));
}

async function serve(config: Config) {
	const server = await startApp(config);
	printAccess(server, config);
	let closing = false;
	const shutdown = async (signal: string) => {
		if (closing) return;
		closing = true;
		server.app.log.info(`${signal}: finishing in-flight work`);
		await server.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void shutdown('SIGINT'));
	process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

const credentialLines = (name: string, access: Partial<AdminAccess>) => [
	...(access.apiKey ? [`  API key (gateway, Bearer):       ${access.apiKey}`] : []),
	`  application password (site, Basic): ${name} / ${access.appPassword}`,
];

/**
 * Opens the store of `config` for a `users` command, runs `fn` in one transaction, and closes it (a server
 * may be running on it). A command never makes a store: one that found none would make a second, empty
 * one beside the server's, and the user it creates would work nowhere.
 */
function withStore<T>(config: Config, fn: (store: Store) => T): T {
	if (config.data === ':memory:') throw new Error('users commands need the data directory of a server (--data), not :memory:');
	const dir = path.resolve(config.data);
	if (!fs.existsSync(path.join(dir, 'wdm.sqlite'))) {
		throw new Error(`no store in ${dir}: start the server first (it makes the store), or give its data directory with --data`);
	}
	const store = Store.open(dir, (message) => console.error(message));
	try {
		return store.tx(() => fn(store));
	} finally {
		store.close();
	}
}

/** The line that says which store a `users` command changed. */
const storeLine = (config: Config) => `  (store: ${path.join(path.resolve(config.data), 'wdm.sqlite')})`;

function createUser(name: string | undefined, role: string | undefined, config: Config) {
	if (!name || !/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new Error('users create NAME: NAME must be 1 to 64 letters, digits, ".", "-" or "_"');
	const siteRole = siteRoleSchema.safeParse(role ?? 'editor');
	if (!siteRole.success) throw new Error(`users create --role: ROLE must be one of ${SITE_ROLES.join(', ')}`);
	const lines = withStore(config, (store) => {
		if (store.users.byName(name)) throw new Error(`user "${name}" already exists`);
		const { user, apiKey } = store.users.create(name, undefined, siteRole.data);
		return credentialLines(name, { apiKey, appPassword: store.users.addAppPassword(user.id, 'wdm-server') });
	});
	console.log([`Created user "${name}" (site role ${siteRole.data}). Its credentials are shown only now:`, ...lines, storeLine(config)].join('\n'));
}

function newAppPassword(name: string | undefined, config: Config) {
	const lines = withStore(config, (store) => {
		const user = name ? store.users.byName(name) : undefined;
		if (!user) throw new Error(`users password NAME: no user "${name ?? ''}"`);
		return credentialLines(user.name, { appPassword: store.users.addAppPassword(user.id, 'wdm-server') });
	});
	console.log(['A new application password, shown only now:', ...lines, storeLine(config)].join('\n'));
}

function newApiKey(name: string | undefined, config: Config) {
	const apiKey = withStore(config, (store) => {
		const user = name ? store.users.byName(name) : undefined;
		if (!user) throw new Error(`users key NAME: no user "${name ?? ''}"`);
		return store.users.newApiKey(user.id);
	});
	console.log(['A new API key, shown only now (the previous one no longer works):', `  API key (gateway, Bearer):       ${apiKey}`, storeLine(config)].join('\n'));
}

/** A setting that reads "true" as a boolean is a switch: `--allow-private-fetch` alone means true. */
const isSwitch = (key: string) => (configSchema.shape as Record<string, ZodType>)[key].safeParse('true').data === true;

/**
 * The repository this server was built in, if it runs from one (`<root>/server/dist/main.js`): the
 * default data directory is then the root's `data`, wherever in the repository the command runs, so
 * that `npm start` at the root and `npx wdm-server users ...` in `server/` share one store.
 */
function repositoryRoot(): string | undefined {
	const root = path.resolve(__dirname, '..', '..');
	try {
		const workspaces = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces?: string[] }).workspaces;
		return workspaces?.includes('server') ? root : undefined;
	} catch {
		return undefined;
	}
}

/** `./data` of the repository root when the working directory is inside the repository, else of the working directory. */
function defaultDataDir(): string {
	const root = repositoryRoot();
	const inside = root !== undefined && !path.relative(root, process.cwd()).startsWith('..');
	return inside ? path.join(root, 'data') : './data';
}

/** The known flag nearest to a mistyped one (edit distance at most 3), for the error message. */
function closest(flag: string, known: string[]): string | undefined {
	const distance = (a: string, b: string) => {
		let row = Array.from({ length: b.length + 1 }, (_, j) => j);
		for (let i = 1; i <= a.length; i++) {
			const next = [i];
			for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
			row = next;
		}
		return row[b.length];
	};
	const best = known.map((k) => ({ k, d: distance(flag, k) })).sort((x, y) => x.d - y.d)[0];
	return best && best.d <= 3 ? best.k : undefined;
}

/** Reads the command line; an unknown flag is answered with the nearest known one and a pointer to --help. */
function parseCommandLine(argv: string[]) {
	// Every setting is read as text (the config schema coerces it), a switch may also stand alone.
	const switches = new Set(Object.keys(configSchema.shape).filter(isSwitch).map((k) => `--${kebab(k)}`));
	argv = argv.flatMap((arg, i) => (switches.has(arg) && (i + 1 === argv.length || argv[i + 1].startsWith('--')) ? [arg, 'true'] : [arg]));
	const options = {
		...Object.fromEntries(Object.keys(configSchema.shape).map((k) => [kebab(k), { type: 'string' as const }])),
		config: { type: 'string' as const },
		role: { type: 'string' as const },
		help: { type: 'boolean' as const, short: 'h' },
		version: { type: 'boolean' as const, short: 'v' },
	};
	try {
		return parseArgs({ args: argv, options, allowPositionals: true });
	} catch (error) {
		const unknown = /^Unknown option '(-[^']*)'/.exec((error as Error).message)?.[1];
		if (!unknown) throw new Error(`${(error as Error).message.split('\n')[0]} (see --help)`);
		const nearest = closest(unknown.replace(/=.*/, ''), Object.keys(options).map((k) => `--${k}`));
		throw new Error(`unknown option ${unknown}${nearest ? ` (did you mean ${nearest}?)` : ''}; see --help for every option`);
	}
}

async function main(argv: string[]) {
	const { values, positionals } = parseCommandLine(argv);
	const { role, config: configPath, help, version: showVersion, ...given } = values;
	if (help) return console.log(USAGE);
	if (showVersion) return console.log(`wdm-server ${packageVersion()}`);
	const settings = given as Record<string, string>;
	const file = configPath === undefined ? undefined : readConfigFile(configPath);
	const config = loadConfig(settings, process.env, file);
	if (settings.data === undefined && process.env[envName('data')] === undefined && !(file && 'data' in file.settings)) config.data = defaultDataDir();
	if (positionals[0] === 'users' && positionals[1] === 'create') return createUser(positionals[2], role, config);
	if (positionals[0] === 'users' && positionals[1] === 'password') return newAppPassword(positionals[2], config);
	if (positionals[0] === 'users' && positionals[1] === 'key') return newApiKey(positionals[2], config);
	if (positionals.length) throw new Error(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
	await serve(config);
}

main(process.argv.slice(2)).catch((error: Error) => {
	console.error(`wdm-server: ${error.message}`);
	process.exit(1);
});
