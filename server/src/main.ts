#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { configSchema, envName, kebab, loadConfig, readConfigFile, settingsHelp, type Config } from './config';
import { startApp } from './app';
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
  wdm-server users key NAME           issue a new gateway API key for a user (the old one stops working;
                                      a user created through the site's users route has none until then)

  --config FILE
      a JSON file of settings, keyed by the flags' names: {"port": 8081, "pair-delay-ms": 500}
      (a flag wins over the environment, the environment over the file)

Options (each also an environment variable and a key of the config file):
${settingsHelp()}
`;

function printAccess(url: string, config: Config, admin?: AdminAccess) {
	const lines = [
		`WDM reference server listening on ${url}`,
		`  gateway base URL: ${url}/wp-json/wdm/v1  (or ${url}/index.php?rest_route=/wdm/v1)`,
		`  site URL:         ${url}`,
	];
	if (admin) {
		// Only what the server generated is printed: a secret the operator gave (flag or environment) stays
		// out of logs that may be kept or shared.
		const given = (setting: 'adminKey' | 'adminAppPassword') => `as given by --${kebab(setting)} (${envName(setting)}), not shown`;
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
	printAccess(server.url, config, server.admin);
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

/** Opens the store of `config`, runs `fn` in one transaction, and closes it (a server may be running on it). */
function withStore<T>(config: Config, fn: (store: Store) => T): T {
	const store = Store.open(config.data);
	try {
		return store.tx(() => fn(store));
	} finally {
		store.close();
	}
}

function createUser(name: string | undefined, role: string | undefined, config: Config) {
	if (!name || !/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new Error('users create NAME: NAME must be 1 to 64 letters, digits, ".", "-" or "_"');
	const siteRole = siteRoleSchema.safeParse(role ?? 'editor');
	if (!siteRole.success) throw new Error(`users create --role: ROLE must be one of ${SITE_ROLES.join(', ')}`);
	const lines = withStore(config, (store) => {
		if (store.users.byName(name)) throw new Error(`user "${name}" already exists`);
		const { user, apiKey } = store.users.create(name, undefined, siteRole.data);
		return credentialLines(name, { apiKey, appPassword: store.users.addAppPassword(user.id, 'wdm-server') });
	});
	console.log([`Created user "${name}" (site role ${siteRole.data}). Its credentials are shown only now:`, ...lines].join('\n'));
}

function newAppPassword(name: string | undefined, config: Config) {
	const lines = withStore(config, (store) => {
		const user = name ? store.users.byName(name) : undefined;
		if (!user) throw new Error(`users password NAME: no user "${name ?? ''}"`);
		return credentialLines(user.name, { appPassword: store.users.addAppPassword(user.id, 'wdm-server') });
	});
	console.log(['A new application password, shown only now:', ...lines].join('\n'));
}

function newApiKey(name: string | undefined, config: Config) {
	const apiKey = withStore(config, (store) => {
		const user = name ? store.users.byName(name) : undefined;
		if (!user) throw new Error(`users key NAME: no user "${name ?? ''}"`);
		return store.users.newApiKey(user.id);
	});
	console.log(['A new API key, shown only now (the previous one no longer works):', `  API key (gateway, Bearer):       ${apiKey}`].join('\n'));
}

/** A setting whose default is a boolean is a switch: `--allow-private-fetch` alone means true. */
const isSwitch = (key: string) => typeof (configSchema.shape as Record<string, { _zod: { def: { defaultValue?: unknown } } }>)[key]._zod.def.defaultValue === 'boolean';

async function main(argv: string[]) {
	// Every setting is read as text (the config schema coerces it), a switch may also stand alone.
	const switches = new Set(Object.keys(configSchema.shape).filter(isSwitch).map((k) => `--${kebab(k)}`));
	argv = argv.flatMap((arg, i) => (switches.has(arg) && (i + 1 === argv.length || argv[i + 1].startsWith('--')) ? [arg, 'true'] : [arg]));
	const options = Object.fromEntries(Object.keys(configSchema.shape).map((k) => [kebab(k), { type: 'string' as const }]));
	const { values, positionals } = parseArgs({
		args: argv,
		options: { ...options, config: { type: 'string' }, role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
		allowPositionals: true,
	});
	if (values.help) return console.log(USAGE);
	const { role, config: configPath, ...settings } = values;
	const config = loadConfig(settings as Record<string, string>, process.env, configPath === undefined ? undefined : readConfigFile(configPath));
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
